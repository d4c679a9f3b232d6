import { describe, expect, it } from "vitest";
import type { QueryResult } from "../shell/platform-api";
import { DRILL_CHART_MAX_BARS, drillChartSpec, rowOfMark } from "./drill-chart";

const result = (rows: Record<string, unknown>[]): QueryResult =>
  ({ data: rows, annotation: { measures: {}, dimensions: {}, timeDimensions: {}, periodComparisons: {} }, fromCache: false }) satisfies QueryResult;
const months = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ "sales.created_at.month": `2024-${String(i + 1).padStart(2, "0")}-01T00:00:00.000`, "sales.revenue": i }));

describe("drillChartSpec", () => {
  it("draws a time step as a line at its grain, ticked at its own periods", () => {
    const chart = drillChartSpec({ kind: "time", dimension: "sales.created_at", granularity: "month" }, "sales.revenue", result(months(6)))!;
    expect(chart.spec.mark).toEqual({ type: "line", point: true });
    const x = (chart.spec.encoding as { x: { field: string; type: string; axis: { format: string; values: unknown[] } } }).x;
    expect(x).toMatchObject({ field: "sales.created_at.month", type: "temporal" });
    expect(x.axis.values).toHaveLength(6);
    expect(x.axis.format).toBeTruthy();
  });

  it("draws a breakout as bars, largest first, tall enough for each bar", () => {
    const rows = ["completed", "shipped", "returned"].map((status, i) => ({ "sales.status": status, "sales.revenue": 10 - i }));
    const chart = drillChartSpec({ kind: "breakout", dimension: "sales.status" }, "sales.revenue", result(rows))!;
    expect(chart.spec.mark).toBe("bar");
    expect(chart.spec.encoding).toMatchObject({ y: { field: "sales.status", type: "nominal", sort: "-x" }, x: { field: "sales.revenue" } });
    expect(chart.height).toBe(3 * 22);
  });

  it("draws nothing for one value, or for more bars than can be read", () => {
    expect(drillChartSpec({ kind: "time", dimension: "sales.created_at", granularity: "month" }, "sales.revenue", result(months(1)))).toBeNull();
    const many = Array.from({ length: DRILL_CHART_MAX_BARS + 1 }, (_, i) => ({ "sales.city": `c${i}`, "sales.revenue": i }));
    expect(drillChartSpec({ kind: "breakout", dimension: "sales.city" }, "sales.revenue", result(many))).toBeNull();
  });
});

describe("rowOfMark", () => {
  const rows = months(3);
  it("finds the row of a clicked bar by its value, and of a clicked point by its time", () => {
    expect(rowOfMark([{ "sales.status": "shipped" }], "sales.status", "shipped")).toEqual({ "sales.status": "shipped" });
    const at = new Date("2024-02-01T00:00:00.000").getTime();
    expect(rowOfMark(rows, "sales.created_at.month", at)).toBe(rows[1]);
    expect(rowOfMark(rows, "sales.created_at.month", new Date(at))).toBe(rows[1]);
  });
  it("finds none for a value no row has", () => {
    expect(rowOfMark(rows, "sales.created_at.month", 0)).toBeUndefined();
    expect(rowOfMark(rows, "sales.created_at.month", null)).toBeUndefined();
  });
});
