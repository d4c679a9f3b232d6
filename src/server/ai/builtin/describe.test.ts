import { describe, expect, it } from "vitest";
import { describeUnderstanding } from "./describe";
import { DEMO_REFERENCE, demoViews } from "./demo-views";
import type { Understanding } from "./understanding";

const base: Understanding = { language: "en", view: "sales", measures: ["sales.revenue"], dimensions: [], filters: [], defaultMeasure: false, ignored: [] };
const u = (over: Partial<Understanding>): Understanding => ({ ...base, ...over });

describe("describeUnderstanding", () => {
  const views = demoViews();
  it.each<[string, Understanding, string]>([
    ["a grouping", u({ dimensions: ["sales.customers_country"] }), "I read this as: **Revenue**, by Country."],
    ["a filter", u({ filters: [{ member: "sales.customers_country", values: ["DE"] }] }), "I read this as: **Revenue**, where Country = DE."],
    [
      "a count by default, top 3",
      u({ measures: ["sales.count"], defaultMeasure: true, dimensions: ["sales.customers_city"], limit: 3, direction: "desc" }),
      "I read this as: **Orders** (counting Orders, as no measure was named), by City, top 3.",
    ],
    ["words not used", u({ ignored: ["please", "now"] }), "I read this as: **Revenue**. I did not use: “please now”."],
    [
      "(A and B) or C",
      u({
        measures: ["sales.count"],
        anyOf: [
          [
            { filters: [{ member: "sales.customers_country", values: ["DE"] }], conditions: [{ member: "sales.quantity", operator: "gt", value: 3 }] },
            { filters: [], conditions: [{ member: "sales.amount", operator: "gt", value: 500 }] },
          ],
        ],
      }),
      "I read this as: **Orders**, where (Country = DE and Quantity > 3) or Amount > 500.",
    ],
    [
      "either of two, in German",
      u({
        language: "de",
        measures: ["sales.count"],
        anyOf: [
          [
            { filters: [], conditions: [{ member: "sales.amount", operator: "gt", value: 500 }] },
            { filters: [], conditions: [{ member: "sales.amount", operator: "lt", value: 10 }] },
          ],
        ],
      }),
      "So habe ich die Frage verstanden: **Orders**, wobei Amount > 500 oder Amount < 10.",
    ],
    ["in Spanish", u({ language: "es", dimensions: ["sales.status"] }), "Así entendí la pregunta: **Revenue**, por Status."],
    [
      "a value left out",
      u({ filters: [{ member: "sales.status", values: ["cancelled"], exclude: true }] }),
      "I read this as: **Revenue**, where Status ≠ cancelled.",
    ],
    [
      "a numeric condition",
      u({ measures: ["sales.count"], conditions: [{ member: "sales.amount", operator: "gt", value: 500 }] }),
      "I read this as: **Orders**, where Amount > 500.",
    ],
    [
      "between",
      u({ measures: ["sales.count"], conditions: [{ member: "sales.amount", operator: "between", value: 100, high: 500 }] }),
      "I read this as: **Orders**, where Amount 100 – 500.",
    ],
    [
      "two periods, in German",
      u({
        language: "de",
        periods: { dimension: "sales.created_at", baseline: { from: "2024-01-01", to: "2024-03-31" }, current: { from: "2025-01-01", to: "2025-03-31" } },
      }),
      "So habe ich die Frage verstanden: **Revenue**, Zeitraum Order Date: Q1 2025 gegenüber Q1 2024.",
    ],
    ["a share", u({ dimensions: ["sales.status"], calculation: "percentOfTotal" }), "I read this as: **Revenue**, by Status, each row's share of the total."],
    [
      "a rank, in Spanish",
      u({ language: "es", dimensions: ["sales.status"], calculation: "rank" }),
      "Así entendí la pregunta: **Revenue**, por Status, con su puesto.",
    ],
    [
      "the top in each group",
      u({ dimensions: ["sales.products_name", "sales.products_category"], perGroup: { within: ["sales.products_category"], limit: 1 } }),
      "I read this as: **Revenue**, by Products Name and Category, the top 1 in each Category.",
    ],
    [
      "an explanation",
      u({
        explain: true,
        periods: { dimension: "sales.created_at", baseline: { from: "2025-01-01", to: "2025-01-31" }, current: { from: "2025-02-01", to: "2025-02-28" } },
      }),
      "I read this as: **Revenue**, period Order Date: Feb 2025 against Jan 2025, what moved it most.",
    ],
    [
      "a period that is no whole month, in Spanish",
      u({ language: "es", time: { dimension: "sales.created_at", range: { from: "2025-01-05", to: "2025-02-10" } } }),
      "Así entendí la pregunta: **Revenue**, periodo Order Date: 5 ene\u2009–\u200910 feb 2025.",
    ],
  ])("%s", (_, understanding, expected) => expect(describeUnderstanding(understanding, views, new Date())).toBe(expected));

  it("says relative dates count from the end of the data when it ends before today", () => {
    const text = describeUnderstanding(u({ time: { dimension: "sales.created_at", range: { from: "2025-04-01", to: "2025-06-30" } } }), views, DEMO_REFERENCE);
    expect(text).toBe("I read this as: **Revenue**, period Order Date: Q2 2025. (relative dates count from the end of the data, Jun 30, 2025)");
  });
});
