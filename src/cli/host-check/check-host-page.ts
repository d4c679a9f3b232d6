/**
 * `svc host-check`'s checks on a host page, in a real browser (Playwright): the page is opened as
 * a visitor would, the first svc frame is watched (observer.ts), then the page is opened a second
 * time and that frame's document is replaced by one of another origin that speaks the protocol.
 * Each rule of rules.ts ends as pass, fail (with the reason) or skip (what it needed was missing).
 */
import type { BrowserContext } from "playwright-core";
import { observerScript, type Observation } from "./observer";
import type { HostCheckRuleId } from "./rules";
import { checkRenewal, checkActions } from "./session-checks";
import { checkOtherOrigin } from "./origin-checks";
import { openHostPage, result, waitFor, type CheckedPage, type HostCheckOptions, type HostCheckReport, type HostCheckResult } from "./page-session";

export type { HostCheckOptions, HostCheckReport, HostCheckResult, HostCheckStatus } from "./page-session";

/** Runs every rule against the page at `url` in `context` (a Chromium context of Playwright). */
export async function checkHostPage(context: BrowserContext, url: string, options: HostCheckOptions = {}): Promise<HostCheckReport> {
  await context.addInitScript(observerScript());
  const refusals: string[] = [];
  const { page, frames, checked } = await openHostPage(context, url, options, refusals);
  const results: HostCheckResult[] = [];
  const skipRest = (from: HostCheckRuleId[], reason: string) => from.forEach((id) => results.push(result(id, "skip", reason)));
  const later: HostCheckRuleId[] = ["listens", "resize", "resize-settles", "posts-to-platform-only", "checks-origin", "renews-session", "actions-applied"];
  try {
    if (!checked) {
      results.push(result("frames-found", "fail", "no iframe on the page has an svc embed address (…/embed/…)"));
      skipRest(["frame-allowed", ...later], "no svc frame on the page");
      return { url, ok: false, frames, results };
    }
    results.push(result("frames-found", "pass", `${frames.length} svc frame(s); checking ${frames[0]!.src.split("?")[0]}`));
    const ready = await waitFor(
      async () => (await checked.host()).messages.find((m) => m.frame === checked.frameIndex && m.type === "svc:event:ready"),
      options.timeoutMs ?? 20_000,
    );
    if (!ready) {
      const why = refusals[0] ? `the platform refused to be framed by ${new URL(page.url()).origin}: ${refusals[0]}` : "no svc:event:ready from the frame";
      results.push(result("frame-allowed", "fail", why));
      skipRest(later, "the embed never became ready");
      return { url, ok: false, frames, results };
    }
    results.push(result("frame-allowed", "pass", `the frame loaded and posted svc:event:ready from ${ready.origin}`));
    results.push(...(await checkListensAndResize(checked)));
    results.push(...(await checkOtherOrigin(context, url, options, checked)));
    results.push(await checkRenewal(checked));
    results.push(await checkActions(checked));
    return { url, ok: results.every((r) => r.status !== "fail"), frames, results };
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** `listens`, `resize` and `resize-settles`, from what the page did while the embed settled. */
async function checkListensAndResize(checked: CheckedPage): Promise<HostCheckResult[]> {
  const out: HostCheckResult[] = [];
  const fromFrame = (o: Observation) => o.messages.filter((m) => m.frame === checked.frameIndex);
  await waitFor(async () => (fromFrame(await checked.host()).some((m) => m.type === "svc:event:view") ? true : undefined), 5000);
  // Settled: a resize came, then none for 1.5 s (or 10 s gone: a surface that never resizes).
  await waitFor(async () => {
    const last = fromFrame(await checked.host())
      .filter((m) => m.type === "svc:event:resize")
      .at(-1);
    return last && Date.now() - last.at > 1500 ? true : undefined;
  }, 10_000);
  const seen = await checked.host();
  const events = fromFrame(seen);
  out.push(
    seen.listeners > 0
      ? result("listens", "pass", `${seen.listeners} message listener(s); received ${[...new Set(events.map((m) => m.type))].join(", ")}`)
      : result("listens", "fail", "the page added no message listener: svc:event:ready and svc:event:view went unheard"),
  );
  const resizes = events.filter((m) => m.type === "svc:event:resize");
  const last = resizes.at(-1);
  if (!last) {
    out.push(result("resize", "skip", "the surface sent no svc:event:resize"), result("resize-settles", "skip", "no svc:event:resize"));
    return out;
  }
  const lastFive = resizes.filter((m) => m.at > last.at - 5000).length;
  out.push(
    lastFive >= 30
      ? result("resize-settles", "fail", `${lastFive} svc:event:resize in 5 s: the frame's height and the content's keep changing each other`)
      : result("resize-settles", "pass", `${resizes.length} svc:event:resize in all, then quiet`),
  );
  const content = Math.ceil((last.payload as { height?: number }).height ?? 0);
  const frameHeight = await checked.page.evaluate(
    (i) => Math.round(document.querySelectorAll("iframe")[i]!.getBoundingClientRect().height),
    checked.frameIndex,
  );
  out.push(
    frameHeight + 2 >= content
      ? result("resize", "pass", `the frame is ${frameHeight} px tall for ${content} px of content`)
      : result("resize", "fail", `the frame is ${frameHeight} px tall but its content is ${content} px: the embed scrolls inside the page`),
  );
  return out;
}
