import { describe, expect, it } from "vitest";
import type { Language } from "../builtin-language";
import { DEMO_REFERENCE } from "./demo-views";
import { isoDay, readTime, shift, startOf } from "./time";
import type { Grain } from "./understanding";

describe("startOf and shift", () => {
  it.each([
    ["day", "2025-05-14", 0, "2025-05-14"],
    ["week", "2025-05-14", 0, "2025-05-12"],
    ["month", "2025-05-14", 0, "2025-05-01"],
    ["quarter", "2025-05-14", 0, "2025-04-01"],
    ["year", "2025-05-14", 0, "2025-01-01"],
    ["month", "2025-05-14", -1, "2025-04-01"],
    ["quarter", "2025-05-14", 1, "2025-07-01"],
    ["year", "2025-05-14", -1, "2024-01-01"],
  ] as const)("%s of %s shifted by %i → %s", (unit, day, n, expected) => {
    expect(isoDay(shift(unit as Grain, startOf(unit as Grain, new Date(day + "T00:00:00Z")), n))).toBe(expected);
  });
});

describe("readTime (the demo data ends on Jun 30, 2025)", () => {
  it.each([
    ["revenue last quarter", "revenue last quarter", "en", "2025-04-01", "2025-07-01", "revenue"],
    ["revenue this year", "revenue this year", "en", "2025-01-01", "2026-01-01", "revenue"],
    ["orders last 3 month", "orders last 3 months", "en", "2025-04-01", "2025-07-01", "orders"],
    ["orders in q1 2025", "orders in Q1 2025", "en", "2025-01-01", "2025-04-01", "orders in"],
    ["revenue in 2024", "revenue in 2024", "en", "2024-01-01", "2025-01-01", "revenue in"],
    ["revenue in march 2025", "revenue in March 2025", "en", "2025-03-01", "2025-04-01", "revenue in"],
    ["revenue en febrero de 2025", "ingresos en febrero de 2025", "es", "2025-02-01", "2025-03-01", "revenue en"],
    ["revenue ytd", "revenue YTD", "en", "2025-01-01", "2025-07-02", "revenue"],
    ["revenue in q2", "revenue in Q2", "en", "2025-04-01", "2025-07-01", "revenue in"],
    ["revenue in q3", "revenue in Q3", "en", "2024-07-01", "2024-10-01", "revenue in"],
    ["revenue im februar 2025", "Umsatz im Februar 2025", "de", "2025-02-01", "2025-03-01", "revenue im"],
    ["revenue by country", "revenue by country", "en", null, null, "revenue by country"],
  ] as const)("%s", (canonical, original, lang, from, to, rest) => {
    const read = readTime(canonical, original, lang as Language, DEMO_REFERENCE);
    expect(read.period ? [isoDay(read.period.from), isoDay(read.period.to)] : [null, null]).toEqual([from, to]);
    expect(read.rest.replace(/\s+/g, " ").trim()).toBe(rest);
  });
});
