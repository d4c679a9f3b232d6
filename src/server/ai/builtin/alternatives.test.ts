import { describe, expect, it } from "vitest";
import { readAlternatives, termsOf } from "./alternatives";
import { readConditions, resolveCondition } from "./conditions";
import { demoViews } from "./demo-views";
import type { Condition } from "./understanding";

const [sales] = demoViews();

/** The "or" reading of a canonical text, its comparisons resolved as the question step does. */
function read(canonical: string, opts = { grouped: false, money: false }) {
  const conditions = readConditions(canonical);
  const resolved = conditions.written.map((w) => resolveCondition(sales!, w, opts)!);
  return readAlternatives(sales!, conditions.marked, resolved);
}

const c = (member: string, operator: Condition["operator"], value: number): { kind: "condition"; condition: Condition } => ({
  kind: "condition",
  condition: { member: `sales.${member}`, operator, value },
});
const v = (member: string, value: string) => ({ kind: "value" as const, member: `sales.${member}`, value });

describe("termsOf: a piece's filters in the order written", () => {
  it("reads values and comparisons in place; values after excluding are no term", () => {
    const conditions: Condition[] = [{ member: "sales.quantity", operator: "gt", value: 3 }];
    expect(termsOf(sales!, "orders from germany with #0 excluding cancelled", conditions)).toEqual([
      v("customers_country", "DE"),
      { kind: "condition", condition: conditions[0] },
    ]);
  });
});

describe("readAlternatives", () => {
  it.each<[string, ReturnType<typeof read>]>([
    // No "or", or an "or" between no filters: nothing to read.
    ["orders gt 500 dollars", null],
    ["revenue or orders by country", null],
    // One dimension's values: any of them, one figure.
    ["revenue from orders in germany or france with gt 3 units", { groups: [], anyOfValues: ["sales.customers_country"] }],
    // Two comparisons: either.
    ["orders gt 500 dollars or lt 10 dollars", { groups: [[[c("amount", "gt", 500)], [c("amount", "lt", 10)]]], anyOfValues: [] }],
    // "A and (B or C)": the "or" stands between the terms next to it.
    ["orders in germany with gt 3 units or gt 500 dollars", { groups: [[[c("quantity", "gt", 3)], [c("amount", "gt", 500)]]], anyOfValues: [] }],
    // A chain is one group.
    [
      "orders gt 500 dollars or lt 10 dollars or in germany",
      { groups: [[[c("amount", "gt", 500)], [c("amount", "lt", 10)], [v("customers_country", "DE")]]], anyOfValues: [] },
    ],
    // "(A and B) or C": the words after "or" name what is counted again.
    [
      "orders from germany with gt 3 units or orders gt 500 dollars",
      { groups: [[[v("customers_country", "DE"), c("quantity", "gt", 3)], [c("amount", "gt", 500)]]], anyOfValues: [] },
    ],
  ])("%s", (canonical, expected) => {
    expect(read(canonical, { grouped: false, money: /dollars/.test(canonical) })).toEqual(expected);
  });
});
