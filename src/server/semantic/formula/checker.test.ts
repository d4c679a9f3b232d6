import { describe, expect, it } from "vitest";
import { checkFormula } from "../../../schema/formula/checker";
import { FormulaError, type FormulaErrorKind } from "../../../schema/formula/formula-error";
import { parseFormula } from "../../../schema/formula/parser";
import { salesScope } from "./test-scope";

const check = (text: string) => checkFormula(parseFormula(text), salesScope);

function refusal(text: string): { kind: FormulaErrorKind; position: number; detail: string } {
  try {
    check(text);
  } catch (e) {
    if (e instanceof FormulaError) return { kind: e.kind, position: e.position, detail: e.detail };
    throw e;
  }
  throw new Error(`accepted: ${text}`);
}

describe("checkFormula", () => {
  it.each([
    ["revenue / customers_count", "aggregate", "number", ["sales.revenue", "sales.customers_count"]],
    ["count(where status = 'returned') / count", "aggregate", "number", ["sales.count", "sales.status"]],
    ["sales.revenue - cost", "aggregate", "number", ["sales.revenue", "sales.cost"]],
    ["amount * 1.2", "row", "number", ["sales.amount"]],
    ["-amount", "row", "number", ["sales.amount"]],
    [
      "sum(amount * (1 - discount) where is_big and not status in ('lost', 'returned')) / count",
      "aggregate",
      "number",
      ["sales.amount", "sales.discount", "sales.is_big", "sales.status", "sales.count"],
    ],
    ["round(revenue / nullif(count, 0), 2)", "aggregate", "number", ["sales.revenue", "sales.count"]],
    ["coalesce(status, 'none')", "row", "string", ["sales.status"]],
    ["upper(country) = 'DE' or amount >= 50", "row", "boolean", ["sales.country", "sales.amount"]],
    ["created_at < shipped_at", "row", "boolean", ["sales.created_at", "sales.shipped_at"]],
    ["status is not null", "row", "boolean", ["sales.status"]],
    [
      "count_distinct(country where amount > 10) + max(amount) - abs(min(discount))",
      "aggregate",
      "number",
      ["sales.country", "sales.amount", "sales.discount"],
    ],
    ["greatest(revenue, cost, 0)", "aggregate", "number", ["sales.revenue", "sales.cost"]],
    ["REVENUE(where Status = 'x')", "unknown", "", []],
  ])("types %j", (text, level, type, members) => {
    if (level === "unknown") {
      expect(refusal(text).kind).toBe("unknown_member");
      return;
    }
    const checked = check(text);
    expect([checked.level, checked.type, checked.members]).toEqual([level, type, members]);
  });

  it.each([
    ["revnue / count", "unknown_member", 0, 'unknown member "revnue"; did you mean "revenue"?'],
    ["sales.revenu", "unknown_member", 0, 'did you mean "sales.revenue"?'],
    ["other.revenue", "unknown_member", 0, 'unknown member "other.revenue"'],
    ["revenue / zzz", "unknown_member", 10, 'unknown member "zzz"'],
    ["sqrt(amount)", "unknown_function", 0, 'unknown function "sqrt"'],
    ["rond(amount)", "unknown_function", 0, 'did you mean "round"?'],
    ["revenue(amount)", "syntax", 7, "revenue is a measure: it takes no arguments"],
    ["status(where amount > 1)", "type", 0, "status is a dimension"],
    ["status + 1", "type", 0, "needs a number, not text"],
    ["revenue > 'a'", "type", 10, "compares a number with text"],
    ["is_big < true", "type", 0, "does not order true/false"],
    ["amount and is_big", "type", 0, "and needs true/false"],
    ["not amount", "type", 4, "not needs true/false"],
    ["revenue / amount", "mixing", 10, "a dimension (one value per row) stands beside a measure"],
    ["status = 'x' or revenue > 1", "mixing", 0, "beside a measure"],
    ["revenue(where revenue > 1)", "mixing", 14, "read row by row"],
    ["sum(revenue)", "mixing", 4, "aggregates do not nest"],
    ["sum(status)", "type", 4, "sum() needs a number, not text"],
    ["sum(amount, 2)", "syntax", 3, "sum() takes one argument"],
    ["round(amount, 1.5)", "type", 14, "whole number from 0 to 10"],
    ["round(amount, discount)", "type", 14, "whole number"],
    ["coalesce(amount, 'x')", "type", 17, "mixes a number with text"],
    ["abs(amount, 1)", "syntax", 3, "abs() takes 1 argument"],
    ["abs(amount where is_big)", "syntax", 17, "takes no where"],
    ["lower(amount)", "type", 6, "lower() takes text"],
    ["status in ('a', 1)", "type", 16, "in compares text with a number"],
    ["status in ('a', country)", "type", 16, "written out"],
    ["1 + 2", "type", 0, "names at least one member"],
    ["count_distinct('') + sum(1)", "type", 0, "names at least one member"],
    ["created_at", "type", 0, "not a time"],
    ["revenue > 100", "type", 0, "gives a number; this one gives true/false"],
    ["sum(where is_big)", "unknown_member", 0, "sum(where …) filters the measure sum"],
  ])("refuses %j", (text, kind, position, message) => {
    const r = refusal(text);
    expect(r.detail).toContain(message);
    expect([r.kind, r.position]).toEqual([kind, position]);
  });

  it("lists the dimensions each aggregate adds up, for fan-out checks", () => {
    expect(check("sum(amount * discount where is_big) / count(country)").aggregates).toEqual([
      { name: "sum", members: ["sales.amount", "sales.discount"], position: 0 },
      { name: "count", members: ["sales.country"], position: 38 },
    ]);
  });
});
