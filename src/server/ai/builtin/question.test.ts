import { describe, expect, it } from "vitest";
import { DEMO_REFERENCE, demoViews } from "./demo-views";
import { readQuestion } from "./question";
import type { Refusal, Understanding } from "./understanding";

const views = demoViews();
const read = (question: string) => readQuestion(question, views, { locale: "en", reference: DEMO_REFERENCE });

/** What the table checks of a reading: the fields a question sets (the rest is left out). */
type Expected = Partial<
  Pick<
    Understanding,
    | "language"
    | "view"
    | "measures"
    | "dimensions"
    | "filters"
    | "conditions"
    | "anyOf"
    | "time"
    | "limit"
    | "direction"
    | "compare"
    | "periods"
    | "calculation"
    | "perGroup"
    | "explain"
  >
>;

describe("readQuestion", () => {
  it("reads a question asked again alike, and gives each reader a copy of its own", () => {
    const first = read("revenue by country last quarter");
    if (!first.ok) throw new Error("not read");
    first.understanding.measures.push("sales.changed");
    first.understanding.ignored.push("changed");
    const again = read("revenue by country last quarter");
    // The same reading as from indexes never read before.
    expect(again).toEqual(readQuestion("revenue by country last quarter", demoViews(), { locale: "en", reference: DEMO_REFERENCE }));
    if (!again.ok) throw new Error("not read");
    expect(again.understanding.measures).toEqual(["sales.revenue"]);
  });

  it("reads a relative period again from another reference day", () => {
    const at = (reference: Date) => {
      const r = readQuestion("revenue last quarter", views, { locale: "en", reference });
      return r.ok ? r.understanding.time?.range : undefined;
    };
    expect(at(new Date("2025-05-10T00:00:00Z"))).toEqual({ from: "2025-01-01", to: "2025-03-31" });
    expect(at(new Date("2025-08-10T00:00:00Z"))).toEqual({ from: "2025-04-01", to: "2025-06-30" });
  });

  it.each<[string, Expected]>([
    ["revenue by country", { language: "en", view: "sales", measures: ["sales.revenue"], dimensions: ["sales.customers_country"], filters: [] }],
    ["Umsatz nach Land", { language: "de", measures: ["sales.revenue"], dimensions: ["sales.customers_country"] }],
    ["ingresos por país", { language: "es", measures: ["sales.revenue"], dimensions: ["sales.customers_country"] }],
    ["revenue in Germany", { measures: ["sales.revenue"], dimensions: [], filters: [{ member: "sales.customers_country", values: ["DE"] }] }],
    [
      "compare Electronics and Books revenue",
      { dimensions: ["sales.products_category"], filters: [{ member: "sales.products_category", values: ["Electronics", "Books"] }] },
    ],
    ["top 5 cities by orders", { measures: ["sales.count"], dimensions: ["sales.customers_city"], limit: 5, direction: "desc" }],
    ["monthly revenue in 2024", { time: { dimension: "sales.created_at", granularity: "month", range: { from: "2024-01-01", to: "2024-12-31" } } }],
    ["revenue last quarter", { time: { dimension: "sales.created_at", range: { from: "2025-04-01", to: "2025-06-30" } } }],
    ["orders by day of week", { measures: ["sales.count"], time: { dimension: "sales.created_at", part: "dayOfWeek" } }],
    [
      "orders this year vs last year",
      {
        compare: { unit: "year", toDate: true },
        time: { dimension: "sales.created_at", granularity: "year", range: { from: "2025-01-01", to: "2025-06-30" } },
      },
    ],
    ["revenue growth by month", { compare: { unit: "month" }, time: { dimension: "sales.created_at", granularity: "month" } }],
    // A period several units back: two years, in each language.
    ...(["revenue this year vs two years ago", "Umsatz dieses Jahr im Vergleich zu vor zwei Jahren", "ingresos de este año frente a hace dos años"].map((q) => [
      q,
      {
        measures: ["sales.revenue"],
        compare: { unit: "year", toDate: true, amount: 2 },
        time: { dimension: "sales.created_at", granularity: "year", range: { from: "2025-01-01", to: "2025-06-30" } },
      },
    ]) as [string, Expected][]),
    // German compounds, split against the rewrites' and the model's words.
    ["Wie hoch ist unser Gesamtumsatz?", { language: "de", measures: ["sales.revenue"], dimensions: [], filters: [] }],
    [
      "Umsatzentwicklung 2024",
      { measures: ["sales.revenue"], time: { dimension: "sales.created_at", granularity: "month", range: { from: "2024-01-01", to: "2024-12-31" } } },
    ],
    ["durchschnittlicher Bestellwert nach Land", { measures: ["sales.average_order_value"], dimensions: ["sales.customers_country"] }],
    // Numeric conditions: rows (a number dimension) or groups (a measure), as the model has them.
    ["orders above $500", { measures: ["sales.count"], conditions: [{ member: "sales.amount", operator: "gt", value: 500 }] }],
    ["Bestellungen mit mehr als 3 Stück", { measures: ["sales.count"], conditions: [{ member: "sales.quantity", operator: "gt", value: 3 }] }],
    ["pedidos con más de 3 unidades", { measures: ["sales.count"], conditions: [{ member: "sales.quantity", operator: "gt", value: 3 }] }],
    ["revenue from orders with more than 3 units", { measures: ["sales.revenue"], conditions: [{ member: "sales.quantity", operator: "gt", value: 3 }] }],
    [
      "categories with revenue above 10000",
      { measures: ["sales.revenue"], dimensions: ["sales.products_category"], conditions: [{ member: "sales.revenue", operator: "gt", value: 10000 }] },
    ],
    ["Bestellungen mit einem Bestellwert über 500 €", { measures: ["sales.count"], conditions: [{ member: "sales.amount", operator: "gt", value: 500 }] }],
    // Exclusions: the value is left out, never answered.
    [
      "revenue in 2024 excluding cancelled orders",
      {
        measures: ["sales.revenue"],
        filters: [{ member: "sales.status", values: ["cancelled"], exclude: true }],
        time: { dimension: "sales.created_at", range: { from: "2024-01-01", to: "2024-12-31" } },
      },
    ],
    ["Umsatz 2024 ohne stornierte Bestellungen", { measures: ["sales.revenue"], filters: [{ member: "sales.status", values: ["cancelled"], exclude: true }] }],
    [
      "ingresos en 2024 sin los pedidos cancelados",
      { measures: ["sales.revenue"], filters: [{ member: "sales.status", values: ["cancelled"], exclude: true }] },
    ],
    // "The busiest month": the grain ranked, the first one kept.
    [
      "busiest month in 2024",
      {
        measures: ["sales.count"],
        limit: 1,
        direction: "desc",
        time: { dimension: "sales.created_at", granularity: "month", range: { from: "2024-01-01", to: "2024-12-31" } },
      },
    ],
    [
      "Welcher Monat hatte 2024 die meisten Bestellungen?",
      { measures: ["sales.count"], limit: 1, time: { dimension: "sales.created_at", granularity: "month" } },
    ],
    ["¿Cuál fue el mes con más pedidos en 2024?", { measures: ["sales.count"], limit: 1, time: { dimension: "sales.created_at", granularity: "month" } }],
    ["the busiest day last month", { limit: 1, time: { dimension: "sales.created_at", granularity: "day", range: { from: "2025-06-01", to: "2025-06-30" } } }],
    // The query contract's comparisons and calculations.
    [
      "Which product category grew fastest from Q1 2025 to Q2 2025?",
      {
        dimensions: ["sales.products_category"],
        limit: 1,
        periods: { dimension: "sales.created_at", baseline: { from: "2025-01-01", to: "2025-03-31" }, current: { from: "2025-04-01", to: "2025-06-30" } },
      },
    ],
    [
      "compare revenue in Q1 2025 with Q1 2024 by category",
      {
        measures: ["sales.revenue"],
        periods: { dimension: "sales.created_at", baseline: { from: "2024-01-01", to: "2024-03-31" }, current: { from: "2025-01-01", to: "2025-03-31" } },
      },
    ],
    ["what share of revenue comes from each category", { measures: ["sales.revenue"], dimensions: ["sales.products_category"], calculation: "percentOfTotal" }],
    ["clasificación de ciudades por ingresos", { measures: ["sales.revenue"], dimensions: ["sales.customers_city"], calculation: "rank" }],
    ["kumulierter Umsatz pro Monat", { calculation: "runningTotal", time: { dimension: "sales.created_at", granularity: "month" } }],
    ["producto más vendido en cada categoría", { measures: ["sales.units"], perGroup: { within: ["sales.products_category"], limit: 1 } }],
    ["Bestellungen zwischen 100 und 500 €", { conditions: [{ member: "sales.amount", operator: "between", value: 100, high: 500 }] }],
    [
      "¿Por qué bajaron los ingresos en febrero de 2025?",
      {
        explain: true,
        periods: { dimension: "sales.created_at", baseline: { from: "2025-01-01", to: "2025-01-31" }, current: { from: "2025-02-01", to: "2025-02-28" } },
      },
    ],
    [
      "why did revenue fall?",
      {
        explain: true,
        periods: { dimension: "sales.created_at", baseline: { from: "2025-05-01", to: "2025-05-31" }, current: { from: "2025-06-01", to: "2025-06-30" } },
      },
    ],
    // Everyday wording: helper verbs, "breakdown", a quarter without a year, "trend" with a grain.
    ["revenue breakdown by status", { measures: ["sales.revenue"], dimensions: ["sales.status"] }],
    ["show me the revenue numbers by country", { measures: ["sales.revenue"], dimensions: ["sales.customers_country"] }],
    ["Zeig mir die Umsatzzahlen nach Land", { language: "de", measures: ["sales.revenue"], dimensions: ["sales.customers_country"] }],
    ["las cifras de ventas por país", { measures: ["sales.revenue"], dimensions: ["sales.customers_country"] }],
    [
      "How much revenue did we make in 2024?",
      { measures: ["sales.revenue"], time: { dimension: "sales.created_at", range: { from: "2024-01-01", to: "2024-12-31" } } },
    ],
    [
      "Wie viel Umsatz haben wir 2024 gemacht?",
      { measures: ["sales.revenue"], time: { dimension: "sales.created_at", range: { from: "2024-01-01", to: "2024-12-31" } } },
    ],
    [
      "¿Cuántos pedidos tuvimos el mes pasado?",
      { measures: ["sales.count"], time: { dimension: "sales.created_at", range: { from: "2025-06-01", to: "2025-06-30" } } },
    ],
    ["What were our sales in Q2?", { measures: ["sales.revenue"], time: { dimension: "sales.created_at", range: { from: "2025-04-01", to: "2025-06-30" } } }],
    ["monthly revenue trend for 2024", { time: { dimension: "sales.created_at", granularity: "month", range: { from: "2024-01-01", to: "2024-12-31" } } }],
    ["Which city has the most customers?", { measures: ["sales.customer_count"], dimensions: ["sales.customers_city"], limit: 1 }],
    ["top 5 customers", { measures: ["sales.count"], dimensions: ["sales.customers_name"], limit: 5 }],
    ["revenue by country for completed orders", { measures: ["sales.revenue", "sales.completed_count"], dimensions: ["sales.customers_country"] }],
    ["revenue in the first quarter of 2025", { time: { dimension: "sales.created_at", range: { from: "2025-01-01", to: "2025-03-31" } } }],
    ["Umsatz im ersten Quartal 2025", { time: { dimension: "sales.created_at", range: { from: "2025-01-01", to: "2025-03-31" } } }],
    ["ingresos del primer trimestre de 2025", { time: { dimension: "sales.created_at", range: { from: "2025-01-01", to: "2025-03-31" } } }],
    ["¿Qué parte de los pedidos corresponde a cada estado?", { measures: ["sales.count"], dimensions: ["sales.status"], calculation: "percentOfTotal" }],
    ["die 2 umsatzstärksten Produkte je Kategorie", { measures: ["sales.revenue"], perGroup: { within: ["sales.products_category"], limit: 2 } }],
    ["Umsatz je Land", { measures: ["sales.revenue"], dimensions: ["sales.customers_country"] }],
    [
      "ingresos 2024 frente a 2023",
      { periods: { dimension: "sales.created_at", baseline: { from: "2023-01-01", to: "2023-12-31" }, current: { from: "2024-01-01", to: "2024-12-31" } } },
    ],
    // Sign-ups: the customers view's own date.
    [
      "How many new customers signed up each month?",
      { view: "customer_base", measures: ["customer_base.count"], time: { dimension: "customer_base.signed_up_at", granularity: "month" } },
    ],
    [
      "Wie viele neue Kunden haben sich pro Monat angemeldet?",
      { view: "customer_base", measures: ["customer_base.count"], time: { dimension: "customer_base.signed_up_at", granularity: "month" } },
    ],
    [
      "¿Cuántos clientes nuevos se registraron cada mes?",
      { view: "customer_base", measures: ["customer_base.count"], time: { dimension: "customer_base.signed_up_at", granularity: "month" } },
    ],
    // Filters joined by "or" (oder, o): values of one dimension are any of them (one figure, not grouped).
    ...([
      "revenue in 2024 from orders in Germany or France with more than 3 units",
      "Umsatz 2024 aus Deutschland oder Frankreich mit mehr als 3 Stück",
      "ingresos de 2024 de pedidos en Alemania o Francia con más de 3 unidades",
    ].map((q) => [
      q,
      {
        measures: ["sales.revenue"],
        dimensions: [],
        filters: [{ member: "sales.customers_country", values: ["DE", "FR"] }],
        conditions: [{ member: "sales.quantity", operator: "gt", value: 3 }],
        time: { dimension: "sales.created_at", range: { from: "2024-01-01", to: "2024-12-31" } },
      },
    ]) as [string, Expected][]),
    ...(["orders above $500 or below $10", "Bestellungen über 500 $ oder unter 10 $", "pedidos de más de 500 $ o menos de 10 $"].map((q) => [
      q,
      {
        filters: [],
        anyOf: [
          [
            { filters: [], conditions: [{ member: "sales.amount", operator: "gt", value: 500 }] },
            { filters: [], conditions: [{ member: "sales.amount", operator: "lt", value: 10 }] },
          ],
        ],
      },
    ]) as [string, Expected][]),
    // "A and (B or C)": the "or" stands between the filters next to it.
    [
      "orders in Germany with more than 3 units or above $500",
      {
        filters: [{ member: "sales.customers_country", values: ["DE"] }],
        anyOf: [
          [
            { filters: [], conditions: [{ member: "sales.quantity", operator: "gt", value: 3 }] },
            { filters: [], conditions: [{ member: "sales.amount", operator: "gt", value: 500 }] },
          ],
        ],
      },
    ],
    // "(A and B) or C": the words after "or" name what is counted again.
    ...([
      "orders from Germany with more than 3 units, or orders above $500",
      "Bestellungen aus Deutschland mit mehr als 3 Stück oder Bestellungen über 500 €",
      "pedidos de Alemania con más de 3 unidades o pedidos de más de 500 dólares",
    ].map((q) => [
      q,
      {
        measures: ["sales.count"],
        filters: [],
        anyOf: [
          [
            { filters: [{ member: "sales.customers_country", values: ["DE"] }], conditions: [{ member: "sales.quantity", operator: "gt", value: 3 }] },
            { filters: [], conditions: [{ member: "sales.amount", operator: "gt", value: 500 }] },
          ],
        ],
      },
    ]) as [string, Expected][]),
    // Either of two figures of the groups (HAVING).
    [
      "categories with revenue above 40000 or below 20000",
      {
        dimensions: ["sales.products_category"],
        anyOf: [
          [
            { filters: [], conditions: [{ member: "sales.revenue", operator: "gt", value: 40000 }] },
            { filters: [], conditions: [{ member: "sales.revenue", operator: "lt", value: 20000 }] },
          ],
        ],
      },
    ],
    // The view whose members the question names: "new" customers are counted by their sign-up date.
    ...([
      "Wie viele neue Kunden haben sich jeden Monat angemeldet?",
      "Neukunden pro Monat",
      "nuevos clientes cada mes",
      "customers by sign-up month",
      "customers by signup date",
    ].map((q) => [
      q,
      { view: "customer_base", measures: ["customer_base.count"], time: { dimension: "customer_base.signed_up_at", granularity: "month" } },
    ]) as [string, Expected][]),
    [
      "new customers per month in 2024",
      {
        view: "customer_base",
        time: { dimension: "customer_base.signed_up_at", granularity: "month", range: { from: "2024-01-01", to: "2024-12-31" } },
      },
    ],
    ["new customers by country", { view: "customer_base", measures: ["customer_base.count"], dimensions: ["customer_base.country"] }],
    ["sign-ups by country", { view: "customer_base", measures: ["customer_base.count"], dimensions: ["customer_base.country"] }],
    // "new orders" stay the orders' own; "customers" without "new" stay the customers who ordered.
    ["new orders per month", { view: "sales", measures: ["sales.count"], time: { dimension: "sales.created_at", granularity: "month" } }],
    ["customers by country", { view: "sales", measures: ["sales.customer_count"] }],
    ["Umsatz jeden Monat", { measures: ["sales.revenue"], time: { dimension: "sales.created_at", granularity: "month" } }],
  ])("%s", (question, expected) => {
    const reading = read(question);
    expect(reading.ok).toBe(true);
    if (reading.ok) expect(reading.understanding).toMatchObject(expected);
  });

  it.each<[string, Refusal]>([
    ["weather in Paris tomorrow", { kind: "unknown", term: "weather", view: "sales" }],
    ["who is the CEO", { kind: "unknown", term: "ceo", view: "sales" }],
    ["How many employees work at our company?", { kind: "unknown", term: "employees", view: "sales" }],
    ["Wie viele Mitarbeiter hat unser Unternehmen?", { kind: "unknown", term: "mitarbeiter", view: "sales" }],
    ["¿Cuántos empleados trabajan en nuestra empresa?", { kind: "unknown", term: "empleados", view: "sales" }],
    ["what is our profit margin by category", { kind: "unknown", term: "profit", view: "sales" }],
    ["revenue and margin by category", { kind: "unknown", term: "margin", view: "sales" }],
    ["average order value by customer segment", { kind: "unknown", term: "segment", view: "sales", grouping: { entity: "customers" } }],
    ["durchschnittlicher Bestellwert nach Kundensegment", { kind: "unknown", term: "segment", view: "sales", grouping: { entity: "customers" } }],
    ["valor medio del pedido por segmento de cliente", { kind: "unknown", term: "segmento", view: "sales", grouping: { entity: "customers" } }],
    ["revenue by region", { kind: "unknown", term: "region", view: "sales", grouping: {} }],
    ["categories with revenue above 40000 or in Germany", { kind: "either" }],
    ["Kategorien mit einem Umsatz über 40000 oder in Deutschland", { kind: "either" }],
    ["delete all orders", { kind: "write" }],
    ["lösche alle Bestellungen", { kind: "write" }],
    ["borra todos los pedidos", { kind: "write" }],
    ["update the status of all orders to shipped", { kind: "write" }],
    ["insert a new order for Ann", { kind: "write" }],
    ["drop table orders", { kind: "write" }],
  ])("%s: no reading, and why", (question, refusal) => {
    const reading = read(question);
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.refusal).toEqual(refusal);
  });

  it("reads sign-ups grouped by something else as one figure per group, not a series", () => {
    const reading = read("sign-ups by country");
    expect(reading.ok && reading.understanding.time).toBeUndefined();
    expect(reading.ok && read("sign-ups").ok && (read("sign-ups") as { understanding: Understanding }).understanding.time).toMatchObject({
      granularity: "month",
    });
  });

  it.each([
    ["how many orders", ["sales.count"], false],
    ["orders in Germany", ["sales.count"], false],
    ["by country", ["sales.count"], true],
  ] as const)("%s: measures %j, counted by default: %s", (question, measures, defaultMeasure) => {
    expect(read(question)).toMatchObject({ ok: true, understanding: { measures, defaultMeasure } });
  });
});
