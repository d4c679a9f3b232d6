import { describe, expect, it } from "vitest";
import { SUPPORTED_LOCALES } from "../../i18n";
import { fillHtmlTemplate } from "./html-template";
import { comparisonColumn, comparisonPhrase, computeKpi } from "./kpi";
import { buildPointMapSpec } from "./map-spec";
import { nextSort, sortRows, visibleRowRange } from "./table-model";
import { numberFormatLocale } from "./vega-theme";

describe("computeKpi", () => {
  const comparison = [{ measure: "sales.revenue", timeDimension: "sales.created_at", offset: { amount: 1, unit: "year" }, outputs: ["revenue_prev_year"] }];
  it("takes the latest period and compares it with the comparison column", () => {
    const rows = [
      { "sales.created_at.quarter": "2025-04-01T00:00:00.000", "sales.revenue": 150, revenue_prev_year: 100 },
      { "sales.created_at.quarter": "2025-01-01T00:00:00.000", "sales.revenue": 90, revenue_prev_year: 80 },
    ];
    const k = computeKpi(rows, "sales.revenue", comparison, "sales.created_at.quarter");
    expect(k).toMatchObject({ value: 150, previous: 100, change: 0.5, comparisonOffset: { amount: 1, unit: "year" }, series: [90, 150] });
  });
  it("phrases the comparison period naturally in every shipped locale, never the raw offset", () => {
    expect(comparisonPhrase("en-US", { amount: 1, unit: "year" }, "$2,910,069")).toBe("vs. $2,910,069 last year");
    expect(comparisonPhrase("en-US", { amount: 2, unit: "months" }, "$5")).toBe("vs. $5 2 months ago");
    expect(comparisonPhrase("de-DE", { amount: 1, unit: "year" }, "5 $")).toBe("Letztes Jahr: 5 $");
    expect(comparisonPhrase("ja-JP", { amount: 1, unit: "year" }, "$5")).toBe("昨年: $5");
    for (const locale of SUPPORTED_LOCALES) {
      const phrase = comparisonPhrase(locale, { amount: 1, unit: "quarter" }, "X");
      expect(phrase).toContain("X");
      if (!locale.startsWith("en")) expect(phrase).not.toMatch(/quarter|\(1/);
    }
  });
  it("names the default comparison column like the server", () => {
    expect(comparisonColumn({ measure: "sales.count", timeDimension: "t", offset: { amount: 1, unit: "month" } })).toBe("sales.count_prev_month");
  });
});

describe("fillHtmlTemplate", () => {
  it("fills placeholders from the first row and escapes values", () => {
    expect(fillHtmlTemplate("<b>{{sales.city}}</b> {{ sales.missing }}", { "sales.city": "<script>x</script>" }, (_m, v) => String(v))).toBe(
      "<b>&#60;script&#62;x&#60;/script&#62;</b> ",
    );
  });
});

describe("table model", () => {
  it("sorts numbers numerically with empty values last and cycles the sort state", () => {
    const rows = [{ v: "10" }, { v: null }, { v: 9 }];
    expect(sortRows(rows, { key: "v", direction: "asc" }, "en-US").map((r) => r.v)).toEqual([9, "10", null]);
    expect(sortRows(rows, { key: "v", direction: "desc" }, "en-US").map((r) => r.v)).toEqual(["10", 9, null]);
    expect(nextSort(null, "v")).toEqual({ key: "v", direction: "asc" });
    expect(nextSort({ key: "v", direction: "desc" }, "v")).toBeNull();
  });
  it("renders only the rows near the viewport", () => {
    expect(visibleRowRange(3600, 360, 36, 10_000, 5)).toEqual({ start: 95, end: 115 });
  });
});

describe("chart specs and locales", () => {
  it("builds a point map with no external data", () => {
    const spec = buildPointMapSpec({ latitude: "c.lat", longitude: "c.lon", size: "s.revenue" });
    expect(JSON.stringify(spec)).not.toMatch(/"url"/);
    expect((spec.layer as unknown[]).length).toBe(3);
  });
  it("derives d3 number locales from Intl", () => {
    expect(numberFormatLocale("de-DE", "EUR")).toMatchObject({ decimal: ",", thousands: "." });
    expect(numberFormatLocale("en-US").currency).toEqual(["$", ""]);
  });
});
