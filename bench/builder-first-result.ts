/**
 * The report builder's first result against its query alone, in the same run.
 *   npm run build && npx tsx bench/builder-first-result.ts [--runs 8] [--json]
 * A creator of the demo tenant opens the app on the allowed host page (a new browser context
 * each run), makes a workbook and a report in it, ticks Revenue, shows it as a table, and picks
 * a breakout by country: from the pick to the builder's table drawn with its Country column.
 * The baseline is that same `/query` request — its URL, body and authorization as the builder
 * sent them — sent again with `fetch` from inside the app's frame, to its answer's JSON read.
 * Both are timed by the bench's clock around one call into the page, so each carries one
 * round trip of the automation. Goal: the first result within 1.5× of the query alone.
 */
import type { Frame, Page, Request } from "@playwright/test";
import { arg, creatorSession, fmt, KEEP_NAMES_SHIM, quantile, startBenchRig } from "./bridge-rig";
import { figure, printFigures, ratioAtMost, say } from "./figures";

const runs = arg("runs", 8);
const COUNTRY = "sales.customers_country";

/** The app in host.html's frame, a new workbook and a new report open in its builder. */
async function openBuilder(page: Page, src: string, n: number) {
  await page.evaluate((s) => ((document.getElementById("embed") as HTMLIFrameElement).src = s), src);
  const app = page.frameLocator("iframe#embed");
  await app.getByTestId("new-workbook").click({ timeout: 60_000 });
  await app.getByTestId("name-input").fill(`Bench ${Date.now().toString(36)} ${n}`);
  await app.getByTestId("name-submit").click();
  await app.getByRole("button", { name: "Create a report" }).click();
  await app.getByTestId("name-input").fill("Revenue by country");
  await app.getByTestId("name-submit").click();
  return { app, builder: app.getByTestId("report-builder"), result: app.getByTestId("report-result") };
}

/**
 * Watches the builder's frame: the time of the next `change` event (the breakout picked) and of
 * the first moment the result shows a table with a Country column, both by the page's clock.
 */
async function watch(frame: Frame): Promise<void> {
  await frame.evaluate((column) => {
    const w = window as unknown as { __bench: { change?: number; drawn?: number } };
    w.__bench = {};
    document.addEventListener("change", () => void (w.__bench.change ??= performance.now()), { capture: true, once: true });
    const drawn = () =>
      [...document.querySelectorAll('[data-testid="report-result"] [data-state="ready"] [role="columnheader"]')].some((e) => e.textContent?.includes(column));
    const observer = new MutationObserver(() => {
      if (w.__bench.change !== undefined && drawn()) {
        w.__bench.drawn = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  }, "Country");
}

/** The same request again from the frame: ms to its JSON read, by the page's clock. */
async function replay(frame: Frame, request: Request): Promise<number> {
  const headers = await request.allHeaders();
  const keep = Object.fromEntries(Object.entries(headers).filter(([k]) => k === "authorization" || k === "content-type" || k.startsWith("x-")));
  return frame.evaluate(
    async ({ url, body, headers }) => {
      const t0 = performance.now();
      const res = await fetch(url, { method: "POST", headers, body });
      await res.json();
      if (!res.ok) throw new Error(`the replayed query answered ${res.status}`);
      return performance.now() - t0;
    },
    // Past the result cache, which the builder's own request has just filled: the query run again.
    { url: request.url(), body: JSON.stringify({ ...(request.postDataJSON() as object), cache: "bypass" }), headers: keep },
  );
}

async function main() {
  const bench = await startBenchRig(18480);
  const { platformUrl, hostUrl, adminToken } = bench.addresses;
  try {
    const builder: number[] = [];
    const alone: number[] = [];
    // The builder's time before its request went out, and from its answer to the table drawn.
    const before: number[] = [];
    const after: number[] = [];
    for (let i = 0; i < runs; i++) {
      const src = `${platformUrl}/embed/d/${bench.deploymentId}/app?session=${encodeURIComponent(await creatorSession(platformUrl, adminToken, bench.deploymentId))}`;
      const context = await bench.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.addInitScript(KEEP_NAMES_SHIM);
      await page.goto(`${hostUrl}/host.html`);
      const opened = await openBuilder(page, src, i);
      // Revenue first (its answer warms the data source as a creator's first tick does), then the breakout, timed.
      await opened.builder.locator('input[data-member="sales.revenue"]').check();
      await opened.result.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
      // As a table, so that the result drawn is seen in the page (a chart is drawn on a canvas).
      await opened.app.getByTestId("viz-table").click();
      await opened.builder.getByRole("button", { name: "+ Breakout" }).click();
      const sent = page.waitForRequest((r) => r.method() === "POST" && /\/query$/.test(new URL(r.url()).pathname) && (r.postData() ?? "").includes(COUNTRY));
      const frame = page.frames().find((f) => f.url().includes("/app"))!;
      await watch(frame);
      await opened.builder.getByRole("combobox", { name: "Breakout 1" }).selectOption(COUNTRY);
      await opened.result.locator('[data-state="ready"] [role="columnheader"]', { hasText: "Country" }).first().waitFor({ timeout: 60_000 });
      const seen = await frame.waitForFunction(() => (window as unknown as { __bench: { change?: number; drawn?: number } }).__bench.drawn !== undefined);
      await seen.dispose();
      const split = await frame.evaluate(() => {
        const b = (window as unknown as { __bench: { change: number; drawn: number } }).__bench;
        const sent = performance.getEntriesByType("resource").find((e) => e.name.endsWith("/query") && e.startTime >= b.change) as
          PerformanceResourceTiming | undefined;
        return { total: b.drawn - b.change, before: sent ? sent.startTime - b.change : NaN, after: sent ? b.drawn - sent.responseEnd : NaN };
      });
      builder.push(split.total);
      before.push(split.before);
      after.push(split.after);
      const request = await sent;
      alone.push(await replay(frame, request));
      await context.close();
    }
    const b50 = quantile(builder, 0.5);
    const a50 = quantile(alone, 0.5);
    say(`report builder's first result vs its query alone, ${runs} runs, p50 (p90)`);
    say(`  of the builder's: before the request ${fmt(quantile(before, 0.5))}, from the answer to the table ${fmt(quantile(after, 0.5))}`);
    say(`  builder ${fmt(b50)} (${fmt(quantile(builder, 0.9))})   query alone ${fmt(a50)} (${fmt(quantile(alone, 0.9))})   ratio ${(b50 / a50).toFixed(2)}×`);
    printFigures("builder-first-result", [
      figure("builder first result p50 (a breakout ticked to the table drawn) vs its /query alone", b50, "ms", { baseline: a50, goal: ratioAtMost(1.5) }),
    ]);
  } finally {
    await bench.close();
  }
}

await main();
