import { describe, expect, it } from "vitest";
import { isRangeOperator, operatorsFor, rangeValues, valuesAfterOperatorChange } from "./report-filters";

const member = (type: "string" | "number" | "boolean" | "time") => ({ name: "sales.x", title: "X", shortTitle: "X", type });

describe("operatorsFor", () => {
  it.each([
    ["number", true],
    ["string", false],
    ["time", false],
    ["boolean", false],
  ] as const)("offers between on a %s member: %s", (type, offered) => {
    expect(operatorsFor(member(type), "equals").includes("between")).toBe(offered);
    expect(operatorsFor(member(type), "equals").includes("notBetween")).toBe(offered);
  });

  it("keeps a saved filter's operator in the list even where its type does not take it", () => {
    expect(operatorsFor(member("string"), "gt")[0]).toBe("gt");
    expect(operatorsFor(member("time"), "inDateRange").filter((o) => o === "inDateRange")).toHaveLength(1);
  });
});

describe("rangeValues", () => {
  it.each([
    ["10", "100", [10, 100]],
    ["100", "10", [10, 100]],
    ["-2.5", "0", [-2.5, 0]],
    ["5", "5", [5, 5]],
    ["", "100", []],
    ["10", " ", []],
    ["abc", "100", []],
  ])("reads %j to %j as %j", (low, high, values) => {
    expect(rangeValues(low, high)).toEqual(values);
  });
});

describe("valuesAfterOperatorChange", () => {
  it.each([
    ["equals", "notEquals", ["a"], ["a"]],
    ["in", "between", ["1", "2", "3"], []],
    ["between", "notBetween", [1, 2], [1, 2]],
    ["between", "gt", [1, 2], []],
    ["equals", "set", ["a"], []],
  ] as const)("from %s to %s keeps %j as %j", (from, to, values, expected) => {
    expect(valuesAfterOperatorChange(from, to, [...values])).toEqual(expected);
    expect(isRangeOperator(to)).toBe(to === "between" || to === "notBetween");
  });
});
