import { describe, expect, it } from "vitest";
import { DEMO_REFERENCE, demoViews } from "./demo-views";
import { readQuestion } from "./question";
import type { Understanding } from "./understanding";

const views = demoViews();
const read = (question: string) => readQuestion(question, views, { locale: "en", reference: DEMO_REFERENCE });

/** What the table checks of a reading: the fields a question sets (the rest is left out). */
type Expected = Partial<Pick<Understanding, "language" | "view" | "measures" | "dimensions" | "filters" | "time" | "limit" | "direction" | "compare">>;

describe("readQuestion", () => {
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
  ])("%s", (question, expected) => {
    const reading = read(question);
    expect(reading.ok).toBe(true);
    if (reading.ok) expect(reading.understanding).toMatchObject(expected);
  });

  it.each(["weather in Paris tomorrow", "who is the CEO"])("%s: names nothing in the model", (question) => {
    expect(read(question)).toMatchObject({ ok: false });
  });

  it.each([
    ["how many orders", ["sales.count"], false],
    ["orders in Germany", ["sales.count"], false],
    ["by country", ["sales.count"], true],
  ] as const)("%s: measures %j, counted by default: %s", (question, measures, defaultMeasure) => {
    expect(read(question)).toMatchObject({ ok: true, understanding: { measures, defaultMeasure } });
  });
});
