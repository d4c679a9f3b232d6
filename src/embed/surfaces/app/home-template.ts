/**
 * The "start from a template" dashboard of a view of the model: a row of KPIs (its first
 * measures, sums and counts first), a trend of the first measure by month over its first time
 * dimension, and a breakdown of it by the view's first text dimension, as bars. Pure: the reports
 * to create and the dashboard to lay them out on once they exist.
 */
import type { DashboardConfig, DashboardWidget } from "../../../schema/dashboard";
import type { SemanticQuery } from "../../shell/platform-api";
import type { MetaMember, MetaSource } from "./app-api";
import { chartSpecOf } from "./report-query";

export interface TemplateReport {
  key: string;
  name: string;
  kind: "kpi" | "vega";
  query: SemanticQuery;
  spec?: Record<string, unknown>;
}

const KPI_COUNT = 3;
const additive = (m: MetaMember) => m.measureType === "sum" || m.measureType === "count";
const titleOf = (m: MetaMember) => m.shortTitle || m.title;

/** A view a template can be built of: one measure at least, and a time or text dimension. */
export function templateViews(sources: readonly MetaSource[]): MetaSource[] {
  return sources.filter((s) => s.measures.length > 0 && s.dimensions.some((d) => d.type === "time" || d.type === "string"));
}

export function templateReports(view: MetaSource, words: { by: (measure: string, dimension: string) => string }, locale?: string): TemplateReport[] {
  const measures = [...view.measures].sort((a, b) => Number(additive(b)) - Number(additive(a))).slice(0, KPI_COUNT);
  const first = measures[0]!;
  const title = (name: string) => titleOf(view.measures.find((m) => m.name === name) ?? view.dimensions.find((d) => d.name === name) ?? first);
  const out: TemplateReport[] = measures.map((m) => ({ key: `kpi-${m.name}`, name: titleOf(m), kind: "kpi", query: { measures: [m.name] } }));
  const time = view.dimensions.find((d) => d.type === "time");
  if (time) {
    const query: SemanticQuery = { measures: [first.name], timeDimensions: [{ dimension: time.name, granularity: "month" }] };
    out.push({
      key: "trend",
      name: words.by(titleOf(first), titleOf(time)),
      kind: "vega",
      query,
      spec: chartSpecOf("line", query, title, locale) ?? undefined,
    });
  }
  const text = view.dimensions.find((d) => d.type === "string");
  if (text) {
    const query: SemanticQuery = { measures: [first.name], dimensions: [text.name], order: { [first.name]: "desc" }, limit: 12 };
    out.push({
      key: "breakdown",
      name: words.by(titleOf(first), titleOf(text)),
      kind: "vega",
      query,
      spec: chartSpecOf("bar", query, title, locale) ?? undefined,
    });
  }
  return out;
}

/** Widths of `n` cards sharing a row of `cols` columns, the first ones wider by the remainder. */
const shares = (n: number, cols: number) => Array.from({ length: n }, (_, i) => Math.floor(cols / n) + (i < cols % n ? 1 : 0));

/**
 * The dashboard of the template's reports (`ids` by report key): KPIs across the top, the trend
 * and breakdown below; on a laptop (10 columns) too, where the derived layout would stack KPIs
 * that do not divide the row evenly.
 */
export function templateDashboard(title: string, reports: readonly TemplateReport[], ids: ReadonlyMap<string, number>): DashboardConfig {
  const kpis = reports.filter((r) => r.kind === "kpi");
  const charts = reports.filter((r) => r.kind !== "kpi");
  // Positions in a grid of `cols` columns: the KPIs share the top row, the charts (trend, breakdown) the next.
  const place = (cols: number, chartWidths: number[]) => {
    const out = new Map<string, DashboardWidget["position"]>();
    const row = (list: TemplateReport[], widths: number[], y: number, h: number) => {
      let x = 0;
      list.forEach((r, i) => {
        out.set(r.key, { x, y, w: widths[i]!, h });
        x += widths[i]!;
      });
    };
    row(kpis, shares(kpis.length, cols), 0, 2);
    row(charts, charts.length === 1 ? [cols] : chartWidths, 2, 5);
    return out;
  };
  const lg = place(12, [7, 5]);
  const md = place(10, [6, 4]);
  return {
    title,
    widgets: [...kpis, ...charts].map((r) => ({
      id: `chart-${r.key.replace(/[^a-z0-9-]/gi, "-")}`,
      type: "CHART",
      position: lg.get(r.key)!,
      responsiveLayouts: { md: md.get(r.key)! },
      config: { reportId: ids.get(r.key)! },
    })),
  };
}
