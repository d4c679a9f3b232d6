/**
 * Results as the platform answers them (`annotateQuery` on the server), for the tests of the
 * helpers and widgets that read annotations: one with `compare`, one with `calculations` and a
 * calculated field. Test data only: nothing in the app imports it.
 */
import type { QueryResult, SemanticQuery } from "../shell/platform-api";

const ranges = {
  baseline: { from: "2024-01-01T00:00:00.000", to: "2024-04-01T00:00:00.000" },
  current: { from: "2025-01-01T00:00:00.000", to: "2025-04-01T00:00:00.000" },
};

const category = { title: "Sales Products Category", shortTitle: "Products Category", type: "string" };

function compared(output: "baseline" | "current" | "change" | "relativeChange", label: string) {
  return {
    title: `Sales Revenue (${label})`,
    shortTitle: `Revenue (${label})`,
    type: "number",
    format: output === "relativeChange" ? "percent" : "currency",
    measureType: "sum",
    measure: "sales.revenue",
    output,
    ranges,
  };
}

export const compareQuery: SemanticQuery = {
  measures: ["sales.revenue"],
  dimensions: ["sales.products_category"],
  compare: { dimension: "sales.created_at", baseline: ["2024-01-01", "2024-03-31"], current: ["2025-01-01", "2025-03-31"] },
};

export const compareResult: QueryResult = {
  fromCache: false,
  data: [
    {
      "sales.products_category": "Books",
      "sales.revenue.baseline": 1000,
      "sales.revenue.current": 1250,
      "sales.revenue.change": 250,
      "sales.revenue.relativeChange": 0.25,
    },
    {
      "sales.products_category": "Games",
      "sales.revenue.baseline": 800,
      "sales.revenue.current": 700,
      "sales.revenue.change": -100,
      "sales.revenue.relativeChange": -0.125,
    },
  ],
  annotation: {
    measures: {},
    dimensions: { "sales.products_category": category },
    timeDimensions: {},
    periodComparisons: {},
    compare: {
      "sales.revenue.baseline": compared("baseline", "Q1 2024"),
      "sales.revenue.current": compared("current", "Q1 2025"),
      "sales.revenue.change": compared("change", "change"),
      "sales.revenue.relativeChange": compared("relativeChange", "% change"),
    },
  },
};

export const calculationsQuery: SemanticQuery = {
  measures: ["sales.revenue", "sales.returned_share"],
  dimensions: ["sales.products_category"],
  calculations: [
    { type: "percentOfTotal", measure: "sales.revenue" },
    { type: "runningTotal", measure: "sales.revenue", along: "sales.products_category" },
    { type: "rank", measure: "sales.revenue" },
  ],
};

export const calculationsResult: QueryResult = {
  fromCache: false,
  data: [
    {
      "sales.products_category": "Books",
      "sales.revenue": 750,
      "sales.returned_share": 0.04,
      "sales.revenue.percentOfTotal": 0.75,
      "sales.revenue.runningTotal": 750,
      "sales.revenue.rank": 1,
    },
    {
      "sales.products_category": "Games",
      "sales.revenue": "250",
      "sales.returned_share": 0.125,
      "sales.revenue.percentOfTotal": 0.25,
      "sales.revenue.runningTotal": 1000,
      "sales.revenue.rank": 2,
    },
  ],
  annotation: {
    measures: {
      "sales.revenue": { title: "Sales Revenue", shortTitle: "Revenue", type: "number", format: "currency", measureType: "sum" },
      "sales.returned_share": { title: "Returned share", shortTitle: "Returned share", type: "number", format: "percent", measureType: "number" },
    },
    dimensions: { "sales.products_category": category },
    timeDimensions: {},
    periodComparisons: {},
    calculations: {
      "sales.revenue.percentOfTotal": {
        title: "Sales Revenue (% of total)",
        shortTitle: "Revenue (% of total)",
        type: "number",
        format: "percent",
        measure: "sales.revenue",
        calculation: "percentOfTotal",
        within: [],
      },
      "sales.revenue.runningTotal": {
        title: "Sales Revenue (running total)",
        shortTitle: "Revenue (running total)",
        type: "number",
        format: "currency",
        measureType: "sum",
        measure: "sales.revenue",
        calculation: "runningTotal",
        within: [],
      },
      "sales.revenue.rank": {
        title: "Sales Revenue (rank)",
        shortTitle: "Revenue (rank)",
        type: "number",
        measure: "sales.revenue",
        calculation: "rank",
        within: [],
      },
    },
  },
};
