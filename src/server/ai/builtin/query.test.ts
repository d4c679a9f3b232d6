import { describe, expect, it } from "vitest";
import type { PeriodComparison } from "../../../schema/dashboard";
import type { SemanticQuery } from "../../../schema/semantic-query";
import type { ToolOutcome } from "../tools";
import { comparisonsOf, queryOf, rankedByChange } from "./query";
import type { Understanding } from "./understanding";

const base: Understanding = { language: "en", view: "sales", measures: ["sales.revenue"], dimensions: [], filters: [], defaultMeasure: false, ignored: [] };
const u = (over: Partial<Understanding>): Understanding => ({ ...base, ...over });

describe("queryOf", () => {
  it.each<[string, Understanding, SemanticQuery]>([
    ["a total", base, { measures: ["sales.revenue"] }],
    [
      "filters joined by or: an `or` of the alternatives, each an `and` of its filters",
      u({
        filters: [{ member: "sales.status", values: ["completed"] }],
        anyOf: [
          [
            { filters: [{ member: "sales.customers_country", values: ["DE", "FR"] }], conditions: [{ member: "sales.quantity", operator: "gt", value: 3 }] },
            { filters: [], conditions: [{ member: "sales.amount", operator: "between", value: 100, high: 500 }] },
          ],
        ],
      }),
      {
        measures: ["sales.revenue"],
        filters: [
          { member: "sales.status", operator: "equals", values: ["completed"] },
          {
            or: [
              {
                and: [
                  { member: "sales.customers_country", operator: "in", values: ["DE", "FR"] },
                  { member: "sales.quantity", operator: "gt", values: [3] },
                ],
              },
              { member: "sales.amount", operator: "between", values: [100, 500] },
            ],
          },
        ],
      },
    ],
    [
      "a grouping, biggest first",
      u({ dimensions: ["sales.status"] }),
      { measures: ["sales.revenue"], dimensions: ["sales.status"], order: [["sales.revenue", "desc"]] },
    ],
    [
      "top N",
      u({ dimensions: ["sales.customers_city"], limit: 5, direction: "desc" }),
      { measures: ["sales.revenue"], dimensions: ["sales.customers_city"], order: [["sales.revenue", "desc"]], limit: 5 },
    ],
    [
      "one value, then two",
      u({
        filters: [
          { member: "sales.customers_country", values: ["DE"] },
          { member: "sales.status", values: ["completed", "shipped"] },
        ],
      }),
      {
        measures: ["sales.revenue"],
        filters: [
          { member: "sales.customers_country", operator: "equals", values: ["DE"] },
          { member: "sales.status", operator: "in", values: ["completed", "shipped"] },
        ],
      },
    ],
    [
      "values left out, and numeric conditions",
      u({
        filters: [
          { member: "sales.status", values: ["cancelled"], exclude: true },
          { member: "sales.customers_country", values: ["DE", "FR"], exclude: true },
        ],
        conditions: [
          { member: "sales.quantity", operator: "gt", value: 3 },
          { member: "sales.revenue", operator: "lte", value: 100 },
        ],
      }),
      {
        measures: ["sales.revenue"],
        filters: [
          { member: "sales.status", operator: "notEquals", values: ["cancelled"] },
          { member: "sales.customers_country", operator: "notIn", values: ["DE", "FR"] },
          { member: "sales.quantity", operator: "gt", values: [3] },
          { member: "sales.revenue", operator: "lte", values: [100] },
        ],
      },
    ],
    [
      "two periods side by side, ranked by the relative change",
      u({
        dimensions: ["sales.products_category"],
        periods: { dimension: "sales.created_at", baseline: { from: "2025-01-01", to: "2025-03-31" }, current: { from: "2025-04-01", to: "2025-06-30" } },
        limit: 1,
        direction: "desc",
      }),
      {
        measures: ["sales.revenue"],
        dimensions: ["sales.products_category"],
        compare: { dimension: "sales.created_at", baseline: ["2025-01-01", "2025-03-31"], current: ["2025-04-01", "2025-06-30"] },
        order: [["sales.revenue.relativeChange", "desc"]],
        limit: 1,
      },
    ],
    [
      "a share of the total",
      u({ dimensions: ["sales.status"], calculation: "percentOfTotal" }),
      {
        measures: ["sales.revenue"],
        dimensions: ["sales.status"],
        calculations: [{ type: "percentOfTotal", measure: "sales.revenue" }],
        order: [["sales.revenue", "desc"]],
      },
    ],
    [
      "the top in each group",
      u({ dimensions: ["sales.products_name", "sales.products_category"], perGroup: { within: ["sales.products_category"], limit: 2 } }),
      {
        measures: ["sales.revenue"],
        dimensions: ["sales.products_name", "sales.products_category"],
        groupLimit: { within: ["sales.products_category"], limit: 2, order: [["sales.revenue", "desc"]] },
        order: [
          ["sales.products_category", "asc"],
          ["sales.revenue", "desc"],
        ],
      },
    ],
    [
      "between",
      u({ conditions: [{ member: "sales.amount", operator: "between", value: 100, high: 500 }] }),
      { measures: ["sales.revenue"], filters: [{ member: "sales.amount", operator: "between", values: [100, 500] }] },
    ],
    [
      "a series in a range",
      u({ time: { dimension: "sales.created_at", granularity: "month", range: { from: "2024-01-01", to: "2024-12-31" } } }),
      {
        measures: ["sales.revenue"],
        timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2024-01-01", "2024-12-31"] }],
        order: [["sales.created_at", "asc"]],
      },
    ],
    [
      "a part of time, in calendar order",
      u({ time: { dimension: "sales.created_at", part: "dayOfWeek" } }),
      { measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }], order: [["sales.created_at.dayOfWeek", "asc"]] },
    ],
  ])("%s", (_, understanding, expected) => expect(queryOf(understanding)).toEqual(expected));
});

describe("comparisonsOf", () => {
  it.each<[string, Understanding, PeriodComparison[] | undefined]>([
    ["no comparison", base, undefined],
    [
      "month over month",
      u({ compare: { unit: "month" }, time: { dimension: "sales.created_at", granularity: "month" } }),
      [
        {
          measure: "sales.revenue",
          timeDimension: "sales.created_at",
          offset: { amount: 1, unit: "month" },
          outputs: ["sales.revenue_prev_month", "sales.revenue_change", "sales.revenue_change_pct"],
        },
      ],
    ],
  ])("%s", (_, understanding, expected) => expect(comparisonsOf(understanding)).toEqual(expected));
});

describe("rankedByChange", () => {
  const rows = [
    { c: "DE", "sales.revenue_change_pct": 0.1 },
    { c: "FR", "sales.revenue_change_pct": null },
    { c: "US", "sales.revenue_change_pct": 0.5 },
    { c: "ES", "sales.revenue_change_pct": -0.2 },
  ];
  const outcome: ToolOutcome = { ok: true, content: "", summary: "4 rows", parts: [{ type: "table", columns: [], rows, truncated: false }] };
  it.each([
    ["desc", 2, ["US", "DE"]],
    ["asc", 2, ["ES", "DE"]],
    ["desc", 4, ["US", "DE", "ES", "FR"]],
  ] as const)("%s, %i kept → %j", (direction, limit, expected) => {
    const understanding = u({
      dimensions: ["c"],
      compare: { unit: "year" },
      time: { dimension: "sales.created_at", granularity: "year" },
      rankByChange: { limit, direction },
    });
    const state = { lastRows: rows };
    const out = rankedByChange(understanding, outcome, state);
    expect(state.lastRows.map((r) => r.c)).toEqual(expected);
    expect(out.parts[0]).toMatchObject({ type: "table", rows: state.lastRows });
  });
});
