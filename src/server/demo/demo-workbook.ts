import type { DashboardConfig, DashboardWidget } from "../../schema/dashboard";

/**
 * The demo workbook, as code: its reports (semantic queries over the `sales` view of
 * data-model/sales.yml) and its dashboard. The data set ends on 2025-06-30 (DEMO_ANCHOR).
 */
export const DEMO_WORKBOOK_SLUG = "demo-sales";
export const DEMO_DEPLOYMENT_NAME = "Demo: online shop";

const FULL_RANGE: [string, string] = ["2023-07-01", "2025-06-30"];
const LATEST_QUARTER: [string, string] = ["2025-04-01", "2025-06-30"];

export interface DemoReport {
  key: string;
  name: string;
  title: string;
  description?: string;
  kind: "vega" | "table" | "kpi" | "html" | "map";
  query: Record<string, unknown>;
  spec?: unknown;
  fillMissingRows?: { member: string; excludedDimensions?: string[] | null };
  periodComparisons?: { measure: string; timeDimension: string; offset: { amount: number; unit: string }; outputs?: string[] }[];
  preferences?: { columnFormats?: Record<string, { type: "currency" | "percent" | "number"; decimalPlaces?: number | null }> };
  /** Dimensions a drill-down lists the rows by (report `meta.drillMembers`): one row per order. */
  drillMembers?: string[];
}

/** One row per order behind a figure: its id, date, status, city and category. */
export const ORDER_DRILL_MEMBERS = ["sales.order_id", "sales.created_at", "sales.status", "sales.customers_city", "sales.products_category"];

const kpi = (key: string, measure: string, title: string, description: string): DemoReport => ({
  key,
  name: key,
  title,
  description,
  kind: "kpi",
  query: {
    measures: [measure],
    timeDimensions: [{ dimension: "sales.created_at", granularity: "quarter", dateRange: LATEST_QUARTER }],
  },
  spec: { measure },
  periodComparisons: [{ measure, timeDimension: "sales.created_at", offset: { amount: 1, unit: "year" }, outputs: [`${measure.split(".")[1]}_prev_year`] }],
});

const REPORTS: DemoReport[] = [
  kpi("kpi_revenue", "sales.revenue", "Revenue", "Q2 2025 against Q2 2024"),
  kpi("kpi_orders", "sales.count", "Orders", "Q2 2025 against Q2 2024"),
  kpi("kpi_aov", "sales.average_order_value", "Average order value", "Q2 2025 against Q2 2024"),
  kpi("kpi_completion", "sales.completion_rate", "Completion rate", "Share of orders completed"),
  {
    key: "revenue_trend",
    name: "revenue_trend",
    title: "Revenue over time",
    kind: "vega",
    query: {
      measures: ["sales.revenue", "sales.count"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: FULL_RANGE }],
      order: { "sales.created_at": "asc" },
    },
    fillMissingRows: { member: "sales.created_at" },
    spec: {
      mark: { type: "area", line: true, opacity: 0.25 },
      encoding: {
        x: { field: "sales.created_at", type: "temporal", title: null },
        y: { field: "sales.revenue", type: "quantitative", title: "Revenue" },
        tooltip: [
          { field: "sales.created_at", type: "temporal", title: "Period" },
          { field: "sales.revenue", type: "quantitative", title: "Revenue", format: ",.0f" },
          { field: "sales.count", type: "quantitative", title: "Orders" },
        ],
      },
    },
  },
  {
    key: "revenue_by_category",
    name: "revenue_by_category",
    title: "Revenue by category",
    kind: "vega",
    query: { measures: ["sales.revenue"], dimensions: ["sales.products_category"], order: { "sales.revenue": "desc" } },
    spec: {
      mark: { type: "bar", cornerRadiusEnd: 4 },
      encoding: {
        y: { field: "sales.products_category", type: "nominal", sort: "-x", title: null },
        x: { field: "sales.revenue", type: "quantitative", title: "Revenue" },
        tooltip: [
          { field: "sales.products_category", type: "nominal", title: "Category" },
          { field: "sales.revenue", type: "quantitative", title: "Revenue", format: ",.0f" },
        ],
      },
    },
  },
  {
    key: "units_by_quarter",
    name: "units_by_quarter",
    title: "Units sold by quarter and category",
    kind: "vega",
    query: {
      measures: ["sales.units"],
      dimensions: ["sales.products_category"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "quarter", dateRange: FULL_RANGE }],
    },
    spec: {
      mark: "bar",
      encoding: {
        x: { field: "sales.created_at", type: "ordinal", timeUnit: "yearquarter", title: null },
        y: { field: "sales.units", type: "quantitative", title: "Units" },
        color: { field: "sales.products_category", type: "nominal", title: "Category" },
      },
    },
  },
  {
    key: "orders_by_status",
    name: "orders_by_status",
    title: "Orders by status",
    kind: "vega",
    query: { measures: ["sales.count"], dimensions: ["sales.status"], order: { "sales.count": "desc" } },
    spec: {
      mark: { type: "arc", innerRadius: 55 },
      encoding: {
        theta: { field: "sales.count", type: "quantitative" },
        color: { field: "sales.status", type: "nominal", title: "Status" },
        tooltip: [
          { field: "sales.status", type: "nominal", title: "Status" },
          { field: "sales.count", type: "quantitative", title: "Orders" },
        ],
      },
    },
  },
  {
    key: "top_cities",
    name: "top_cities",
    title: "Cities by revenue",
    kind: "table",
    query: {
      measures: ["sales.revenue", "sales.count", "sales.average_order_value", "sales.completion_rate"],
      dimensions: ["sales.customers_city", "sales.customers_country"],
      order: { "sales.revenue": "desc" },
      limit: 500,
    },
    preferences: {
      columnFormats: {
        "sales.revenue": { type: "currency", decimalPlaces: 0 },
        "sales.average_order_value": { type: "currency", decimalPlaces: 2 },
        "sales.completion_rate": { type: "percent", decimalPlaces: 1 },
        "sales.count": { type: "number", decimalPlaces: 0 },
      },
    },
  },
  {
    key: "customer_map",
    name: "customer_map",
    title: "Where revenue comes from",
    kind: "map",
    query: {
      measures: ["sales.revenue"],
      dimensions: ["sales.customers_city", "sales.customers_latitude", "sales.customers_longitude"],
    },
    spec: { latitude: "sales.customers_latitude", longitude: "sales.customers_longitude", size: "sales.revenue", label: "sales.customers_city" },
  },
  {
    key: "highlights",
    name: "highlights",
    title: "Highlights",
    kind: "html",
    query: { measures: ["sales.revenue", "sales.count", "sales.customer_count", "sales.units"] },
    spec: {
      html: [
        '<div class="hl">',
        '<div><span class="v">{{sales.customer_count}}</span><span class="l">{{title:sales.customer_count}}</span></div>',
        '<div><span class="v">{{sales.units}}</span><span class="l">{{title:sales.units}}</span></div>',
        '<div><span class="v">{{sales.count}}</span><span class="l">{{title:sales.count}}</span></div>',
        "</div>",
        "<style>.hl{display:flex;flex-wrap:wrap;gap:10px 24px;font-family:system-ui,sans-serif;padding:8px 4px}.hl div{display:grid;min-width:0}.v{font-size:22px;font-weight:600;white-space:nowrap;font-variant-numeric:tabular-nums}.l{font-size:12px;opacity:.7}</style>",
      ].join(""),
    },
  },
];

export const DEMO_REPORTS: DemoReport[] = REPORTS.map((r) => (r.kind === "html" || r.kind === "map" ? r : { drillMembers: ORDER_DRILL_MEMBERS, ...r }));

const w = (
  id: string,
  type: DashboardWidget["type"],
  x: number,
  y: number,
  width: number,
  h: number,
  config: Record<string, unknown>,
  extra: Partial<DashboardWidget> = {},
): DashboardWidget => ({
  id,
  type,
  position: { x, y, w: width, h },
  config,
  ...extra,
});

/** Builds the dashboard draft; `reportIds` maps report keys to their ids. */
export function demoDashboardConfig(reportIds: Record<string, number>): DashboardConfig {
  const chart = (id: string, key: string, x: number, y: number, width: number, h: number, extra: Partial<DashboardWidget> = {}) =>
    w(id, "CHART", x, y, width, h, { reportId: reportIds[key] }, extra);
  // Four KPI cards in one row down to 768 px (tablets keep the desktop's 12 columns), two by
  // two below it (2 columns: a card of a quarter of 600 px cannot hold "$1,247,420"), one
  // column on phones.
  const kpiAt = (id: string, key: string, i: number) => chart(id, key, i * 3, 3, 3, 3);
  return {
    kind: "CLASSIC",
    title: "Sales overview",
    description: "Orders, revenue and customers of the online shop, July 2023 to June 2025.",
    layout: {
      breakpoints: { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 },
      cols: { lg: 12, md: 12, sm: 12, xs: 2, xxs: 1 },
      rowHeight: 40,
      margin: [16, 16],
      containerPadding: [16, 16],
    },
    widgets: [
      w("intro", "TEXT", 0, 0, 4, 3, {
        markdown:
          "### Welcome\nRevenue and orders **for your organisation only**. Use the filters to slice; click a bar or a cell to drill into the orders behind it.",
      }),
      w("filter_status", "FILTER", 4, 0, 2, 3, { member: "sales.status", control: "values", label: "Status", multiple: true }),
      w("filter_country", "FILTER", 6, 0, 2, 3, { member: "sales.customers_country", control: "values", label: "Country", multiple: true }),
      w("filter_date", "FILTER", 8, 0, 2, 3, { member: "sales.created_at", control: "dateRange", label: "Order date" }),
      w("grain", "TIME_GRAIN", 10, 0, 2, 3, {
        dimension: "sales.created_at",
        options: ["week", "month", "quarter", "year"],
        default: "month",
        label: "Time grain",
      }),
      kpiAt("kpi_revenue", "kpi_revenue", 0),
      kpiAt("kpi_orders", "kpi_orders", 1),
      kpiAt("kpi_aov", "kpi_aov", 2),
      kpiAt("kpi_completion", "kpi_completion", 3),
      chart("revenue_trend", "revenue_trend", 0, 6, 8, 8),
      chart("orders_by_status", "orders_by_status", 8, 6, 4, 8),
      w("breakdowns", "TABS_CONTAINER", 0, 14, 6, 9, {
        tabs: [
          { id: "by_category", title: "By category", widgets: [w("revenue_by_category", "CHART", 0, 0, 12, 7, { reportId: reportIds.revenue_by_category })] },
          { id: "by_quarter", title: "Units by quarter", widgets: [w("units_by_quarter", "CHART", 0, 0, 12, 7, { reportId: reportIds.units_by_quarter })] },
        ],
      }),
      chart("customer_map", "customer_map", 6, 14, 6, 9),
      chart("top_cities", "top_cities", 0, 23, 8, 9),
      chart("highlights", "highlights", 8, 23, 4, 4),
      w("ask", "AI", 8, 27, 4, 5, { question: "Which category had the most revenue last quarter?" }),
    ],
  };
}
