import { describe, expect, it } from "vitest";
import type { TurnContext } from "../types";
import { DEMO_REFERENCE, demoViews } from "./demo-views";
import { readQuestion } from "./question";
import { summarize } from "./summary";
import { describeUnderstanding } from "./describe";
import { titleFields } from "./ratio";
import { inLanguage, sentenceColumns, titledIndexes } from "./words";

const views = demoViews();
const GERMAN: Record<string, string> = {
  "sales.revenue": "Umsatz",
  "sales.customers_country": "Land",
  "sales.products_category": "Kategorie",
  "sales.count": "Bestellungen",
};
const germanTitle = (member: string, title: string) => GERMAN[member] ?? title;
/** Intl's spaces (no-break, narrow) as plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");
const germanValue = (_: string, v: unknown) => ({ DE: "Deutschland", FR: "Frankreich", Apparel: "Bekleidung" })[String(v)];

describe("inLanguage", () => {
  const surface = (locale: string, contentIn?: TurnContext["contentIn"]) => ({ locale, contentIn, memberTitle: () => "surface" }) as unknown as TurnContext;
  const german = async () => ({ memberTitle: germanTitle, valueLabel: germanValue });

  it.each([
    ["de-DE", "de", "surface"],
    ["de-AT", "de", "surface"],
    ["en", "de", "Umsatz"],
    ["es-ES", "de", "Umsatz"],
  ] as const)("a %s surface, a question in %s: members named by %s", async (locale, language, named) => {
    const ctx = await inLanguage(surface(locale, german), language);
    expect(ctx.memberTitle?.("sales.revenue", "Revenue")).toBe(named);
  });

  it("keeps the surface's words without a way to the question's language's", async () => {
    const ctx = surface("en");
    expect(await inLanguage(ctx, "de")).toBe(ctx);
  });

  it("names nothing in another language when the question's has no dictionary", async () => {
    const ctx = await inLanguage(
      surface("de-DE", async () => ({})),
      "en",
    );
    expect(ctx.memberTitle).toBeUndefined();
    expect(ctx.valueLabel).toBeUndefined();
  });
});

describe("titledIndexes", () => {
  it("titles the members and the views' own lists of them; the indexes read as before", () => {
    const shown = titledIndexes(views, germanTitle);
    const sales = shown.find((i) => i.source.name === "sales")!;
    expect(sales.members.find((m) => m.name === "sales.revenue")!.shortTitle).toBe("Umsatz");
    expect(sales.source.measures.find((m) => m.name === "sales.revenue")!.shortTitle).toBe("Umsatz");
    expect(sales.source.dimensions.find((m) => m.name === "sales.customers_country")!.title).toBe("Land");
    expect(sales.search).toBe(views.find((i) => i.source.name === "sales")!.search);
    expect(titledIndexes(views, undefined)).toBe(views);
  });
});

describe("the answer's sentences in the question's language", () => {
  const shown = titledIndexes(views, germanTitle);
  const read = (q: string) => {
    const r = readQuestion(q, views, { locale: "en", reference: DEMO_REFERENCE });
    if (!r.ok) throw new Error(`not read: ${q}`);
    return r.understanding;
  };

  it("names the measure of two periods side by side by its title, not by its compared column's", () => {
    const u = read("Vergleiche den Umsatz im Q1 2025 mit Q1 2024 nach Kategorie");
    const columns = ["baseline", "current", "change", "relativeChange"].map((o) => ({
      key: `sales.revenue.${o}`,
      title: `Revenue (${o})`,
      format: "currency",
    }));
    const rows = [
      {
        "sales.products_category": "Apparel",
        "sales.revenue.baseline": 100,
        "sales.revenue.current": 150,
        "sales.revenue.change": 50,
        "sales.revenue.relativeChange": 0.5,
      },
    ];
    const text = plain(summarize(u, rows, sentenceColumns(columns, u, shown), germanValue));
    expect(text).toContain("Das stärkste Wachstum bei Umsatz: **Bekleidung** (**+50 %**)");
    expect(text).not.toContain("Revenue");
  });

  it("adds no column the result has", () => {
    const u = read("Umsatz nach Land");
    const columns = [{ key: "sales.revenue", title: "Umsatz" }];
    expect(sentenceColumns(columns, u, shown).map((c) => c.key)).toEqual(["sales.revenue", "sales.customers_country"]);
  });

  it("says each value's share of the whole, by its label, with the numbers of the language", () => {
    const u = read("Umsatzanteil nach Land für DE und FR");
    titleFields(
      u,
      shown.find((i) => i.source.name === "sales")!,
      germanValue,
    );
    expect(describeUnderstanding(u, shown, DEMO_REFERENCE, germanValue)).toBe(
      "So habe ich die Frage verstanden: **Umsatz**, der Anteil an der Gesamtsumme für Land = Deutschland / Frankreich.",
    );
    const row = { "sales.revenue_share_de": 0.0933, "sales.revenue_of_de": 80501.61, "sales.revenue_share_fr": 0.0432, "sales.revenue_of_fr": 37211.9 };
    const columns = u.fields!.map((f) => ({ key: `sales.${f.name}`, title: f.title!, ...(f.format ? { format: f.format } : {}) }));
    expect(plain(summarize(u, [row], columns, germanValue))).toBe(
      "Anteil an Umsatz insgesamt: **Deutschland** **9,3 %** (80.501,61 $), **Frankreich** **4,3 %** (37.211,90 $).",
    );
    expect(columns[0]!.title).toBe("Anteil an Umsatz (Land = Deutschland)");
  });

  it("says the shares in English and Spanish too", () => {
    const en = read("share of revenue by country for DE and FR");
    titleFields(
      en,
      views.find((i) => i.source.name === "sales")!,
    );
    const row = { "sales.revenue_share_de": 0.5, "sales.revenue_of_de": 10, "sales.revenue_share_fr": 0.25, "sales.revenue_of_fr": 5 };
    const cols = en.fields!.map((f) => ({ key: `sales.${f.name}`, title: f.title!, ...(f.format ? { format: f.format } : {}) }));
    expect(plain(summarize(en, [row], cols))).toBe("Share of all Revenue: **DE** **50%** ($10.00), **FR** **25%** ($5.00).");
    const es = read("porcentaje de ingresos por país para DE y FR");
    titleFields(
      es,
      views.find((i) => i.source.name === "sales")!,
    );
    expect(plain(summarize(es, [row], cols))).toBe("Parte del total de Revenue: **DE** **50 %** (10,00 US$), **FR** **25 %** (5,00 US$).");
  });
});
