import { describe, expect, it } from "vitest";
import { readCompare, readGrain, readPart, readRank } from "./phrases";

const tidy = (s: string) => s.replace(/\s+/g, " ").trim();

describe("readCompare", () => {
  it.each([
    ["revenue growth by month", { against: false }, "revenue by month"],
    ["orders this year vs last year", { unit: "year", against: true }, "orders this year"],
    ["year over year revenue", { unit: "year", against: false }, "revenue"],
    ["revenue yoy", { unit: "year", against: false }, "revenue"],
    ["how did orders change by quarter", { against: false }, "how did orders by quarter"],
    ["revenue by country", undefined, "revenue by country"],
    ["revenue vs two years ago", { unit: "year", against: true, amount: 2 }, "revenue"],
    ["orders by month compared with 3 months earlier", { unit: "month", against: true, amount: 3 }, "orders by month"],
    ["revenue growth vs 2 quarters before", { unit: "quarter", against: true, amount: 2 }, "revenue"],
    ["revenue vs one year ago", { unit: "year", against: true }, "revenue"],
  ])("%s", (text, compare, rest) => {
    const read = readCompare(text);
    expect(read.compare).toEqual(compare && { unit: undefined, ...compare });
    expect(tidy(read.rest)).toBe(rest);
  });
});

describe("readGrain", () => {
  it.each([
    ["revenue by month", "month", "revenue"],
    ["monthly revenue", "month", "revenue"],
    ["orders each week", "week", "orders"],
    ["revenue over time", "month", "revenue"],
    ["monthly revenue over time for 2024", "month", "revenue for 2024"],
    ["revenue by country", undefined, "revenue by country"],
  ])("%s → %s", (text, grain, rest) => {
    const read = readGrain(text);
    expect(read.grain).toBe(grain);
    expect(tidy(read.rest)).toBe(rest);
  });
});

describe("readPart", () => {
  it.each([
    ["orders by weekday", "dayOfWeek", "orders"],
    ["revenue by hourofday", "hourOfDay", "revenue"],
    ["revenue by monthofyear", "monthOfYear", "revenue"],
    ["orders by quarterofyear", "quarterOfYear", "orders"],
    ["orders by dayofmonth", "dayOfMonth", "orders"],
    ["orders per weekofyear", "weekOfYear", "orders"],
    ["revenue by month", undefined, "revenue by month"],
  ])("%s → %s", (text, part, rest) => {
    const read = readPart(text);
    expect(read.part).toBe(part);
    expect(tidy(read.rest)).toBe(rest);
  });
});

describe("readRank", () => {
  it.each([
    ["top 5 cities by orders", 5, "desc", "cities by orders"],
    ["bottom 3 categories by revenue", 3, "asc", "categories by revenue"],
    ["cities by revenue 5 top", 5, "desc", "cities by revenue"],
    ["top product by revenue", 1, "desc", "product by revenue"],
    ["top 500 cities", 100, "desc", "cities"],
    ["revenue by city", undefined, undefined, "revenue by city"],
  ])("%s", (text, limit, direction, rest) => {
    const read = readRank(text);
    expect([read.limit, read.direction]).toEqual([limit, direction]);
    expect(tidy(read.rest)).toBe(rest);
  });
});
