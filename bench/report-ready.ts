/**
 * Time to `ready` of the report surface against the dashboard surface's, in the same run.
 *   npm run build && npx tsx bench/report-ready.ts [--runs 12] [--port 18180] [--json]
 * On the allowed host page (127.0.0.1, bench rig), from setting the iframe's src to
 * `svc:event:ready`, each load with a fresh signed session: the demo dashboard
 * (`/embed/dashboard/{publicId}`) and one of its charts alone (`/embed/report/{publicId}`, the
 * demo host's report). Also to `svc:event:view` (the surface's own content on screen: the
 * dashboard's header and grid, the report's widget). Cold: a new browser context per load;
 * warm: one context after a first load of each. The two kinds alternate, and the frame is
 * emptied before each load. Goal: report ready
 * ≤ 0.8× the dashboard's.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { arg, fmt, KEEP_NAMES_SHIM, quantile, startBenchRig, type BenchRig } from "./bridge-rig";
import { figure, printFigures, ratioAtMost, say, type Figure } from "./figures";

const runs = arg("runs", 12);
const port = arg("port", 18180);

type Kind = "dashboard" | "report";
const KINDS: readonly Kind[] = ["dashboard", "report"];

/**
 * Sets the host page's iframe src; resolves with ms until `ready` and until `view`. The frame is
 * emptied first (about:blank, its load awaited), so tearing down the previous surface — a whole
 * dashboard before a report, a single report before a dashboard — is charged to neither.
 */
async function timeLoad(page: Page, src: string): Promise<{ ready: number; view: number }> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const iframe = document.getElementById("embed") as HTMLIFrameElement;
        iframe.addEventListener("load", () => resolve(), { once: true });
        iframe.src = "about:blank";
      }),
  );
  return page.evaluate(
    (src) =>
      new Promise<{ ready: number; view: number }>((resolve, reject) => {
        const iframe = document.getElementById("embed") as HTMLIFrameElement;
        const timer = setTimeout(() => reject(new Error("no ready and view within 60 s")), 60_000);
        let t0 = 0;
        let ready = -1;
        const onMessage = (e: MessageEvent) => {
          const data = e.data as { type?: string; payload?: { fatal?: boolean; message?: string } } | null;
          if (e.source !== iframe.contentWindow) return;
          if (data?.type === "svc:event:error" && data.payload?.fatal) reject(new Error(`the embed failed: ${data.payload.message}`));
          if (data?.type === "svc:event:ready") ready = performance.now() - t0;
          if (data?.type === "svc:event:view" && ready >= 0) {
            window.removeEventListener("message", onMessage);
            clearTimeout(timer);
            resolve({ ready, view: performance.now() - t0 });
          }
        };
        window.addEventListener("message", onMessage);
        t0 = performance.now();
        iframe.src = src;
      }),
    src,
  );
}

async function hostPage(context: BrowserContext, bench: BenchRig): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript(KEEP_NAMES_SHIM);
  await page.goto(`${bench.addresses.hostUrl}/host.html`);
  return page;
}

async function main() {
  const bench = await startBenchRig(port);
  try {
    const config = (await (await fetch(`${bench.addresses.demoHostUrl}/config.json`)).json()) as { reportPublicId: string | null };
    if (!config.reportPublicId) throw new Error("the demo host names no report (config.json reportPublicId)");
    const srcOf = async (kind: Kind) =>
      kind === "dashboard"
        ? bench.dashboardSrc()
        : `${bench.addresses.platformUrl}/embed/report/${config.reportPublicId}?session=${encodeURIComponent(await bench.session())}`;

    const empty = () => ({ ready: [] as number[], view: [] as number[] });
    const cold: Record<Kind, ReturnType<typeof empty>> = { dashboard: empty(), report: empty() };
    const warm: Record<Kind, ReturnType<typeof empty>> = { dashboard: empty(), report: empty() };
    const record = (into: ReturnType<typeof empty>, t: { ready: number; view: number }) => {
      into.ready.push(t.ready);
      into.view.push(t.view);
    };
    for (let i = 0; i < runs; i++) {
      for (const kind of i % 2 === 0 ? KINDS : [...KINDS].reverse()) {
        const context = await bench.browser.newContext();
        record(cold[kind], await timeLoad(await hostPage(context, bench), await srcOf(kind)));
        await context.close();
      }
    }
    const context = await bench.browser.newContext();
    const page = await hostPage(context, bench);
    for (const kind of KINDS) await timeLoad(page, await srcOf(kind));
    for (let i = 0; i < runs; i++) for (const kind of i % 2 === 0 ? KINDS : [...KINDS].reverse()) record(warm[kind], await timeLoad(page, await srcOf(kind)));
    await context.close();

    say(`report surface vs dashboard surface, ${runs} runs each, p50 (p90)`);
    const figures: Figure[] = [];
    for (const [name, m] of [
      ["cold", cold],
      ["warm", warm],
    ] as const) {
      for (const event of ["ready", "view"] as const) {
        const report = quantile(m.report[event], 0.5);
        const dashboard = quantile(m.dashboard[event], 0.5);
        say(
          `  ${name} ${event}: report ${fmt(report)} (${fmt(quantile(m.report[event], 0.9))})   dashboard ${fmt(dashboard)} (${fmt(quantile(m.dashboard[event], 0.9))})   ratio ${(report / dashboard).toFixed(2)}×${event === "ready" ? " (goal ≤ 0.8×)" : ""}`,
        );
        figures.push(
          figure(`report time to ${event} p50, ${name}, vs dashboard`, report, "ms", {
            baseline: dashboard,
            ...(event === "ready" ? { goal: ratioAtMost(0.8) } : {}),
          }),
        );
      }
    }
    printFigures("report-ready", figures);
  } finally {
    await bench.close();
  }
}

await main();
