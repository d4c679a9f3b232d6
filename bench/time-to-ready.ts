/**
 * Time to ready of the demo dashboard against loading a blank iframe from the same server.
 *   npm run build && npx tsx bench/time-to-ready.ts [--runs 12] [--json]
 * On the allowed host page (127.0.0.1), from setting the iframe's src to: `svc:event:ready`
 * for the embed (a fresh signed session each time, created beforehand), and the frame's
 * `load` event for the baseline, a tiny response of the same platform server (an unrouted
 * path: a 56-byte JSON body). Cold: a new browser context each run (empty HTTP cache, new
 * connections). Warm: one context, after a first load primed the cache. Goal ≤ 1.5× both.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { arg, fmt, KEEP_NAMES_SHIM, quantile, startBenchRig, type BenchRig } from "./bridge-rig";
import { figure, printFigures, ratioAtMost, say, type Figure } from "./figures";

const runs = arg("runs", 12);

/** Sets the host page's iframe src and resolves with ms until ready (embed) or load (blank). */
function timeLoad(page: Page, src: string, until: "ready" | "load"): Promise<number> {
  return page.evaluate(
    ({ src, until }) =>
      new Promise<number>((resolve, reject) => {
        const iframe = document.getElementById("embed") as HTMLIFrameElement;
        const timer = setTimeout(() => reject(new Error(`no ${until} within 60 s`)), 60_000);
        let t0 = 0;
        const finish = () => {
          clearTimeout(timer);
          resolve(performance.now() - t0);
        };
        if (until === "load") {
          iframe.addEventListener("load", finish, { once: true });
        } else {
          const onMessage = (e: MessageEvent) => {
            if (e.source !== iframe.contentWindow || (e.data as { type?: string })?.type !== "svc:event:ready") return;
            window.removeEventListener("message", onMessage);
            finish();
          };
          window.addEventListener("message", onMessage);
        }
        t0 = performance.now();
        iframe.src = src;
      }),
    { src, until },
  );
}

async function hostPage(context: BrowserContext, bench: BenchRig): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript(KEEP_NAMES_SHIM);
  await page.goto(`${bench.addresses.hostUrl}/host.html`);
  return page;
}

async function main() {
  const bench = await startBenchRig();
  const blank = `${bench.addresses.platformUrl}/bench-blank-frame`;
  try {
    const cold = { ready: [] as number[], blank: [] as number[] };
    const warm = { ready: [] as number[], blank: [] as number[] };
    // Cold: every measurement in a context of its own. Embed and blank alternate.
    for (let i = 0; i < runs; i++) {
      for (const kind of ["ready", "blank"] as const) {
        const src = kind === "ready" ? await bench.dashboardSrc() : `${blank}?cold=${i}`;
        const context = await bench.browser.newContext();
        const page = await hostPage(context, bench);
        cold[kind].push(await timeLoad(page, src, kind === "ready" ? "ready" : "load"));
        await context.close();
      }
    }
    // Warm: one context; the first load of each primes the cache and is not counted.
    const context = await bench.browser.newContext();
    const page = await hostPage(context, bench);
    await timeLoad(page, await bench.dashboardSrc(), "ready");
    await timeLoad(page, `${blank}?warm=prime`, "load");
    for (let i = 0; i < runs; i++) {
      warm.ready.push(await timeLoad(page, await bench.dashboardSrc(), "ready"));
      warm.blank.push(await timeLoad(page, `${blank}?warm=${i}`, "load"));
    }
    await context.close();

    say(`time to ready, ${runs} runs each, p50 (p90)`);
    const figures: Figure[] = [];
    for (const [name, m] of [
      ["cold", cold],
      ["warm", warm],
    ] as const) {
      const r50 = quantile(m.ready, 0.5);
      const b50 = quantile(m.blank, 0.5);
      say(
        `  ${name}: dashboard ready ${fmt(r50)} (${fmt(quantile(m.ready, 0.9))})   blank iframe load ${fmt(b50)} (${fmt(quantile(m.blank, 0.9))})   ratio ${(r50 / b50).toFixed(1)}× (goal ≤ 1.5×)`,
      );
      figures.push(figure(`time to ready p50, ${name}, vs blank iframe load`, r50, "ms", { baseline: b50, goal: ratioAtMost(1.5) }));
    }
    printFigures("time-to-ready", figures);
  } finally {
    await bench.close();
  }
}

await main();
