/**
 * Dashboard apps and Python reports, one run on the browser rig:
 *   npm run build && npx tsx bench/dashboard-apps.ts [--runs 3] [--python-runs 5] [--base-port 18480] [--json]
 * (`--python-runs 0` leaves python-run out.)
 *
 * - app dashboard: `dashboard-loaded.loadDurationMs` of the demo order-funnel app (its frame,
 *   vega-embed from the platform, its two reports over the app channel; its Python summary
 *   arrives after `loaded`) against a classic dashboard of the same two reports as table
 *   widgets (goal ≤ 1.3×), and, as a second baseline, against a classic dashboard that shows
 *   what the app shows: the status report as a bar chart (vega, drawn by the chart worker) and
 *   the category report as a table. Fresh browser context and session per load; the query
 *   cache is warm for all after one load each.
 * - python-run: a trivial script (`print(len(rows))`) over a 10 000-row report, cold (the first
 *   run after start: Pyodide loads) and warm (a loaded worker waiting), against the same query
 *   alone through `POST /query`.
 * - where an app load's time goes (printed, not a figure): from the embed's start to the app
 *   frame's, then inside the frame to its libraries fetched, its document parsed (the libraries
 *   have run) and `dashboard-loaded`, and when its report queries went out and came back.
 */
import type { DashboardWidget } from "../src/schema/dashboard";
import { arg, KEEP_NAMES_SHIM, quantile, startBenchRig, type BenchRig } from "./bridge-rig";
import { figure, printFigures, ratioAtMost, say } from "./figures";

const runs = arg("runs", 3);
const pythonRuns = arg("python-runs", 5);
const basePort = arg("base-port", 18480);

async function adminApi<T>(bench: BenchRig, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${bench.addresses.platformUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${bench.addresses.adminToken}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function publish(bench: BenchRig, slug: string, draft: Record<string, unknown>, reports: Record<string, unknown>[] = []) {
  const base = `/api/v1/deployments/${bench.deploymentId}`;
  const workbook = await adminApi<{ id: number }>(bench, "PUT", `${base}/workbooks/by-slug/${slug}`, { name: slug });
  const ids: number[] = [];
  for (const [i, r] of reports.entries()) {
    const publicId = `bnch${slug.replace(/[^0-9A-Za-z]/g, "")}`.slice(0, 10).padEnd(10, "0") + String(i).padStart(2, "0");
    ids.push((await adminApi<{ id: number }>(bench, "PUT", `${base}/reports/by-public-id/${publicId}`, { ...r, workbookId: workbook.id })).id);
  }
  await adminApi(bench, "PUT", `${base}/workbooks/by-slug/${slug}`, { meta: { dashboardDraft: draft } });
  const dashboard = await adminApi<{ publicId: string }>(bench, "POST", `${base}/workbooks/${workbook.id}/dashboard/publish`);
  await adminApi(bench, "PUT", `${base}/workbooks/${workbook.id}/embed-access`, { rules: [{ embedTenantName: null, action: "read" }] });
  await adminApi(bench, "PATCH", `/api/v1/embed/dashboard/${dashboard.publicId}`, { allowEmbed: true });
  return { publicId: dashboard.publicId, reportIds: ids };
}

interface AppLoadParts {
  /** From the embed document's start to the app frame's. */
  frameStart: number;
  /** From the app frame's start to the last of its libraries fetched. */
  libraries: number;
  /** From the app frame's start to its document parsed (its libraries have run). */
  parsed: number;
  /** From the app frame's start to the host receiving `dashboard-loaded`. */
  loaded: number;
  /** From the app frame's start to the first report query sent, and to the last answered (negative: before). */
  queriesSent: number;
  queriesAnswered: number;
}
const appLoadParts: AppLoadParts[] = [];

async function loadDuration(bench: BenchRig, publicId: string, parts?: AppLoadParts[]): Promise<number> {
  const context = await bench.browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(KEEP_NAMES_SHIM);
    await page.goto(`${bench.addresses.hostUrl}/host.html`);
    const src = `${bench.addresses.platformUrl}/embed/dashboard/${publicId}?session=${encodeURIComponent(await bench.session())}`;
    const duration = await page.evaluate(
      (src) =>
        new Promise<number>((resolve, reject) => {
          const iframe = document.getElementById("embed") as HTMLIFrameElement;
          const timer = setTimeout(() => reject(new Error("no dashboard-loaded within 60 s")), 60_000);
          window.addEventListener("message", (e) => {
            if (e.source !== iframe.contentWindow) return;
            const data = e.data as { type?: string; payload?: { loadDurationMs: number; name?: string; context?: string; message?: string } };
            if (data?.type === "svc:event:error" && data.payload?.context === "app") reject(new Error(`app error: ${data.payload.message}`));
            if (data?.type === "svc:event:dashboard-loaded") {
              clearTimeout(timer);
              resolve(data.payload!.loadDurationMs);
            }
          });
          iframe.src = src;
        }),
      src,
    );
    const appFrame = page.frames().find((f) => f.url() === "about:srcdoc");
    if (parts && appFrame) {
      const loadedAt = await page.evaluate(() => performance.timeOrigin + performance.now());
      const embed = page.frames().find((f) => f.url().includes("/embed/dashboard/"))!;
      const queries = await embed.evaluate(() => {
        const q = performance.getEntriesByType("resource").filter((r) => r.name.endsWith("/query")) as PerformanceResourceTiming[];
        return { origin: performance.timeOrigin, sent: Math.min(...q.map((r) => r.startTime)), answered: Math.max(...q.map((r) => r.responseEnd)) };
      });
      const inside = await appFrame.evaluate(() => {
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        const libraries = performance.getEntriesByType("resource").filter((r) => r.name.includes("/embed/app-libs/")) as PerformanceResourceTiming[];
        return { start: performance.timeOrigin, libraries: Math.max(0, ...libraries.map((r) => r.responseEnd)), parsed: nav.domInteractive };
      });
      parts.push({
        frameStart: inside.start - queries.origin,
        libraries: inside.libraries,
        parsed: inside.parsed,
        loaded: loadedAt - inside.start,
        queriesSent: queries.origin + queries.sent - inside.start,
        queriesAnswered: queries.origin + queries.answered - inside.start,
      });
    }
    return duration;
  } finally {
    await context.close();
  }
}

async function timed<T>(run: () => Promise<T>): Promise<number> {
  const t0 = performance.now();
  await run();
  return performance.now() - t0;
}

const median = (values: number[]) => quantile(values, 0.5);
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function main() {
  const bench = await startBenchRig(basePort);
  try {
    const config = (await (await fetch(`${bench.addresses.demoHostUrl}/config.json`)).json()) as { appDashboardPublicId: string };
    const app = await adminApi<{ dashboard: { reportSnapshots: { reportId: number; name: string }[] } }>(
      bench,
      "GET",
      `/api/v1/embed/dashboard/${config.appDashboardPublicId}`,
    );
    // The reports the app waits for before `loaded` (its Python summary comes after, on its own).
    const waitedFor = app.dashboard.reportSnapshots.filter((s) => s.name === "funnel_status" || s.name === "funnel_category");
    const widgets: DashboardWidget[] = waitedFor.map((s, i) => ({
      id: s.name,
      type: "CHART",
      position: { x: i * 6, y: 0, w: 6, h: 6 },
      config: { reportId: s.reportId },
    }));
    const classic = await publish(bench, "bench-classic-funnel", { title: "Classic funnel", widgets });
    // The same content as the app: its bar chart of orders by status, and the categories.
    const status = waitedFor.find((s) => s.name === "funnel_status")!;
    const statusQuery = { measures: ["sales.count", "sales.revenue"], dimensions: ["sales.status"], order: { "sales.status": "asc" } };
    const charted = await publish(bench, "bench-classic-funnel-chart", { title: "Classic funnel, charted", widgets: [] }, [
      {
        name: "bench_funnel_status_chart",
        kind: "vega",
        query: statusQuery,
        spec: {
          mark: { type: "bar", cornerRadiusEnd: 4 },
          encoding: { y: { field: "sales.status", type: "nominal", title: null }, x: { field: "sales.count", type: "quantitative", title: "Orders" } },
        },
      },
    ]);
    const chartedWidgets: DashboardWidget[] = [
      { id: "status_chart", type: "CHART", position: { x: 0, y: 0, w: 6, h: 6 }, config: { reportId: charted.reportIds[0]! } },
      { id: "categories", type: "CHART", position: { x: 6, y: 0, w: 6, h: 6 }, config: { reportId: waitedFor.find((s) => s !== status)!.reportId } },
    ];
    const chartedClassic = await publish(bench, "bench-classic-funnel-chart", { title: "Classic funnel, charted", widgets: chartedWidgets });

    // python-run over 10 000 rows.
    const withPython = pythonRuns > 0;
    const query = { dimensions: ["sales.order_id"], measures: ["sales.revenue"], order: { "sales.order_id": "asc" }, limit: 10_000 };
    const py = await publish(bench, "bench-python", { kind: "APP", title: "Python bench", app: { html: "<p></p>" } }, [
      { name: "bench_python_rows", kind: "html", query, meta: { python: "print(len(rows))" } },
    ]);
    // python-run answers are cached for a minute by filters: a filter that keeps every row and
    // differs per run makes each run a real one.
    let n = 0;
    const runPython = async () => {
      const filters = [`f_sales.order_id={"operator":"greater_than","value":${-1 - n++}}`];
      const out = await adminApi<{ stdout: string }>(bench, "POST", `/api/v1/embed/dashboard/${py.publicId}/python-run`, {
        reportId: py.reportIds[0],
        filters,
      });
      if (out.stdout.trim() !== "10000") throw new Error(`python-run saw ${out.stdout.trim()} rows, not 10000`);
    };
    const cold = withPython ? await timed(runPython) : NaN;
    const warm: number[] = [];
    for (let i = 0; i < pythonRuns; i++) {
      // The next worker loads behind each run: give it the time a viewer's next click would.
      await new Promise((r) => setTimeout(r, 6000));
      warm.push(await timed(runPython));
    }
    const queryOnly: number[] = [];
    for (let i = 0; i < pythonRuns; i++) {
      queryOnly.push(await timed(() => adminApi(bench, "POST", `/api/v1/deployments/${bench.deploymentId}/query`, { query })));
    }

    // One load each first: both read warm query caches from then on.
    await loadDuration(bench, config.appDashboardPublicId);
    await loadDuration(bench, classic.publicId);
    await loadDuration(bench, chartedClassic.publicId);
    const appLoads: number[] = [];
    const classicLoads: number[] = [];
    const chartedLoads: number[] = [];
    for (let i = 0; i < runs; i++) {
      appLoads.push(await loadDuration(bench, config.appDashboardPublicId, appLoadParts));
      classicLoads.push(await loadDuration(bench, classic.publicId));
      chartedLoads.push(await loadDuration(bench, chartedClassic.publicId));
    }

    const appMs = median(appLoads);
    const classicMs = median(classicLoads);
    const chartedMs = median(chartedLoads);
    const warmMs = median(warm);
    const queryMs = median(queryOnly);
    const part = (key: keyof AppLoadParts) => ms(median(appLoadParts.map((p) => p[key])));
    const rows: [string, string, string][] = [
      ["app dashboard (funnel app): loadDurationMs", ms(appMs), ""],
      ["classic dashboard, same reports: loadDurationMs", ms(classicMs), ""],
      ["app / classic", `${(appMs / classicMs).toFixed(2)}×`, "goal ≤ 1.3×"],
      ["classic with the app's chart and table: loadDurationMs", ms(chartedMs), ""],
      ["app / classic with the app's chart and table", `${(appMs / chartedMs).toFixed(2)}×`, ""],
      ["  app load: embed start → app frame start", part("frameStart"), ""],
      ["  app frame start → libraries fetched", part("libraries"), ""],
      ["  app frame start → document parsed (libraries run)", part("parsed"), ""],
      ["  app frame start → report queries sent", part("queriesSent"), ""],
      ["  app frame start → report queries answered", part("queriesAnswered"), ""],
      ["  app frame start → dashboard-loaded at the host", part("loaded"), ""],
      ...(withPython
        ? ([
            ["python-run, 10 000 rows, cold", ms(cold), ""],
            ["python-run, 10 000 rows, warm (median)", ms(warmMs), ""],
            ["query alone, same rows (median)", ms(queryMs), ""],
            ["python-run warm / query", `${(warmMs / queryMs).toFixed(2)}×`, ""],
          ] as [string, string, string][])
        : []),
    ];
    const width = Math.max(...rows.map((r) => r[0].length));
    say(`\ndashboard apps and python-run, medians of ${runs} loads / ${pythonRuns} runs\n`);
    for (const [label, value, goal] of rows) say(`${label.padEnd(width)}  ${value.padStart(9)}  ${goal}`);
    printFigures("dashboard-apps", [
      figure("app dashboard loadDurationMs vs classic dashboard of the same reports", appMs, "ms", { baseline: classicMs, goal: ratioAtMost(1.3) }),
      figure("app dashboard loadDurationMs vs classic dashboard with the app's chart and table", appMs, "ms", { baseline: chartedMs }),
      ...(withPython
        ? [
            figure("python-run over 10 000 rows, cold, vs the query alone", cold, "ms", { baseline: queryMs }),
            figure("python-run over 10 000 rows, warm, vs the query alone", warmMs, "ms", { baseline: queryMs }),
          ]
        : []),
    ]);
  } finally {
    await bench.close();
  }
}

await main();
