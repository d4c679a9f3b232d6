import { describe, expect, it } from "vitest";
import type { ResultColumn } from "../../export/result-columns";
import { isAdditiveColumn, pivotOf } from "./report-pivot";

const rows = [
  { country: "DE", category: "Books", revenue: 100, avg: 10, share: 0.25 },
  { country: "DE", category: "Games", revenue: 60, avg: 30, share: 0.15 },
  { country: "FR", category: "Books", revenue: 240, avg: 20, share: 0.6 },
];
const values = [
  { key: "revenue", additive: true },
  { key: "avg", additive: false },
  { key: "share", additive: true },
];

describe("pivotOf", () => {
  it("puts one breakout across, the others down, with row, column and grand totals of the values that add up", () => {
    const p = pivotOf({ rows, rowKeys: ["country"], columnKey: "category", values });
    expect(p.rows).toEqual([["DE"], ["FR"]]);
    expect(p.columns).toEqual(["Books", "Games"]);
    expect(p.cells).toEqual([
      [
        [100, 10, 0.25],
        [60, 30, 0.15],
      ],
      [
        [240, 20, 0.6],
        [null, null, null],
      ],
    ]);
    expect(p.rowTotals).toEqual([
      [160, null, 0.4],
      [240, null, 0.6],
    ]);
    expect(p.columnTotals).toEqual([
      [340, null, 0.85],
      [60, null, 0.15],
    ]);
    expect(p.grandTotals).toEqual([400, null, 1]);
  });

  it("sorts the values across ascending (numbers as numbers, empty last) and keeps the rows in the result's order", () => {
    const p = pivotOf({
      rows: [
        { k: "b", n: 10, v: 1 },
        { k: "a", n: 9, v: 2 },
        { k: "a", n: null, v: 3 },
      ],
      rowKeys: ["k"],
      columnKey: "n",
      values: [{ key: "v", additive: true }],
    });
    expect(p.rows).toEqual([["b"], ["a"]]);
    expect(p.columns).toEqual([9, 10, null]);
    expect(p.grandTotals).toEqual([6]);
  });

  it("pivots several breakouts down the side", () => {
    const p = pivotOf({
      rows: [
        { a: "x", b: 1, c: "Q1", v: "5" },
        { a: "x", b: 2, c: "Q2", v: "7" },
      ],
      rowKeys: ["a", "b"],
      columnKey: "c",
      values: [{ key: "v", additive: true }],
    });
    expect(p.rows).toEqual([
      ["x", 1],
      ["x", 2],
    ]);
    expect(p.columnTotals).toEqual([[5], [7]]);
  });
});

const column = (c: Partial<ResultColumn>): ResultColumn => ({ key: "k", title: "t", shortTitle: "t", type: "number", role: "measure", signed: false, ...c });
const types: Record<string, string> = { "s.revenue": "sum", "s.count": "count", "s.avg": "avg", "s.buyers": "count_distinct" };

describe("isAdditiveColumn", () => {
  it.each([
    [column({ key: "s.revenue" }), true],
    [column({ key: "s.count" }), true],
    [column({ key: "s.avg" }), false],
    [column({ key: "s.buyers" }), false],
    [column({ key: "s.revenue.baseline", role: "compare", measure: "s.revenue", compareOutput: "baseline" }), true],
    [column({ key: "s.revenue.change", role: "compare", measure: "s.revenue", compareOutput: "change" }), true],
    [column({ key: "s.revenue.relativeChange", role: "compare", measure: "s.revenue", compareOutput: "relativeChange" }), false],
    [column({ key: "s.avg.current", role: "compare", measure: "s.avg", compareOutput: "current" }), false],
    [column({ key: "s.revenue.percentOfTotal", role: "calculation", calculation: "percentOfTotal" }), true],
    [column({ key: "s.revenue.rank", role: "calculation", calculation: "rank" }), false],
    [column({ key: "s.country", role: "dimension", type: "string" }), false],
  ])("%j adds up: %s", (c, expected) => {
    expect(isAdditiveColumn(c, (m) => types[m])).toBe(expected);
  });
});
