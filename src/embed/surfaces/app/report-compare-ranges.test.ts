import { describe, expect, it } from "vitest";
import { compareRangesOf, datesOfRelative } from "./report-compare-ranges";

describe("compareRangesOf", () => {
  it.each([
    [["2025-04-01", "2025-06-30"], "previousPeriod", { baseline: ["2025-01-01", "2025-03-31"], current: ["2025-04-01", "2025-06-30"] }],
    [["2025-03-01", "2025-03-31"], "previousPeriod", { baseline: ["2025-02-01", "2025-02-28"], current: ["2025-03-01", "2025-03-31"] }],
    [["2025-05-10", "2025-05-16"], "previousPeriod", { baseline: ["2025-05-03", "2025-05-09"], current: ["2025-05-10", "2025-05-16"] }],
    [["2024-02-29", "2024-03-31"], "yearBefore", { baseline: ["2023-02-28", "2023-03-31"], current: ["2024-02-29", "2024-03-31"] }],
    ["this quarter", "previousPeriod", { baseline: "last quarter", current: "this quarter" }],
    ["this year", "yearBefore", { baseline: ["2024-01-01", "2024-12-31"], current: ["2025-01-01", "2025-12-31"] }],
    ["last 30 days", "previousPeriod", { baseline: ["2025-03-15", "2025-04-13"], current: ["2025-04-14", "2025-05-13"] }],
  ] as const)("%j against %s", (range, mode, expected) => {
    expect(compareRangesOf(range as string | [string, string], mode, "2025-05-14")).toEqual(expected);
  });
});

describe("datesOfRelative", () => {
  it.each([
    ["today", ["2025-05-14", "2025-05-14"]],
    ["yesterday", ["2025-05-13", "2025-05-13"]],
    ["last 7 days", ["2025-05-07", "2025-05-13"]],
    ["this week", ["2025-05-12", "2025-05-18"]],
    ["last month", ["2025-04-01", "2025-04-30"]],
    ["last quarter", ["2025-01-01", "2025-03-31"]],
    ["last 2 years", ["2023-01-01", "2024-12-31"]],
    ["next week", null],
  ])("%s on 2025-05-14 is %j", (phrase, expected) => {
    expect(datesOfRelative(phrase, "2025-05-14")).toEqual(expected);
  });
});
