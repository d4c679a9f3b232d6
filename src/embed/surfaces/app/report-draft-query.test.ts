import { describe, expect, it } from "vitest";
import type { MemberFilter } from "../../../schema/semantic-query";
import type { MetaMember } from "./app-api";
import { completeQueryOf, filterState, isCompleteDateRange, isRelativeRange } from "./report-draft-query";

const TYPES: Record<string, MetaMember["type"]> = {
  "orders.id": "number",
  "orders.status": "string",
  "orders.created_at": "time",
  "orders.paid": "boolean",
};
const typeOf = (m: string) => TYPES[m];
const f = (member: string, operator: MemberFilter["operator"], values?: MemberFilter["values"]): MemberFilter => ({
  member,
  operator,
  ...(values ? { values } : {}),
});

describe("filterState", () => {
  it.each([
    ["equals without a value", f("orders.id", "equals", []), "incomplete"],
    ["equals without values at all", f("orders.status", "equals"), "incomplete"],
    ["equals with a number", f("orders.id", "equals", ["42"]), "complete"],
    ["equals with a bad number", f("orders.id", "equals", ["4x2"]), "incomplete"],
    ["equals with an empty text", f("orders.status", "equals", [" "]), "incomplete"],
    ["in with two texts", f("orders.status", "in", ["open", "paid"]), "complete"],
    ["contains a text", f("orders.status", "contains", ["pa"]), "complete"],
    ["gt with two values", f("orders.id", "gt", [1, 2]), "incomplete"],
    ["gte with one value", f("orders.id", "gte", [1]), "complete"],
    ["between with one bound", f("orders.id", "between", [10]), "incomplete"],
    ["between with no bound", f("orders.id", "between", []), "incomplete"],
    ["between with both bounds", f("orders.id", "between", [10, 100]), "complete"],
    ["between the wrong way round", f("orders.id", "between", [100, 10]), "incomplete"],
    ["notBetween with a bound that is not a number", f("orders.id", "notBetween", [1, "x"]), "incomplete"],
    ["set without values", f("orders.status", "set"), "complete"],
    ["notSet with a value", f("orders.status", "notSet", ["a"]), "incomplete"],
    ["inDateRange with one date", f("orders.created_at", "inDateRange", ["2025-01-01"]), "incomplete"],
    ["inDateRange with a start and an empty end", f("orders.created_at", "inDateRange", ["2025-01-01", ""]), "incomplete"],
    ["inDateRange with two dates", f("orders.created_at", "inDateRange", ["2025-01-01", "2025-03-31"]), "complete"],
    ["inDateRange ending before it starts", f("orders.created_at", "inDateRange", ["2025-03-31", "2025-01-01"]), "incomplete"],
    ["inDateRange with a relative range", f("orders.created_at", "inDateRange", ["last 30 days"]), "complete"],
    ["beforeDate with a day that does not exist", f("orders.created_at", "beforeDate", ["2025-02-30"]), "incomplete"],
    ["afterOrOnDate with a date", f("orders.created_at", "afterOrOnDate", ["2025-02-28"]), "complete"],
    ["equals on a boolean", f("orders.paid", "equals", ["true"]), "complete"],
    ["equals on a boolean with a word", f("orders.paid", "equals", ["yes"]), "incomplete"],
  ] as const)("reads %s as %s", (_what, filter, state) => {
    expect(filterState(filter, typeOf)).toBe(state);
  });
});

describe("isRelativeRange", () => {
  it.each([
    ["last 7 days", true],
    ["last 30 days", true],
    ["this month", true],
    ["last quarter", true],
    ["Last year", true],
    ["today", true],
    ["previous 7 days", false],
    ["last week-ish", false],
    ["", false],
  ])("reads %j as %s", (text, relative) => {
    expect(isRelativeRange(text)).toBe(relative);
  });
});

describe("isCompleteDateRange", () => {
  it.each([
    [undefined, true],
    ["this year", true],
    ["sometime", false],
    [["2025-01-01", "2025-01-31"], true],
    [["2025-01-01", ""], false],
    [["", "2025-01-31"], false],
    [["2025-02-01", "2025-01-31"], false],
  ] as const)("reads %j as %s", (range, complete) => {
    expect(isCompleteDateRange(range)).toBe(complete);
  });
});

describe("completeQueryOf", () => {
  it("leaves out incomplete filters and keeps the complete ones in order", () => {
    const q = completeQueryOf(
      {
        measures: ["orders.count"],
        filters: [f("orders.status", "equals", ["paid"]), f("orders.id", "equals", []), f("orders.id", "between", [1, 9])],
      },
      typeOf,
    );
    expect(q).toEqual({ measures: ["orders.count"], filters: [f("orders.status", "equals", ["paid"]), f("orders.id", "between", [1, 9])] });
  });

  it("has no filters when none is complete, so it equals the query before the half-made one", () => {
    const before = completeQueryOf({ measures: ["orders.count"], filters: [] }, typeOf);
    const after = completeQueryOf({ measures: ["orders.count"], filters: [f("orders.id", "equals", [])] }, typeOf);
    expect(after).toEqual(before);
    expect(after).toEqual({ measures: ["orders.count"] });
  });

  it("keeps the complete members of a group and drops a group left empty", () => {
    const q = completeQueryOf(
      {
        filters: [{ or: [f("orders.status", "equals", ["a"]), f("orders.status", "equals", [])] }, { and: [f("orders.id", "gt", [])] }],
      },
      typeOf,
    );
    expect(q.filters).toEqual([{ or: [f("orders.status", "equals", ["a"])] }]);
  });

  it("leaves out an unfinished custom date range and keeps the time dimension", () => {
    const q = completeQueryOf({
      timeDimensions: [
        { dimension: "orders.created_at", granularity: "month", dateRange: ["2025-01-01", ""] },
        { dimension: "orders.shipped_at", dateRange: "last month" },
      ],
    });
    expect(q.timeDimensions).toEqual([
      { dimension: "orders.created_at", granularity: "month" },
      { dimension: "orders.shipped_at", dateRange: "last month" },
    ]);
  });
});
