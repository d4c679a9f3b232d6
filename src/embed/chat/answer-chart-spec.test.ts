import { describe, expect, it } from "vitest";
import type { VegaLiteSpec } from "../widgets/chart/vega-spec";
import { answerChartHeight, answerChartSpec } from "./answer-chart-spec";

const monthly = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ "sales.created_at.month": `2025-${String(i + 1).padStart(2, "0")}-01T00:00:00.000`, "sales.revenue": i }));
const chart = (values: Record<string, unknown>[], field = "sales\\.created_at\\.month") =>
  ({
    data: { values },
    mark: { type: "line" },
    encoding: { x: { field, type: "temporal", title: "Order Date" }, y: { field: "sales\\.revenue", type: "quantitative" } },
  }) as unknown as VegaLiteSpec;
const axisOf = (spec: VegaLiteSpec) => (spec.encoding as { x: { axis?: { format?: string; values?: unknown[] } } }).x.axis;

describe("answerChartSpec", () => {
  it("labels a monthly answer by month and ticks it at its own months, the last included", () => {
    const axis = axisOf(answerChartSpec(chart(monthly(6))));
    expect(axis?.format).toBe("%b %Y");
    expect(axis?.values).toHaveLength(6);
    expect(axis?.values?.at(-1)).toEqual({ year: 2025, month: 6, date: 1 });
  });

  it("leaves a chart without a time grain in its column alone", () => {
    const spec = chart([{ "sales.customers_country": "DE", "sales.revenue": 1 }], "sales\\.customers_country");
    expect(answerChartSpec(spec)).toEqual(spec);
  });
});

describe("answerChartHeight", () => {
  const sideways = (n: number) =>
    ({
      data: { values: Array.from({ length: n }, (_, i) => ({ country: `C${i}`, revenue: i })) },
      mark: { type: "bar" },
      encoding: { y: { field: "country", type: "nominal" }, x: { field: "revenue", type: "quantitative" } },
    }) as unknown as VegaLiteSpec;

  it("gives each bar of a chart drawn sideways 20 px, and never less than the usual 220 px", () => {
    expect(answerChartHeight(sideways(18))).toBe(360);
    expect(answerChartHeight(sideways(7))).toBe(220);
    expect(answerChartHeight(chart(monthly(24)))).toBe(220);
  });
});
