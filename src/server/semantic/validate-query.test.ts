import { describe, expect, it } from "vitest";
import { loadDataModel } from "./data-model";
import { resolveRelativeRange, resolveDateRange } from "./date-range";
import { QueryValidationError } from "./errors";
import { shopModelYaml } from "./test-support/shop-fixture";
import { validateQuery } from "./validate-query";

const model = loadDataModel([{ path: "shop.yml", content: shopModelYaml("main") }]);
const detailsOf = (input: unknown) => {
  try {
    validateQuery(model, input, { now: new Date("2024-11-15T12:00:00Z") });
  } catch (e) {
    if (e instanceof QueryValidationError) return e.details.map((d) => ({ path: d.path.join("."), code: d.code }));
    throw e;
  }
  return [];
};

describe("validateQuery", () => {
  it("normalizes a valid query", () => {
    const q = validateQuery(model, {
      measures: ["sales.count"],
      filters: [{ member: "sales.amount", operator: "gt", values: ["5"] }],
      order: { "sales.count": "desc" },
    });
    expect(q).toMatchObject({
      limit: 10000,
      offset: 0,
      timezone: "UTC",
      order: [["sales.count", "desc"]],
      filters: [{ member: "sales.amount", operator: "gt", values: [5] }],
    });
  });

  it.each([
    ["unknown members", { measures: ["sales.nope"] }, [{ path: "measures.0", code: "unknown_member" }]],
    ["a measure used as a dimension", { dimensions: ["sales.count"] }, [{ path: "dimensions.0", code: "wrong_member_kind" }]],
    [
      "unknown operators",
      { measures: ["sales.count"], filters: [{ member: "sales.status", operator: "like", values: ["x"] }] },
      [{ path: "filters.0.operator", code: "bad_operator" }],
    ],
    [
      "string operators on numbers",
      { measures: ["sales.count"], filters: [{ member: "sales.amount", operator: "contains", values: ["1"] }] },
      [{ path: "filters.0.operator", code: "bad_operator" }],
    ],
    [
      "wrong value types",
      { measures: ["sales.count"], filters: [{ member: "sales.amount", operator: "equals", values: ["ten"] }] },
      [{ path: "filters.0.values.0", code: "wrong_value_type" }],
    ],
    [
      "non-dates for time members",
      { measures: ["sales.count"], filters: [{ member: "sales.created_at", operator: "afterDate", values: ["2024-02-30"] }] },
      [{ path: "filters.0.values.0", code: "wrong_value_type" }],
    ],
    [
      "numbers beyond what the engines compare exactly (int64 overflow in DuckDB)",
      { measures: ["sales.count"], filters: [{ member: "sales.amount", operator: "gt", values: [1e308] }] },
      [{ path: "filters.0.values.0", code: "value_out_of_range" }],
    ],
    [
      "integer-looking text beyond 2^63",
      { measures: ["sales.count"], filters: [{ member: "sales.amount", operator: "equals", values: ["9223372036854775808"] }] },
      [{ path: "filters.0.values.0", code: "value_out_of_range" }],
    ],
    [
      "dates in year 10000 once a day is added (afterDate 9999-12-31)",
      { measures: ["sales.count"], filters: [{ member: "sales.created_at", operator: "afterDate", values: ["9999-12-31"] }] },
      [{ path: "filters.0.values.0", code: "wrong_value_type" }],
    ],
    [
      "date ranges ending in year 9999",
      { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2024-01-01", "9999-12-31"] }] },
      [{ path: "timeDimensions.0.dateRange", code: "malformed_date_range" }],
    ],
    [
      "relative ranges that run past the last query year",
      { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", dateRange: "next 9999 years" }] },
      [{ path: "timeDimensions.0.dateRange", code: "malformed_date_range" }],
    ],
    [
      "wrong value counts",
      { measures: ["sales.count"], filters: [{ member: "sales.amount", operator: "gt", values: [1, 2] }] },
      [{ path: "filters.0.values", code: "wrong_value_count" }],
    ],
    [
      "malformed date ranges",
      { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2024-01-01", "soon"] }] },
      [{ path: "timeDimensions.0.dateRange", code: "malformed_date_range" }],
    ],
    [
      "unknown relative ranges",
      { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", dateRange: "since forever" }] },
      [{ path: "timeDimensions.0.dateRange", code: "malformed_date_range" }],
    ],
    [
      "measure filters mixed with dimensions",
      {
        measures: ["sales.count"],
        filters: [
          {
            or: [
              { member: "sales.count", operator: "gt", values: [1] },
              { member: "sales.status", operator: "set" },
            ],
          },
        ],
      },
      [{ path: "filters.0", code: "measure_filter_not_allowed" }],
    ],
    ["absurd limits", { measures: ["sales.count"], limit: 1e9 }, [{ path: "limit", code: "limit_out_of_range" }]],
    ["bare UTC offsets as time zones", { measures: ["sales.count"], timezone: "+02:00" }, [{ path: "timezone", code: "bad_timezone" }]],
    ["empty queries", { timeDimensions: [{ dimension: "sales.created_at", dateRange: "today" }] }, [{ path: "", code: "empty_query" }]],
    ["members of two views", { measures: ["sales.count", "orders.count"] }, [{ path: "", code: "unjoinable_members" }]],
    ["order by members outside the query", { measures: ["sales.count"], order: [["sales.status", "asc"]] }, [{ path: "order.0", code: "unknown_member" }]],
    ["malformed JSON shapes", { measures: "sales.count" }, [{ path: "measures", code: "invalid_shape" }]],
  ])("rejects %s", (_label, input, expected) => {
    expect(detailsOf(input)).toEqual(expected);
  });

  it("refuses measure filters where the caller forbids them", () => {
    expect(() =>
      validateQuery(model, { dimensions: ["sales.status"], filters: [{ member: "sales.count", operator: "gt", values: [1] }] }, { allowMeasureFilters: false }),
    ).toThrow(/not allowed/);
  });
});

describe("relative date ranges", () => {
  const now = new Date("2024-03-31T10:00:00Z"); // a Sunday, the day Berlin moves to summer time

  it.each([
    ["today", "2024-03-31T00:00:00.000", "2024-04-01T00:00:00.000"],
    ["yesterday", "2024-03-30T00:00:00.000", "2024-03-31T00:00:00.000"],
    ["last 7 days", "2024-03-24T00:00:00.000", "2024-03-31T00:00:00.000"],
    ["this week", "2024-03-25T00:00:00.000", "2024-04-01T00:00:00.000"],
    ["this month", "2024-03-01T00:00:00.000", "2024-04-01T00:00:00.000"],
    ["last month", "2024-02-01T00:00:00.000", "2024-03-01T00:00:00.000"],
    ["this quarter", "2024-01-01T00:00:00.000", "2024-04-01T00:00:00.000"],
    ["last year", "2023-01-01T00:00:00.000", "2024-01-01T00:00:00.000"],
    ["next 2 weeks", "2024-04-01T00:00:00.000", "2024-04-15T00:00:00.000"],
  ])("resolves %s in the query time zone", (phrase, start, end) => {
    const r = resolveRelativeRange(phrase, "Europe/Berlin", now)!;
    expect([r.start.toISOString().slice(0, 23), r.end.toISOString().slice(0, 23)]).toEqual([start, end]);
  });

  it("turns local day bounds into instants across a DST change", () => {
    const r = resolveDateRange("today", "Europe/Berlin", now);
    if (typeof r === "string") throw new Error(r);
    expect([r.from.toISOString(), r.to.toISOString()]).toEqual(["2024-03-30T23:00:00.000Z", "2024-03-31T22:00:00.000Z"]);
  });
});
