import { describe, expect, it } from "vitest";
import { SVC_ERROR_NAMES } from "../../protocol";
import { formatCurrency, formatDateTime, formatNumber, formatPercent, getDateTimeFormat, getNumberFormat } from "./formatters";
import { matchSupportedLocale, resolveLocale } from "./locale-matching";
import { DEFAULT_LOCALE, SUPPORTED_LOCALES } from "./locales";
import { MESSAGE_CATALOGS, type MessageKey } from "./messages";
import { t, tCount } from "./translate";

describe("matchSupportedLocale", () => {
  const cases: Array<[string, string | null]> = [
    ["en-US", "en-US"],
    ["de-DE", "de-DE"],
    ["de", "de-DE"],
    ["de-AT", "de-DE"],
    ["de-CH-u-nu-latn", "de-DE"],
    ["es", "es-ES"],
    ["es-AR", "es-ES"],
    ["es-MX", "es-MX"],
    ["es-mx", "es-MX"],
    ["ES_mx", "es-MX"],
    ["pt", "pt-BR"],
    ["pt-PT", "pt-PT"],
    ["pt-AO", "pt-BR"],
    ["en-GB", "en-US"],
    ["fr-CA", "fr-FR"],
    ["ja", "ja-JP"],
    ["nb", "nb-NO"],
    ["no", "nb-NO"],
    ["sv-FI", "sv-SE"],
    ["vi", "vi-VN"],
    ["it-CH", "it-IT"],
    ["zh-CN", null],
    ["ko", null],
    ["", null],
    ["not a locale", null],
    ["??", null],
  ];
  it.each(cases)("matches %s to %s", (requested, expected) => {
    expect(matchSupportedLocale(requested)).toBe(expected);
  });

  it("resolves by precedence, skipping candidates that do not match", () => {
    expect(resolveLocale(["xx", null, "fr", "de"])).toBe("fr-FR");
    expect(resolveLocale([undefined, "zh"])).toBe(DEFAULT_LOCALE);
  });
});

describe("message catalogs", () => {
  const keys = Object.keys(MESSAGE_CATALOGS["en-US"]) as MessageKey[];

  it("exist for every supported locale with every key filled", () => {
    expect(Object.keys(MESSAGE_CATALOGS).sort()).toEqual([...SUPPORTED_LOCALES].sort());
    for (const locale of SUPPORTED_LOCALES) {
      for (const key of keys) expect(MESSAGE_CATALOGS[locale][key], `${locale} ${key}`).toMatch(/\S/);
    }
  });

  it("have an error title for every stable error name", () => {
    for (const name of SVC_ERROR_NAMES) expect(keys).toContain(`error.${name}`);
  });

  it("are translations, not English copies", () => {
    const english = MESSAGE_CATALOGS["en-US"];
    // Words that are the same in many languages (PDF, Export…) are allowed to repeat; most
    // strings must differ from English.
    for (const locale of SUPPORTED_LOCALES.filter((l) => l !== "en-US")) {
      const same = keys.filter((key) => MESSAGE_CATALOGS[locale][key] === english[key]);
      expect(same.length, `${locale}: ${same.join(", ")}`).toBeLessThan(keys.length / 10);
    }
  });

  it("keep the placeholders of the English strings", () => {
    for (const locale of SUPPORTED_LOCALES) {
      for (const key of keys) {
        const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
        expect(placeholders(MESSAGE_CATALOGS[locale][key]), `${locale} ${key}`).toEqual(placeholders(MESSAGE_CATALOGS["en-US"][key]));
      }
    }
  });
});

describe("t", () => {
  it("returns the string of the locale", () => {
    expect(t("de-DE", "retry")).toBe("Erneut versuchen");
    expect(t("ja-JP", "close")).toBe("閉じる");
  });

  it("fills variables and formats numbers for the locale", () => {
    expect(t("de-DE", "session.expiring", { seconds: 1200 })).toBe("Ihre Sitzung läuft in 1.200 Sekunden ab.");
    expect(t("en-US", "session.expiring", { seconds: 1200 })).toBe("Your session expires in 1,200 seconds.");
  });

  it("leaves an unknown placeholder visible", () => {
    expect(t("en-US", "session.expiring", {})).toBe("Your session expires in {seconds} seconds.");
  });

  it("picks plural forms by the locale's rules", () => {
    expect(tCount("en-US", "rows", 1)).toBe("1 row");
    expect(tCount("en-US", "rows", 2)).toBe("2 rows");
    expect(tCount("fr-FR", "rows", 1)).toBe("1 ligne");
    expect(tCount("sv-SE", "rows", 3)).toBe("3 rader");
  });
});

describe("formatters", () => {
  it("format numbers, percentages and currency per locale", () => {
    expect(formatNumber("de-DE", 1234.5)).toBe("1.234,5");
    expect(formatNumber("en-US", 1234.5, { decimalPlaces: 2 })).toBe("1,234.50");
    expect(formatPercent("en-US", 0.256, { decimalPlaces: 1 })).toBe("25.6%");
    expect(formatCurrency("en-US", 12, "EUR")).toBe("€12.00");
    expect(formatCurrency("de-DE", 12, "EUR").replace(/\s/g, " ")).toBe("12,00 €");
  });

  it("format dates in the requested time zone", () => {
    const instant = Date.UTC(2024, 0, 1, 23, 30);
    expect(formatDateTime("en-US", "UTC", instant, { dateStyle: "short" })).toBe("1/1/24");
    expect(formatDateTime("en-US", "Asia/Tokyo", instant, { dateStyle: "short" })).toBe("1/2/24");
    expect(formatDateTime("de-DE", "Europe/Berlin", "2024-06-01T10:00:00Z", { timeStyle: "short" })).toBe("12:00");
    expect(formatDateTime("en-US", "UTC", "not a date")).toBe("not a date");
  });

  it("reuse formatter instances for the same key", () => {
    expect(getNumberFormat("fr-FR", { style: "percent" })).toBe(getNumberFormat("fr-FR", { style: "percent" }));
    expect(getDateTimeFormat("fr-FR", "UTC")).toBe(getDateTimeFormat("fr-FR", "UTC"));
    expect(getDateTimeFormat("fr-FR", "UTC")).not.toBe(getDateTimeFormat("fr-FR", "Europe/Paris"));
  });
});
