import { describe, expect, it } from "vitest";
import {
  applyMemberSwitches,
  columnAliases,
  composeDetailQuery,
  drillPageQuery,
  composeWidgetQuery,
  filterAppliesTo,
  grainEnd,
  switchedMember,
} from "./compose-query";

const base = {
  measures: ["sales.revenue"],
  dimensions: ["sales.status"],
  timeDimensions: [{ dimension: "sales.created_at", granularity: "month" as const, dateRange: ["2024-01-01", "2024-12-31"] as [string, string] }],
  order: { "sales.created_at.month": "asc" as const },
};

describe("composeWidgetQuery", () => {
  it("adds dashboard filters of the same view as query filters", () => {
    const q = composeWidgetQuery(base, {
      filters: { "sales.country": { member: "sales.country", operator: "equals", value: ["US", "CA"] } },
      timeGrains: {},
      timezone: null,
    });
    expect(q.filters).toEqual([{ member: "sales.country", operator: "in", values: ["US", "CA"] }]);
  });

  it("leaves out filters of other views", () => {
    const q = composeWidgetQuery(base, {
      filters: { "orders.country": { member: "orders.country", operator: "equals", value: "US" } },
      timeGrains: {},
      timezone: null,
    });
    expect(q.filters).toBeUndefined();
    expect(filterAppliesTo("orders.country", base)).toBe(false);
  });

  it("switches the granularity of a bound time dimension and renames its order column", () => {
    const q = composeWidgetQuery(base, { filters: {}, timeGrains: { "sales.created_at": "week" }, timezone: null });
    expect(q.timeDimensions?.[0]?.granularity).toBe("week");
    expect(q.order).toEqual({ "sales.created_at.week": "asc" });
    expect(base.timeDimensions[0]!.granularity).toBe("month");
  });

  it("sets the time zone and can exclude one member's filter", () => {
    const filters = { "sales.status": { member: "sales.status", operator: "equals" as const, value: "completed" } };
    const q = composeWidgetQuery(base, { filters, timeGrains: {}, timezone: "Europe/Berlin" }, "sales.status");
    expect(q.timezone).toBe("Europe/Berlin");
    expect(q.filters).toBeUndefined();
  });

  it("maps a date range filter to inDateRange", () => {
    const q = composeWidgetQuery(base, {
      filters: { "sales.created_at": { member: "sales.created_at", operator: "between", value: ["2024-02-01", "2024-02-29"] } },
      timeGrains: {},
      timezone: null,
    });
    expect(q.filters).toEqual([{ member: "sales.created_at", operator: "inDateRange", values: ["2024-02-01", "2024-02-29"] }]);
  });
});

describe("composeDetailQuery", () => {
  it("lists the rows by the drill members, leaving out one the time dimension lists by day", () => {
    const q = composeDetailQuery(base, { "sales.status": "completed", "sales.created_at.month": "2024-02-01T00:00:00.000" }, "sales.revenue", [
      "sales.order_id",
      "sales.created_at",
    ]);
    expect(q.dimensions).toEqual(["sales.status", "sales.order_id"]);
  });

  it("pages the detail query on the server, one row more than a page, sorted by the chosen column", () => {
    const q = composeDetailQuery(base, { "sales.status": "completed" }, "sales.revenue", ["sales.order_id"]);
    expect(drillPageQuery(q, 0, null)).toMatchObject({ limit: 51, offset: 0, order: [["sales.revenue", "desc"]] });
    expect(drillPageQuery(q, 2, { key: "sales.order_id", direction: "asc" })).toMatchObject({ limit: 51, offset: 100, order: [["sales.order_id", "asc"]] });
  });

  it("filters to the clicked slice and narrows the time range to its period", () => {
    const q = composeDetailQuery(
      base,
      { "sales.status": "completed", "sales.created_at.month": "2024-02-01T00:00:00.000", "sales.revenue": 10 },
      "sales.revenue",
      ["sales.customers_city"],
    );
    expect(q.filters).toContainEqual({ member: "sales.status", operator: "equals", values: ["completed"] });
    expect(q.timeDimensions).toEqual([{ dimension: "sales.created_at", granularity: "day" as const, dateRange: ["2024-02-01", "2024-02-29"] }]);
    expect(q.dimensions).toEqual(["sales.status", "sales.customers_city"]);
    expect(q.measures).toEqual(["sales.revenue"]);
  });

  it("computes the last day of a period", () => {
    expect(grainEnd("2024-10-01", "quarter")).toBe("2024-12-31");
    expect(grainEnd("2023-01-01", "year")).toBe("2023-12-31");
    expect(grainEnd("2024-03-04", "week")).toBe("2024-03-10");
  });
});

describe("applyMemberSwitches", () => {
  it("replaces a switched measure by the selected member of the same view", () => {
    const q = composeWidgetQuery(base, { filters: {}, timeGrains: {}, timezone: null, memberSwitches: { "sales.revenue": "units" } });
    expect(q.measures).toEqual(["sales.units"]);
    expect(base.measures).toEqual(["sales.revenue"]);
  });

  it("replaces dimensions, time dimensions, filters and order columns in place", () => {
    const report = { ...base, filters: [{ or: [{ member: "sales.status", operator: "equals" as const, values: ["completed"] }] }] };
    const q = applyMemberSwitches(report, { "sales.status": "sales.channel", "sales.created_at": "shipped_at" });
    expect(q.dimensions).toEqual(["sales.channel"]);
    expect(q.timeDimensions?.[0]?.dimension).toBe("sales.shipped_at");
    expect(q.filters).toEqual([{ or: [{ member: "sales.channel", operator: "equals", values: ["completed"] }] }]);
    expect(q.order).toEqual({ "sales.shipped_at.month": "asc" });
  });

  it("ignores a switch to another view or to a malformed name", () => {
    expect(switchedMember("sales.revenue", "orders.units")).toBeNull();
    expect(switchedMember("sales.revenue", "units; drop")).toBeNull();
    expect(applyMemberSwitches(base, { "sales.revenue": "other.units" })).toBe(base);
  });

  it("lists the renamed columns as aliases for specs and templates", () => {
    const q = composeWidgetQuery(base, {
      filters: {},
      timeGrains: { "sales.created_at": "week" },
      timezone: null,
      memberSwitches: { "sales.revenue": "units" },
    });
    expect(columnAliases(base, q)).toEqual({ "sales.revenue": "sales.units", "sales.created_at.month": "sales.created_at.week" });
  });
});
