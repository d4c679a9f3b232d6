import { describe, expect, it } from "vitest";
import type { ExplainResult } from "../../../schema/semantic-query";
import { demoViews } from "./demo-views";
import { summarizeAnalysis, summarizeExplanation } from "./summary-analysis";
import type { Understanding } from "./understanding";

const base: Understanding = { language: "en", view: "sales", measures: ["sales.revenue"], dimensions: [], filters: [], defaultMeasure: false, ignored: [] };
const u = (over: Partial<Understanding>): Understanding => ({ ...base, ...over });
const periods = { dimension: "sales.created_at", baseline: { from: "2024-01-01", to: "2024-03-31" }, current: { from: "2025-01-01", to: "2025-03-31" } };
const revenue = { key: "sales.revenue", title: "Revenue", format: "currency" };
const compared = ["baseline", "current", "change", "relativeChange"].map((o) => ({ key: `sales.revenue.${o}`, title: `Revenue (${o})`, format: "currency" }));

describe("summarizeAnalysis", () => {
  it.each<[string, Understanding, Record<string, unknown>[], { key: string; title: string; format?: string }[], string]>([
    [
      "two periods, one row",
      u({ periods }),
      [{ "sales.revenue.baseline": 100, "sales.revenue.current": 150, "sales.revenue.change": 50, "sales.revenue.relativeChange": 0.5 }],
      compared,
      "Revenue: **$150.00**, against **$100.00** in the period before: **+50%** (+$50.00).",
    ],
    [
      "two periods by category: the biggest rise and fall",
      u({ periods, dimensions: ["c"] }),
      [
        { c: "Books", "sales.revenue.baseline": 100, "sales.revenue.current": 120, "sales.revenue.change": 20, "sales.revenue.relativeChange": 0.2 },
        { c: "Toys", "sales.revenue.baseline": 100, "sales.revenue.current": 50, "sales.revenue.change": -50, "sales.revenue.relativeChange": -0.5 },
      ],
      compared,
      "Revenue grew most in **Books** (**+20%**) (from $100.00 to $120.00); the steepest fall: **Toys** (-50%). 2 rows.",
    ],
    [
      "each row's share",
      u({ calculation: "percentOfTotal", dimensions: ["c"] }),
      [
        { c: "Books", "sales.revenue": 25, "sales.revenue.percentOfTotal": 0.25 },
        { c: "Toys", "sales.revenue": 75, "sales.revenue.percentOfTotal": 0.75 },
      ],
      [revenue],
      "**Toys** leads Revenue with **$75.00** (**75%** of the total), then Books (25%). 2 rows.",
    ],
    [
      "a running total",
      u({ calculation: "runningTotal", time: { dimension: "sales.created_at", granularity: "month" } }),
      [
        { "sales.created_at.month": "2025-01-01T00:00:00.000", "sales.revenue": 10, "sales.revenue.runningTotal": 10 },
        { "sales.created_at.month": "2025-02-01T00:00:00.000", "sales.revenue": 5, "sales.revenue.runningTotal": 15 },
      ],
      [revenue],
      "Revenue added up to **$15.00** by **February 2025**. 2 rows.",
    ],
    [
      "the top in each group",
      u({ dimensions: ["p", "c"], perGroup: { within: ["c"], limit: 1 } }),
      [
        { p: "Book 1", c: "Books", "sales.revenue": 9 },
        { p: "Toy 2", c: "Toys", "sales.revenue": 7 },
      ],
      [revenue, { key: "c", title: "Category" }],
      "The top by Revenue in each Category: Books: **Book 1** ($9.00), Toys: **Toy 2** ($7.00). 2 rows.",
    ],
  ])("%s", (_, understanding, rows, columns, expected) => expect(summarizeAnalysis(understanding, rows, columns)).toBe(expected));
});

describe("summarizeExplanation", () => {
  const result: ExplainResult = {
    measure: "sales.revenue",
    timeDimension: "sales.created_at",
    ranges: { baseline: { from: "2025-01-01T00:00:00", to: "2025-02-01T00:00:00" }, current: { from: "2025-02-01T00:00:00", to: "2025-03-01T00:00:00" } },
    total: { baseline: 200, current: 150, change: -50, relativeChange: -0.25 },
    contributors: [
      { dimension: "sales.products_category", value: "Toys", baseline: 100, current: 40, change: -60, relativeChange: -0.6, share: 1.2 },
      { dimension: "sales.status", value: "completed", baseline: 50, current: 60, change: 10, relativeChange: 0.2, share: -0.2 },
    ],
  };
  it.each([
    [
      "en",
      "Revenue: **$150.00**, against **$200.00** in the period before: **-25%** (-$50.00). What moved it most: **Toys** (Category) -$60.00, 120% of the change; **completed** (Status) +$10.00, -20% of the change.",
    ],
    [
      "es",
      "Revenue: **150,00 US$**, frente a **200,00 US$** en el periodo anterior: **-25 %** (-50,00 US$). Lo que más lo movió: **Toys** (Category) -60,00 US$, 120 % del cambio; **completed** (Status) +10,00 US$, -20 % del cambio.",
    ],
  ] as const)("%s", (language, expected) =>
    expect(summarizeExplanation(u({ language }), result, demoViews(), "currency")).toBe(expected.replace(/ (US\$|%)/g, "\u00a0$1")),
  );

  // "why is revenue in Germany lower than in France?": one value against the other, not two periods.
  const segments = { member: "sales.customers_country", current: "DE", baseline: "FR" };
  const { timeDimension: _t, ranges: _r, ...rest } = result;
  const between: ExplainResult = {
    ...rest,
    segments: {
      baseline: { filters: [{ member: "sales.customers_country", operator: "equals", values: ["FR"] }] },
      current: { filters: [{ member: "sales.customers_country", operator: "equals", values: ["DE"] }] },
    },
  };
  it.each([
    [
      "en",
      "Revenue in **DE**: **$150.00**, against **$200.00** in **FR**: **-25%** (-$50.00). What makes the difference most: **Toys** (Category) -$60.00, 120% of the change; **completed** (Status) +$10.00, -20% of the change.",
    ],
    [
      "de",
      "Revenue bei **DE**: **150,00 $**, gegenüber **200,00 $** bei **FR**: **-25 %** (-50,00 $). Den Unterschied machen am meisten aus: **Toys** (Category) -60,00 $, 120 % der Veränderung; **completed** (Status) +10,00 $, -20 % der Veränderung.",
    ],
  ] as const)("between two values, %s", (language, expected) =>
    expect(summarizeExplanation(u({ language, segments }), between, demoViews(), "currency")).toBe(expected.replace(/ (\$|%)/g, "\u00a0$1")),
  );
});
