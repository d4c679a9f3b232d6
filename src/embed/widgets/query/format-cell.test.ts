import { describe, expect, it } from "vitest";
import { formatCell, wallTimeToDate } from "./format-cell";

const en = { locale: "en-US" as const, timezone: null };
const de = { locale: "de-DE" as const, timezone: null };

describe("formatCell", () => {
  it("applies currency, percent and number column formats in the locale", () => {
    expect(formatCell(1234.5, { key: "m", format: { type: "currency", decimalPlaces: 2 } }, en)).toBe("$1,234.50");
    expect(formatCell(1234.5, { key: "m", format: { type: "currency", decimalPlaces: 0 } }, de)).toBe("1.235\u00a0$");
    expect(formatCell(0.256, { key: "m", format: { type: "percent", decimalPlaces: 1 } }, en)).toBe("25.6%");
    expect(formatCell("1234.5678", { key: "m", format: { type: "number", decimalPlaces: 1 } }, de)).toBe("1.234,6");
  });

  it.each([
    ["a share", 0.25, { annotationFormat: "percent" }, en, "25%"],
    ["a share in German", 0.25, { annotationFormat: "percent" }, de, "25\u00a0%"],
    ["a share with a fraction", 0.2567, { annotationFormat: "percent" }, en, "25.7%"],
    ["a relative change", 0.125, { annotationFormat: "percent", signed: true }, en, "+12.5%"],
    ["a fall", -0.125, { annotationFormat: "percent", signed: true }, de, "-12,5\u00a0%"],
    ["no change", 0, { annotationFormat: "percent", signed: true }, en, "0%"],
    ["a change of money", 250, { annotationFormat: "currency", signed: true }, en, "+$250.00"],
    ["a change of a count", 1200, { signed: true }, en, "+1,200"],
    ["a change under the report's own format", 0.5, { signed: true, format: { type: "percent" as const, decimalPlaces: 0 } }, en, "+50%"],
  ])("formats %s", (_what, value, column, ctx, expected) => {
    expect(formatCell(value, { key: "sales.revenue.change", type: "number", ...column }, ctx)).toBe(expected);
  });

  it("labels a part of time in the locale (a weekday, a month) instead of its number", () => {
    expect(formatCell(1, { key: "sales.created_at.dayOfWeek", type: "number", timePart: "dayOfWeek" }, de)).toBe("Montag");
    expect(formatCell("3", { key: "sales.created_at.monthOfYear", type: "number", timePart: "monthOfYear" }, en)).toBe("March");
    expect(formatCell(1, { key: "sales.created_at.dayOfWeek", type: "number" }, de)).toBe("1");
  });

  it("formats time values by their granularity without shifting the wall-clock time", () => {
    expect(formatCell("2024-03-01T00:00:00.000", { key: "sales.created_at.month", type: "time" }, en)).toBe("Mar 2024");
    expect(formatCell("2024-10-01T00:00:00.000", { key: "sales.created_at.quarter", type: "time" }, en)).toBe("Q4 2024");
    expect(formatCell("2024-03-05T00:00:00.000", { key: "sales.created_at.day", type: "time" }, { locale: "en-US", timezone: "Pacific/Honolulu" })).toBe(
      "Mar 5, 2024",
    );
  });

  it("shows a dash for empty values and keeps strings as they are", () => {
    expect(formatCell(null, { key: "d" }, en)).toBe("–");
    expect(formatCell("US", { key: "d", type: "string" }, en)).toBe("US");
  });

  it("reads wall time as its digits", () => {
    expect(wallTimeToDate("2024-01-02T03:04:05")?.toISOString()).toBe("2024-01-02T03:04:05.000Z");
    expect(wallTimeToDate("nope")).toBeNull();
  });
  it("shows identifiers without digit grouping", () => {
    expect(formatCell(13689, { key: "sales.order_id", type: "number" }, { locale: "en-US", timezone: null })).toBe("13689");
    expect(formatCell(13689, { key: "sales.count", type: "number" }, { locale: "en-US", timezone: null })).toBe("13,689");
  });
});
