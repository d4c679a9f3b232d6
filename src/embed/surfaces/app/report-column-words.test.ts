import { describe, expect, it } from "vitest";
import { appText } from "./app-messages";
import type { QueryResult } from "../../shell/platform-api";
import { withHumanTitles } from "./report-column-words";

const titleOf = (m: string) => ({ "sales.revenue": "Revenue", "sales.count": "Count" })[m] ?? m;
const ranges = {
  baseline: { from: "2024-01-01T00:00:00.000", to: "2024-04-01T00:00:00.000" },
  current: { from: "2025-01-01T00:00:00.000", to: "2025-04-01T00:00:00.000" },
};
const result = {
  data: [],
  fromCache: false,
  annotation: {
    measures: {},
    dimensions: { "sales.country": { title: "Country", shortTitle: "Country", type: "string" } },
    timeDimensions: {},
    compare: {
      "sales.revenue.baseline": {
        title: "Sales Revenue (Q1 2024)",
        shortTitle: "x",
        type: "number",
        measure: "sales.revenue",
        output: "baseline" as const,
        ranges,
      },
      "sales.revenue.relativeChange": {
        title: "Sales Revenue (% change)",
        shortTitle: "x",
        type: "number",
        measure: "sales.revenue",
        output: "relativeChange" as const,
        ranges,
      },
    },
    calculations: {
      "sales.revenue.current.percentOfTotal": {
        title: "Sales Revenue current (% of total)",
        shortTitle: "x",
        type: "number",
        measure: "sales.revenue.current",
        calculation: "percentOfTotal" as const,
        within: [],
      },
    },
    periodComparisons: {
      "sales.count_prev_month": { title: "Count (1 month earlier)", shortTitle: "x", type: "number", measure: "sales.count", output: "previous" as const },
    },
  },
};
type Group = "compare" | "periodComparisons" | "calculations" | "dimensions";
const group = (r: QueryResult, name: Group): Record<string, { title: string; shortTitle: string }> => r.annotation[name] ?? {};

describe("withHumanTitles", () => {
  it("titles the comparison's and the share's columns in the viewer's words, the others as they are", () => {
    const en = withHumanTitles(result, "yearBefore", titleOf, (k, v) => appText("en-US", k, v));
    expect(group(en, "compare")["sales.revenue.baseline"]).toMatchObject({ title: "Revenue, a year before", shortTitle: "Revenue, a year before" });
    expect(group(en, "compare")["sales.revenue.relativeChange"]!.title).toBe("Revenue, change %");
    expect(group(en, "calculations")["sales.revenue.current.percentOfTotal"]!.title).toBe("Revenue, this period, % of total");
    expect(group(en, "periodComparisons")["sales.count_prev_month"]!.title).toBe("Count, a year before");
    expect(group(en, "dimensions")["sales.country"]!.title).toBe("Country");
    const de = withHumanTitles(result, "previousPeriod", titleOf, (k, v) => appText("de-DE", k, v));
    expect(group(de, "compare")["sales.revenue.baseline"]!.title).toBe("Revenue, Vorperiode");
    expect(group(de, "calculations")["sales.revenue.current.percentOfTotal"]!.title).toBe("Revenue, diese Periode, Anteil am Gesamtwert");
  });
});
