import { describe, expect, it } from "vitest";
import { membersNamedByFormula } from "./named-members";

describe("membersNamedByFormula", () => {
  it.each([
    ["revenue / customer_count", ["sales.revenue", "sales.customer_count"]],
    ["count(where status = 'returned') / count", ["sales.count", "sales.status", "sales.count"]],
    ["sum(amount * 1.2 where amount >= 20 and not is_big)", ["sales.amount", "sales.amount", "sales.is_big"]],
    ["coalesce(customers.country, 'none') in ('DE', 'FR')", ["customers.country"]],
    ["revenue(where upper(customers_country) = 'DE') - abs(-3)", ["sales.revenue", "sales.customers_country"]],
    ["count_distinct(customer_id) + 1", ["sales.customer_id"]],
    ["1 + 2", []],
  ])("%s", (formula, expected) => {
    expect(membersNamedByFormula(formula, "sales")).toEqual(expected);
  });

  it("is null for a formula that does not parse", () => {
    expect(membersNamedByFormula("revenue / ", "sales")).toBeNull();
    expect(membersNamedByFormula("'open", "sales")).toBeNull();
  });
});
