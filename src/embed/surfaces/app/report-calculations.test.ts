import { describe, expect, it } from "vitest";
import { savedCalculationsOf, withCalculations } from "./report-calculations";

const ctx = {
  additive: (m: string) => m !== "sales.avg_amount",
  isMeasure: (m: string) => ["sales.revenue", "sales.count", "sales.avg_amount"].includes(m),
  today: "2025-05-14",
};
const none = { compare: "none" as const, percentOfTotal: false };

describe("withCalculations", () => {
  it("adds a percent of total of each count or sum, and says why when there is none", () => {
    const q = { measures: ["sales.revenue", "sales.avg_amount"], dimensions: ["sales.country"] };
    expect(withCalculations(q, { ...none, percentOfTotal: true }, ctx)).toEqual({
      query: { ...q, calculations: [{ type: "percentOfTotal", measure: "sales.revenue" }] },
      periodComparisons: null,
      leftOut: {},
    });
    const averages = { measures: ["sales.avg_amount"], dimensions: ["sales.country"] };
    expect(withCalculations(averages, { ...none, percentOfTotal: true }, ctx)).toEqual({
      query: averages,
      periodComparisons: null,
      leftOut: { percentOfTotal: "percentOfTotalNeeds" },
    });
  });

  it("compares a date range with the one before it on the query contract's `compare`, the range moved off the time dimension", () => {
    const q = {
      measures: ["sales.revenue"],
      dimensions: ["sales.country", "sales.category"],
      timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2025-04-01", "2025-06-30"] as [string, string] }],
      order: [["sales.revenue", "desc"]] as [string, "desc"][],
    };
    const out = withCalculations(q, { compare: "previousPeriod", percentOfTotal: true }, ctx);
    expect(out.query).toEqual({
      measures: ["sales.revenue"],
      dimensions: ["sales.country", "sales.category"],
      compare: { dimension: "sales.created_at", baseline: ["2025-01-01", "2025-03-31"], current: ["2025-04-01", "2025-06-30"] },
      order: [["sales.revenue.current", "desc"]],
      calculations: [{ type: "percentOfTotal", measure: "sales.revenue.current" }],
    });
    expect(out.leftOut).toEqual({});
    expect(withCalculations(q, { compare: "yearBefore", percentOfTotal: false }, ctx).query.compare).toEqual({
      dimension: "sales.created_at",
      baseline: ["2024-04-01", "2024-06-30"],
      current: ["2025-04-01", "2025-06-30"],
    });
  });

  it("keeps a part of time beside the comparison (Mondays against Mondays)", () => {
    const q = { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" as const, dateRange: "this month" }] };
    expect(withCalculations(q, { ...none, compare: "previousPeriod" }, ctx).query).toEqual({
      measures: ["sales.count"],
      timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }],
      compare: { dimension: "sales.created_at", baseline: "last month", current: "this month" },
    });
  });

  it("compares a trend bucket by bucket, and not beside a percent of total", () => {
    const q = { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", granularity: "quarter" as const }] };
    expect(withCalculations(q, { ...none, compare: "previousPeriod" }, ctx).periodComparisons).toEqual([
      { measure: "sales.count", timeDimension: "sales.created_at", offset: { amount: 1, unit: "quarter" } },
    ]);
    expect(withCalculations(q, { ...none, compare: "yearBefore" }, ctx).periodComparisons?.[0]?.offset).toEqual({ amount: 1, unit: "year" });
    const both = withCalculations(q, { compare: "yearBefore", percentOfTotal: true }, ctx);
    expect(both.periodComparisons).toBeNull();
    expect(both.leftOut).toEqual({ compare: "compareNotWithShare" });
    expect(both.query.calculations).toEqual([{ type: "percentOfTotal", measure: "sales.count" }]);
  });

  it("leaves a comparison out beside a filter on a measure (which period would it mean?)", () => {
    const q = {
      measures: ["sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", dateRange: "this year" }],
      filters: [{ or: [{ member: "sales.revenue", operator: "gt" as const, values: [10] }] }],
    };
    const out = withCalculations(q, { ...none, compare: "yearBefore" }, ctx);
    expect(out.query).toEqual(q);
    expect(out.leftOut).toEqual({ compare: "compareNotWithMeasureFilter" });
  });

  it("leaves a comparison out, named, until the time dimension has a date range", () => {
    for (const q of [{ measures: ["sales.count"] }, { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at" }] }]) {
      const out = withCalculations(q, { ...none, compare: "yearBefore" }, ctx);
      expect(out.query).toEqual(q);
      expect(out.leftOut).toEqual({ compare: "compareNeedsRange" });
    }
  });
});

describe("savedCalculationsOf", () => {
  it("keeps a comparison of other ranges and the running totals and ranks as they are, the shares as the builder's choice", () => {
    const saved = {
      measures: ["sales.revenue"],
      dimensions: ["sales.category"],
      compare: {
        dimension: "sales.created_at",
        baseline: ["2024-07-01", "2024-09-30"] as [string, string],
        current: ["2025-01-01", "2025-03-31"] as [string, string],
      },
      calculations: [
        { type: "rank" as const, measure: "sales.revenue.change" },
        { type: "percentOfTotal" as const, measure: "sales.revenue.current" },
      ],
    };
    const choices = savedCalculationsOf(saved, null, "2025-05-14");
    expect(choices).toEqual({
      compare: "none",
      percentOfTotal: true,
      query: { measures: ["sales.revenue"], dimensions: ["sales.category"], compare: saved.compare, calculations: [saved.calculations[0]] },
    });
    // Run again, it asks the same question.
    expect(withCalculations(choices.query, choices, ctx).query).toEqual(saved);
  });

  it('reads "this quarter" against "last quarter" as the previous period', () => {
    const saved = { measures: ["sales.count"], compare: { dimension: "sales.created_at", baseline: "last quarter", current: "this quarter" } };
    expect(savedCalculationsOf(saved, null, "2025-05-14")).toEqual({
      compare: "previousPeriod",
      percentOfTotal: false,
      query: { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", dateRange: "this quarter" }] },
    });
  });
});
