import { describe, expect, it } from "vitest";
import { DashboardConfig } from "../../../schema/dashboard";
import type { MetaSource } from "./app-api";
import { templateDashboard, templateReports, templateViews } from "./home-template";

const m = (name: string, type: "number" | "string" | "time", measureType?: string) => ({
  name,
  title: name.split(".")[1]!,
  shortTitle: name.split(".")[1]!,
  type,
  measureType,
});
const sales: MetaSource = {
  name: "sales",
  kind: "view",
  title: "Sales",
  measures: [
    m("sales.avg_price", "number", "avg"),
    m("sales.revenue", "number", "sum"),
    m("sales.count", "number", "count"),
    m("sales.margin", "number", "sum"),
  ],
  dimensions: [m("sales.order_date", "time"), m("sales.country", "string")],
};
const words = { by: (a: string, b: string) => `${a} by ${b}` };

describe("the template dashboard", () => {
  it("offers the views with a measure and something to break it down by", () => {
    const bare: MetaSource = { ...sales, name: "bare", measures: [] };
    const flat: MetaSource = { ...sales, name: "flat", dimensions: [m("flat.flag", "number")] };
    expect(templateViews([sales, bare, flat]).map((s) => s.name)).toEqual(["sales"]);
  });

  it("makes three KPIs (sums and counts first), a monthly trend and a breakdown of the first", () => {
    const reports = templateReports(sales, words);
    expect(reports.map((r) => [r.key, r.kind, r.name])).toEqual([
      ["kpi-sales.revenue", "kpi", "revenue"],
      ["kpi-sales.count", "kpi", "count"],
      ["kpi-sales.margin", "kpi", "margin"],
      ["trend", "vega", "revenue by order_date"],
      ["breakdown", "vega", "revenue by country"],
    ]);
    expect(reports[3]!.query).toEqual({ measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.order_date", granularity: "month" }] });
    expect(reports[3]!.spec).toMatchObject({ mark: { type: "line" } });
    expect(reports[4]!.query).toMatchObject({ dimensions: ["sales.country"], order: { "sales.revenue": "desc" }, limit: 12 });
    expect(reports[4]!.spec).toMatchObject({ mark: { type: "bar" }, encoding: { y: { field: "sales.country" } } });
  });

  it("lays the KPIs across the top and the trend beside the breakdown, a config the server takes", () => {
    const reports = templateReports(sales, words);
    const config = templateDashboard("Sales overview", reports, new Map(reports.map((r, i) => [r.key, i + 1])));
    expect(config.widgets!.map((w) => [w.config!.reportId, w.position])).toEqual([
      [1, { x: 0, y: 0, w: 4, h: 2 }],
      [2, { x: 4, y: 0, w: 4, h: 2 }],
      [3, { x: 8, y: 0, w: 4, h: 2 }],
      [4, { x: 0, y: 2, w: 7, h: 5 }],
      [5, { x: 7, y: 2, w: 5, h: 5 }],
    ]);
    // On a laptop (10 columns) the KPIs share the row too, the first one wider.
    expect(config.widgets!.map((w) => w.responsiveLayouts?.md)).toEqual([
      { x: 0, y: 0, w: 4, h: 2 },
      { x: 4, y: 0, w: 3, h: 2 },
      { x: 7, y: 0, w: 3, h: 2 },
      { x: 0, y: 2, w: 6, h: 5 },
      { x: 6, y: 2, w: 4, h: 5 },
    ]);
    expect(DashboardConfig.safeParse(config).success).toBe(true);
  });

  it("without a time dimension, the breakdown takes the whole row", () => {
    const view = { ...sales, measures: [m("sales.revenue", "number", "sum")], dimensions: [m("sales.country", "string")] };
    const reports = templateReports(view, words);
    const config = templateDashboard("x", reports, new Map(reports.map((r, i) => [r.key, i + 1])));
    expect(config.widgets!.map((w) => w.position)).toEqual([
      { x: 0, y: 0, w: 12, h: 2 },
      { x: 0, y: 2, w: 12, h: 5 },
    ]);
  });
});
