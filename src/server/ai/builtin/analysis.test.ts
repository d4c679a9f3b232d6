import { describe, expect, it } from "vitest";
import type { Language } from "../builtin-language";
import { periodBefore, readCalculation, readEach, readPeriods, readWhy } from "./analysis";
import { DEMO_REFERENCE } from "./demo-views";
import { isoDay } from "./time";

const tidy = (s: string) => s.replace(/\s+/g, " ").trim();
const day = (d: string) => new Date(d + "T00:00:00Z");

describe("readWhy", () => {
  it.each([
    ["why revenue change in february 2025", true, "revenue in february 2025"],
    ["why revenue grew", true, "revenue"],
    ["revenue change by month", false, "revenue change by month"],
  ])("%s → %s", (text, why, rest) => {
    const read = readWhy(text);
    expect(read.why).toBe(why);
    expect(tidy(read.rest)).toBe(rest);
  });
});

describe("readCalculation", () => {
  it.each([
    ["what share revenue by each category", "percentOfTotal", "what revenue by each category"],
    ["cumulative revenue by month", "runningTotal", "revenue by month"],
    ["rank cities by revenue", "rank", "cities by revenue"],
    ["rangliste der city by revenue", "rank", "der city by revenue"],
    ["revenue by month", undefined, "revenue by month"],
  ])("%s → %s", (text, calculation, rest) => {
    const read = readCalculation(text);
    expect(read.calculation).toBe(calculation);
    expect(tidy(read.rest)).toBe(rest);
  });
});

describe("readEach", () => {
  it.each([
    ["top units sold product by each category", true, "top units sold product by category"],
    ["revenue by category", false, "revenue by category"],
  ])("%s → %s", (text, each, rest) => {
    const read = readEach(text);
    expect(read.each).toBe(each);
    expect(tidy(read.rest)).toBe(rest);
  });
});

describe("readPeriods", () => {
  it.each<[string, string, Language, string[] | null, string[] | null]>([
    [
      "compare revenue in q1 2025 with q1 2024",
      "compare revenue in Q1 2025 with Q1 2024",
      "en",
      null,
      ["2024-01-01", "2024-04-01", "2025-01-01", "2025-04-01"],
    ],
    [
      "category grew top from q1 2025 to q2 2025",
      "category grew fastest from Q1 2025 to Q2 2025",
      "en",
      null,
      ["2025-01-01", "2025-04-01", "2025-04-01", "2025-07-01"],
    ],
    ["revenue in 2023 and 2024", "revenue in 2023 and 2024", "en", ["2023-01-01", "2025-01-01"], null],
    ["revenue last quarter", "revenue last quarter", "en", ["2025-04-01", "2025-07-01"], null],
    ["revenue im februar 2025", "Umsatz im Februar 2025", "de", ["2025-02-01", "2025-03-01"], null],
    ["revenue by category", "revenue by category", "en", null, null],
  ])("%s", (canonical, original, lang, period, periods) => {
    const read = readPeriods(canonical, original, lang, DEMO_REFERENCE);
    expect(read.period ? [isoDay(read.period.from), isoDay(read.period.to)] : null).toEqual(period);
    expect(
      read.periods ? [read.periods.baseline.from, read.periods.baseline.to, read.periods.current.from, read.periods.current.to].map(isoDay) : null,
    ).toEqual(periods);
  });
});

describe("periodBefore", () => {
  it.each([
    ["2025-02-01", "2025-03-01", "2025-01-01", "2025-02-01"],
    ["2025-04-01", "2025-07-01", "2025-01-01", "2025-04-01"],
    ["2025-01-01", "2026-01-01", "2024-01-01", "2025-01-01"],
    ["2025-03-10", "2025-03-17", "2025-03-03", "2025-03-10"],
  ])("[%s, %s) → [%s, %s)", (from, to, bFrom, bTo) => {
    const p = periodBefore({ from: day(from), to: day(to) });
    expect([isoDay(p.from), isoDay(p.to)]).toEqual([bFrom, bTo]);
  });
});
