import { describe, expect, it } from "vitest";
import { periodOf } from "./ai-widget-summary";

describe("periodOf", () => {
  it.each([
    ["en", "2025-04-01T00:00:00.000", "quarter", "Q2 2025"],
    ["es-ES", "2025-04-01T00:00:00.000", "quarter", "T2 2025"],
    ["de-DE", "2025-06-01T00:00:00.000", "month", "Juni 2025"],
    ["en", "2024-01-01T00:00:00.000", "year", "2024"],
    ["en", "2025-06-09T00:00:00.000", "week", "Jun 9, 2025"],
    ["en", "2025-06-09T00:00:00.000", undefined, "Jun 9, 2025"],
    // Not a bucket's start: named by its day.
    ["en", "2025-06-09T00:00:00.000", "month", "Jun 9, 2025"],
  ] as const)("%s %s at %s → %s", (locale, value, grain, expected) => {
    expect(periodOf(locale, value, grain)).toBe(expected);
  });
});
