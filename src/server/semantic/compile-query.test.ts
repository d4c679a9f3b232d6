import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileQuery, type CompileQueryOptions } from "./compile-query";
import { QueryValidationError } from "./errors";
import type { SemanticQuery } from "../../schema/semantic-query";
import type { SecurityContext } from "./security-context";
import {
  acmeViewer,
  adminViewer,
  createDuckDbShop,
  createMySqlShop,
  createPostgresShop,
  globexViewer,
  noTenantViewer,
  mysqlReachable,
  mysqlUrl,
  postgresReachable,
  postgresUrl,
  type ShopEngine,
} from "./test-support/shop-fixture";
import { loadDataModel } from "./data-model";
import { shopModelYaml } from "./test-support/shop-fixture";

const model = loadDataModel([{ path: "shop.yml", content: shopModelYaml("main") }]);
const NOW = new Date("2024-11-15T12:00:00Z");

describe("compileQuery (golden SQL)", () => {
  const query: SemanticQuery = {
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
  };

  it("compiles a view query with joins, a time zone and row-level security for DuckDB", () => {
    const c = compileQuery(model, query, { dialect: "duckdb", securityContext: acmeViewer, now: NOW });
    expect(c.sql).toBe(`SELECT "customers"."country" AS "sales.customers_country",
  date_trunc('month', CASE WHEN CAST("orders"."created_at" AS TIMESTAMP) >= TIMESTAMP '2022-12-31 23:00:00.000' AND CAST("orders"."created_at" AS TIMESTAMP) < TIMESTAMP '2023-12-31 23:00:00.000' THEN make_timestamp(epoch_us(CAST("orders"."created_at" AS TIMESTAMP)) + CASE WHEN CAST("orders"."created_at" AS TIMESTAMP) < TIMESTAMP '2023-10-29 01:00:00.000' THEN CASE WHEN CAST("orders"."created_at" AS TIMESTAMP) < TIMESTAMP '2023-03-26 01:00:00.000' THEN 3600000000 ELSE 7200000000 END ELSE 3600000000 END) ELSE timezone(CAST($5 AS TEXT), CAST("orders"."created_at" AS TIMESTAMPTZ)) END) AS "sales.created_at.month",
  sum("orders"."amount") AS "sales.revenue"
FROM "main"."orders" AS "orders"
LEFT JOIN "main"."customers" AS "customers" ON "orders".customer_id = "customers".customer_id
LEFT JOIN "main"."products" AS "products" ON "orders".product_id = "products".product_id
WHERE ("orders"."tenant" = $1)
  AND ("customers"."tenant" = $2)
  AND ("orders"."status" = $3 OR (CAST("products"."name" AS VARCHAR) ILIKE $4 ESCAPE '\\'))
  AND ("orders"."created_at" >= CAST($6 AS TIMESTAMP) AND "orders"."created_at" < CAST($7 AS TIMESTAMP))
GROUP BY 1, 2
ORDER BY "sales.created_at.month" ASC NULLS LAST
LIMIT 100`);
    expect(c.params).toEqual(["acme-corp", "acme-corp", "completed", "Wid%", "Europe/Berlin", "2022-12-31T23:00:00.000", "2023-12-31T23:00:00.000"]);
  });

  it("compiles the same query for Postgres with AT TIME ZONE", () => {
    const c = compileQuery(model, query, { dialect: "postgres", securityContext: acmeViewer, now: NOW });
    expect(c.sql).toContain(`date_trunc('month', (CAST("orders"."created_at" AS TIMESTAMPTZ) AT TIME ZONE CAST($5 AS TEXT))) AS "sales.created_at.month"`);
    expect(c.sql.split("\n").slice(2).join("\n")).toBe(`  sum("orders"."amount") AS "sales.revenue"
FROM "main"."orders" AS "orders"
LEFT JOIN "main"."customers" AS "customers" ON "orders".customer_id = "customers".customer_id
LEFT JOIN "main"."products" AS "products" ON "orders".product_id = "products".product_id
WHERE ("orders"."tenant" = $1)
  AND ("customers"."tenant" = $2)
  AND ("orders"."status" = $3 OR (CAST("products"."name" AS VARCHAR) ILIKE $4 ESCAPE '\\'))
  AND ("orders"."created_at" >= CAST($6 AS TIMESTAMP) AND "orders"."created_at" < CAST($7 AS TIMESTAMP))
GROUP BY 1, 2
ORDER BY "sales.created_at.month" ASC NULLS LAST
LIMIT 100`);
  });

  it("truncates the raw column and compares it with naive UTC bounds in UTC", () => {
    for (const dialect of ["duckdb", "postgres"] as const) {
      const c = compileQuery(model, { ...query, timezone: "UTC", filters: [] }, { dialect, securityContext: adminViewer, now: NOW });
      expect(c.sql).toBe(`SELECT "customers"."country" AS "sales.customers_country",
  date_trunc('month', CAST("orders"."created_at" AS TIMESTAMP)) AS "sales.created_at.month",
  sum("orders"."amount") AS "sales.revenue"
FROM "main"."orders" AS "orders"
LEFT JOIN "main"."customers" AS "customers" ON "orders".customer_id = "customers".customer_id
WHERE ("orders"."created_at" >= CAST($1 AS TIMESTAMP) AND "orders"."created_at" < CAST($2 AS TIMESTAMP))
GROUP BY 1, 2
ORDER BY "sales.created_at.month" ASC NULLS LAST
LIMIT 100`);
      expect(c.params).toEqual(["2023-01-01T00:00:00.000", "2024-01-01T00:00:00.000"]);
    }
  });

  it("compiles a viewer without a matching policy to a false predicate", () => {
    const outsider: SecurityContext = { embedTenant: "acme-corp", groups: [], userAttributes: {} };
    const strict = loadDataModel([
      {
        path: "m.yml",
        content: `cubes:
  - name: t
    sql_table: t
    dimensions: [{ name: a, sql: a, type: string }]
    measures: [{ name: count, type: count }]
    access_policy:
      - group: analysts
`,
      },
    ]);
    const c = compileQuery(strict, { measures: ["t.count"] }, { dialect: "duckdb", securityContext: outsider });
    expect(c.sql).toBe(`SELECT count(*) AS "t.count"\nFROM "t" AS "t"\nWHERE FALSE\nORDER BY "t.count" DESC NULLS LAST\nLIMIT 10000`);
  });

  it("counts a cube repeated by a many-to-one join by its primary key", () => {
    const c = compileQuery(model, { measures: ["sales.customers_count"], dimensions: ["sales.status"] }, { dialect: "duckdb", securityContext: adminViewer });
    expect(c.sql).toContain(`count(DISTINCT "customers"."customer_id") AS "sales.customers_count"`);
  });

  it("refuses a sum that a one-to-many join would multiply", () => {
    const m = loadDataModel([
      {
        path: "m.yml",
        content: `cubes:
  - name: customers
    sql_table: customers
    joins: [{ name: orders, relationship: one_to_many, sql: "{CUBE}.id = {orders}.customer_id" }]
    dimensions: [{ name: id, sql: id, type: number, primary_key: true }]
    measures: [{ name: credit, sql: credit, type: sum }, { name: count, type: count }]
  - name: orders
    sql_table: orders
    dimensions: [{ name: status, sql: status, type: string }]
`,
      },
    ]);
    expect(() =>
      compileQuery(m, { measures: ["customers.credit"], dimensions: ["orders.status"] }, { dialect: "duckdb", securityContext: adminViewer }),
    ).toThrow(expect.objectContaining({ details: [expect.objectContaining({ code: "fan_out", path: ["measures", 0] })] }));
    const ok = compileQuery(m, { measures: ["customers.count"], dimensions: ["orders.status"] }, { dialect: "duckdb", securityContext: adminViewer });
    expect(ok.sql).toContain(`count(DISTINCT "customers"."id")`);
  });

  it("annotates measures, dimensions and time dimensions", () => {
    const c = compileQuery(model, query, { dialect: "duckdb", securityContext: acmeViewer, now: NOW });
    expect(c.annotation.measures["sales.revenue"]).toEqual({
      title: "Sales Revenue",
      shortTitle: "Revenue",
      type: "number",
      format: "currency",
      measureType: "sum",
    });
    expect(c.annotation.dimensions["sales.customers_country"]).toMatchObject({
      title: "Sales Customers Country",
      shortTitle: "Country",
      type: "string",
    });
    expect(c.annotation.timeDimensions["sales.created_at.month"]).toMatchObject({ type: "time", granularity: "month" });
  });

  it("rejects bad fillMissingRows and periodComparisons options with their paths", () => {
    const err = (() => {
      try {
        compileQuery(
          model,
          { measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", granularity: "month" }] },
          {
            dialect: "duckdb",
            securityContext: adminViewer,
            fillMissingRows: { member: "sales.status" },
            periodComparisons: [{ measure: "sales.count", timeDimension: "sales.created_at", offset: { amount: 0, unit: "fortnight" }, outputs: ["bad name"] }],
          },
        );
      } catch (e) {
        return e as QueryValidationError;
      }
    })();
    expect(err).toBeInstanceOf(QueryValidationError);
    expect(err!.details.map((d) => d.path.join("."))).toEqual([
      "fillMissingRows.member",
      "periodComparisons.0.measure",
      "periodComparisons.0.offset.unit",
      "periodComparisons.0.offset.amount",
      "periodComparisons.0.outputs.0",
    ]);
  });
});

const pgUp = await postgresReachable();
const mysqlUp = await mysqlReachable();

function engineSuite(name: string, create: () => Promise<ShopEngine>) {
  describe(`compileQuery on ${name}`, () => {
    let shop: ShopEngine;
    beforeAll(async () => {
      shop = await create();
    });
    afterAll(async () => {
      await shop?.cleanup();
    });

    const run = async (q: SemanticQuery, ctx: SecurityContext = adminViewer, extra: Partial<CompileQueryOptions> = {}) => {
      const c = compileQuery(shop.model, q, { dialect: shop.name, securityContext: ctx, now: NOW, ...extra });
      return shop.dataSource.query(c.sql, c.params);
    };
    const ids = async (filters: SemanticQuery["filters"], ctx: SecurityContext = adminViewer, timezone?: string) =>
      (await run({ dimensions: ["sales.order_id"], filters, order: { "sales.order_id": "asc" }, timezone }, ctx)).map((r) => r["sales.order_id"]);

    it.each([
      ["equals", { member: "sales.status", operator: "equals", values: ["shipped"] }, [3]],
      ["equals with several values", { member: "sales.status", operator: "equals", values: ["shipped", "cancelled"] }, [3, 7]],
      ["notEquals (keeps nulls)", { member: "sales.status", operator: "notEquals", values: ["completed"] }, [3, 7, 10]],
      ["in", { member: "sales.order_id", operator: "in", values: [1, "2"] }, [1, 2]],
      ["notIn", { member: "sales.customers_country", operator: "notIn", values: ["DE", "US"] }, [6, 8]],
      ["contains (case-insensitive)", { member: "sales.products_name", operator: "contains", values: ["GAD"] }, [2, 6, 9, 10]],
      ["notContains", { member: "sales.products_name", operator: "notContains", values: ["g"] }, [3, 7]],
      ["startsWith", { member: "sales.customers_city", operator: "startsWith", values: ["New"] }, [3, 4, 9, 10]],
      ["notStartsWith", { member: "sales.customers_city", operator: "notStartsWith", values: ["New", "B"] }, [6, 7, 8]],
      ["endsWith", { member: "sales.customers_city", operator: "endsWith", values: ["ich"] }, [7]],
      ["notEndsWith", { member: "sales.customers_city", operator: "notEndsWith", values: ["s", "n", "k"] }, [7]],
      ["gt", { member: "sales.amount", operator: "gt", values: [40] }, [6, 7]],
      ["gte", { member: "sales.amount", operator: "gte", values: [40] }, [4, 6, 7]],
      ["lt", { member: "sales.amount", operator: "lt", values: [7] }, [9, 10]],
      ["lte", { member: "sales.amount", operator: "lte", values: ["7"] }, [5, 9, 10]],
      ["set", { member: "sales.status", operator: "set" }, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
      ["notSet", { member: "sales.status", operator: "notSet" }, [10]],
      ["equals on a boolean", { member: "sales.is_big", operator: "equals", values: [true] }, [6, 7]],
      ["inDateRange", { member: "sales.created_at", operator: "inDateRange", values: ["2024-01-01", "2024-02-29"] }, [4, 6]],
      ["notInDateRange", { member: "sales.created_at", operator: "notInDateRange", values: ["2023-01-01", "2024-03-30"] }, [3, 9, 10]],
      ["inDateRange with a relative range", { member: "sales.created_at", operator: "inDateRange", values: ["last year"] }, [5, 8]],
      ["beforeDate", { member: "sales.created_at", operator: "beforeDate", values: ["2023-03-15"] }, [8]],
      ["beforeOrOnDate", { member: "sales.created_at", operator: "beforeOrOnDate", values: ["2023-03-15"] }, [5, 8]],
      ["afterDate", { member: "sales.created_at", operator: "afterDate", values: ["2024-03-31"] }, [9, 10]],
      ["afterOrOnDate", { member: "sales.created_at", operator: "afterOrOnDate", values: ["2024-03-31T22:30:00Z"] }, [3, 9, 10]],
    ] as const)("applies %s", async (_label, filter, expected) => {
      expect(await ids([filter as never])).toEqual(expected);
    });

    it("nests or/and filters", async () => {
      const filters = [
        {
          or: [
            {
              and: [
                { member: "sales.customers_country", operator: "equals", values: ["DE"] },
                { member: "sales.amount", operator: "gte", values: [20] },
              ],
            },
            { member: "sales.order_id", operator: "equals", values: [9] },
          ],
        },
      ] as SemanticQuery["filters"];
      expect(await ids(filters)).toEqual([2, 7, 9]);
    });

    it("keeps SQL fragments and LIKE wildcards in values as plain values", async () => {
      expect(await ids([{ member: "sales.status", operator: "equals", values: ["completed' OR '1'='1"] }])).toEqual([]);
      expect(await ids([{ member: "sales.products_name", operator: "contains", values: ["%"] }])).toEqual([3, 7]);
      expect(await ids([{ member: "sales.products_name", operator: "contains", values: ["_"] }])).toEqual([3, 7]);
      expect(await ids([{ member: "sales.status", operator: "contains", values: ["'; DROP TABLE orders; --"] }])).toEqual([]);
      expect((await run({ measures: ["sales.count"] }))[0]!["sales.count"]).toBe(10);
    });

    it("filters measures after aggregation", async () => {
      const rows = await run({
        measures: ["sales.revenue"],
        dimensions: ["sales.customers_city"],
        filters: [{ member: "sales.revenue", operator: "gt", values: [60] }],
        order: { "sales.customers_city": "asc" },
      });
      expect(rows).toEqual([
        { "sales.customers_city": "New York", "sales.revenue": 81 },
        { "sales.customers_city": "Paris", "sales.revenue": 130 },
      ]);
    });

    it("computes every measure type through view joins with prefixes", async () => {
      const rows = await run({
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
        filters: [{ member: "sales.customers_country", operator: "equals", values: ["DE"] }],
        order: [["sales.products_category", "asc"]],
      });
      expect(rows).toEqual([
        {
          "sales.customers_country": "DE",
          "sales.products_category": "apparel",
          "sales.count": 1,
          "sales.revenue": 50,
          "sales.avg_amount": 50,
          "sales.min_amount": 50,
          "sales.max_amount": 50,
          "sales.unique_customers": 1,
          "sales.completed_count": 0,
          "sales.average_order_value": 50,
          "sales.customers_count": 1,
        },
        {
          "sales.customers_country": "DE",
          "sales.products_category": "tools",
          "sales.count": 2,
          "sales.revenue": 17,
          "sales.avg_amount": 8.5,
          "sales.min_amount": 7,
          "sales.max_amount": 10,
          "sales.unique_customers": 1,
          "sales.completed_count": 2,
          "sales.average_order_value": 8.5,
          "sales.customers_count": 1,
        },
        {
          "sales.customers_country": "DE",
          "sales.products_category": "toys",
          "sales.count": 1,
          "sales.revenue": 20,
          "sales.avg_amount": 20,
          "sales.min_amount": 20,
          "sales.max_amount": 20,
          "sales.unique_customers": 1,
          "sales.completed_count": 1,
          "sales.average_order_value": 20,
          "sales.customers_count": 1,
        },
      ]);
    });

    it("truncates days in the query time zone across the spring DST change", async () => {
      const q = (timezone: string) =>
        run({
          measures: ["sales.count"],
          timeDimensions: [{ dimension: "sales.created_at", granularity: "day", dateRange: ["2024-03-30", "2024-04-01"] }],
          timezone,
        });
      expect(await q("Europe/Berlin")).toEqual([
        { "sales.created_at.day": "2024-03-30T00:00:00.000", "sales.count": 1 },
        { "sales.created_at.day": "2024-03-31T00:00:00.000", "sales.count": 1 },
        { "sales.created_at.day": "2024-04-01T00:00:00.000", "sales.count": 1 },
      ]);
      expect(await q("UTC")).toEqual([
        { "sales.created_at.day": "2024-03-30T00:00:00.000", "sales.count": 2 },
        { "sales.created_at.day": "2024-03-31T00:00:00.000", "sales.count": 1 },
      ]);
    });

    it("keeps the two 02:30 of the autumn DST change in separate hours", async () => {
      const rows = await run({
        measures: ["sales.count"],
        timeDimensions: [{ dimension: "sales.created_at", granularity: "hour", dateRange: ["2024-10-27", "2024-10-27"] }],
        timezone: "Europe/Berlin",
      });
      // Both orders happen at 02:30 wall time (first CEST, then CET): one hour bucket, two rows.
      expect(rows).toEqual([{ "sales.created_at.hour": "2024-10-27T02:00:00.000", "sales.count": 2 }]);
      const utc = await run({
        measures: ["sales.count"],
        timeDimensions: [{ dimension: "sales.created_at", granularity: "hour", dateRange: ["2024-10-27", "2024-10-27"] }],
      });
      expect(utc.map((r) => r["sales.created_at.hour"])).toEqual(["2024-10-27T00:00:00.000", "2024-10-27T01:00:00.000"]);
    });

    it("resolves relative date ranges against a fixed clock", async () => {
      const rows = await run({ measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", dateRange: "this year" }] });
      expect(rows).toEqual([{ "sales.count": 8 }]);
      const lastYear = await run({ measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", dateRange: "last year" }] });
      expect(lastYear).toEqual([{ "sales.count": 2 }]);
    });

    it("fills missing time buckets for each value of the other dimensions", async () => {
      const rows = await run(
        {
          measures: ["sales.count"],
          dimensions: ["sales.customers_country"],
          timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2024-01-01", "2024-03-31"] }],
          order: [
            ["sales.created_at", "asc"],
            ["sales.customers_country", "asc"],
          ],
        },
        acmeViewer,
        { fillMissingRows: { member: "sales.created_at" } },
      );
      expect(rows).toEqual([
        { "sales.customers_country": "DE", "sales.created_at.month": "2024-01-01T00:00:00.000", "sales.count": 0 },
        { "sales.customers_country": "US", "sales.created_at.month": "2024-01-01T00:00:00.000", "sales.count": 1 },
        { "sales.customers_country": "DE", "sales.created_at.month": "2024-02-01T00:00:00.000", "sales.count": 0 },
        { "sales.customers_country": "US", "sales.created_at.month": "2024-02-01T00:00:00.000", "sales.count": 0 },
        { "sales.customers_country": "DE", "sales.created_at.month": "2024-03-01T00:00:00.000", "sales.count": 2 },
        { "sales.customers_country": "US", "sales.created_at.month": "2024-03-01T00:00:00.000", "sales.count": 1 },
      ]);
    });

    it("leaves excluded dimensions out of the fill grid", async () => {
      const rows = await run(
        {
          measures: ["sales.count"],
          dimensions: ["sales.customers_country"],
          timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2024-01-01", "2024-02-29"] }],
          order: [["sales.created_at", "asc"]],
        },
        acmeViewer,
        { fillMissingRows: { member: "sales.created_at", excludedDimensions: ["sales.customers_country"] } },
      );
      expect(rows).toEqual([
        { "sales.customers_country": "US", "sales.created_at.month": "2024-01-01T00:00:00.000", "sales.count": 1 },
        { "sales.customers_country": null, "sales.created_at.month": "2024-02-01T00:00:00.000", "sales.count": 0 },
      ]);
    });

    it("adds the previous-year value, change and relative change of a measure", async () => {
      const rows = await run(
        { measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2024-01-01", "2024-03-31"] }] },
        adminViewer,
        {
          periodComparisons: [
            {
              measure: "sales.revenue",
              timeDimension: "sales.created_at",
              offset: { amount: 1, unit: "year" },
              outputs: ["sales.revenue_prev_year", "sales.revenue_change", "sales.revenue_change_pct"],
            },
          ],
        },
      );
      expect(rows).toEqual([
        {
          "sales.created_at.month": "2024-01-01T00:00:00.000",
          "sales.revenue": 40,
          "sales.revenue_prev_year": 30,
          "sales.revenue_change": 10,
          "sales.revenue_change_pct": 10 / 30,
        },
        {
          "sales.created_at.month": "2024-02-01T00:00:00.000",
          "sales.revenue": 100,
          "sales.revenue_prev_year": null,
          "sales.revenue_change": null,
          "sales.revenue_change_pct": null,
        },
        {
          "sales.created_at.month": "2024-03-01T00:00:00.000",
          "sales.revenue": 110,
          "sales.revenue_prev_year": 7,
          "sales.revenue_change": 103,
          "sales.revenue_change_pct": 103 / 7,
        },
      ]);
    });

    it("names a comparison by default after its measure and offset", async () => {
      const c = compileQuery(
        shop.model,
        { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", granularity: "year" }] },
        {
          dialect: shop.name,
          securityContext: adminViewer,
          periodComparisons: [{ measure: "sales.count", timeDimension: "sales.created_at", offset: { amount: 1, unit: "year" } }],
        },
      );
      expect(c.columns).toEqual(["sales.created_at.year", "sales.count", "sales.count_prev_year"]);
      const rows = await shop.dataSource.query(c.sql, c.params);
      expect(rows).toEqual([
        { "sales.created_at.year": "2023-01-01T00:00:00.000", "sales.count": 2, "sales.count_prev_year": null },
        { "sales.created_at.year": "2024-01-01T00:00:00.000", "sales.count": 8, "sales.count_prev_year": 2 },
      ]);
    });

    describe("row-level security", () => {
      const tenantOf = async (ctx: SecurityContext, extra: Partial<CompileQueryOptions> = {}, q?: SemanticQuery) =>
        run(q ?? { measures: ["sales.count", "sales.revenue"], dimensions: ["sales.customers_city"], order: { "sales.customers_city": "asc" } }, ctx, extra);

      it("shows each tenant only its own rows", async () => {
        expect((await tenantOf(acmeViewer)).map((r) => r["sales.customers_city"])).toEqual(["Berlin", "New York"]);
        expect((await tenantOf(globexViewer)).map((r) => r["sales.customers_city"])).toEqual(["Munich", "Paris"]);
        expect((await tenantOf(adminViewer)).map((r) => r["sales.customers_city"])).toEqual(["Berlin", "Munich", "New York", "Paris"]);
      });

      it("shows nothing to a viewer whose tenant is missing", async () => {
        expect(await tenantOf(noTenantViewer)).toEqual([]);
        expect(await run({ measures: ["sales.count"] }, noTenantViewer)).toEqual([{ "sales.count": 0 }]);
      });

      it("keeps tenants apart in filled rows and period comparisons", async () => {
        const q: SemanticQuery = {
          measures: ["sales.revenue"],
          dimensions: ["sales.customers_city"],
          timeDimensions: [{ dimension: "sales.created_at", granularity: "year", dateRange: ["2023-01-01", "2024-12-31"] }],
        };
        const rows = await tenantOf(
          acmeViewer,
          {
            fillMissingRows: { member: "sales.created_at" },
            periodComparisons: [{ measure: "sales.revenue", timeDimension: "sales.created_at", offset: { amount: 1, unit: "year" } }],
          },
          q,
        );
        expect(new Set(rows.map((r) => r["sales.customers_city"]))).toEqual(new Set(["Berlin", "New York"]));
        const total = rows.reduce((s, r) => s + (r["sales.revenue"] as number) + ((r["sales.revenue_prev_year"] as number) ?? 0), 0);
        // acme revenue: 2023 = 7, 2024 = 111; the 2024 rows carry 2023 as previous year.
        expect(total).toBe(7 + 111 + 7);
      });

      it("cannot be widened by a filter the viewer adds", async () => {
        const rows = await run(
          {
            measures: ["sales.count"],
            filters: [
              {
                or: [
                  { member: "sales.customers_city", operator: "equals", values: ["Paris"] },
                  { member: "sales.customers_city", operator: "set" },
                ],
              },
            ],
          },
          acmeViewer,
        );
        expect(rows).toEqual([{ "sales.count": 7 }]);
      });

      it("grants through groups and user attributes", async () => {
        const m = loadDataModel([
          {
            path: "m.yml",
            content: shopModelYaml(shop.name === "duckdb" ? "main" : (shop.model.cubes.get("orders")!.sqlTable!.split(".")[0] as string)).replace(
              /views:[\s\S]*$/,
              `views:
  - name: regional
    cubes: [{ join_path: orders.customers, includes: [country, city, count] }, { join_path: orders, includes: [count], prefix: true }]
    access_policy:
      - group: [sales_de]
        row_level:
          filters: [{ member: country, operator: in, values: ["{ userAttributes.countries }"] }]
`,
            ),
          },
        ]);
        const ctx: SecurityContext = { embedTenant: "acme-corp", groups: ["sales_de"], userAttributes: { countries: ["DE"] }, role: "viewer" };
        const runM = async (c: SecurityContext) => {
          const compiled = compileQuery(m, { measures: ["regional.orders_count"], dimensions: ["regional.city"] }, { dialect: shop.name, securityContext: c });
          return shop.dataSource.query(compiled.sql, compiled.params);
        };
        expect(await runM(ctx)).toEqual([{ "regional.city": "Berlin", "regional.orders_count": 3 }]);
        expect(await runM({ ...ctx, groups: [] })).toEqual([]);
        expect(await runM({ ...ctx, userAttributes: {} })).toEqual([]);
      });
    });
  });
}

engineSuite("DuckDB", createDuckDbShop);
describe.skipIf(!pgUp)(pgUp ? `Postgres at ${postgresUrl}` : `Postgres (skipped: ${postgresUrl} unreachable and DATABASE_URL not set)`, () => {
  engineSuite("Postgres", createPostgresShop);
});
describe.skipIf(!mysqlUp)(mysqlUp ? `MySQL at ${mysqlUrl}` : `MySQL (skipped: ${mysqlUrl} unreachable and MYSQL_URL not set)`, () => {
  engineSuite("MySQL", createMySqlShop);
});
