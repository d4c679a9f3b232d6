import { describe, expect, it } from "vitest";
import { dateRangeChoiceOf, timeColumnOf, timeGroupingOf, timePartLabelExpr, withDateRangeChoice, withTimeGrouping } from "./report-time";

const td = { dimension: "sales.created_at", granularity: "month" as const, dateRange: "This year" };

describe("withTimeGrouping", () => {
  it.each([
    ["a part of time instead of the period", "part:dayOfWeek", { dimension: "sales.created_at", part: "dayOfWeek", dateRange: "This year" }],
    ["another period", "granularity:week", { dimension: "sales.created_at", granularity: "week" as const, dateRange: "This year" }],
    ["no grouping", "", { dimension: "sales.created_at", dateRange: "This year" }],
    ["no part it does not know", "part:fortnight", { dimension: "sales.created_at", dateRange: "This year" }],
  ])("groups by %s", (_what, grouping, expected) => {
    expect(withTimeGrouping(td, grouping)).toEqual(expected);
  });

  it("replaces a part by a period, never keeping both", () => {
    expect(withTimeGrouping({ dimension: "sales.created_at", part: "hourOfDay" }, "granularity:day")).toEqual({
      dimension: "sales.created_at",
      granularity: "day" as const,
    });
  });
});

describe("timeGroupingOf and timeColumnOf", () => {
  it.each([
    [{ dimension: "sales.created_at", granularity: "month" as const }, "granularity:month", "sales.created_at.month"],
    [{ dimension: "sales.created_at", part: "monthOfYear" as const }, "part:monthOfYear", "sales.created_at.monthOfYear"],
    [{ dimension: "sales.created_at" }, "", "sales.created_at"],
  ])("reads %j as %s, column %s", (value, grouping, column) => {
    expect(timeGroupingOf(value)).toBe(grouping);
    expect(timeColumnOf(value)).toBe(column);
  });
});

describe("timePartLabelExpr", () => {
  it.each([
    ["de-DE", "dayOfWeek" as const, 1, "Montag"],
    ["de-DE", "dayOfWeek" as const, 7, "Sonntag"],
    ["es-ES", "monthOfYear" as const, 1, "enero"],
    ["en-US", "quarterOfYear" as const, 3, "Q3"],
    ["en-US", "hourOfDay" as const, 0, "12:00 AM"],
  ])("labels the values in %s: %s %i is %s", (locale, part, value, label) => {
    const expr = timePartLabelExpr(locale, part);
    const labels = JSON.parse(expr.slice(0, expr.indexOf("[datum.value]"))) as string[];
    expect(labels[value]).toBe(label);
    expect(expr.endsWith("[datum.value] || datum.label")).toBe(true);
  });
});

describe("dateRangeChoiceOf", () => {
  it.each([
    [undefined, ""],
    ["last 30 days", "last 30 days"],
    ["Last 7 days", "last 7 days"],
    ["This year", "this year"],
    ["next 2 weeks", "custom"],
    [["2025-01-01", "2025-03-31"], "custom"],
    [["", ""], "custom"],
  ] as const)("reads %j as the choice %j", (range, choice) => {
    expect(dateRangeChoiceOf(range === undefined ? undefined : typeof range === "string" ? range : [range[0], range[1]])).toBe(choice);
  });
});

describe("withDateRangeChoice", () => {
  const base = { dimension: "sales.created_at", granularity: "month" as const };
  it.each([
    [{ ...base, dateRange: "this year" }, "", base],
    [base, "last quarter", { ...base, dateRange: "last quarter" }],
    [{ ...base, dateRange: "this year" }, "custom", { ...base, dateRange: ["", ""] }],
    [{ ...base, dateRange: ["2025-01-01", ""] as [string, string] }, "custom", { ...base, dateRange: ["2025-01-01", ""] }],
  ])("sets %j to %j", (from, choice, to) => {
    expect(withDateRangeChoice(from, choice)).toEqual(to);
  });
});
