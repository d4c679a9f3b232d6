import { describe, expect, it } from "vitest";
import { summarize } from "./summary";
import type { Understanding } from "./understanding";

const base: Understanding = { language: "en", view: "sales", measures: ["sales.revenue"], dimensions: [], filters: [], defaultMeasure: false, ignored: [] };
const u = (over: Partial<Understanding>): Understanding => ({ ...base, ...over });
const columns = [
  { key: "sales.revenue", title: "Revenue", format: "currency" },
  { key: "sales.count", title: "Orders" },
];
const month = { dimension: "sales.created_at", granularity: "month" as const };

describe("summarize", () => {
  it.each<[string, Understanding, Record<string, unknown>[], string]>([
    ["no rows", base, [], "There is no data for this question."],
    ["a total", base, [{ "sales.revenue": 1234.5 }], "Revenue: **$1,234.50**."],
    ["a total, in German", u({ language: "de" }), [{ "sales.revenue": 1234.5 }], "Revenue: **1.234,50\u00a0$**."],
    [
      "the leaders of a grouping",
      u({ dimensions: ["sales.status"] }),
      [
        { "sales.status": "completed", "sales.revenue": 300 },
        { "sales.status": "shipped", "sales.revenue": 200 },
        { "sales.status": "cancelled", "sales.revenue": 10 },
        { "sales.status": "returned", "sales.revenue": 5 },
      ],
      "**completed** leads Revenue with **$300.00**, then shipped ($200.00), cancelled ($10.00). 4 rows.",
    ],
    [
      "the peak of a series",
      u({ time: month }),
      [
        { "sales.created_at.month": "2025-01-01T00:00:00.000", "sales.revenue": 100 },
        { "sales.created_at.month": "2025-02-01T00:00:00.000", "sales.revenue": 300 },
      ],
      "Revenue peaked in **February 2025** at **$300.00**; lowest in January 2025 ($100.00). Revenue: **$400.00**. 2 rows.",
    ],
    [
      "the busiest month, as a sentence",
      u({ measures: ["sales.count"], limit: 1, direction: "desc", time: month }),
      [{ "sales.created_at.month": "2024-03-01T00:00:00.000", "sales.count": 42 }],
      "The top month by Orders was **March 2024**, with **42**.",
    ],
    [
      "the busiest month, in Spanish",
      u({ language: "es", measures: ["sales.count"], limit: 1, direction: "desc", time: month }),
      [{ "sales.created_at.month": "2024-03-01T00:00:00.000", "sales.count": 42 }],
      "El mes con más Orders fue **marzo de 2024**, con **42**.",
    ],
    [
      "a period against the one before",
      u({ compare: { unit: "year" }, time: { dimension: "sales.created_at", granularity: "year" } }),
      [
        {
          "sales.created_at.year": "2025-01-01T00:00:00.000",
          "sales.revenue": 150,
          "sales.revenue_prev_year": 100,
          "sales.revenue_change": 50,
          "sales.revenue_change_pct": 0.5,
        },
      ],
      "Revenue: **$150.00**, against **$100.00** in the period before: **+50%** (+$50.00).",
    ],
  ])("%s", (_, understanding, rows, expected) => expect(summarize(understanding, rows, columns)).toBe(expected));
});
