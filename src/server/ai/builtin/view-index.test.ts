import { describe, expect, it } from "vitest";
import { demoViews } from "./demo-views";
import { lookup, memberAliases, scan, stem, valueAliases, type Match } from "./view-index";

const [sales] = demoViews();
const named = (m: Match | null) =>
  m === null ? null : m.kind === "value" ? `${sales!.values[m.ref]!.member}=${sales!.values[m.ref]!.value}` : sales!.members[m.ref]!.name;

describe("stem", () => {
  it.each([
    ["countries", "country"],
    ["cities", "city"],
    ["boxes", "box"],
    ["orders", "order"],
    ["status", "status"],
    ["class", "class"],
    ["bus", "bus"],
  ])("%s → %s", (word, expected) => expect(stem(word)).toBe(expected));
});

describe("valueAliases", () => {
  it.each([
    ["DE", ["DE", "Germany", "Deutschland", "Alemania"]],
    ["ES", ["ES", "Spain", "Spanien", "España"]],
    ["Electronics", ["Electronics"]],
    ["de", ["de"]],
  ])("%s → %j", (value, expected) => expect(valueAliases(value)).toEqual(expected));
});

describe("memberAliases", () => {
  const views = demoViews();
  const member = (name: string) => views.flatMap((v) => v.members).find((m) => m.name === name)!;
  it.each([
    ["sales.customers_country", ["Country", "customers country", "country"]],
    ["sales.products_name", ["Products Name", "products name", "products"]],
    ["customer_base.signed_up_at", ["Signed Up At", "signed up at", "up at", "Signed Up", "signed up"]],
    ["sales.units", ["Units Sold", "units"]],
  ])("%s → %j", (name, expected) => expect(memberAliases(member(name))).toEqual(expected));
});

describe("lookup in the sales view", () => {
  it.each([
    [["revenue"], "measure", "sales.revenue"],
    [["orders"], "measure", "sales.count"],
    [["units", "sold"], "measure", "sales.units"],
    [["average", "order", "value"], "measure", "sales.average_order_value"],
    [["country"], "dimension", "sales.customers_country"],
    [["countries"], "dimension", "sales.customers_country"],
    [["category"], "dimension", "sales.products_category"],
    [["product"], "dimension", "sales.products_name"],
    [["status"], "dimension", "sales.status"],
    [["germany"], "dimension", "sales.customers_country=DE"],
    [["alemania"], "dimension", "sales.customers_country=DE"],
    [["new", "york"], "dimension", "sales.customers_city=New York"],
    [["electronic"], "dimension", "sales.products_category=Electronics"],
    [["cancelled"], "dimension", "sales.status=cancelled"],
    [["segment"], "dimension", null],
    [["employees"], "measure", null],
    // Number dimensions without synonyms are not asked "by": coordinates, ids, prices.
    [["latitude"], "dimension", null],
  ] as const)("%j (%s) → %s", (words, prefer, expected) => expect(named(lookup(sales!, [...words], prefer))).toBe(expected));
});

describe("scan", () => {
  it.each([
    ["revenue by country", ["sales.revenue", "sales.customers_country"], []],
    ["revenue of electronics in new york", ["sales.revenue", "sales.products_category=Electronics", "sales.customers_city=New York"], []],
    ["average order value by segment", ["sales.average_order_value"], ["segment"]],
    ["employees", [], ["employees"]],
  ])("%s", (text, expected, left) => {
    const found: Match[] = [];
    expect(scan(sales!, text.split(" "), "measure", found)).toEqual(left);
    expect(found.map(named)).toEqual(expected);
  });
});
