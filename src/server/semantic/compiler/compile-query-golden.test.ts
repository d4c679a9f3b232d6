import { describe, expect, it } from "vitest";
import { compileQuery, type CompileQueryOptions, type SqlDialect } from "../compile-query";
import { loadDataModel } from "../data-model";
import type { SemanticQuery } from "../../../schema/semantic-query";
import type { SecurityContext } from "../security-context";
import { acmeViewer, adminViewer, globexViewer, shopModelYaml } from "../test-support/shop-fixture";

// Whole statements, byte for byte, for every dialect: the engine suites in compile-query.test.ts
// only check the rows that come back, which would not notice a change in the SQL text that
// happens to return the same rows (or a dialect difference neither fixture exercises).
const shop = loadDataModel([{ path: "shop.yml", content: shopModelYaml("main") }]);
const NOW = new Date("2024-11-15T12:00:00Z");

const crm = loadDataModel([
  {
    path: "crm.yml",
    content: `cubes:
  - name: accounts
    sql: "SELECT * FROM raw.accounts WHERE deleted_at IS NULL"
    joins:
      - { name: deals, relationship: one_to_many, sql: "{CUBE}.id = {deals}.account_id" }
      - { name: regions, relationship: many_to_one, sql: "{CUBE}.region_id = {regions}.id" }
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: name, sql: name, type: string }
      - { name: signed_up_at, sql: signed_up, type: time }
      - { name: label, sql: "upper({name}) || ' #' || CAST({CUBE}.id AS VARCHAR)", type: string }
      - { name: owner, sql: owner_email, type: string }
    measures:
      - { name: count, type: count }
      - { name: names, sql: name, type: count_distinct }
    access_policy:
      - group: [sales]
        row_level:
          filters:
            - or:
                - { member: owner, operator: equals, values: ["{ securityContext.email }"] }
                - { member: name, operator: in, values: ["{ userAttributes.accounts }"] }
      - group: [support]
        row_level:
          filters: [{ member: owner, operator: set }, { member: name, operator: notEquals, values: ["{ groups }"] }]
  - name: deals
    sql_table: crm.deals
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: stage, sql: stage, type: string }
      - { name: closed, sql: "{CUBE}.closed_at IS NOT NULL", type: boolean }
      - { name: closed_at, sql: closed_at, type: time }
    measures:
      - { name: count, type: count }
      - { name: won, type: count, filters: [{ sql: "{CUBE}.stage = 'won'" }] }
      - { name: value, sql: value, type: max }
  - name: regions
    sql_table: crm.regions
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: code, sql: code, type: string }
    access_policy:
      - group: "*"
        row_level:
          filters: [{ member: code, operator: equals, values: ["{ userAttributes.region }"] }]
`,
  },
]);

const seller: SecurityContext = { embedTenant: "acme-corp", groups: ["sales", "support"], userAttributes: { accounts: ["Initech", "Hooli"] }, role: "viewer" };

interface GoldenCase {
  name: string;
  model: typeof shop;
  query: SemanticQuery;
  ctx: SecurityContext;
  extra?: Partial<CompileQueryOptions>;
}

const cases: GoldenCase[] = [
  {
    name: "view-time-zone-policies",
    model: shop,
    ctx: acmeViewer,
    query: {
      measures: ["sales.revenue"],
      dimensions: ["sales.customers_country"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: "last year" }],
      filters: [
        {
          or: [
            { member: "sales.status", operator: "equals", values: ["completed"] },
            { member: "sales.products_name", operator: "startsWith", values: ["Wid"] },
          ],
        },
      ],
      timezone: "Europe/Berlin",
      limit: 100,
    },
  },
  {
    name: "filter-operators",
    model: shop,
    ctx: adminViewer,
    query: {
      dimensions: ["sales.order_id", "sales.created_at"],
      filters: [
        { member: "sales.status", operator: "equals", values: ["completed"] },
        { member: "sales.status", operator: "in", values: ["a", "b"] },
        { member: "sales.status", operator: "notEquals", values: ["x"] },
        { member: "sales.status", operator: "notIn", values: ["x", "y"] },
        { member: "sales.products_name", operator: "contains", values: ["100%", "a_b\\c"] },
        { member: "sales.products_name", operator: "notContains", values: ["g", "h"] },
        { member: "sales.customers_city", operator: "startsWith", values: ["New"] },
        { member: "sales.customers_city", operator: "notStartsWith", values: ["B"] },
        { member: "sales.customers_city", operator: "endsWith", values: ["ich"] },
        { member: "sales.customers_city", operator: "notEndsWith", values: ["s", "n"] },
        { member: "sales.amount", operator: "gt", values: [40] },
        { member: "sales.amount", operator: "gte", values: ["7"] },
        { member: "sales.amount", operator: "lt", values: [7.5] },
        { member: "sales.amount", operator: "lte", values: [100] },
        { member: "sales.amount", operator: "in", values: [1, 2] },
        { member: "sales.is_big", operator: "equals", values: [true] },
        { member: "sales.status", operator: "set" },
        { member: "sales.customers_country", operator: "notSet" },
        { member: "sales.created_at", operator: "equals", values: ["2024-03-30T22:30:00Z"] },
        { member: "sales.created_at", operator: "in", values: ["2024-03-30 22:30", "2024-10-27T02:30:00"] },
        { member: "sales.created_at", operator: "inDateRange", values: ["2024-01-01", "2024-02-29"] },
        { member: "sales.created_at", operator: "notInDateRange", values: ["last 7 days"] },
        { member: "sales.created_at", operator: "beforeDate", values: ["2023-03-15"] },
        { member: "sales.created_at", operator: "beforeOrOnDate", values: ["2023-03-15T10:00:00"] },
        { member: "sales.created_at", operator: "afterDate", values: ["2024-03-31T22:30:00Z"] },
        { member: "sales.created_at", operator: "afterOrOnDate", values: ["2024-03-31"] },
        {
          or: [
            {
              and: [
                { member: "sales.customers_country", operator: "equals", values: ["DE"] },
                { member: "sales.order_id", operator: "gte", values: [2] },
              ],
            },
            { member: "sales.order_id", operator: "equals", values: [9] },
          ],
        },
      ],
      order: { "sales.order_id": "asc" },
      timezone: "America/New_York",
      limit: 50,
      offset: 10,
    },
  },
  {
    name: "measure-types-having",
    model: shop,
    ctx: acmeViewer,
    query: {
      measures: [
        "sales.count",
        "sales.revenue",
        "sales.avg_amount",
        "sales.min_amount",
        "sales.max_amount",
        "sales.unique_customers",
        "sales.completed_count",
        "sales.average_order_value",
        "sales.customers_count",
      ],
      dimensions: ["sales.customers_country", "sales.products_category"],
      filters: [
        { member: "sales.revenue", operator: "gt", values: [60] },
        {
          or: [
            { member: "sales.count", operator: "gte", values: [1] },
            { member: "sales.unique_customers", operator: "lt", values: [10] },
          ],
        },
        { member: "sales.products_category", operator: "notEquals", values: ["toys"] },
      ],
      order: [
        ["sales.products_category", "asc"],
        ["sales.revenue", "desc"],
      ],
    },
  },
  {
    name: "fill-missing-rows-in-range",
    model: shop,
    ctx: acmeViewer,
    query: {
      measures: ["sales.count", "sales.revenue", "sales.avg_amount"],
      dimensions: ["sales.customers_country", "sales.customers_city"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "week", dateRange: ["2024-01-01", "2024-03-31"] }],
      order: [
        ["sales.created_at", "asc"],
        ["sales.customers_country", "asc"],
      ],
      timezone: "Europe/Berlin",
    },
    extra: { fillMissingRows: { member: "sales.created_at", excludedDimensions: ["sales.customers_city"] } },
  },
  {
    name: "fill-missing-rows-open-range",
    model: shop,
    ctx: adminViewer,
    query: { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", granularity: "day" }] },
    extra: { fillMissingRows: { member: "sales.created_at.day" } },
  },
  {
    name: "period-comparisons-with-fill",
    model: shop,
    ctx: acmeViewer,
    query: {
      measures: ["sales.revenue", "sales.count"],
      dimensions: ["sales.customers_city"],
      timeDimensions: [
        { dimension: "sales.created_at", granularity: "month", dateRange: ["2024-01-01", "2024-06-30"] },
        { dimension: "sales.created_at", granularity: "quarter" },
      ],
      order: [
        ["sales.customers_city", "asc"],
        ["sales.created_at.month", "desc"],
        ["sales.count", "desc"],
      ],
      timezone: "Europe/Berlin",
      limit: 500,
      offset: 5,
    },
    extra: {
      fillMissingRows: { member: "sales.created_at.month" },
      periodComparisons: [
        {
          measure: "sales.revenue",
          timeDimension: "sales.created_at.month",
          offset: { amount: 1, unit: "year" },
          outputs: ["sales.revenue_prev_year", "sales.revenue_change", "sales.revenue_change_pct"],
        },
        { measure: "sales.count", timeDimension: "sales.created_at", offset: { amount: -2, unit: "quarter" } },
        {
          measure: "sales.count",
          timeDimension: "sales.created_at.month",
          offset: { amount: 3, unit: "week" },
          outputs: ["sales.count_3w", "sales.count_3w_change"],
        },
        { measure: "sales.revenue", timeDimension: "sales.created_at.month", offset: { amount: 1, unit: "day" } },
        { measure: "sales.revenue", timeDimension: "sales.created_at.month", offset: { amount: 2, unit: "month" } },
      ],
    },
  },
  {
    name: "period-comparison-open-range",
    model: shop,
    ctx: adminViewer,
    query: { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", granularity: "year" }] },
    extra: { periodComparisons: [{ measure: "sales.count", timeDimension: "sales.created_at", offset: { amount: 1, unit: "year" } }] },
  },
  {
    name: "cube-joins-policy-alternatives",
    model: crm,
    ctx: seller,
    query: {
      measures: ["accounts.count", "deals.won", "deals.value"],
      dimensions: ["accounts.label", "accounts.signed_up_at", "regions.code", "deals.closed"],
      timeDimensions: [{ dimension: "deals.closed_at", granularity: "quarter" }],
      filters: [
        { member: "deals.stage", operator: "notContains", values: ["lost"] },
        { member: "accounts.signed_up_at", operator: "afterDate", values: ["2020-01-01"] },
      ],
      timezone: "Asia/Kathmandu",
    },
  },
  {
    name: "one-to-many-count-distinct",
    model: crm,
    ctx: { ...seller, groups: ["support"] },
    query: {
      measures: ["accounts.count", "accounts.names"],
      dimensions: ["deals.stage"],
      timeDimensions: [
        { dimension: "deals.closed_at", dateRange: "this quarter" },
        { dimension: "accounts.signed_up_at", granularity: "second", dateRange: "today" },
      ],
      timezone: "Australia/Lord_Howe",
    },
  },
  {
    name: "ranges-outside-offset-window",
    model: shop,
    ctx: adminViewer,
    query: {
      measures: ["sales.count"],
      dimensions: ["sales.created_at"],
      timeDimensions: [
        { dimension: "sales.created_at", granularity: "day", dateRange: ["1990-01-01", "1990-12-31"] },
        { dimension: "sales.created_at", granularity: "year", dateRange: ["2039-06-01", "2041-01-01"] },
      ],
      timezone: "Europe/Berlin",
    },
  },
  {
    name: "range-past-offset-window",
    model: crm,
    ctx: { ...seller, userAttributes: { ...seller.userAttributes, email: "a@b.c" } },
    query: {
      measures: ["deals.count"],
      timeDimensions: [{ dimension: "deals.closed_at", granularity: "month", dateRange: ["2039-06-01", "2041-01-01"] }],
      timezone: "Europe/Berlin",
    },
  },
  {
    name: "time-parts",
    model: shop,
    ctx: acmeViewer,
    query: {
      measures: ["sales.count", "sales.revenue"],
      timeDimensions: [
        { dimension: "sales.created_at", part: "dayOfWeek", dateRange: ["2024-01-01", "2024-12-31"] },
        { dimension: "sales.created_at", part: "hourOfDay" },
      ],
      timezone: "Europe/Berlin",
    },
  },
  {
    name: "time-parts-utc-with-buckets",
    model: shop,
    ctx: adminViewer,
    query: {
      measures: ["sales.count"],
      dimensions: ["sales.customers_country"],
      timeDimensions: [
        { dimension: "sales.created_at", part: "monthOfYear" },
        { dimension: "sales.created_at", part: "quarterOfYear" },
        { dimension: "sales.created_at", part: "weekOfYear" },
        { dimension: "sales.created_at", part: "dayOfMonth" },
        { dimension: "sales.created_at", granularity: "year" },
      ],
      order: [["sales.created_at.monthOfYear", "desc"]],
    },
  },
  {
    name: "compare-ranges-by-category",
    model: shop,
    ctx: acmeViewer,
    query: {
      measures: ["sales.revenue", "sales.avg_amount"],
      dimensions: ["sales.products_category"],
      timeDimensions: [{ dimension: "sales.created_at", part: "quarterOfYear" }],
      filters: [{ member: "sales.status", operator: "notEquals", values: ["cancelled"] }],
      compare: { dimension: "sales.created_at", baseline: ["2024-01-01", "2024-03-31"], current: "this quarter" },
      order: [["sales.revenue.change", "desc"]],
      timezone: "Europe/Berlin",
      limit: 20,
    },
  },
  {
    name: "compare-ranges-totals",
    model: shop,
    ctx: adminViewer,
    query: { measures: ["sales.count"], compare: { dimension: "sales.created_at", baseline: "last year", current: "this year" } },
  },
  {
    name: "calculations-group-limit",
    model: shop,
    ctx: acmeViewer,
    query: {
      measures: ["sales.count", "sales.revenue"],
      dimensions: ["sales.products_category", "sales.products_name"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2024-01-01", "2024-12-31"] }],
      calculations: [
        { type: "percentOfTotal", measure: "sales.revenue" },
        { type: "percentOfTotal", measure: "sales.revenue", within: ["sales.products_category"], name: "sales.revenue_share_in_category" },
        { type: "runningTotal", measure: "sales.revenue" },
        { type: "rank", measure: "sales.count", within: ["sales.created_at.month"], direction: "asc" },
      ],
      groupLimit: { within: ["sales.products_category"], limit: 2, order: [["sales.count", "desc"]] },
      order: [["sales.revenue_share_in_category", "desc"]],
    },
    extra: { fillMissingRows: { member: "sales.created_at.month" } },
  },
  {
    name: "compare-with-calculations",
    model: shop,
    ctx: globexViewer,
    query: {
      measures: ["sales.revenue"],
      dimensions: ["sales.customers_country"],
      compare: { dimension: "sales.created_at", baseline: ["2023-01-01", "2023-12-31"], current: ["2024-01-01", "2024-12-31"] },
      calculations: [{ type: "percentOfTotal", measure: "sales.revenue.change" }],
    },
  },
  {
    name: "between-filters",
    model: shop,
    ctx: acmeViewer,
    query: {
      measures: ["sales.revenue"],
      dimensions: ["sales.status"],
      filters: [
        { member: "sales.amount", operator: "between", values: [5, "30"] },
        { member: "sales.order_id", operator: "notBetween", values: [3, 4] },
        { member: "sales.revenue", operator: "between", values: [10, 100] },
        { member: "sales.count", operator: "notBetween", values: [2, 2] },
        { member: "sales.avg_amount", operator: "equals", values: [10] },
        { member: "sales.max_amount", operator: "notEquals", values: [11] },
      ],
    },
  },
  {
    name: "no-matching-policy",
    model: crm,
    ctx: { ...seller, groups: [] },
    query: { measures: ["accounts.count"], dimensions: ["regions.code"] },
  },
  {
    name: "calculated-fields-view",
    model: shop,
    ctx: acmeViewer,
    query: {
      measures: ["sales.completed_share", "sales.unshipped_revenue", "sales.big_revenue"],
      dimensions: ["sales.state"],
      filters: [
        { member: "sales.completed_share", operator: "gte", values: [0.5] },
        { member: "sales.big_and_done", operator: "equals", values: [false] },
      ],
      order: [["sales.completed_share", "desc"]],
      calculatedFields: [
        { name: "completed_share", formula: "count(where status = 'completed') / count", title: "Completed share", format: "percent" },
        { name: "unshipped_revenue", formula: "revenue - coalesce(revenue(where status in ('shipped', 'it''s')), 0)", format: "currency" },
        { name: "big_revenue", formula: "round(sum(amount * 1.2 where amount >= 20 and not is_big), 2)" },
        { name: "state", formula: "upper(coalesce(status, 'none'))" },
        { name: "big_and_done", formula: "amount >= 20 and status = 'completed' or customers_country is null" },
      ],
    },
  },
  {
    name: "calculated-fields-fan-out",
    model: crm,
    ctx: { ...seller, groups: ["support"] },
    query: {
      measures: ["accounts.won_share", "accounts.named"],
      dimensions: ["deals.stage"],
      calculatedFields: [
        { name: "won_share", formula: "deals.won / nullif(count, 0)" },
        { name: "named", formula: "count(where name != 'Initech') + count_distinct(name where owner is not null)" },
      ],
    },
  },
];

describe("compileQuery (golden SQL of every clause)", () => {
  for (const c of cases) {
    for (const dialect of ["duckdb", "postgres", "mysql"] as SqlDialect[]) {
      it(`${c.name} (${dialect})`, async () => {
        const compiled = compileQuery(c.model, c.query, { dialect, securityContext: c.ctx, now: NOW, ...c.extra });
        const text = [
          compiled.sql,
          "",
          `-- params: ${JSON.stringify(compiled.params)}`,
          `-- columns: ${JSON.stringify(compiled.columns)}`,
          `-- annotation: ${JSON.stringify(compiled.annotation)}`,
          "",
        ].join("\n");
        await expect(text).toMatchFileSnapshot(`./golden/${c.name}.${dialect}.sql`);
      });
    }
  }
});
