import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DataSource, QueryRunOptions } from "../datasources/data-source";
import { QueryCancelledError } from "../datasources/data-source";
import { QueryValidationError } from "./errors";
import { createQueryEngine } from "./query-engine";
import { acmeViewer, adminViewer, createDuckDbShop, globexViewer, type ShopEngine } from "./test-support/shop-fixture";

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

  it("returns the compiled SQL without running it", () => {
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
    const { sql, params } = engine.sql(query, { securityContext: globexViewer });
    expect(sql).toContain(`"orders"."tenant" = $1`);
    expect(params).toEqual(["globex-inc", "globex-inc"]);
  });
});
