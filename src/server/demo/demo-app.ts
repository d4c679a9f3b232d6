import type { DashboardConfig } from "../../schema/dashboard";
import type { DemoReport } from "./demo-workbook";

/**
 * The demo app dashboard: an order funnel written as a dashboard app (kind APP). Its own
 * workbook (a workbook has one dashboard) in the demo deployment, with two reports the app asks
 * for over the app channel, and a Python report shown by an html widget of the demo dashboard.
 */
export const DEMO_APP_WORKBOOK_SLUG = "demo-order-funnel";

export const DEMO_APP_REPORTS: DemoReport[] = [
  {
    key: "funnel_status",
    name: "funnel_status",
    title: "Orders by status",
    kind: "table",
    query: { measures: ["sales.count", "sales.revenue"], dimensions: ["sales.status"], order: { "sales.status": "asc" } },
  },
  {
    key: "funnel_category",
    name: "funnel_category",
    title: "Orders by category",
    kind: "table",
    query: { measures: ["sales.count"], dimensions: ["sales.products_category"], order: { "sales.products_category": "asc" } },
  },
];

/** The app: funnel stages from the status counts, a category picker that sets a dashboard filter, drilldown on a stage. */
export const DEMO_APP_HTML = String.raw`<style>
  body { padding: 20px 24px; font-size: 14px; }
  h2 { margin: 0 0 4px; font-size: 17px; font-weight: 650; }
  p.lead { margin: 0 0 16px; color: var(--svc-muted); }
  .cats { display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 18px; }
  .cats button { font: inherit; padding: 5px 12px; border-radius: 999px; border: 1px solid var(--svc-border); background: var(--svc-surface); color: var(--svc-text); cursor: pointer; }
  .cats button[aria-pressed=true] { background: var(--svc-accent); border-color: var(--svc-accent); color: #fff; }
  .stages { display: grid; grid-template-columns: repeat(auto-fit, minmax(130px, 1fr)); gap: 10px; margin-bottom: 18px; }
  .stage { border: 1px solid var(--svc-border); border-radius: 10px; padding: 10px 12px; background: var(--svc-surface); cursor: pointer; text-align: left; font: inherit; color: inherit; }
  .stage b { display: block; font-size: 20px; margin-top: 2px; }
  .stage small { color: var(--svc-muted); }
  #chart { width: 100%; }
  .error { color: #dc2626; }
  .py { margin-top: 18px; border-top: 1px solid var(--svc-border); padding-top: 12px; }
  .py h3 { margin: 0 0 8px; font-size: 14px; font-weight: 650; }
  .py small, .muted { color: var(--svc-muted); font-weight: 400; }
  .py table td, .py table th { padding: 4px 8px; border-bottom: 1px solid var(--svc-border); }
  #pyout { margin: 6px 0 0; color: var(--svc-muted); font-size: 12px; }
</style>
<h2>Order funnel</h2>
<p class="lead">From placed to kept: how many orders reach each stage. Pick a category to filter the dashboard; click a stage to drill in.</p>
<div class="cats" id="cats" role="group" aria-label="Category"></div>
<div class="stages" id="stages" data-testid="funnel-stages"></div>
<div id="chart"></div>
<section class="py" aria-label="Status summary (Python)">
  <h3>Status summary <small>computed in Python on the platform</small></h3>
  <div id="py" data-testid="python-summary"><p class="muted">Running…</p></div>
  <pre id="pyout"></pre>
</section>
<script>
  const STAGES = [
    { key: "placed", label: "Placed", statuses: ["processing", "shipped", "completed", "returned", "cancelled"] },
    { key: "processed", label: "Processed", statuses: ["processing", "shipped", "completed", "returned"] },
    { key: "shipped", label: "Shipped", statuses: ["shipped", "completed", "returned"] },
    { key: "delivered", label: "Delivered", statuses: ["completed", "returned"] },
    { key: "kept", label: "Kept", statuses: ["completed"] },
  ];
  let categories = null;
  let drawnOnce = false;
  const fmt = (n, locale) => new Intl.NumberFormat(locale).format(n);

  async function draw(context) {
    const category = context.filters["sales.products_category"];
    // Both reports at once: the funnel does not wait for the category list.
    const [all, funnel] = await Promise.all([categories === null ? svc.query("funnel_category") : null, svc.query("funnel_status")]);
    if (all) categories = all.rows.map((r) => r["sales.products_category"]);
    const cats = document.getElementById("cats");
    cats.replaceChildren(
      ...[null, ...categories].map((c) => {
        const b = document.createElement("button");
        b.textContent = c === null ? "All categories" : c;
        const active = c === null ? !category : category && category.value === c;
        b.setAttribute("aria-pressed", String(Boolean(active)));
        b.onclick = () => svc.setFilter("sales.products_category", c === null ? null : { operator: "equals", value: c });
        return b;
      }),
    );
    const { rows } = funnel;
    const byStatus = Object.fromEntries(rows.map((r) => [r["sales.status"], Number(r["sales.count"])]));
    const values = STAGES.map((s) => ({ stage: s.label, key: s.key, orders: s.statuses.reduce((n, st) => n + (byStatus[st] || 0), 0) }));
    const top = values[0].orders || 1;
    const stages = document.getElementById("stages");
    stages.replaceChildren(
      ...values.map((v) => {
        const el = document.createElement("button");
        el.className = "stage";
        el.dataset.stage = v.key;
        el.innerHTML = "<small></small><b></b><small></small>";
        el.children[0].textContent = v.stage;
        el.children[1].textContent = fmt(v.orders, context.locale);
        el.children[2].textContent = Math.round((v.orders / top) * 100) + "% of placed";
        el.onclick = () => svc.drilldown("sales.count", v.stage);
        return el;
      }),
    );
    const dark = context.scheme === "dark";
    const ink = dark ? "#e5e7eb" : "#1f2937";
    await vegaEmbed(
      "#chart",
      {
        $schema: "https://vega.github.io/schema/vega-lite/v6.json",
        data: { values },
        width: "container",
        height: 220,
        background: "transparent",
        mark: { type: "bar", cornerRadiusEnd: 4, color: dark ? "#60a5fa" : "#2563eb" },
        encoding: {
          y: { field: "stage", type: "nominal", sort: null, title: null },
          x: { field: "orders", type: "quantitative", title: "Orders" },
          tooltip: [{ field: "stage" }, { field: "orders", format: "," }],
        },
        config: { axis: { labelColor: ink, titleColor: ink, gridColor: dark ? "#374151" : "#e5e7eb", domainColor: ink }, view: { stroke: null } },
      },
      { actions: false, renderer: "svg" },
    );
    if (!drawnOnce) {
      drawnOnce = true;
      svc.loaded();
    }
    // The Python report runs on the platform (sandboxed); the funnel does not wait for it.
    svc.python("python_status_summary").then(
      (out) => {
        document.getElementById("py").innerHTML = out.html || "";
        document.getElementById("pyout").textContent = out.stdout;
      },
      (e) => {
        document.getElementById("py").innerHTML = '<p class="error"></p>';
        document.querySelector("#py .error").textContent = e.message;
      },
    );
  }
  let last = null;
  svc.onContext((context) => {
    const key = JSON.stringify([context.filters, context.scheme, context.locale]);
    if (key === last) return;
    last = key;
    draw(context).catch((e) => {
      document.getElementById("stages").innerHTML = '<p class="error"></p>';
      document.querySelector(".error").textContent = e.message;
      svc.error(e.message, "QueryFailed");
    });
  });
</script>`;

export function demoAppDashboardConfig(): DashboardConfig {
  return {
    kind: "APP",
    title: "Order funnel (app)",
    description: "A dashboard written as an app: its own HTML and vega-embed, sandboxed, reading the workbook's reports.",
    app: { html: DEMO_APP_HTML, manifest: { dependencies: { "vega-embed": "7" }, version: 1 } },
  };
}

/** Python report of the demo app: an order status summary the app shows with `svc.python`. */
export const DEMO_PYTHON_REPORT: DemoReport & { python: string } = {
  key: "python_status_summary",
  name: "python_status_summary",
  title: "Status summary (Python)",
  kind: "html",
  query: { measures: ["sales.count", "sales.revenue"], dimensions: ["sales.status"], order: { "sales.count": "desc" } },
  python: [
    "total = sum(r['sales.count'] for r in rows) or 1",
    "print(f'{len(rows)} statuses, {total} orders')",
    "cells = ''.join(",
    "    f\"<tr><td>{r['sales.status']}</td><td style='text-align:right'>{r['sales.count']:,}</td>\"",
    "    f\"<td style='text-align:right'>{100 * r['sales.count'] / total:.1f}%</td></tr>\"",
    "    for r in rows",
    ")",
    "report.html('<table style=\"width:100%;border-collapse:collapse\"><tr><th align=left>Status</th><th align=right>Orders</th><th align=right>Share</th></tr>' + cells + '</table>')",
  ].join("\n"),
};
