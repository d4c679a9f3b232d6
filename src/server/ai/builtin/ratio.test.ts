import { describe, expect, it } from "vitest";
import type { SemanticQuery } from "../../../schema/semantic-query";
import { canonicalize, normalize } from "../builtin-language";
import { DEMO_REFERENCE, demoViews } from "./demo-views";
import { queryOf } from "./query";
import { readQuestion } from "./question";
import { readAverage, titleFields } from "./ratio";

const views = demoViews();
const sales = views.find((v) => v.source.name === "sales")!;
const tidy = (s: string) => s.replace(/\s+/g, " ").trim();

describe("readAverage", () => {
  it.each([
    ["average revenue per customer", "sales.customer_count", "revenue"],
    ["average units by each order", "sales.count", "units"],
    ["revenue average by customers", "sales.customer_count", "revenue"],
    // Not a count after "by": an average per row of the view (its own count), "by category" stays a grouping.
    ["average revenue by category", "sales.count", "revenue by category"],
    // A measure of its own.
    ["average order value by customers", undefined, "average order value by customers"],
    ["revenue per customer", undefined, "revenue per customer"],
  ])("%s → %s", (text, per, rest) => {
    const read = readAverage(text, sales);
    expect(read.per).toBe(per);
    expect(tidy(read.rest)).toBe(rest);
  });

  it("marks the view's own count as implied, and a named count as not", () => {
    expect(readAverage("average revenue by category", sales).implicit).toBe(true);
    expect(readAverage("average revenue per customer", sales).implicit).toBeUndefined();
  });
});

/** Each named value's share of all revenue, beside its revenue: two fields a value. */
const sharesOf = (member: string, values: [string, string][]): SemanticQuery => ({
  measures: values.flatMap(([, slug]) => [`sales.revenue_share_${slug}`, `sales.revenue_of_${slug}`]),
  calculatedFields: values.flatMap(([v, slug]) => [
    { name: `revenue_share_${slug}`, formula: `revenue(where ${member} = '${v}') / revenue`, title: expect.any(String), format: "percent" as const },
    { name: `revenue_of_${slug}`, formula: `revenue(where ${member} = '${v}')`, title: expect.any(String), format: "currency" as const },
  ]),
});
const byCategory = (dateRange?: [string, string]): SemanticQuery => ({
  measures: ["sales.revenue_per_count", "sales.revenue", "sales.count"],
  dimensions: ["sales.products_category"],
  order: [["sales.revenue_per_count", "desc"]],
  calculatedFields: [{ name: "revenue_per_count", formula: "revenue / count", title: expect.any(String), format: "currency" }],
  ...(dateRange ? { timeDimensions: [{ dimension: "sales.created_at", dateRange }] } : {}),
});

describe("shares of the whole for values named of a grouping, and averages per group", () => {
  const DE_FR: [string, string][] = [
    ["DE", "de"],
    ["FR", "fr"],
  ];
  it.each<[string, SemanticQuery]>([
    ["share of revenue by country for DE and FR", sharesOf("customers_country", DE_FR)],
    ["share of revenue by country for Germany and France", sharesOf("customers_country", DE_FR)],
    ["Umsatzanteil nach Land für DE und FR", sharesOf("customers_country", DE_FR)],
    ["porcentaje de ingresos por país para DE y FR", sharesOf("customers_country", DE_FR)],
    // "ES" (a stop word in German) in capitals is Spain; one value is one share.
    ["share of revenue by country for ES", sharesOf("customers_country", [["ES", "es"]])],
    [
      "share of revenue by category for Electronics and Books",
      sharesOf("products_category", [
        ["Electronics", "electronics"],
        ["Books", "books"],
      ]),
    ],
    [
      "share of revenue by city for New York and Berlin in 2024",
      {
        ...sharesOf("customers_city", [
          ["New York", "new_york"],
          ["Berlin", "berlin"],
        ]),
        timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2024-01-01", "2024-12-31"] }],
      },
    ],
    ["average revenue by category", byCategory()],
    ["durchschnittlicher Umsatz nach Kategorie", byCategory()],
    ["ingresos medios por categoría", byCategory()],
    ["average revenue by category in 2024", byCategory(Y2024)],
  ])("%s", (question, expected) => {
    const reading = readQuestion(question, views, { locale: "en", reference: DEMO_REFERENCE });
    expect(reading.ok, JSON.stringify(reading)).toBe(true);
    if (reading.ok) expect(queryOf(reading.understanding)).toEqual(expected);
  });

  it("keeps each row's share of the total when another dimension is filtered (the filter is the whole)", () => {
    const reading = readQuestion("share of revenue by category in Germany", views, { locale: "en", reference: DEMO_REFERENCE });
    expect(reading.ok && queryOf(reading.understanding)).toMatchObject({
      dimensions: ["sales.products_category"],
      filters: [{ member: "sales.customers_country", operator: "equals", values: ["DE"] }],
      calculations: [{ type: "percentOfTotal", measure: "sales.revenue" }],
    });
  });

  it("titles each share with the value's label", () => {
    const r = readQuestion("Umsatzanteil nach Land für DE und FR", views, { locale: "en", reference: DEMO_REFERENCE });
    if (!r.ok) throw new Error("not read");
    titleFields(r.understanding, sales, (_, v) => ({ DE: "Deutschland", FR: "Frankreich" })[String(v)]);
    expect(r.understanding.fields!.map((f) => f.title)).toEqual([
      "Anteil an Revenue (Country = Deutschland)",
      "Revenue (Country = Deutschland)",
      "Anteil an Revenue (Country = Frankreich)",
      "Revenue (Country = Frankreich)",
    ]);
  });

  it.each(["average orders by category", "average average order value by category", "average completion rate by country"])(
    "%s: no average of a count or an average, and no answer in its place",
    (question) => {
      const r = readQuestion(question, views, { locale: "en", reference: DEMO_REFERENCE });
      expect(r.ok).toBe(false);
    },
  );
});

const perCustomer = (dateRange?: [string, string]): SemanticQuery => ({
  measures: ["sales.revenue_per_customer_count", "sales.revenue", "sales.customer_count"],
  calculatedFields: [{ name: "revenue_per_customer_count", formula: "revenue / customer_count", title: expect.any(String), format: "currency" }],
  ...(dateRange ? { timeDimensions: [{ dimension: "sales.created_at", dateRange }] } : {}),
});
const shareOf = (measure: "revenue" | "count", where: string, dateRange?: [string, string]): SemanticQuery => ({
  measures: [`sales.${measure}_share`, `sales.${measure}_of_rows`],
  calculatedFields: [
    { name: `${measure}_share`, formula: `${measure}(where ${where}) / ${measure}`, title: expect.any(String), format: "percent" },
    { name: `${measure}_of_rows`, formula: `${measure}(where ${where})`, title: expect.any(String), ...(measure === "revenue" ? { format: "currency" } : {}) },
  ],
  ...(dateRange ? { timeDimensions: [{ dimension: "sales.created_at", dateRange }] } : {}),
});
const Y2024: [string, string] = ["2024-01-01", "2024-12-31"];

describe("ratios as calculated fields: the question's query", () => {
  it.each<[string, SemanticQuery]>([
    ["average revenue per customer", perCustomer()],
    ["durchschnittlicher Umsatz pro Kunde", perCustomer()],
    ["Durchschnittsumsatz pro Kunde", perCustomer()],
    ["ingresos medios por cliente", perCustomer()],
    ["ingreso promedio por cliente", perCustomer()],
    ["mean revenue per customer in 2024", perCustomer(Y2024)],
    ["What share of our revenue comes from Electronics?", shareOf("revenue", "products_category = 'Electronics'")],
    ["Welcher Anteil unseres Umsatzes kommt aus Elektronik?", shareOf("revenue", "products_category = 'Electronics'")],
    ["¿Qué porcentaje de nuestros ingresos proviene de Electronics?", shareOf("revenue", "products_category = 'Electronics'")],
    ["what share of revenue comes from Germany and France", shareOf("revenue", "customers_country in ('DE', 'FR')")],
    ["share of revenue excluding Electronics", shareOf("revenue", "products_category != 'Electronics'")],
    ["percentage of orders returned in 2024", shareOf("count", "status = 'returned'", Y2024)],
    ["Anteil der zurückgegebenen Bestellungen 2024", shareOf("count", "status = 'returned'", Y2024)],
    ["porcentaje de pedidos devueltos en 2024", shareOf("count", "status = 'returned'", Y2024)],
    ["what percentage of orders are above $500", shareOf("count", "amount > 500")],
  ])("%s", (question, expected) => {
    const reading = readQuestion(question, views, { locale: "en", reference: DEMO_REFERENCE });
    expect(reading.ok, JSON.stringify(reading)).toBe(true);
    if (reading.ok) expect(queryOf(reading.understanding)).toEqual(expected);
  });

  it.each([
    // A grouping keeps each row's share of the total: no field.
    ["share of revenue by category", "percentOfTotal"],
    ["Anteil am Umsatz nach Kategorie", "percentOfTotal"],
  ])("%s: each row's share", (question, type) => {
    const reading = readQuestion(question, views, { locale: "en", reference: DEMO_REFERENCE });
    expect(reading.ok && queryOf(reading.understanding).calculations?.[0]?.type).toBe(type);
    expect(reading.ok && queryOf(reading.understanding).calculatedFields).toBeUndefined();
  });

  it("titles the fields in the question's language", () => {
    const titles = (q: string) => {
      const r = readQuestion(q, views, { locale: "en", reference: DEMO_REFERENCE });
      return r.ok ? r.understanding.fields?.map((f) => f.title) : [];
    };
    expect(titles("What share of our revenue comes from Electronics?")).toEqual([
      "Share of Revenue (Category = Electronics)",
      "Revenue (Category = Electronics)",
    ]);
    expect(titles("Welcher Anteil unseres Umsatzes kommt aus Elektronik?")![0]).toBe("Anteil an Revenue (Category = Electronics)");
    expect(titles("ingresos medios por cliente")).toEqual(["Revenue / Customers"]);
  });

  it("titles the fields again with the viewer's (translated) member titles", () => {
    const german = {
      ...sales,
      members: sales.members.map((m) => ({
        ...m,
        shortTitle: { Revenue: "Umsatz", Category: "Kategorie", Customers: "Kunden" }[m.shortTitle] ?? m.shortTitle,
      })),
    };
    const title = (q: string) => {
      const r = readQuestion(q, views, { locale: "en", reference: DEMO_REFERENCE });
      if (!r.ok) return [];
      titleFields(r.understanding, german);
      return r.understanding.fields!.map((f) => f.title);
    };
    expect(title("Welcher Anteil unseres Umsatzes kommt aus Elektronik?")).toEqual([
      "Anteil an Umsatz (Kategorie = Electronics)",
      "Umsatz (Kategorie = Electronics)",
    ]);
    expect(title("durchschnittlicher Umsatz pro Kunde")).toEqual(["Umsatz / Kunden"]);
    // The formula is untouched.
    const r = readQuestion("durchschnittlicher Umsatz pro Kunde", views, { locale: "en", reference: DEMO_REFERENCE });
    if (r.ok) titleFields(r.understanding, german);
    expect(r.ok && r.understanding.fields![0]!.formula).toBe("revenue / customer_count");
  });

  it("reads the words of the audit in canonical form", () => {
    expect(canonicalize(normalize("¿Qué categoría creció más rápido?"), "es")).toBe("que category grew top");
    expect(canonicalize(normalize("el mes más ocupado"), "es")).toBe("el month top");
  });
});
