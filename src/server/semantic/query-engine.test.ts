import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DataSource, QueryRunOptions } from "../datasources/data-source";
import { QueryCancelledError } from "../datasources/data-source";
import { QueryValidationError } from "./errors";
import { createQueryEngine, exactJsonKey } from "./query-engine";
import { loadDataModel } from "./data-model";
import type { SecurityContext } from "./security-context";
import { acmeViewer, adminViewer, createDuckDbShop, globexViewer, noTenantViewer, type ShopEngine } from "./test-support/shop-fixture";

/** Counts the statements that reach DuckDB (a real data source, observed, not replaced). */
function counting(inner: DataSource, delayMs = 0) {
  const seen: string[] = [];
  const ds: DataSource = {
    dialect: inner.dialect,
    async query(sql: string, params: readonly unknown[], o?: QueryRunOptions) {
      seen.push(sql);
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      if (o?.signal?.aborted) throw new QueryCancelledError();
      return inner.query(sql, params, o);
    },
    transaction: (statements, o) => inner.transaction(statements, o),
    close: () => inner.close(),
  };
  return { ds, seen };
}

describe("createQueryEngine", () => {
  let shop: ShopEngine;
  beforeAll(async () => {
    shop = await createDuckDbShop();
  });
  afterAll(() => shop.cleanup());

  const query = { measures: ["sales.count"], dimensions: ["sales.customers_city"], order: { "sales.customers_city": "asc" as const } };

  it("returns rows with their annotation and, on request, the SQL", async () => {
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
    const r = await engine.load(query, { securityContext: acmeViewer, includeSql: true });
    expect(r.data).toEqual([
      { "sales.customers_city": "Berlin", "sales.count": 3 },
      { "sales.customers_city": "New York", "sales.count": 4 },
    ]);
    expect(r.annotation.measures["sales.count"]!.title).toBe("Sales Count");
    expect(r.sql!.params).toContain("acme-corp");
    expect(r.fromCache).toBe(false);
  });

  it("also returns a truncated time dimension under its plain member name", async () => {
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
    const r = await engine.load(
      { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", granularity: "year" }] },
      { securityContext: adminViewer },
    );
    expect(r.data.length).toBeGreaterThan(0);
    for (const row of r.data) expect(row["sales.created_at"]).toBe(row["sales.created_at.year"]);
  });

  it("serves repeated queries from the cache per security context, and refreshes on bypass", async () => {
    const { ds, seen } = counting(shop.dataSource);
    const engine = createQueryEngine({ model: shop.model, dataSource: ds });
    await engine.load(query, { securityContext: acmeViewer });
    const again = await engine.load(query, { securityContext: acmeViewer });
    expect(again.fromCache).toBe(true);
    expect(seen).toHaveLength(1);
    const other = await engine.load(query, { securityContext: globexViewer });
    expect(other.fromCache).toBe(false);
    expect(other.data.map((r) => r["sales.customers_city"])).toEqual(["Munich", "Paris"]);
    await engine.load(query, { securityContext: acmeViewer, bypassCache: true });
    expect(seen).toHaveLength(3);
  });

  it("expires cached results after the TTL", async () => {
    let now = new Date("2024-11-15T12:00:00Z");
    const { ds, seen } = counting(shop.dataSource);
    const engine = createQueryEngine({ model: shop.model, dataSource: ds, cacheTtlMs: 1000, now: () => now });
    await engine.load(query, { securityContext: adminViewer });
    now = new Date(now.getTime() + 1500);
    await engine.load(query, { securityContext: adminViewer });
    expect(seen).toHaveLength(2);
  });

  it("runs concurrent identical queries once", async () => {
    const { ds, seen } = counting(shop.dataSource, 50);
    const engine = createQueryEngine({ model: shop.model, dataSource: ds });
    const results = await Promise.all([1, 2, 3, 4].map(() => engine.load(query, { securityContext: adminViewer })));
    expect(seen).toHaveLength(1);
    expect(new Set(results.map((r) => JSON.stringify(r.data))).size).toBe(1);
    expect(results.filter((r) => r.fromCache)).toHaveLength(3);
  });

  it("lets one waiter abort without cancelling the others' shared query", async () => {
    const { ds, seen } = counting(shop.dataSource, 50);
    const engine = createQueryEngine({ model: shop.model, dataSource: ds });
    const controller = new AbortController();
    const first = engine.load(query, { securityContext: adminViewer, signal: controller.signal });
    const second = engine.load(query, { securityContext: adminViewer });
    controller.abort();
    await expect(first).rejects.toBeInstanceOf(QueryCancelledError);
    expect((await second).data).toHaveLength(4);
    expect(seen).toHaveLength(1);
  });

  it("lists distinct values under the viewer's row-level security", async () => {
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
    expect(await engine.distinctValues("sales.customers_city", {}, { securityContext: acmeViewer })).toEqual(["Berlin", "New York"]);
    expect(await engine.distinctValues("sales.customers_city", { search: "i" }, { securityContext: globexViewer })).toEqual(["Munich", "Paris"]);
    expect(await engine.distinctValues("sales.customers_city", { search: "%" }, { securityContext: adminViewer })).toEqual([]);
    expect(await engine.distinctValues("sales.status", { limit: 2 }, { securityContext: adminViewer })).toEqual(["cancelled", "completed"]);
    await expect(engine.distinctValues("sales.revenue", {}, { securityContext: adminViewer })).rejects.toBeInstanceOf(QueryValidationError);
    await expect(engine.distinctValues("sales.nope", {}, { securityContext: adminViewer })).rejects.toBeInstanceOf(QueryValidationError);
  });

  it("describes views and cubes with titles, types and formats", () => {
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
    const sales = engine.meta(acmeViewer).sources.find((s) => s.name === "sales")!;
    expect(sales.kind).toBe("view");
    expect(sales.measures.find((m) => m.name === "sales.revenue")).toMatchObject({
      title: "Sales Revenue",
      type: "number",
      format: "currency",
      measureType: "sum",
    });
    expect(sales.dimensions.find((m) => m.name === "sales.customers_country")).toMatchObject({ shortTitle: "Country", type: "string" });
  });

  it("lists for each viewer only the sources their access policies let them see, one engine serving them in turn", () => {
    const model = loadDataModel([
      {
        path: "audit.yml",
        content: `
cubes:
  - name: orders
    sql_table: main.orders
    dimensions:
      - { name: order_id, sql: order_id, type: number, primary_key: true }
    measures:
      - { name: count, type: count }
  - name: audit
    sql_table: main.orders
    dimensions:
      - { name: order_id, sql: order_id, type: number, primary_key: true }
    measures:
      - { name: count, type: count }
    access_policy:
      - group: [auditors]
`,
      },
    ]);
    const engine = createQueryEngine({ model, dataSource: shop.dataSource });
    const auditor: SecurityContext = { ...acmeViewer, groups: ["auditors"] };
    const names = (sc: SecurityContext) => engine.meta(sc).sources.map((s) => s.name);
    for (let round = 0; round < 2; round++) {
      expect(names(acmeViewer)).toEqual(["orders"]);
      expect(names(auditor)).toEqual(["orders", "audit"]);
    }
    expect(engine.meta(auditor).sources[1]!.measures.map((m) => m.name)).toEqual(["audit.count"]);
  });

  it("returns the compiled SQL without running it", () => {
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
    const { sql, params } = engine.sql(query, { securityContext: globexViewer });
    expect(sql).toContain(`"orders"."tenant" = $1`);
    expect(params).toEqual(["globex-inc", "globex-inc"]);
  });

  describe("compile cache", () => {
    // Row-level security on every field of the security context the compiler can read.
    const policyModel = loadDataModel([
      {
        path: "policy.yml",
        content: `
cubes:
  - name: orders
    sql_table: main.orders
    dimensions:
      - { name: order_id, sql: order_id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
      - { name: tenant, sql: tenant, type: string }
      - { name: created_at, sql: created_at, type: time }
    measures:
      - { name: count, type: count }
    access_policy:
      - role: admin
      - group: [auditors]
        row_level:
          filters: [{ member: status, operator: in, values: ["{ userAttributes.statuses }"] }]
      - group: "*"
        row_level:
          filters:
            - { member: tenant, operator: equals, values: ["{ securityContext.embedTenant }"] }
            - { member: status, operator: notEquals, values: ["{ securityContext.externalId }"] }
            - { member: tenant, operator: notEquals, values: ["{ groups }"] }
`,
      },
    ]);
    const base: SecurityContext = { embedTenant: "acme-corp", externalId: "x", groups: [], userAttributes: {}, role: "viewer" };
    const contexts: SecurityContext[] = [
      base,
      { ...base, embedTenant: "globex-inc" },
      { ...base, externalId: "cancelled" },
      { ...base, externalId: null },
      { ...base, groups: ["auditors"], userAttributes: { statuses: ["completed"] } },
      { ...base, groups: ["auditors"], userAttributes: { statuses: ["completed", "shipped"] } },
      { ...base, groups: ["auditors"], userAttributes: {} },
      { ...base, groups: ["globex-inc"] },
      { ...base, role: "admin" },
      { ...base, userId: 7 },
    ];
    const policyQuery = { measures: ["orders.count"], dimensions: ["orders.status"], order: { "orders.status": "asc" as const } };

    it("compiles a repeated query once, and each security context to its own statement", () => {
      const engine = createQueryEngine({ model: policyModel, dataSource: shop.dataSource });
      const first = engine.sql(policyQuery, { securityContext: base });
      // The cached compile is handed out again: the same parameter list, not an equal one.
      expect(engine.sql(policyQuery, { securityContext: { ...base } }).params).toBe(first.params);
      const distinct = new Set<string>();
      // Every context, twice and in turn: each answer is what an engine without a cache compiles.
      for (const round of [1, 2]) {
        for (const ctx of contexts) {
          const fresh = createQueryEngine({ model: policyModel, dataSource: shop.dataSource, maxCompiledEntries: 0 });
          const compiled = engine.sql(policyQuery, { securityContext: ctx });
          expect(compiled, `${JSON.stringify(ctx)} round ${round}`).toEqual(fresh.sql(policyQuery, { securityContext: ctx }));
          distinct.add(JSON.stringify(compiled));
        }
      }
      // The contexts do compile differently (so the loop above would catch a shared entry).
      expect(distinct.size).toBeGreaterThanOrEqual(8);
    });

    it("keeps rows of one tenant from another through load, cached or not", async () => {
      const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource, cacheTtlMs: 0 });
      for (let i = 0; i < 2; i++) {
        expect((await engine.load(query, { securityContext: acmeViewer })).data.map((r) => r["sales.customers_city"])).toEqual(["Berlin", "New York"]);
        expect((await engine.load(query, { securityContext: globexViewer })).data.map((r) => r["sales.customers_city"])).toEqual(["Munich", "Paris"]);
        expect((await engine.load(query, { securityContext: noTenantViewer })).data).toEqual([]);
      }
    });

    it("keys on options and on the query as sent, key order included", () => {
      const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
      const q = { measures: ["sales.count"], dimensions: ["sales.status", "sales.customers_city"] };
      const ab = engine.sql({ ...q, order: { "sales.status": "asc", "sales.customers_city": "desc" } }, { securityContext: adminViewer });
      const ba = engine.sql({ ...q, order: { "sales.customers_city": "desc", "sales.status": "asc" } }, { securityContext: adminViewer });
      expect(ab.sql).not.toBe(ba.sql);
      const timed = {
        measures: ["sales.count"],
        timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2024-01-01", "2024-03-31"] }],
      };
      const plain = engine.sql(timed, { securityContext: adminViewer });
      const filled = engine.sql(timed, { securityContext: adminViewer, fillMissingRows: { member: "sales.created_at" } });
      expect(filled.sql).not.toBe(plain.sql);
      const compared = engine.sql(timed, {
        securityContext: adminViewer,
        periodComparisons: [{ measure: "sales.count", timeDimension: "sales.created_at", offset: { amount: 1, unit: "year" } }],
      });
      expect(compared.sql).not.toBe(plain.sql);
    });

    it("compiles input that is not plain JSON every time rather than share a key", () => {
      const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
      const range = (from: unknown, to: unknown) => ({ measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", dateRange: [from, to] }] });
      engine.sql(range("2024-01-01T00:00:00.000Z", "2024-03-31T00:00:00.000Z"), { securityContext: adminViewer });
      // Dates are written by JSON as those very strings: they must not find that entry.
      for (let i = 0; i < 2; i++) {
        expect(() => engine.sql(range(new Date("2024-01-01"), new Date("2024-03-31")), { securityContext: adminViewer })).toThrow(QueryValidationError);
      }
    });

    it("does not keep the compile of a very large query", () => {
      const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
      const big = {
        measures: ["sales.count"],
        filters: [{ member: "sales.status", operator: "equals", values: Array.from({ length: 3000 }, (_, i) => `s${i}`) }],
      };
      const small = { ...big, filters: [{ ...big.filters[0]!, values: ["completed"] }] };
      expect(engine.sql(big, { securityContext: adminViewer }).params).not.toBe(engine.sql(big, { securityContext: adminViewer }).params);
      expect(engine.sql(small, { securityContext: adminViewer }).params).toBe(engine.sql(small, { securityContext: adminViewer }).params);
    });

    it("has no key for values JSON would write as other values", () => {
      expect(exactJsonKey({ a: [1, "x", true, null, { b: 2.5 }] })).toBe('{"a":[1,"x",true,null,{"b":2.5}]}');
      expect(exactJsonKey({ b: 1, a: 2 })).toBe('{"b":1,"a":2}');
      for (const value of [{ limit: NaN }, { limit: Infinity }, [undefined], { at: new Date(0) }, { f: () => 1 }, { n: 1n }, new Map(), { s: Symbol("x") }]) {
        expect(exactJsonKey(value), String(value)).toBeNull();
      }
    });

    it("resolves relative date ranges again after midnight in the query's time zone", () => {
      // 23:30 in Berlin on 31 March 2024, then 00:30 on 1 April: "this month" changes.
      let now = new Date("2024-03-31T21:30:00Z");
      const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource, now: () => now });
      const q = {
        measures: ["sales.count"],
        timeDimensions: [{ dimension: "sales.created_at", dateRange: "this month" }],
        timezone: "Europe/Berlin",
      };
      const march = engine.sql(q, { securityContext: adminViewer });
      expect(march.params).toContain("2024-02-29T23:00:00.000");
      now = new Date("2024-03-31T21:59:59Z");
      expect(engine.sql(q, { securityContext: adminViewer }).params).toBe(march.params);
      now = new Date("2024-03-31T22:30:00Z");
      const april = engine.sql(q, { securityContext: adminViewer });
      expect(april.params).toContain("2024-03-31T22:00:00.000");
      expect(april).toEqual(
        createQueryEngine({ model: shop.model, dataSource: shop.dataSource, now: () => now, maxCompiledEntries: 0 }).sql(q, { securityContext: adminViewer }),
      );
      // A clock set back finds no entry of a later day either.
      now = new Date("2024-03-31T12:00:00Z");
      expect(engine.sql(q, { securityContext: adminViewer }).params).toEqual(march.params);
    });
  });
});
