import { describe, expect, it } from "vitest";
import type { ChartRequest } from "../types";
import { chartFor } from "./chart";
import type { Understanding } from "./understanding";

const base: Understanding = { language: "en", view: "sales", measures: ["sales.revenue"], dimensions: [], filters: [], defaultMeasure: false, ignored: [] };
const u = (over: Partial<Understanding>): Understanding => ({ ...base, ...over });
const month = { dimension: "sales.created_at", granularity: "month" as const };

describe("chartFor", () => {
  it.each<[string, Understanding, ChartRequest | null]>([
    ["a total: no chart", base, null],
    ["a grouping: bars", u({ dimensions: ["sales.status"] }), { type: "bar", x: "sales.status", y: ["sales.revenue"] }],
    [
      "two groupings: bars with series",
      u({ dimensions: ["sales.customers_country", "sales.status"] }),
      { type: "bar", x: "sales.customers_country", y: ["sales.revenue"], series: "sales.status" },
    ],
    ["a series: a line", u({ time: month }), { type: "line", x: "sales.created_at.month", y: ["sales.revenue"] }],
    [
      "a series per value: lines",
      u({ time: month, dimensions: ["sales.status"] }),
      { type: "line", x: "sales.created_at.month", y: ["sales.revenue"], series: "sales.status" },
    ],
    [
      "a part of time: bars",
      u({ time: { dimension: "sales.created_at", part: "dayOfWeek" } }),
      { type: "bar", x: "sales.created_at.dayOfWeek", y: ["sales.revenue"] },
    ],
    [
      "growth per month: the change",
      u({ time: month, compare: { unit: "month" } }),
      { type: "bar", x: "sales.created_at.month", y: ["sales.revenue_change_pct"] },
    ],
    [
      "months against a year earlier: both lines",
      u({ time: month, compare: { unit: "year" } }),
      { type: "line", x: "sales.created_at.month", y: ["sales.revenue", "sales.revenue_prev_year"] },
    ],
    [
      "growth per value: this and the earlier period",
      u({ time: { dimension: "sales.created_at", granularity: "year" }, compare: { unit: "year" }, dimensions: ["sales.customers_country"] }),
      { type: "bar", x: "sales.customers_country", y: ["sales.revenue", "sales.revenue_prev_year"] },
    ],
    [
      "two periods by category: both bars",
      u({
        dimensions: ["sales.products_category"],
        periods: { dimension: "sales.created_at", baseline: { from: "a", to: "b" }, current: { from: "c", to: "d" } },
      }),
      { type: "bar", x: "sales.products_category", y: ["sales.revenue.baseline", "sales.revenue.current"] },
    ],
    [
      "a running total: its line",
      u({ time: month, calculation: "runningTotal" }),
      { type: "line", x: "sales.created_at.month", y: ["sales.revenue.runningTotal"] },
    ],
    [
      "the top in each group: a bar each",
      u({ dimensions: ["sales.products_name", "sales.products_category"], perGroup: { within: ["sales.products_category"], limit: 1 } }),
      { type: "bar", x: "sales.products_name", y: ["sales.revenue"], series: "sales.products_category" },
    ],
  ])("%s", (_, understanding, expected) => expect(chartFor(understanding)).toEqual(expected));
});
