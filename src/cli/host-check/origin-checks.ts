/**
 * `posts-to-platform-only` and `checks-origin`: the page is opened a second time, the embed
 * becomes ready, then the frame's document is replaced by a page of another origin
 * (`http://svc-host-check.invalid`, answered by the browser context itself) that speaks the
 * protocol: it announces itself ready, asks for 1 777 px and says its session expires. A page
 * that checks origins neither answers it nor resizes for it; every post the page made, on
 * either visit, must have named the platform's origin.
 */
import type { BrowserContext } from "playwright-core";
import { openHostPage, result, sleep, waitFor, type CheckedPage, type HostCheckOptions, type HostCheckResult } from "./page-session";

export const IMPOSTOR_ORIGIN = "http://svc-host-check.invalid";
const IMPOSTOR_HEIGHT = 1777;

function impostorPage(ready: unknown): string {
  const post = (type: string, payload: unknown) =>
    `parent.postMessage(${JSON.stringify({ source: "svc-embed", direction: "event", type, payload, surface: "dashboard" })}, "*");`;
  return `<!doctype html><html><body><p>svc host-check: a frame of another origin</p><script>
${post("svc:event:ready", ready)}
${post("svc:event:view", { surface: "dashboard", path: "/" })}
${post("svc:event:resize", { height: IMPOSTOR_HEIGHT, width: 800 })}
${post("svc:event:session-expiring", { expiresAt: Date.now() + 60_000, secondsLeft: 60 })}
</script></body></html>`;
}

export async function checkOtherOrigin(context: BrowserContext, url: string, options: HostCheckOptions, first: CheckedPage): Promise<HostCheckResult[]> {
  const firstPosts = (await first.host()).posts;
  const ready = (await first.host()).messages.find((m) => m.type === "svc:event:ready" && m.frame === first.frameIndex)?.payload ?? {};
  await context.route(`${IMPOSTOR_ORIGIN}/**`, (route) => route.fulfill({ status: 200, contentType: "text/html", body: impostorPage(ready) }));
  const { page, checked } = await openHostPage(context, url, options);
  try {
    if (!checked) return [result("posts-to-platform-only", "skip", "the second visit found no svc frame"), result("checks-origin", "skip", "no svc frame")];
    await waitFor(
      async () => (await checked.host()).messages.find((m) => m.type === "svc:event:ready" && m.frame === checked.frameIndex),
      options.timeoutMs ?? 20_000,
    );
    const frame = await (await page.$$("iframe"))[checked.frameIndex]?.contentFrame();
    const heightBefore = await page.evaluate((i) => Math.round(document.querySelectorAll("iframe")[i]!.getBoundingClientRect().height), checked.frameIndex);
    await frame?.goto(`${IMPOSTOR_ORIGIN}/frame.html`);
    await sleep(2000);
    const impostor = await (await page.$$("iframe"))[checked.frameIndex]?.contentFrame();
    const received = (await impostor?.evaluate(() => window.__svcHostCheck?.messages ?? []).catch(() => [])) ?? [];
    const heightAfter = await page.evaluate((i) => Math.round(document.querySelectorAll("iframe")[i]!.getBoundingClientRect().height), checked.frameIndex);
    const posts = [...firstPosts, ...(await checked.host()).posts];
    const wrong = posts.filter((p) => p.targetOrigin !== first.platformOrigin);
    const out: HostCheckResult[] = [];
    if (wrong.length || received.length) {
      const named = [...new Set(wrong.map((p) => `${p.type} to ${JSON.stringify(p.targetOrigin)}`))];
      const leaked = [...new Set(received.map((m) => m.type))];
      const reasons = [
        named.length ? `posted ${named.join(", ")} instead of ${JSON.stringify(first.platformOrigin)}` : "",
        leaked.length ? `a frame of another origin received ${leaked.join(", ")}` : "",
      ].filter(Boolean);
      out.push(result("posts-to-platform-only", "fail", reasons.join("; ")));
    } else out.push(result("posts-to-platform-only", "pass", `${posts.length} post(s), each to ${first.platformOrigin}`));
    out.push(
      Math.abs(heightAfter - IMPOSTOR_HEIGHT) <= 1 && Math.abs(heightBefore - IMPOSTOR_HEIGHT) > 1
        ? result(
            "checks-origin",
            "fail",
            `the page sized the frame to ${IMPOSTOR_HEIGHT} px on a message from ${IMPOSTOR_ORIGIN}: it acts on messages from any origin`,
          )
        : result("checks-origin", "pass", `a protocol message from ${IMPOSTOR_ORIGIN} changed nothing (frame ${heightAfter} px)`),
    );
    return out;
  } finally {
    await page.close().catch(() => undefined);
    await context.unroute(`${IMPOSTOR_ORIGIN}/**`).catch(() => undefined);
  }
}
