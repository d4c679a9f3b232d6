import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueryValidationError } from "./errors";
import { explainChange } from "./explain";
import { createQueryEngine } from "./query-engine";
import {
  acmeViewer,
  createDuckDbShop,
  createMySqlShop,
  createPostgresShop,
  globexViewer,
  mysqlReachable,
  postgresReachable,
  type ShopEngine,
} from "./test-support/shop-fixture";

/**
 * Explaining a change (docs/data-model.md, "Explaining a change") on both dialects, under
 * row-level security. Figures by hand from shop-fixture.ts, revenue Q1 2023 → Q1 2024 (UTC):
 * acme 7 (#5 tools DE) → 100 (#1 tools DE 10, #2 toys DE 20, #3 apparel US 30, #4 tools US 40),
 * +93: by category tools +43, apparel +30, toys +20; by country US 0 → 70 (+70), DE 7 → 30 (+23).
 * globex 30 (#8 tools FR) → 150 (#6 toys FR 100, #7 apparel DE 50), +120: toys +100, apparel
 * +50, tools −30; FR 30 → 100 (+70), DE +50.
 */
const pgUp = await postgresReachable();
const mysqlUp = await mysqlReachable();
const engines: [string, () => Promise<ShopEngine>][] = [
  ["duckdb", createDuckDbShop],
  ...(pgUp ? [["postgres", createPostgresShop] as [string, () => Promise<ShopEngine>]] : []),
  ...(mysqlUp ? [["mysql", createMySqlShop] as [string, () => Promise<ShopEngine>]] : []),
];
const input = {
  measure: "sales.revenue",
  timeDimension: "sales.created_at",
  baseline: ["2023-01-01", "2023-03-31"],
  current: ["2024-01-01", "2024-03-31"],
  candidates: ["sales.products_category", "sales.customers_country"],
};
const brief = (r: Awaited<ReturnType<typeof explainChange>>) =>
  r.contributors.map((c) => [c.dimension.slice(6), c.value, c.baseline, c.current, c.change, Number(c.share!.toFixed(6))]);

describe.each(engines)("explainChange (%s)", (_name, create) => {
  let shop: ShopEngine;
  beforeAll(async () => {
    shop = await create();
  });
  afterAll(() => shop?.cleanup());
  const engine = () => createQueryEngine({ model: shop.model, dataSource: shop.dataSource });

  it("ranks the values of every candidate by the size of their change, with their share of the total change", async () => {
    const r = await explainChange(engine(), input, { securityContext: acmeViewer });
    expect(r.total).toEqual({ baseline: 7, current: 100, change: 93, relativeChange: expect.closeTo(93 / 7, 9) });
    expect(r.ranges).toEqual({
      baseline: { from: "2023-01-01T00:00:00.000", to: "2023-04-01T00:00:00.000" },
      current: { from: "2024-01-01T00:00:00.000", to: "2024-04-01T00:00:00.000" },
    });
    const s = (n: number) => Number((n / 93).toFixed(6));
    expect(brief(r)).toEqual([
      ["customers_country", "US", 0, 70, 70, s(70)],
      ["products_category", "tools", 7, 50, 43, s(43)],
      ["products_category", "apparel", 0, 30, 30, s(30)],
      ["customers_country", "DE", 7, 30, 23, s(23)],
      ["products_category", "toys", 0, 20, 20, s(20)],
    ]);
    const top = await explainChange(engine(), { ...input, limit: 2 }, { securityContext: acmeViewer });
    expect(brief(top).map((c) => c[1])).toEqual(["US", "tools"]);
    // The same figures when the combinations of the candidates do not fit one result and each
    // candidate (and the total) is queried on its own.
    const apart = await explainChange(engine(), input, { securityContext: acmeViewer, maxCombinedRows: 1 });
    expect(apart.total).toEqual(r.total);
    expect(brief(apart)).toEqual(brief(r));
  });

  it("sees only the viewer's rows, and ranks a fall by its size", async () => {
    const r = await explainChange(engine(), input, { securityContext: globexViewer });
    expect(r.total).toMatchObject({ baseline: 30, current: 150, change: 120 });
    const s = (n: number) => Number((n / 120).toFixed(6));
    // apparel and DE both +50: candidates in the order given.
    expect(brief(r)).toEqual([
      ["products_category", "toys", 0, 100, 100, s(100)],
      ["customers_country", "FR", 30, 100, 70, s(70)],
      ["products_category", "apparel", 0, 50, 50, s(50)],
      ["customers_country", "DE", 0, 50, 50, s(50)],
      ["products_category", "tools", 30, 0, -30, s(-30)],
    ]);
  });
});

describe("explainChange: refused input", () => {
  let shop: ShopEngine;
  beforeAll(async () => {
    shop = await createDuckDbShop();
  });
  afterAll(() => shop?.cleanup());

  const refused = async (change: Record<string, unknown>) => {
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
    const error = await explainChange(engine, { ...input, ...change }, { securityContext: acmeViewer }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(QueryValidationError);
    return (error as QueryValidationError).details.map((d) => d.path);
  };

  it("names each problem by its place in the input", async () => {
    expect(await refused({ measure: "sales.avg_amount" })).toEqual([["measure"]]);
    expect(await refused({ measure: "sales.nope" })).toEqual([["measure"]]);
    expect(await refused({ timeDimension: "sales.status" })).toEqual([["timeDimension"]]);
    expect(await refused({ baseline: "someday" })).toEqual([["baseline"]]);
    expect(await refused({ current: ["2024-01-01"] })).toEqual([["current"]]);
    expect(await refused({ candidates: ["sales.products_category", "sales.revenue"] })).toEqual([["candidates", 1]]);
    expect(await refused({ candidates: ["sales.created_at"] })).toEqual([["candidates", 0]]);
    expect(await refused({ limit: 0 })).toEqual([["limit"]]);
    expect(await refused({ filters: [{ member: "sales.amount", operator: "between", values: [3] }] })).toEqual([["filters", 0, "values"]]);
  });
});
