import { describe, expect, it } from "vitest";
import { grainEnd } from "../widgets/query/compose-query";
import { breakoutChoices, breakoutQuery, finerGranularity, rowsOfValue, sliceFilters, timeChoice, timeQuery } from "./drill-explore";
import type { QueryAnnotation, SemanticQuery } from "../../schema/semantic-query";

const dim = (type: string) => ({ title: type, shortTitle: type, type });
const annotation: QueryAnnotation = {
  measures: { "sales.revenue": dim("number") },
  dimensions: {
    "sales.products_category": dim("string"),
    "sales.customers_city": dim("string"),
    "sales.status": dim("string"),
    "sales.order_id": dim("number"),
    "sales.created_at": dim("time"),
  },
  timeDimensions: {},
  segments: {},
};

// The detail query of a click on "Electronics" in revenue by category, within the dashboard's country filter.
const electronics: SemanticQuery = {
  measures: ["sales.revenue"],
  dimensions: ["sales.products_category", "sales.order_id", "sales.created_at", "sales.status", "sales.customers_city"],
  filters: [
    { member: "sales.customers_country", operator: "equals", values: ["DE"] },
    { member: "sales.products_category", operator: "equals", values: ["Electronics"] },
  ],
  order: [["sales.revenue", "desc"]],
  limit: 500,
};

// A click on March 2025 of a monthly trend: the month as a range by day.
const march: SemanticQuery = {
  measures: ["sales.revenue"],
  dimensions: ["sales.status"],
  timeDimensions: [{ dimension: "sales.created_at", granularity: "day", dateRange: ["2025-03-01", "2025-03-31"] }],
  filters: [],
  timezone: "Europe/Berlin",
};

describe("drill-through steps", () => {
  it("breaks a slice out by the text dimensions it is not already one value of, never by an id", () => {
    expect(breakoutChoices(electronics, annotation)).toEqual(["sales.status", "sales.customers_city"]);
    expect(breakoutChoices(electronics, undefined)).toEqual([]);
  });

  it("keeps the slice's filters and period in a breakout, largest value first", () => {
    expect(breakoutQuery(electronics, "sales.revenue", "sales.customers_city")).toEqual({
      measures: ["sales.revenue"],
      dimensions: ["sales.customers_city"],
      filters: electronics.filters,
      order: [["sales.revenue", "desc"]],
      limit: 100,
    });
    expect(breakoutQuery(march, "sales.revenue", "sales.status")).toMatchObject({
      timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2025-03-01", "2025-03-31"] }],
      timezone: "Europe/Berlin",
    });
  });

  it("zooms a period in to a finer grain: a year or quarter by month, a month by week, a week by day", () => {
    expect(finerGranularity(["2025-01-01", "2025-12-31"])).toBe("month");
    expect(finerGranularity(["2025-01-01", "2025-03-31"])).toBe("month");
    expect(finerGranularity(["2025-03-01", "2025-03-31"])).toBe("week");
    expect(finerGranularity(["2025-03-03", "2025-03-09"])).toBe("day");
    expect(timeChoice(march, annotation)).toEqual({ dimension: "sales.created_at", granularity: "week" });
    // No period clicked: a time dimension the slice lists, by month; a single day: nothing finer.
    expect(timeChoice(electronics, annotation)).toEqual({ dimension: "sales.created_at", granularity: "month" });
    expect(timeChoice({ ...march, timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2025-03-04", "2025-03-04"] }] }, annotation)).toBeNull();
  });

  it("runs the time step over the clicked period only, in order", () => {
    expect(timeQuery(march, "sales.revenue", { dimension: "sales.created_at", granularity: "week" })).toEqual({
      measures: ["sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "week", dateRange: ["2025-03-01", "2025-03-31"] }],
      filters: [],
      order: [["sales.created_at.week", "asc"]],
      limit: 400,
      timezone: "Europe/Berlin",
    });
  });

  it("opens the rows of one value of a step: an equality (or not set) on its dimension, or its period", () => {
    expect(rowsOfValue(electronics, { kind: "breakout", dimension: "sales.customers_city" }, "Berlin", grainEnd).filters).toEqual([
      ...electronics.filters!,
      { member: "sales.customers_city", operator: "equals", values: ["Berlin"] },
    ]);
    expect(rowsOfValue(electronics, { kind: "breakout", dimension: "sales.status" }, null, grainEnd).filters!.at(-1)).toEqual({
      member: "sales.status",
      operator: "notSet",
      values: [],
    });
    expect(
      rowsOfValue(march, { kind: "time", dimension: "sales.created_at", granularity: "week" }, "2025-03-10T00:00:00.000", grainEnd).timeDimensions,
    ).toEqual([{ dimension: "sales.created_at", granularity: "day", dateRange: ["2025-03-10", "2025-03-16"] }]);
  });

  it("offers the slice's single values as dashboard filters only where the dashboard has a control for them", () => {
    const withList: SemanticQuery = { ...electronics, filters: [...electronics.filters!, { member: "sales.status", operator: "equals", values: ["a", "b"] }] };
    expect(sliceFilters(withList, new Set(["sales.customers_country", "sales.status"]))).toEqual([
      { member: "sales.customers_country", operator: "equals", value: "DE" },
    ]);
    expect(sliceFilters(electronics, new Set(["sales.products_category"]))).toEqual([
      { member: "sales.products_category", operator: "equals", value: "Electronics" },
    ]);
    expect(sliceFilters(electronics, undefined)).toEqual([]);
  });
});
