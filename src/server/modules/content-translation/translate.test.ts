import { describe, expect, it } from "vitest";
import type { ContentDictionary } from "../../../schema/content-translation";
import type { Dashboard } from "../../../schema/dashboard";
import { parseDictionaryFile } from "../../semantic/dictionary-file";
import { translateDashboard } from "./translate-dashboard";
import { translateResult } from "./translate-result";

const german: ContentDictionary = {
  texts: {
    "Sales overview": "Verkaufsübersicht",
    Country: "Land",
    "By category": "Nach Kategorie",
    Revenue: "Umsatz (Text)",
    "Sales Revenue": "Verkauf Umsatz",
  },
  members: { "sales.revenue": "Umsatz", "sales.status": "Status" },
  values: { "sales.status": { completed: "abgeschlossen", cancelled: "<img src=x onerror=alert(1)>", __proto__: "Prototyp" } },
};

const result = (rows: Record<string, unknown>[]) => ({
  data: rows,
  annotation: {
    measures: { "sales.revenue": { title: "Sales Revenue", shortTitle: "Revenue", type: "number" as const } },
    dimensions: {
      "sales.status": { title: "Sales Status", shortTitle: "Status", type: "string" as const },
      "sales.customers_country": { title: "Sales Customers Country", shortTitle: "Country", type: "string" as const, meta: { display: "country" } },
    },
    timeDimensions: {},
  },
});

const labelsOf = (shown: { annotation: { dimensions: Record<string, object> } }, column: string) =>
  (shown.annotation.dimensions[column] as { valueLabels?: Record<string, string> }).valueLabels;

describe("translateResult", () => {
  it("translates member titles and labels only the raw values of its own rows", () => {
    const rows = [
      { "sales.status": "completed", "sales.customers_country": "DE", "sales.revenue": 10 },
      { "sales.status": "__proto__", "sales.customers_country": "ZZZ", "sales.revenue": 1 },
    ];
    const shown = translateResult(result(rows), german, "de-DE");
    expect(shown.annotation.measures["sales.revenue"]).toMatchObject({ title: "Verkauf Umsatz", shortTitle: "Umsatz" });
    expect(shown.annotation.dimensions["sales.customers_country"]).toMatchObject({ shortTitle: "Land", valueLabels: { DE: "Deutschland" } });
    // "cancelled" is in the dictionary but in no row: it is not listed.
    expect({ ...labelsOf(shown, "sales.status") }).toEqual({ completed: "abgeschlossen", __proto__: "Prototyp" });
    expect(shown.data).toBe(rows);
  });

  it("passes HTML in a translation as text and leaves the input untouched", () => {
    const input = result([{ "sales.status": "cancelled" }]);
    const before = JSON.stringify(input);
    const shown = translateResult(input, german, "de-DE");
    expect(labelsOf(shown, "sales.status")).toEqual({ cancelled: "<img src=x onerror=alert(1)>" });
    expect(JSON.stringify(input)).toBe(before);
  });

  it("names countries in the viewer's locale without a dictionary", () => {
    const shown = translateResult(result([{ "sales.customers_country": "US" }]), null, "es-ES");
    expect(labelsOf(shown, "sales.customers_country")).toEqual({ US: "Estados Unidos" });
    expect(shown.annotation.measures["sales.revenue"]!.shortTitle).toBe("Revenue");
  });

  /** A result of two date ranges side by side, a share, a period comparison and a part of time, titled as the engine titles them. */
  const worked = () => {
    const q1 = (year: number) => ({ from: `${year}-01-01T00:00:00.000`, to: `${year}-04-01T00:00:00.000` });
    const ranges = { baseline: q1(2024), current: q1(2025) };
    const compared = (output: "baseline" | "current" | "change" | "relativeChange", label: string) => ({
      title: `Sales Revenue (${label})`,
      shortTitle: `Revenue (${label})`,
      type: "number" as const,
      measure: "sales.revenue",
      output,
      ranges,
    });
    return {
      data: [],
      annotation: {
        measures: {},
        dimensions: {
          "sales.order_date.dayOfWeek": {
            title: "Sales Order Date (day of week)",
            shortTitle: "Order Date (day of week)",
            type: "number" as const,
            timePart: "dayOfWeek" as const,
          },
        },
        timeDimensions: {},
        compare: {
          "sales.revenue.baseline": compared("baseline", "Q1 2024"),
          "sales.revenue.current": compared("current", "Q1 2025"),
          "sales.revenue.change": compared("change", "change"),
          "sales.revenue.relativeChange": compared("relativeChange", "% change"),
        },
        periodComparisons: {
          "sales.revenue_change": {
            title: "Sales Revenue (change vs 1 month earlier)",
            shortTitle: "Revenue (change vs 1 month earlier)",
            type: "number" as const,
            measure: "sales.revenue",
            output: "change",
          },
        },
        calculations: {
          "sales.revenue.percentOfTotal": {
            title: "Sales Revenue (% of total)",
            shortTitle: "Revenue (% of total)",
            type: "number" as const,
            measure: "sales.revenue",
            calculation: "percentOfTotal",
            within: [],
          },
        },
      },
    };
  };
  const shortTitles = (group: Record<string, { shortTitle: string }> | undefined) => Object.values(group ?? {}).map((a) => a.shortTitle);

  it("says a worked-out column's measure and label in the viewer's language", () => {
    const shown = translateResult(worked(), { ...german, members: { ...german.members, "sales.order_date": "Bestelldatum" } }, "de-DE");
    expect(shortTitles(shown.annotation.compare)).toEqual(["Umsatz (Q1 2024)", "Umsatz (Q1 2025)", "Umsatz (Veränderung)", "Umsatz (Veränderung in %)"]);
    expect(shown.annotation.compare!["sales.revenue.change"]).toMatchObject({
      title: "Verkauf Umsatz (Veränderung)",
      output: "change",
      measure: "sales.revenue",
    });
    expect(shortTitles(shown.annotation.periodComparisons)).toEqual(["Umsatz (Veränderung gegenüber 1 Monat davor)"]);
    expect(shortTitles(shown.annotation.calculations)).toEqual(["Umsatz (Anteil an der Summe)"]);
    // The part of time stays in the title beside the dimension's own translation.
    expect(shortTitles(shown.annotation.dimensions)).toEqual(["Bestelldatum (Wochentag)"]);
  });

  it("names the periods in Spanish without a dictionary, and leaves English as the engine wrote it", () => {
    const spanish = translateResult(worked(), null, "es-MX");
    expect(shortTitles(spanish.annotation.compare)).toEqual(["Revenue (T1 2024)", "Revenue (T1 2025)", "Revenue (variación)", "Revenue (variación en %)"]);
    expect(shortTitles(spanish.annotation.dimensions)).toEqual(["Order Date (día de la semana)"]);
    const english = translateResult(worked(), null, "en-GB");
    expect(shortTitles(english.annotation.compare)).toEqual(shortTitles(worked().annotation.compare));
    expect(shortTitles(english.annotation.calculations)).toEqual(["Revenue (% of total)"]);
  });

  it("says the labels in every UI locale's language: French and Japanese without a dictionary", () => {
    const french = translateResult(worked(), null, "fr-FR");
    expect(shortTitles(french.annotation.compare)).toEqual(["Revenue (T1 2024)", "Revenue (T1 2025)", "Revenue (variation)", "Revenue (variation en %)"]);
    expect(shortTitles(french.annotation.periodComparisons)).toEqual(["Revenue (variation par rapport à 1 mois plus tôt)"]);
    expect(shortTitles(french.annotation.calculations)).toEqual(["Revenue (part du total)"]);
    expect(shortTitles(french.annotation.dimensions)).toEqual(["Order Date (jour de la semaine)"]);
    const japanese = translateResult(worked(), null, "ja-JP");
    expect(shortTitles(japanese.annotation.compare)).toEqual(["Revenue (2024年第1四半期)", "Revenue (2025年第1四半期)", "Revenue (変化)", "Revenue (変化率)"]);
    expect(shortTitles(japanese.annotation.periodComparisons)).toEqual(["Revenue (1か月前比の変化)"]);
  });
});

describe("translateDashboard", () => {
  it("translates titles, filter labels and tab titles and keeps members and ids", () => {
    const dashboard = {
      id: 1,
      publicId: "abcdefghijkl",
      deploymentId: 1,
      workbookId: 1,
      status: "published",
      allowEmbed: true,
      versionNumber: 1,
      versionId: 1,
      title: "Sales overview",
      config: {
        title: "Sales overview",
        widgets: [
          { id: "f", type: "FILTER", position: { x: 0, y: 0, w: 1, h: 1 }, config: { member: "sales.customers_country", label: "Country" } },
          {
            id: "tabs",
            type: "TABS_CONTAINER",
            position: { x: 0, y: 0, w: 1, h: 1 },
            config: { tabs: [{ id: "t", title: "By category", widgets: [] }] },
          },
        ],
      },
      reportSnapshots: [
        {
          id: 1,
          reportId: 1,
          versionNumber: 1,
          title: "Country",
          spec: { encoding: { x: { field: "sales.revenue", title: "Revenue" }, y: { field: "sales.other", title: "Revenue" } } },
        },
      ],
    } as Dashboard;
    const shown = translateDashboard(dashboard, german);
    expect(shown.title).toBe("Verkaufsübersicht");
    expect(shown.config.widgets![0]!.config).toEqual({ member: "sales.customers_country", label: "Land" });
    expect((shown.config.widgets![1]!.config!.tabs as { title: string }[])[0]!.title).toBe("Nach Kategorie");
    expect(shown.reportSnapshots[0]!.title).toBe("Land");
    // A channel bound to a member with an entry takes it; others take the text's translation.
    expect(shown.reportSnapshots[0]!.spec).toEqual({
      encoding: { x: { field: "sales.revenue", title: "Umsatz" }, y: { field: "sales.other", title: "Umsatz (Text)" } },
    });
    expect(dashboard.config.title).toBe("Sales overview");
  });
});

describe("parseDictionaryFile", () => {
  it.each([
    ["texts:\n  a: [1]\n", 2, "texts.a"],
    ["texts: {a: b\n", 2, "YAML syntax"],
    ["locale: es-ES\n", 1, "file is de-DE's"],
    ["values:\n  sales.status:\n    x: ''\n", 3, "values.sales.status.x"],
  ])("refuses %j at line %i", (content, line, reason) => {
    const read = parseDictionaryFile({ path: "translations/de-DE.yml", content });
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problems[0]).toMatchObject({ file: "translations/de-DE.yml", line });
    expect(`${read.problems[0]!.path.join(".")} ${read.problems[0]!.message}`).toContain(reason);
  });

  it("refuses a file name that is not a locale tag", () => {
    expect(parseDictionaryFile({ path: "translations/german.yml", content: "" }).ok).toBe(false);
  });
});
