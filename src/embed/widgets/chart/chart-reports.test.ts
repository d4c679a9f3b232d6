import { describe, expect, it } from "vitest";
import { SUPPORTED_LOCALES } from "../../i18n";
import { fillHtmlTemplate } from "./html-template";
import { comparisonColumn, comparisonPhrase, computeKpi } from "./kpi";
import { attachGeo, buildMapSpec, GEO_ID_FIELD, mapRows, numericCountryCode } from "./map-spec";
import { prepareVegaLiteSpec } from "./vega-spec";
import type { WorldGeo } from "./world-geo";
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
  it("fills a member's title as the viewer reads it, escaped", () => {
    const titles: Record<string, string> = { "sales.units": "Verkaufte <Einheiten>" };
    expect(
      fillHtmlTemplate(
        "{{sales.units}} {{ title:sales.units }} {{title: sales.count}}",
        { "sales.units": 3 },
        (_m, v) => String(v),
        (m) => titles[m] ?? m,
      ),
    ).toBe("3 Verkaufte &#60;Einheiten&#62; sales.count");
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
  const square = (id: string, x: number, y: number) => ({
    type: "Feature" as const,
    id,
    properties: { name: `c${id}` },
    geometry: {
      type: "Polygon" as const,
      coordinates: [
        [
          [x, y],
          [x, y + 1],
          [x + 1, y + 1],
          [x + 1, y],
          [x, y],
        ],
      ],
    },
  });
  const geo: WorldGeo = { countries: { type: "FeatureCollection", features: [square("840", -100, 40), square("276", 10, 50), square("392", 139, 35)] } };

  it("draws points over land and borders, with a size legend, fitted to the points, no external data", () => {
    const spec = buildMapSpec({ latitude: "c.lat", longitude: "c.lon", size: "s.revenue", label: "c.city" }, { scheme: "light" });
    expect(JSON.stringify(spec)).not.toMatch(/"url"/);
    const layers = spec.layer as { data?: { name?: string; sphere?: boolean }; mark: { type: string }; encoding?: { size?: { legend?: unknown } } }[];
    expect(layers.map((l) => l.data?.name ?? (l.data?.sphere ? "sphere" : "rows"))).toEqual(["sphere", "world", "rows"]);
    expect(layers[2]!.encoding!.size!.legend).toBeTruthy();
    const rows = [
      { "c.city": "Boston", "c.lat": 42.4, "c.lon": -71.1, "s.revenue": 10 },
      { "c.city": "Zurich", "c.lat": 47.4, "c.lon": 8.5, "s.revenue": 5 },
    ];
    const prepared = attachGeo(prepareVegaLiteSpec(spec, rows).spec, { latitude: "c.lat", longitude: "c.lon" }, geo);
    const fit = (prepared.projection as { fit: { type: string; coordinates: number[][] } }).fit;
    expect(fit.type).toBe("MultiPoint");
    const xs = fit.coordinates.map((c) => c[0]!);
    expect(Math.min(...xs)).toBeLessThan(-71.1);
    expect(Math.max(...xs)).toBeGreaterThan(8.5);
    expect(Math.max(...xs)).toBeLessThan(60);
    expect((prepared.datasets as { world: unknown[] }).world).toHaveLength(3);
  });

  it("fills countries by a measure through their ISO codes and fits to them", () => {
    expect(numericCountryCode("US")).toBe("840");
    expect(numericCountryCode("deu")).toBe("276");
    expect(numericCountryCode(392)).toBe("392");
    expect(numericCountryCode("ZZ")).toBeNull();
    const map = { country: "c.country", value: "s.revenue" };
    const rows = mapRows(map, [
      { "c.country": "US", "s.revenue": 10 },
      { "c.country": "DE", "s.revenue": 5 },
    ]);
    expect(rows.map((r) => r[GEO_ID_FIELD])).toEqual(["840", "276"]);
    const prepared = attachGeo(prepareVegaLiteSpec(buildMapSpec(map, { scheme: "dark" }), rows).spec, map, geo);
    const fit = (prepared.projection as { fit: { features: { id: string }[] } }).fit;
    expect(fit.features.map((f) => f.id)).toEqual(["840", "276"]);
    const fill = (prepared.layer as { transform?: { lookup?: string; from?: { fields: string[] } }[]; encoding?: { color?: { field: string } } }[])[2]!;
    expect(fill.transform![0]).toMatchObject({ lookup: "id", from: { fields: expect.arrayContaining(["s__revenue"]) } });
    expect(fill.encoding!.color!.field).toBe("s__revenue");
  });
  it("derives d3 number locales from Intl", () => {
    expect(numberFormatLocale("de-DE", "EUR")).toMatchObject({ decimal: ",", thousands: "." });
    expect(numberFormatLocale("en-US").currency).toEqual(["$", ""]);
  });
});
