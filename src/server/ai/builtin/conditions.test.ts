import { describe, expect, it } from "vitest";
import { readConditions, resolveCondition, type WrittenCondition } from "./conditions";
import { demoViews } from "./demo-views";

const [sales] = demoViews();

describe("readConditions", () => {
  it.each<[string, WrittenCondition[], string]>([
    ["orders gt 500", [{ operator: "gt", value: 500, before: ["orders"] }], "orders"],
    ["revenue from orders with gt 3 units", [{ operator: "gt", value: 3, unit: "units", before: ["revenue", "orders"] }], "revenue from orders with"],
    ["orders lte 2.5 by country", [{ operator: "lte", value: 2.5, before: ["orders"] }], "orders by country"],
    [
      "count gte 10 orders lt 100",
      [
        { operator: "gte", value: 10, unit: "orders", before: ["count"] },
        { operator: "lt", value: 100, before: ["count"] },
      ],
      "count",
    ],
    ["revenue by country", [], "revenue by country"],
  ])("%s", (text, written, rest) => {
    const read = readConditions(text);
    expect(read.written).toEqual(written);
    expect(read.rest.replace(/\s+/g, " ").trim()).toBe(rest);
  });
});

describe('readConditions: the text with each comparison in place, for the "or" reading', () => {
  it.each<[string, string]>([
    ["orders gt 500 or lt 10", "orders #0 or #1"],
    ["orders gt 500 dollars or lt 10 dollars", "orders #0 or #1"],
    ["orders from germany with gt 3 units or orders gt 500", "orders from germany with #0 or orders #1"],
    ["orders between 100 and 500", "orders #0"],
  ])("%s", (text, marked) => {
    expect(readConditions(text).marked.replace(/\s+/g, " ").trim()).toBe(marked);
  });

  it('leaves "or" out of the words before a comparison (the second of "revenue above 40000 or below 1000" is still on revenue)', () => {
    expect(readConditions("categories with revenue gt 40000 or lt 1000").written[1]!.before).toEqual(["categories", "revenue"]);
  });
});

describe("resolveCondition in the sales view (the model decides: rows or groups)", () => {
  it.each<[string, WrittenCondition, { grouped: boolean; money: boolean }, string | null]>([
    ["orders above $500: the order's amount", { operator: "gt", value: 500, before: ["orders"] }, { grouped: false, money: true }, "sales.amount"],
    [
      "orders above 500, by country: still the order's amount",
      { operator: "gt", value: 500, before: ["orders"] },
      { grouped: true, money: false },
      "sales.amount",
    ],
    ["more than 3 units: the order's quantity", { operator: "gt", value: 3, unit: "units", before: [] }, { grouped: false, money: false }, "sales.quantity"],
    [
      "orders with more than 3 units, by category: the order's quantity",
      { operator: "gt", value: 3, unit: "units", before: ["orders"] },
      { grouped: true, money: false },
      "sales.quantity",
    ],
    [
      "revenue above 10000, by category: the groups' revenue",
      { operator: "gt", value: 10000, before: ["revenue"] },
      { grouped: true, money: false },
      "sales.revenue",
    ],
    [
      "more than 50 orders, by city: the groups' count",
      { operator: "gt", value: 50, unit: "orders", before: [] },
      { grouped: true, money: false },
      "sales.count",
    ],
    ["a quantity above 3", { operator: "gt", value: 3, before: ["quantity"] }, { grouped: false, money: false }, "sales.quantity"],
    ["above $100", { operator: "gt", value: 100, before: [] }, { grouped: false, money: true }, "sales.amount"],
    ["above 100 of nothing", { operator: "gt", value: 100, before: [] }, { grouped: false, money: false }, null],
  ])("%s → %s", (_, written, opts, member) => {
    const c = resolveCondition(sales!, written, opts);
    expect(c?.member ?? null).toBe(member);
    if (c) expect([c.operator, c.value]).toEqual([written.operator, written.value]);
  });
});
