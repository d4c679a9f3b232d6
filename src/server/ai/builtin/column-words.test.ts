import { describe, expect, it } from "vitest";
import type { ToolOutcome, ToolState } from "../tools";
import { columnTitle, localColumns } from "./column-words";
import { demoViews } from "./demo-views";
import { titledIndexes } from "./words";

describe("columnTitle", () => {
  it.each([
    ["de", "Revenue (% of total)", "Umsatz (Anteil an der Summe)"],
    ["de", "Revenue (running total)", "Umsatz (laufende Summe)"],
    ["de", "Revenue (rank)", "Umsatz (Rang)"],
    // A period (content translation has already said it in the viewer's language) is kept.
    ["de", "Revenue (Q1 2024)", "Umsatz (Q1 2024)"],
    ["de", "Revenue (Veränderung)", "Umsatz (Veränderung)"],
    ["de", "Revenue (% change)", "Umsatz (Veränderung in %)"],
    ["de", "Revenue (1 month earlier)", "Umsatz (1 Monat davor)"],
    ["de", "Revenue (change vs 2 years earlier)", "Umsatz (Veränderung gegenüber 2 Jahre davor)"],
    ["de", "Revenue (% change vs 1 quarter earlier)", "Umsatz (Veränderung in % gegenüber 1 Quartal davor)"],
    ["de", "Revenue (% of total within Category)", "Umsatz (Anteil an der Summe innerhalb Category)"],
    ["es", "Revenue (% of total)", "Ingresos (parte del total)"],
    ["es", "Revenue (change vs 3 months earlier)", "Ingresos (variación frente a 3 meses antes)"],
    ["es", "Revenue (rank)", "Ingresos (puesto)"],
  ] as const)("%s: %s → %s", (lang, title, expected) => {
    expect(columnTitle(lang, title, "Revenue", lang === "de" ? "Umsatz" : "Ingresos")).toBe(expected);
  });

  it.each([
    ["en", "Revenue (% of total)"],
    // Not a heading the engine wrote for this measure: a calculated field's own title.
    ["de", "Anteil an Umsatz (Kategorie = Elektronik)"],
    ["de", "Revenue / Orders"],
  ] as const)("%s: %s is left as it is", (lang, title) => {
    expect(columnTitle(lang, title, "Revenue", "Umsatz")).toBeUndefined();
  });
});

describe("localColumns", () => {
  const model = demoViews().find((i) => i.source.name === "sales")!;
  const shown = titledIndexes([model], (member, title) => (member === "sales.revenue" ? "Umsatz" : title))[0]!;
  const columns = [
    { key: "sales.products_category", title: "Category", type: "string" },
    { key: "sales.revenue", title: "Umsatz", type: "number" },
    { key: "sales.revenue.percentOfTotal", title: "Revenue (% of total)", type: "number", format: "percent" },
  ];
  const outcome = (): ToolOutcome => ({ ok: true, content: "", summary: "1 rows", parts: [{ type: "table", columns, rows: [], truncated: false }] });

  it("heads the table's and the chart's worked-out columns in the answer's language", () => {
    const state: ToolState = { lastColumns: columns };
    const out = localColumns("de", outcome(), state, shown, model);
    const table = out.parts[0] as { columns: { title: string }[] };
    expect(table.columns.map((c) => c.title)).toEqual(["Category", "Umsatz", "Umsatz (Anteil an der Summe)"]);
    expect(state.lastColumns!.map((c) => c.title)).toEqual(["Category", "Umsatz", "Umsatz (Anteil an der Summe)"]);
  });

  it("leaves an English answer as the engine wrote it", () => {
    const state: ToolState = { lastColumns: columns };
    const o = outcome();
    expect(localColumns("en", o, state, shown, model)).toBe(o);
  });
});
