import { describe, expect, it } from "vitest";
import { compareLabel, labelLanguageOf, localLabel, periodLabel, splitLabel, TIME_PART_NAMES } from "./column-labels";

const range = (from: string, to: string) => ({ from: `${from}T00:00:00.000`, to: `${to}T00:00:00.000` });

describe("periodLabel", () => {
  it.each([
    ["en", range("2024-01-01", "2025-01-01"), "2024"],
    ["en", range("2024-04-01", "2024-07-01"), "Q2 2024"],
    ["de", range("2024-04-01", "2024-07-01"), "Q2 2024"],
    ["es", range("2024-10-01", "2025-01-01"), "T4 2024"],
    ["en", range("2024-02-01", "2024-03-01"), "Feb 2024"],
    ["de", range("2024-03-01", "2024-04-01"), "März 2024"],
    ["es", range("2024-01-01", "2024-02-01"), "ene 2024"],
    // Not a whole year, quarter or month: its first and last day (the end is exclusive).
    ["en", range("2024-01-01", "2024-03-16"), "Jan 1 – Mar 15, 2024"],
    ["en", range("2024-12-15", "2025-01-15"), "Dec 15, 2024 – Jan 14, 2025"],
    ["de", range("2024-01-01", "2024-03-16"), "1. Jan. – 15. März 2024"],
    // Three months not on a quarter's bounds are not a quarter.
    ["en", range("2024-02-01", "2024-05-01"), "Feb 1 – Apr 30, 2024"],
  ] as const)("%s %j → %s", (locale, r, expected) => {
    expect(periodLabel(locale, r).replace(/\u2009/g, " ")).toBe(expected);
  });

  it("names a range that does not start or end at midnight by the days it touches, and never throws on a bad range", () => {
    expect(periodLabel("en", { from: "2024-01-01T12:00:00.000", to: "2024-01-02T06:00:00.000" }).replace(/\u2009/g, " ")).toBe("Jan 1 – 2, 2024");
    expect(periodLabel("en", { from: "nonsense", to: "2024-01-01T00:00:00.000" })).toBe("nonsense – 2024-01-01T00:00:00.000");
    expect(periodLabel("en", range("2024-02-01", "2024-01-01"))).toBe("2024-02-01T00:00:00.000 – 2024-01-01T00:00:00.000");
  });
});

describe("labels in a language", () => {
  it("takes the language of a locale, Norwegian for any Norwegian, English for a language without a UI locale", () => {
    expect(["de-AT", "es", "fr-FR", "pt-BR", "no", "nn-NO", "en-US", "ko-KR"].map(labelLanguageOf)).toEqual(["de", "es", "fr", "pt", "nb", "nb", "en", "en"]);
  });

  it("says every UI locale's own words for a change, a share, a running total, a rank, an earlier period and a part of time", () => {
    expect(localLabel("fr", "% change vs 1 year earlier")).toBe("variation en % par rapport à 1 an plus tôt");
    expect(localLabel("it", "running total within Category")).toBe("totale progressivo all'interno di Category");
    expect(localLabel("pt", "3 months later")).toBe("3 meses depois");
    expect(localLabel("sv", "% of total")).toBe("andel av totalen");
    expect(localLabel("nb", "change vs 2 weeks earlier")).toBe("endring mot 2 uker tidligere");
    expect(localLabel("vi", "rank")).toBe("thứ hạng");
    // Japanese puts what is compared first and writes no spaces.
    expect(localLabel("ja", "% change vs 1 year earlier")).toBe("1年前比の変化率");
    expect(localLabel("ja", "rank within Category")).toBe("Category内の順位");
    expect(TIME_PART_NAMES.fr.dayOfWeek).toBe("jour de la semaine");
    expect(TIME_PART_NAMES.ja.quarterOfYear).toBe("四半期");
  });

  it("names quarters as each language does", () => {
    const q2 = range("2025-04-01", "2025-07-01");
    expect(["en-US", "fr-FR", "it-IT", "ja-JP", "nb-NO", "pt-BR", "sv-SE", "vi-VN"].map((l) => periodLabel(l, q2))).toEqual([
      "Q2 2025",
      "T2 2025",
      "T2 2025",
      "2025年第2四半期",
      "K2 2025",
      "T2 2025",
      "K2 2025",
      "Quý 2 2025",
    ]);
  });

  it("says a compared column's period or change", () => {
    const ranges = { baseline: range("2024-01-01", "2024-04-01"), current: range("2025-01-01", "2025-04-01") };
    expect(["baseline", "current", "change", "relativeChange"].map((o) => compareLabel("es-ES", o as "change", ranges))).toEqual([
      "T1 2024",
      "T1 2025",
      "variación",
      "variación en %",
    ]);
    expect(compareLabel("en", "relativeChange", ranges)).toBe("% change");
  });

  it("rewrites the engine's English labels and leaves a label it does not know", () => {
    expect(localLabel("de", "% of total within Category")).toBe("Anteil an der Summe innerhalb Category");
    expect(localLabel("es", "2 years later")).toBe("2 años después");
    expect(localLabel("de", "Q1 2024")).toBe("Q1 2024");
    expect(localLabel("en", "rank")).toBe("rank");
  });

  it("splits a title at its last label", () => {
    expect(splitLabel("Revenue (net) (Q1 2024)")).toEqual({ title: "Revenue (net)", label: "Q1 2024" });
    expect(splitLabel("Revenue")).toBeNull();
    expect(splitLabel("(rank)")).toBeNull();
  });
});
