import { describe, expect, it } from "vitest";
import { chartSpecOf, semanticSqlOf } from "./report-query";

const title = (m: string) => m.split(".")[1]!;

describe("report query", () => {
  it("charts a measure by a dimension as horizontal bars sorted by value, and over time as a line", () => {
    const bars = chartSpecOf("bar", { measures: ["sales.revenue"], dimensions: ["sales.customers_country"] }, title) as {
      mark: { type: string };
      encoding: Record<string, { field: string; type: string; sort?: string }>;
    };
    expect(bars.mark.type).toBe("bar");
    expect(bars.encoding.y).toMatchObject({ field: "sales.customers_country", type: "nominal", sort: "-x" });
    expect(bars.encoding.x).toMatchObject({ field: "sales.revenue", type: "quantitative" });
    const line = chartSpecOf("line", { measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", granularity: "month" }] }, title) as {
      mark: { type: string };
      encoding: Record<string, { field: string; type: string }>;
    };
    expect(line.mark.type).toBe("line");
    expect(line.encoding.x).toMatchObject({ field: "sales.created_at", type: "temporal" });
  });

  it("has no chart without a measure and something to plot it against", () => {
    expect(chartSpecOf("bar", { measures: ["sales.revenue"] }, title)).toBeNull();
    expect(chartSpecOf("bar", { dimensions: ["sales.status"] }, title)).toBeNull();
  });

  it("writes the query as semantic SQL: members, filters, date range, order and limit", () => {
    const sql = semanticSqlOf(
      {
        measures: ["sales.revenue"],
        dimensions: ["sales.customers_country"],
        timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: "This year" }],
        filters: [{ member: "sales.status", operator: "equals", values: ["completed"] }],
        order: { "sales.revenue": "desc" },
        limit: 10,
      },
      "sales",
    );
    expect(sql).toBe(
      [
        "SELECT sales.customers_country,",
        "       DATE_TRUNC('month', sales.created_at),",
        "       MEASURE(sales.revenue)",
        "FROM sales",
        'WHERE sales.status equals ("completed")',
        '  AND sales.created_at IN DATE RANGE "This year"',
        "ORDER BY sales.revenue DESC",
        "LIMIT 10",
      ].join("\n"),
    );
  });

  it("charts a part of time on an ordered axis labelled in the viewer's language", () => {
    const spec = chartSpecOf("bar", { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }] }, title, "de-DE") as {
      encoding: Record<string, { field: string; type: string; axis?: { labelExpr: string } }>;
    };
    expect(spec.encoding.x).toMatchObject({ field: "sales.created_at.dayOfWeek", type: "ordinal" });
    expect(spec.encoding.x!.axis!.labelExpr).toContain('"Montag"');
    expect(spec.encoding.y).toMatchObject({ field: "sales.count", type: "quantitative" });
  });

  it("writes a part of time and a between filter as semantic SQL", () => {
    const sql = semanticSqlOf(
      {
        measures: ["sales.count"],
        timeDimensions: [{ dimension: "sales.created_at", part: "hourOfDay" }],
        filters: [
          { member: "sales.amount", operator: "between", values: [10, 100] },
          { member: "sales.revenue", operator: "notBetween", values: [0, 5] },
        ],
      },
      "sales",
    );
    expect(sql.split("\n")).toEqual([
      "SELECT EXTRACT(hourOfDay FROM sales.created_at),",
      "       MEASURE(sales.count)",
      "FROM sales",
      "WHERE sales.amount BETWEEN 10 AND 100",
      "  AND sales.revenue NOT BETWEEN 0 AND 5",
    ]);
  });

  it("charts a compared measure by its change, leaving its title and format to the result", () => {
    const spec = chartSpecOf(
      "bar",
      {
        measures: ["sales.revenue"],
        dimensions: ["sales.products_category"],
        compare: { dimension: "sales.created_at", baseline: "last year", current: "this year" },
      },
      title,
    ) as { encoding: Record<string, unknown> };
    expect(spec.encoding.x).toEqual({ field: "sales.revenue.change", type: "quantitative" });
    expect(spec.encoding.tooltip).toEqual([
      { field: "sales.products_category", type: "nominal", title: "products_category" },
      { field: "sales.revenue.change", type: "quantitative" },
    ]);
  });
});
