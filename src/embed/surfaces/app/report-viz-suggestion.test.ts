import { describe, expect, it } from "vitest";
import { MAX_BAR_CATEGORIES, shapeOf, suggestedVizOf, type ResultShape } from "./report-viz-suggestion";

const shape = (s: Partial<ResultShape>): ResultShape => ({ measures: 1, categories: 0, time: null, rowCount: null, ...s });

describe("suggestedVizOf", () => {
  it.each([
    ["a single number", shape({}), "kpi"],
    ["one time dimension by a period", shape({ time: "period" }), "line"],
    ["one time dimension by a part of time", shape({ time: "part" }), "bar"],
    ["one category, count not known yet", shape({ categories: 1 }), "bar"],
    [`one category of ${MAX_BAR_CATEGORIES} values`, shape({ categories: 1, rowCount: MAX_BAR_CATEGORIES }), "bar"],
    [`one category of ${MAX_BAR_CATEGORIES + 1} values`, shape({ categories: 1, rowCount: MAX_BAR_CATEGORIES + 1 }), "table"],
    ["two categories", shape({ categories: 2 }), "pivot"],
    ["a category over time", shape({ categories: 1, time: "period" }), "pivot"],
    ["three breakouts", shape({ categories: 2, time: "part" }), "pivot"],
    ["no measure", shape({ measures: 0, categories: 1 }), "table"],
  ] as const)("%s → %s", (_name, s, expected) => {
    expect(suggestedVizOf(s)).toBe(expected);
  });
});

describe("shapeOf", () => {
  it("reads the measures, the categories and how time breaks the query out", () => {
    expect(shapeOf({ measures: ["a"], dimensions: ["b", "c"], timeDimensions: [{ dimension: "t", dateRange: "this year" }] }, 4)).toEqual({
      measures: 1,
      categories: 2,
      time: null,
      rowCount: 4,
    });
    expect(shapeOf({ measures: ["a"], timeDimensions: [{ dimension: "t", part: "hourOfDay" }] }, null).time).toBe("part");
    expect(shapeOf({ measures: ["a"], timeDimensions: [{ dimension: "t", granularity: "month" }] }, null).time).toBe("period");
  });
});
