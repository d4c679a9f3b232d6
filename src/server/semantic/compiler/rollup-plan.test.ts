import { describe, expect, it } from "vitest";
import { compileQuery, type SqlDialect } from "../compile-query";
import type { SemanticQuery } from "../../../schema/semantic-query";
import type { SecurityContext } from "../security-context";
import { demoModelWithRollups } from "../test-support/demo-rollups";
import { dialectFor } from "./dialects";
import { rollupBuildSql, ROLLUP_SCHEMA, type BuiltRollup } from "./rollup-plan";

const model = demoModelWithRollups();
const built: BuiltRollup[] = [...model.rollups.values()].map((rollup) => ({ rollup, table: `${ROLLUP_SCHEMA}.${rollup.name}_v1` }));
const NOW = new Date("2025-07-01T12:00:00Z");
const acme: SecurityContext = { embedTenant: "acme-corp", groups: [], userAttributes: {}, role: "viewer" };
const admin: SecurityContext = { embedTenant: null, groups: [], userAttributes: {}, role: "admin" };

const answeredBy = (query: SemanticQuery, ctx: SecurityContext = acme) =>
  compileQuery(model, query, { dialect: "duckdb", securityContext: ctx, now: NOW, rollups: built }).annotation.rollup;

describe("answerFromRollup", () => {
  it("answers additive measures by covered dimensions at a coarser grain, under the viewer's tenant filter", () => {
    expect(
      answeredBy({
        measures: ["sales.revenue", "sales.count", "sales.average_order_value", "sales.completion_rate"],
        dimensions: ["sales.customers_country", "sales.status"],
        timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2025-01-01", "2025-03-31"] }],
        filters: [{ member: "sales.products_category", operator: "equals", values: ["Books"] }],
      }),
    ).toBe("orders_daily");
    expect(answeredBy({ measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", granularity: "week" }] }, admin)).toBe("orders_daily");
    expect(answeredBy({ measures: ["sales.customer_count"], dimensions: ["sales.customers_country"] })).toBe("orders_customers_monthly");
    // Date bounds on bucket edges: after a day is from the next midnight on.
    expect(answeredBy({ measures: ["sales.count"], filters: [{ member: "sales.created_at", operator: "afterDate", values: ["2025-01-01"] }] })).toBe(
      "orders_daily",
    );
  });

  it("leaves queries a rollup cannot answer exactly to the cube's rows", () => {
    const cases: SemanticQuery[] = [
      // a dimension no rollup keeps
      { measures: ["sales.count"], dimensions: ["sales.customers_city"] },
      // a grain finer than the rollup's, and a week from months
      { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", granularity: "hour" }] },
      { measures: ["sales.customer_count"], timeDimensions: [{ dimension: "sales.created_at", granularity: "week" }] },
      // a date range that cuts a bucket
      { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2025-01-01T12:00:00", "2025-01-31"] }] },
      { measures: ["sales.count"], filters: [{ member: "sales.created_at", operator: "afterOrOnDate", values: ["2025-01-01T12:00:00"] }] },
      // another time zone
      { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", granularity: "month" }], timezone: "Europe/Berlin" },
      // the raw time, a part of time
      { measures: ["sales.count"], dimensions: ["sales.created_at"] },
      { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }] },
      // a measure no rollup keeps, a filter on a dimension none keeps
      { measures: ["sales.customer_count"], dimensions: ["sales.status"] },
      { measures: ["sales.count"], filters: [{ member: "sales.amount", operator: "gt", values: [100] }] },
      // a query rooted elsewhere (customers without orders count too)
      { dimensions: ["customer_base.country"] },
      // calculated fields
      { measures: ["sales.big"], calculatedFields: [{ name: "big", formula: "count(where amount > 100)" }] },
    ];
    for (const q of cases) expect([q, answeredBy(q)]).toEqual([q, undefined]);
  });

  it("is not used for a viewer whose row filter is on a member the rollup lacks", () => {
    const m = demoModelWithRollups();
    m.cubes.get("orders")!.accessPolicy!.push({
      groups: ["by_city"],
      rowLevel: { allowAll: false, filters: [{ member: "status", operator: "equals", values: ["{ userAttributes.status }"] }] },
    });
    m.cubes.get("customers")!.accessPolicy = [
      { groups: "*", rowLevel: { allowAll: false, filters: [{ member: "city", operator: "equals", values: ["Paris"] }] } },
    ];
    const rollups = [...m.rollups.values()].map((rollup) => ({ rollup, table: `${ROLLUP_SCHEMA}.${rollup.name}_v1` }));
    const q: SemanticQuery = { measures: ["sales.count"], dimensions: ["sales.customers_country"] };
    expect(compileQuery(m, q, { dialect: "duckdb", securityContext: acme, now: NOW, rollups }).annotation.rollup).toBeUndefined();
    // Without customers in the query, only the orders policy applies, and its tenant is kept.
    expect(compileQuery(m, { measures: ["sales.count"] }, { dialect: "duckdb", securityContext: acme, now: NOW, rollups }).annotation.rollup).toBe(
      "orders_daily",
    );
    expect(
      compileQuery(
        m,
        { measures: ["sales.count"] },
        { dialect: "duckdb", securityContext: { ...acme, groups: ["by_city"], userAttributes: { status: "completed" } }, now: NOW, rollups },
      ).annotation.rollup,
    ).toBe("orders_daily");
  });

  it("answers period comparisons whose shift moves the rollup's buckets onto buckets, and their shifted ranges on its edges", () => {
    const kpi: SemanticQuery = {
      measures: ["sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "quarter", dateRange: ["2025-04-01", "2025-06-30"] }],
    };
    const compare = (q: SemanticQuery, unit: "day" | "week" | "month" | "year", measure = "sales.revenue") =>
      compileQuery(model, q, {
        dialect: "duckdb",
        securityContext: acme,
        now: NOW,
        rollups: built,
        periodComparisons: [{ measure, timeDimension: "sales.created_at", offset: { amount: 1, unit } }],
      });
    const yearAgo = compare(kpi, "year");
    expect(yearAgo.annotation.rollup).toBe("orders_daily");
    // Both scans, this quarter's and last year's, read the rollup; neither reads the orders.
    expect(yearAgo.sql.match(/svc_rollups/g)).toHaveLength(2);
    expect(yearAgo.sql).not.toMatch(/"orders"/);
    expect(compare(kpi, "week").annotation.rollup).toBe("orders_daily");
    // Customers are kept by month: a week's shift of a month is no month.
    const customers: SemanticQuery = { ...kpi, measures: ["sales.customer_count"] };
    expect(compare(customers, "month", "sales.customer_count").annotation.rollup).toBe("orders_customers_monthly");
    expect(compare(customers, "week", "sales.customer_count").annotation.rollup).toBeUndefined();
  });

  it("is not used without built rollups", () => {
    expect(compileQuery(model, { measures: ["sales.count"] }, { dialect: "duckdb", securityContext: acme, now: NOW }).annotation.rollup).toBeUndefined();
  });
});

const goldenQuery: SemanticQuery = {
  measures: ["sales.revenue", "sales.count", "sales.average_order_value"],
  dimensions: ["sales.customers_country"],
  timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2025-01-01", "2025-06-30"] }],
  filters: [
    { member: "sales.status", operator: "in", values: ["completed", "shipped"] },
    { member: "sales.revenue", operator: "gt", values: [1000] },
  ],
  order: { "sales.revenue": "desc" },
  limit: 50,
};

describe("rollups (golden SQL)", () => {
  for (const dialect of ["duckdb", "postgres", "mysql"] as SqlDialect[]) {
    it(`reads the rollup in place of the cube (${dialect})`, async () => {
      const compiled = compileQuery(model, goldenQuery, { dialect, securityContext: acme, now: NOW, rollups: built });
      const text = [compiled.sql, "", `-- params: ${JSON.stringify(compiled.params)}`, `-- rollup: ${compiled.annotation.rollup}`, ""].join("\n");
      await expect(text).toMatchFileSnapshot(`./golden/rollup-read.${dialect}.sql`);
    });
    it(`builds each rollup (${dialect})`, async () => {
      for (const rollup of model.rollups.values()) {
        await expect(rollupBuildSql(model, rollup, dialectFor(dialect)) + "\n").toMatchFileSnapshot(`./golden/rollup-build-${rollup.name}.${dialect}.sql`);
      }
    });
    it(`builds an incremental window from the time column's own rows (${dialect})`, async () => {
      const daily = model.rollups.get("orders_daily")!;
      const sql = rollupBuildSql(model, daily, dialectFor(dialect), { rowsSince: "2025-05-31 00:00:00" });
      expect(sql).toContain(`>= TIMESTAMP '2025-05-31 00:00:00'`);
      await expect(sql + "\n").toMatchFileSnapshot(`./golden/rollup-build-window-orders_daily.${dialect}.sql`);
    });
  }
});
