import { describe, expect, it } from "vitest";
import type { Language } from "../builtin-language";
import { formatPeriod, formatValue, listJoin } from "./format";

describe("formatValue", () => {
  it.each([
    ["en", 1234.567, "currency", "$1,234.57"],
    ["de", 1234.567, "currency", "1.234,57\u00a0$"],
    ["es", 0.256, "percent", "25,6\u00a0%"],
    ["en", "42", undefined, "42"],
    ["en", null, undefined, "–"],
    ["en", "n/a", undefined, "n/a"],
  ] as const)("%s %s (%s) → %s", (lang, value, format, expected) => expect(formatValue(lang as Language, value, format)).toBe(expected));
});

describe("formatPeriod", () => {
  it.each([
    ["en", "2025-02-01T00:00:00.000", "month", "February 2025"],
    ["de", "2025-03-01T00:00:00.000", "month", "März 2025"],
    ["es", "2025-03-01T00:00:00.000", "month", "marzo de 2025"],
    ["en", "2025-04-01T00:00:00.000", "quarter", "Q2 2025"],
    // Quarters as the column headings name them (semantic/column-labels.ts).
    ["es", "2025-04-01T00:00:00.000", "quarter", "T2 2025"],
    ["de", "2025-10-01T00:00:00.000", "quarter", "Q4 2025"],
    ["en", "2024-01-01T00:00:00.000", "year", "2024"],
    ["en", "2025-04-07T00:00:00.000", "day", "Apr 7, 2025"],
  ] as const)("%s %s (%s) → %s", (lang, value, grain, expected) => expect(formatPeriod(lang as Language, value, grain)).toBe(expected));
});

describe("listJoin", () => {
  it.each([
    ["en", ["a"], "a"],
    ["en", ["a", "b", "c"], "a, b and c"],
    ["de", ["a", "b"], "a und b"],
    ["es", ["a", "b"], "a y b"],
  ] as const)("%s %j → %s", (lang, items, expected) => expect(listJoin(lang as Language, [...items])).toBe(expected));
});
