import { describe, expect, it } from "vitest";
import type { QueryAnnotation } from "../shell/platform-api";
import { firstAmountColumn, isMeasureLike, resultColumnOf, resultColumnsOf } from "./result-columns";
import { calculationsResult, compareResult } from "./result-fixtures";

const ranges = {
  baseline: { from: "2024-01-01T00:00:00.000", to: "2024-04-01T00:00:00.000" },
  current: { from: "2025-01-01T00:00:00.000", to: "2025-04-01T00:00:00.000" },
};

describe("resultColumnsOf", () => {
  it.each([
    ["compare", compareResult.annotation, "sales.products_category", { shortTitle: "Products Category", role: "dimension", type: "string", signed: false }],
    [
      "compare",
      compareResult.annotation,
      "sales.revenue.baseline",
      { shortTitle: "Revenue (Q1 2024)", role: "compare", format: "currency", signed: false, compareOutput: "baseline" },
    ],
    [
      "compare",
      compareResult.annotation,
      "sales.revenue.change",
      { shortTitle: "Revenue (change)", format: "currency", signed: true, measure: "sales.revenue" },
    ],
    [
      "compare",
      compareResult.annotation,
      "sales.revenue.relativeChange",
      { shortTitle: "Revenue (% change)", format: "percent", signed: true, compareOutput: "relativeChange" },
    ],
    ["calculations", calculationsResult.annotation, "sales.revenue", { title: "Sales Revenue", role: "measure", format: "currency", signed: false }],
    ["calculations", calculationsResult.annotation, "sales.returned_share", { title: "Returned share", role: "measure", format: "percent" }],
    [
      "calculations",
      calculationsResult.annotation,
      "sales.revenue.percentOfTotal",
      { shortTitle: "Revenue (% of total)", role: "calculation", calculation: "percentOfTotal", format: "percent", signed: false },
    ],
    ["calculations", calculationsResult.annotation, "sales.revenue.runningTotal", { calculation: "runningTotal", format: "currency", type: "number" }],
    ["calculations", calculationsResult.annotation, "sales.revenue.rank", { calculation: "rank", role: "calculation", type: "number" }],
  ])("describes a column of a %s result: %s", (_kind, annotation, key, expected) => {
    expect(resultColumnOf(key, annotation)).toMatchObject({ key, ...expected });
  });

  it("lists every group once, dimensions first and the derived columns last", () => {
    expect(resultColumnsOf(compareResult.annotation).map((c) => c.key)).toEqual([
      "sales.products_category",
      "sales.revenue.baseline",
      "sales.revenue.current",
      "sales.revenue.change",
      "sales.revenue.relativeChange",
    ]);
    expect(resultColumnsOf(calculationsResult.annotation).map((c) => c.role)).toEqual([
      "dimension",
      "measure",
      "measure",
      "calculation",
      "calculation",
      "calculation",
    ]);
  });

  it("gives a rank no format and a relative change a percent whatever the measure had", () => {
    const annotation: QueryAnnotation = {
      measures: {},
      dimensions: {},
      timeDimensions: {},
      compare: {
        "m.relativeChange": { title: "M", shortTitle: "M", type: "number", format: "currency", measure: "m", output: "relativeChange", ranges },
      },
      calculations: { "m.rank": { title: "R", shortTitle: "R", type: "number", format: "currency", measure: "m", calculation: "rank", within: [] } },
    };
    expect(resultColumnOf("m.relativeChange", annotation)?.format).toBe("percent");
    expect(resultColumnOf("m.rank", annotation)).not.toHaveProperty("format");
  });

  it("reads period comparisons: the change signed, the percent change a signed percent", () => {
    const annotation: QueryAnnotation = {
      measures: {},
      dimensions: {},
      timeDimensions: {},
      periodComparisons: {
        rev_prev: { title: "Prev", shortTitle: "Prev", type: "number", format: "currency", measure: "rev", output: "previous" },
        rev_change: { title: "Change", shortTitle: "Change", type: "number", format: "currency", measure: "rev", output: "change" },
        rev_pct: { title: "%", shortTitle: "%", type: "number", format: "currency", measure: "rev", output: "percent_change" },
      },
    };
    expect(resultColumnsOf(annotation).map((c) => [c.key, c.role, c.format, c.signed])).toEqual([
      ["rev_prev", "periodComparison", "currency", false],
      ["rev_change", "periodComparison", "currency", true],
      ["rev_pct", "periodComparison", "percent", true],
    ]);
  });

  it("skips entries that are not annotations and groups that are not objects", () => {
    // Over the wire, unchecked: what a server out of contract could send.
    const annotation: QueryAnnotation = JSON.parse(
      JSON.stringify({
        measures: {},
        dimensions: {},
        timeDimensions: {},
        compare: { "m.change": "nonsense", "m.current": { title: "Current", shortTitle: "", type: "number", output: "bogus" } },
        calculations: [1, 2],
      }),
    );
    expect(resultColumnsOf(annotation)).toEqual([
      { key: "m.current", title: "Current", shortTitle: "Current", type: "number", role: "compare", signed: false },
    ]);
    expect(resultColumnsOf(undefined)).toEqual([]);
  });

  it("counts measures and the columns made of them as amounts, not keys", () => {
    const roles = resultColumnsOf(calculationsResult.annotation).map((c) => [c.key, isMeasureLike(c)]);
    expect(roles).toEqual([
      ["sales.products_category", false],
      ["sales.revenue", true],
      ["sales.returned_share", true],
      ["sales.revenue.percentOfTotal", true],
      ["sales.revenue.runningTotal", true],
      ["sales.revenue.rank", true],
    ]);
    expect(isMeasureLike(undefined)).toBe(false);
  });

  it.each([
    ["the first measure the result has", ["sales.count", "sales.revenue"], calculationsResult.annotation, "sales.revenue"],
    ["the first compare column for a compared measure", ["sales.revenue"], compareResult.annotation, "sales.revenue.baseline"],
    ["the query's first measure before the result is in", ["sales.revenue"], undefined, "sales.revenue"],
  ])("names %s as the first amount column", (_what, measures, annotation, expected) => {
    expect(firstAmountColumn(measures, annotation)).toBe(expected);
  });
});
