import { describe, expect, it } from "vitest";
import { filterOperators } from "../../../schema/semantic-query";
import { SUPPORTED_LOCALES } from "../../i18n/supported-locales";
import { appText } from "./app-messages";
import { isRangeOperator, OPERATOR_NAMES, OPERATORS_BY_TYPE, operatorsFor, rangeValues, valueInputOf, valuesAfterOperatorChange } from "./report-filters";

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

describe("OPERATOR_NAMES", () => {
  it("names every operator of the query contract, each differently, in every shipped locale", () => {
    for (const locale of SUPPORTED_LOCALES) {
      const names = filterOperators.map((o) => appText(locale, OPERATOR_NAMES[o]));
      expect(new Set(names).size, locale).toBe(filterOperators.length);
      for (const name of names) expect(name, locale).not.toMatch(/^[a-z]+[A-Z]/);
    }
  });

  it("offers dates before and after, not greater or less than", () => {
    expect(OPERATORS_BY_TYPE.time).toEqual(expect.arrayContaining(["beforeDate", "afterOrOnDate", "inDateRange"]));
    expect(OPERATORS_BY_TYPE.time.filter((o) => ["gt", "gte", "lt", "lte"].includes(o))).toEqual([]);
  });
});

describe("valueInputOf", () => {
  it.each([
    ["equals", "list"],
    ["gte", "list"],
    ["between", "numberRange"],
    ["notBetween", "numberRange"],
    ["inDateRange", "dateRange"],
    ["beforeOrOnDate", "date"],
    ["afterDate", "date"],
    ["set", "none"],
  ] as const)("enters the values of %s as %s", (operator, input) => {
    expect(valueInputOf(operator)).toBe(input);
  });
});
