/**
 * Dashboard load figures (issue 6 performance), one run in headless Chromium:
 *   npm run build && npx tsx bench/dashboard-load.ts [--runs 3] [--base-port 18380] [--json]
 *
 * - the demo dashboard (16 widgets): `dashboard-loaded.loadDurationMs`, and time to `ready`
 *   (from setting the iframe's src on the allowed host page) against the floor page (goal
 *   ≤ 1.5×): framework-free, served by the same platform server, the same session exchange and
 *   `ready` message (bench/floor-page.ts; how it is served is explained there); and against a
 *   blank iframe of the same server as a second baseline;
 * - scaling: `loadDurationMs` of a 48-widget dashboard against a 12-widget one, both created
 *   through the API from the demo's widgets (goal ≤ 2×);
 * - main thread of the embed while the 48-widget dashboard loads: the longest long task
 *   (PerformanceObserver "longtask" in the embed's frame; goal: none over 50 ms);
 * - the split of the demo's loadDurationMs: until its last query answered, then rendering; and
 *   the same queries (bodies and session recorded from the load) run all at once through the
 *   API as the baseline (goal ≤ 2×);
 * - JavaScript before ready, gzip (bench/dashboard-bundle.ts; goal ≤ 120 kB).
 * Every load is a fresh browser context (cold HTTP cache) with a fresh signed session; the
 * platform's query result cache is warm after the first load, as it is for any dashboard
 * that has been opened once. Medians of `--runs` loads.
 */
import type { ReadyPayload } from "../src/protocol";
import type { DashboardWidget } from "../src/schema/dashboard";
import { measureStartupBundle } from "./dashboard-bundle";
import { arg, KEEP_NAMES_SHIM, quantile, startBenchRig, type BenchRig } from "./bridge-rig";
import { figure, printFigures, ratioAtMost, say, valueAtMost } from "./figures";
import { installFloorPage, type FloorPage } from "./floor-page";

const runs = arg("runs", 3);
const basePort = arg("base-port", 18380);

/** Records the embed frame's long tasks (durations in ms) in `window.__longTasks`. */
const LONG_TASK_RECORDER = {
  content: `if (location.pathname.startsWith("/embed/")) {
    window.__longTasks = [];
    try { new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); }).observe({ type: "longtask", buffered: true }); } catch {}
  }`,
};

async function adminApi<T>(bench: BenchRig, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${bench.addresses.platformUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${bench.addresses.adminToken}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Publishes an embeddable dashboard with these widgets (workbook by slug, publish, access). */
async function publishDashboard(bench: BenchRig, slug: string, title: string, widgets: DashboardWidget[]): Promise<string> {
  const base = `/api/v1/deployments/${bench.deploymentId}`;
  const workbook = await adminApi<{ id: number }>(bench, "PUT", `${base}/workbooks/by-slug/${slug}`, {
    name: title,
    meta: { dashboardDraft: { title, widgets } },
  });
  const dashboard = await adminApi<{ publicId: string }>(bench, "POST", `${base}/workbooks/${workbook.id}/dashboard/publish`);
  await adminApi(bench, "PUT", `${base}/workbooks/${workbook.id}/embed-access`, { rules: [{ embedTenantName: null, action: "read" }] });
  await adminApi(bench, "PATCH", `/api/v1/embed/dashboard/${dashboard.publicId}`, { allowEmbed: true });
  return dashboard.publicId;
}

/**
 * `copies` stacked copies of a 12-widget block of the demo: its nine charts, the text, the
 * status filter and the time grain (ids suffixed per copy, each copy below the previous).
 */
function repeatedDemoWidgets(demo: DashboardWidget[], copies: number): DashboardWidget[] {
  const block = demo.filter((w) => w.type === "CHART" || w.type === "TEXT" || w.type === "TIME_GRAIN" || w.id === "filter_status");
  if (block.length !== 12) throw new Error(`expected a 12-widget block of the demo, got ${block.length}`);
  const height = Math.max(...block.map((w) => w.position.y + w.position.h));
  return Array.from({ length: copies }, (_, copy) =>
    block.map((w) => ({ ...w, id: `${w.id}_${copy}`, position: { ...w.position, y: w.position.y + copy * height }, responsiveLayouts: null })),
  ).flat();
}

interface LoadResult {
  readyMs: number;
  readyPayload: ReadyPayload;
  loadDurationMs: number;
  /** From app start to the last query's response (the rest of loadDurationMs is rendering). */
  queriesDoneMs: number;
  /** From app start to the first query's request. */
  firstQueryMs: number;
  /** The dashboard's query requests (url, headers, body), to replay them concurrently. */
  queries: { url: string; headers: Record<string, string>; body: string }[];
  widgetCount: number;
  longestTaskMs: number;
  longTasksOver50: number;
}

/** Loads a dashboard in a fresh context on the host page; ms from src to ready, the loaded event, long tasks. */
async function loadDashboard(bench: BenchRig, publicId: string): Promise<LoadResult> {
  const context = await bench.browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(KEEP_NAMES_SHIM);
    await page.addInitScript(LONG_TASK_RECORDER);
    const queries: LoadResult["queries"] = [];
    page.on("request", (r) => {
      const pathname = new URL(r.url()).pathname;
      if (r.method() !== "POST") return;
      if (/\/api\/v1\/deployments\/\d+\/query$/.test(pathname)) queries.push({ url: r.url(), headers: r.headers(), body: r.postData() ?? "" });
      // The widgets' first queries go out as one batch: the baseline runs each of them on its own.
      if (/\/api\/v1\/deployments\/\d+\/query\/batch$/.test(pathname))
        for (const query of (JSON.parse(r.postData() ?? "{}") as { queries?: unknown[] }).queries ?? [])
          queries.push({ url: r.url().replace(/\/batch$/, ""), headers: r.headers(), body: JSON.stringify(query) });
    });
    await page.goto(`${bench.addresses.hostUrl}/host.html`);
    const src = `${bench.addresses.platformUrl}/embed/dashboard/${publicId}?session=${encodeURIComponent(await bench.session())}`;
    const timing = await page.evaluate(
      (src) =>
        new Promise<{ readyMs: number; readyPayload: ReadyPayload; loaded: { loadDurationMs: number; widgetCount: number } }>((resolve, reject) => {
          const iframe = document.getElementById("embed") as HTMLIFrameElement;
          const timer = setTimeout(() => reject(new Error("no dashboard-loaded within 120 s")), 120_000);
          let readyMs = -1;
          let readyPayload: ReadyPayload | null = null;
          const t0 = performance.now();
          window.addEventListener("message", (e) => {
            if (e.source !== iframe.contentWindow) return;
            const data = e.data as { type?: string; payload?: { loadDurationMs: number; widgetCount: number; fatal?: boolean; message?: string } };
            if (data?.type === "svc:event:ready") {
              readyMs = performance.now() - t0;
              readyPayload = data.payload as unknown as ReadyPayload;
            }
            if (data?.type === "svc:event:error" && data.payload?.fatal) reject(new Error(`fatal error: ${data.payload.message}`));
            if (data?.type === "svc:event:dashboard-loaded") {
              clearTimeout(timer);
              resolve({ readyMs, readyPayload: readyPayload!, loaded: data.payload! });
            }
          });
          iframe.src = src;
        }),
      src,
    );
    // Charts off screen draw as they come near; what ran during the load is recorded by now.
    await page.waitForTimeout(300);
    const frame = page.frames().find((f) => f.url().startsWith(`${bench.addresses.platformUrl}/embed/`))!;
    const longTasks = await frame.evaluate(() => (window as unknown as { __longTasks?: number[] }).__longTasks ?? []);
    // loadDurationMs counts from the app's start (its navigation): the last query response on that clock.
    const [firstQueryMs, queriesDoneMs] = await frame.evaluate(() => {
      const entries = performance
        .getEntriesByType("resource")
        .filter((e) => /\/query(\/batch)?$/.test(new URL(e.name).pathname)) as PerformanceResourceTiming[];
      return [Math.min(...entries.map((e) => e.startTime)), Math.max(0, ...entries.map((e) => e.responseEnd))];
    });
    return {
      readyMs: timing.readyMs,
      readyPayload: timing.readyPayload,
      loadDurationMs: timing.loaded.loadDurationMs,
      queriesDoneMs,
      firstQueryMs,
      queries,
      widgetCount: timing.loaded.widgetCount,
      longestTaskMs: longTasks.length ? Math.max(...longTasks) : 0,
      longTasksOver50: longTasks.filter((d) => d > 50).length,
    };
  } finally {
    await context.close();
  }
}

/** ms from setting the src of the host page's iframe to its load event, for a tiny response of the same server. */
async function loadBlank(bench: BenchRig, i: number): Promise<number> {
  const context = await bench.browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(KEEP_NAMES_SHIM);
    await page.goto(`${bench.addresses.hostUrl}/host.html`);
    return await page.evaluate(
      (src) =>
        new Promise<number>((resolve) => {
          const iframe = document.getElementById("embed") as HTMLIFrameElement;
          const t0 = performance.now();
          iframe.addEventListener("load", () => resolve(performance.now() - t0), { once: true });
          iframe.src = src;
        }),
      `${bench.addresses.platformUrl}/bench-blank-frame?run=${i}`,
    );
  } finally {
    await context.close();
  }
}

/** ms from setting the src of the host page's iframe to the floor page's `ready`, fresh context and session. */
async function loadFloor(bench: BenchRig, floor: FloorPage): Promise<number> {
  const context = await bench.browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(KEEP_NAMES_SHIM);
    await page.goto(`${bench.addresses.hostUrl}/host.html`);
    return await page.evaluate(
      (src) =>
        new Promise<number>((resolve, reject) => {
          const iframe = document.getElementById("embed") as HTMLIFrameElement;
          const timer = setTimeout(() => reject(new Error("no ready from the floor page within 60 s")), 60_000);
          window.addEventListener("message", (e) => {
            if (e.source !== iframe.contentWindow || (e.data as { type?: string })?.type !== "svc:event:ready") return;
            clearTimeout(timer);
            resolve(performance.now() - t0);
          });
          const t0 = performance.now();
          iframe.src = src;
        }),
      floor.src(await bench.session()),
    );
  } finally {
    await context.close();
  }
}

/** ms to run these query requests all at once through the API (same session, same bodies). */
async function replayConcurrently(queries: LoadResult["queries"]): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    queries.map(async (q) => {
      const response = await fetch(q.url, {
        method: "POST",
        headers: { authorization: q.headers.authorization!, "content-type": "application/json" },
        body: q.body,
      });
      if (!response.ok) throw new Error(`replayed query answered ${response.status}`);
      await response.arrayBuffer();
    }),
  );
  return performance.now() - t0;
}

const median = (values: number[]) => quantile(values, 0.5);
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function main() {
  const bundle = measureStartupBundle();
  const bench = await startBenchRig(basePort);
  let floor: FloorPage | null = null;
  try {
    const demo = await adminApi<{ dashboard: { config: { widgets: DashboardWidget[] } } }>(bench, "GET", `/api/v1/embed/dashboard/${bench.publicId}`);
    const demoWidgets = demo.dashboard.config.widgets;
    const twelve = await publishDashboard(bench, "bench-12-widgets", "Bench: 12 widgets", repeatedDemoWidgets(demoWidgets, 1));
    const fortyEight = await publishDashboard(bench, "bench-48-widgets", "Bench: 48 widgets", repeatedDemoWidgets(demoWidgets, 4));

    // One load of each first: the platform's query cache is warm for all of them after it.
    const primed = await loadDashboard(bench, bench.publicId);
    for (const id of [twelve, fortyEight]) await loadDashboard(bench, id);
    // The floor page posts the `ready` the demo dashboard really sent.
    floor = installFloorPage(bench.addresses.platformUrl, new URL(bench.addresses.hostUrl).origin, primed.readyPayload);
    const results = {
      demo: [] as LoadResult[],
      twelve: [] as LoadResult[],
      fortyEight: [] as LoadResult[],
      floor: [] as number[],
      blank: [] as number[],
      concurrent: [] as number[],
    };
    for (let i = 0; i < runs; i++) {
      const demoRun = await loadDashboard(bench, bench.publicId);
      results.demo.push(demoRun);
      // The same queries, all at once, through the same API (the session is still valid).
      results.concurrent.push(await replayConcurrently(demoRun.queries));
      results.floor.push(await loadFloor(bench, floor));
      results.blank.push(await loadBlank(bench, i));
      results.twelve.push(await loadDashboard(bench, twelve));
      results.fortyEight.push(await loadDashboard(bench, fortyEight));
    }

    const demoReady = median(results.demo.map((r) => r.readyMs));
    const blank = median(results.blank);
    const floorReady = median(results.floor);
    const load12 = median(results.twelve.map((r) => r.loadDurationMs));
    const load48 = median(results.fortyEight.map((r) => r.loadDurationMs));
    const longest48 = Math.max(...results.fortyEight.map((r) => r.longestTaskMs));
    const over50 = median(results.fortyEight.map((r) => r.longTasksOver50));
    const demoLoad = median(results.demo.map((r) => r.loadDurationMs));
    const demoQueriesDone = median(results.demo.map((r) => r.queriesDoneMs));
    const concurrent = median(results.concurrent);
    const rows: [string, string, string][] = [
      [`demo dashboard (${results.demo[0]!.widgetCount} widgets): loadDurationMs`, ms(median(results.demo.map((r) => r.loadDurationMs))), ""],
      ["demo dashboard: first query sent (from app start)", ms(median(results.demo.map((r) => r.firstQueryMs))), ""],
      ["demo dashboard: last query answered (from app start)", ms(demoQueriesDone), ""],
      ["demo dashboard: rendering after the last query", ms(Math.max(0, demoLoad - demoQueriesDone)), ""],
      [`demo's ${results.demo[0]!.queries.length} queries run concurrently through the API`, ms(concurrent), ""],
      ["loadDurationMs / concurrent queries", `${(demoLoad / concurrent).toFixed(2)}×`, "goal ≤ 2×"],
      ["demo dashboard: time to ready", ms(demoReady), ""],
      ["floor page (same session exchange, same ready): time to ready", ms(floorReady), ""],
      ["ready / floor", `${(demoReady / floorReady).toFixed(2)}×`, "goal ≤ 1.5×"],
      ["blank iframe, same server: load", ms(blank), ""],
      ["ready / blank", `${(demoReady / blank).toFixed(2)}×`, ""],
      [`${results.twelve[0]!.widgetCount} widgets: loadDurationMs`, ms(load12), ""],
      [`${results.fortyEight[0]!.widgetCount} widgets: loadDurationMs`, ms(load48), ""],
      ["48 / 12", `${(load48 / load12).toFixed(2)}×`, "goal ≤ 2×"],
      ["48 widgets: longest long task (max of runs)", ms(longest48), "goal: none over 50 ms"],
      ["48 widgets: long tasks over 50 ms (median)", String(over50), ""],
      ["JS before ready (gzip)", `${(bundle.gzipBytes / 1000).toFixed(1)} kB`, "goal ≤ 120 kB"],
    ];
    const width = Math.max(...rows.map((r) => r[0].length));
    say(`\ndashboard load, medians of ${runs} runs (fresh context and session each)\n`);
    for (const [label, value, goal] of rows) say(`${label.padEnd(width)}  ${value.padStart(9)}  ${goal}`);
    // JavaScript before ready is bench/dashboard-bundle.ts's figure: not repeated here.
    printFigures("dashboard-load", [
      figure(`demo dashboard (${results.demo[0]!.widgetCount} widgets): loadDurationMs`, median(results.demo.map((r) => r.loadDurationMs)), "ms"),
      figure("demo dashboard: first query sent (from app start)", median(results.demo.map((r) => r.firstQueryMs)), "ms"),
      figure("demo dashboard: last query answered (from app start)", demoQueriesDone, "ms"),
      figure("demo dashboard: loadDurationMs vs its queries run concurrently", demoLoad, "ms", { baseline: concurrent, goal: ratioAtMost(2) }),
      figure("demo dashboard: time to ready vs floor page", demoReady, "ms", { baseline: floorReady, goal: ratioAtMost(1.5) }),
      figure("demo dashboard: time to ready vs blank iframe load", demoReady, "ms", { baseline: blank }),
      figure(`loadDurationMs, ${results.fortyEight[0]!.widgetCount} vs ${results.twelve[0]!.widgetCount} widgets`, load48, "ms", {
        baseline: load12,
        goal: ratioAtMost(2),
      }),
      figure("48 widgets: longest long task (max of runs)", longest48, "ms", { goal: valueAtMost(50, "ms") }),
      figure("48 widgets: long tasks over 50 ms (median)", over50, ""),
    ]);
  } finally {
    floor?.remove();
    await bench.close();
  }
}

await main();
