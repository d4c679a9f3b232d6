/**
 * The creator app's time to `ready` and to its first workspace paint, against the dashboard
 * surface's time to `ready` and to its first rendered widget, in the same run.
 *   npm run build && npx tsx bench/app-time-to-ready.ts [--runs 8] [--json]
 * On the allowed host page (host.html on its own origin), from setting the iframe's src (a fresh
 * signed session each time, made beforehand: creatorMode for the app) to the `svc:event:ready`
 * message, and to the first paint of the surface's content: the workspace list (or its empty
 * state) for the app, the first widget in state `ready` for the dashboard. Every load is cold (a
 * new browser context); the two surfaces alternate. Both are timed the same way (the bench's
 * clock, polling every 5 ms), so the ratio compares like with like. Goal: the app within 1.2× of
 * the dashboard surface.
 */
import type { Page } from "@playwright/test";
import { arg, creatorSession, fmt, KEEP_NAMES_SHIM, quantile, startBenchRig } from "./bridge-rig";
import { figure, printFigures, ratioAtMost, say, type Figure } from "./figures";

const runs = arg("runs", 8);

/** Loads `src` into host.html's iframe; ms to `ready` and to the first paint of `painted`. */
async function timeLoad(page: Page, src: string, painted: string): Promise<{ ready: number; paint: number }> {
  const t0 = performance.now();
  await page.evaluate((s) => ((document.getElementById("embed") as HTMLIFrameElement).src = s), src);
  await page.waitForFunction(
    () => (window as unknown as { __events: { data?: { type?: string } }[] }).__events.some((e) => e.data?.type === "svc:event:ready"),
    undefined,
    { polling: 5, timeout: 60_000 },
  );
  const ready = performance.now() - t0;
  await page.frameLocator("iframe#embed").locator(painted).first().waitFor({ state: "visible", timeout: 60_000 });
  return { ready, paint: performance.now() - t0 };
}

async function main() {
  const bench = await startBenchRig(18380);
  const { platformUrl, hostUrl, adminToken } = bench.addresses;
  try {
    const app = { ready: [] as number[], paint: [] as number[] };
    const dash = { ready: [] as number[], paint: [] as number[] };
    for (let i = 0; i < runs; i++) {
      for (const kind of ["app", "dashboard"] as const) {
        const src =
          kind === "app"
            ? `${platformUrl}/embed/d/${bench.deploymentId}/app?session=${encodeURIComponent(await creatorSession(platformUrl, adminToken, bench.deploymentId))}`
            : await bench.dashboardSrc();
        const context = await bench.browser.newContext();
        const page = await context.newPage();
        await page.addInitScript(KEEP_NAMES_SHIM);
        await page.goto(`${hostUrl}/host.html`);
        const t = await timeLoad(page, src, kind === "app" ? '[data-testid="workspace-list"], [data-testid="workspace-empty"]' : '[data-state="ready"]');
        (kind === "app" ? app : dash).ready.push(t.ready);
        (kind === "app" ? app : dash).paint.push(t.paint);
        await context.close();
      }
    }
    say(`creator app vs dashboard surface, ${runs} cold loads each, p50 (p90)`);
    const figures: Figure[] = [];
    for (const [what, a, d] of [
      ["ready", app.ready, dash.ready],
      ["first paint", app.paint, dash.paint],
    ] as const) {
      const a50 = quantile(a, 0.5);
      const d50 = quantile(d, 0.5);
      say(`  ${what}: app ${fmt(a50)} (${fmt(quantile(a, 0.9))})   dashboard ${fmt(d50)} (${fmt(quantile(d, 0.9))})   ratio ${(a50 / d50).toFixed(2)}×`);
      figures.push(
        figure(
          what === "ready" ? "app time to ready p50, cold, vs dashboard surface" : "app first workspace paint p50, cold, vs dashboard first widget",
          a50,
          "ms",
          { baseline: d50, goal: ratioAtMost(1.2) },
        ),
      );
    }
    printFigures("app-time-to-ready", figures);
  } finally {
    await bench.close();
  }
}

await main();
