import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueryValidationError } from "./errors";
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
 * Filters on measures (HAVING) and on number dimensions in every operator, `between` and
 * `notBetween` included (docs/data-model.md, "Operators"), on both dialects, under row-level
 * security. Figures by hand from shop-fixture.ts: acme's order amounts are 10, 20, 30, 40, 7, 5
 * and 6 (orders #1–#5, #9, #10); by category, revenue is tools 57 (10 + 40 + 7), toys 31
 * (20 + 5 + 6), apparel 30. globex's amounts are 100, 50 and 30.
 */
const pgUp = await postgresReachable();
const mysqlUp = await mysqlReachable();
const engines: [string, () => Promise<ShopEngine>][] = [
  ["duckdb", createDuckDbShop],
  ...(pgUp ? [["postgres", createPostgresShop] as [string, () => Promise<ShopEngine>]] : []),
  ...(mysqlUp ? [["mysql", createMySqlShop] as [string, () => Promise<ShopEngine>]] : []),
];

describe.each(engines)("filters on numbers (%s)", (_name, create) => {
  let shop: ShopEngine;
  beforeAll(async () => {
    shop = await create();
  });
  afterAll(() => shop?.cleanup());

  const engine = () => createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
  /** Order ids whose amount passes the filter. */
  const orders = async (operator: string, values: unknown[], ctx = acmeViewer) => {
    const r = await engine().load(
      { dimensions: ["sales.order_id"], filters: [{ member: "sales.amount", operator, values }], order: [["sales.order_id", "asc"]] },
      { securityContext: ctx },
    );
    return r.data.map((x) => x["sales.order_id"]);
  };
  /** Categories whose revenue passes the filter. */
  const categories = async (operator: string, values: unknown[]) => {
    const r = await engine().load(
      {
        measures: ["sales.revenue"],
        dimensions: ["sales.products_category"],
        filters: [{ member: "sales.revenue", operator, values }],
        order: [["sales.products_category", "asc"]],
      },
      { securityContext: acmeViewer },
    );
    return r.data.map((x) => x["sales.products_category"]);
  };

  it("filters a number dimension in every comparison", async () => {
    expect(await orders("gt", [20])).toEqual([3, 4]);
    expect(await orders("gte", ["20"])).toEqual([2, 3, 4]);
    expect(await orders("lt", [7])).toEqual([9, 10]);
    expect(await orders("lte", [7])).toEqual([5, 9, 10]);
    expect(await orders("equals", [40])).toEqual([4]);
    expect(await orders("notEquals", [40])).toEqual([1, 2, 3, 5, 9, 10]);
    expect(await orders("between", [6, 20])).toEqual([1, 2, 5, 10]);
    expect(await orders("notBetween", [6, 20])).toEqual([3, 4, 9]);
    expect(await orders("between", [7.5, 7.5])).toEqual([]);
    expect(await orders("between", [7, 7])).toEqual([5]);
    // globex's amounts 30, 50, 100: only its own orders pass.
    expect(await orders("between", [30, 50], globexViewer)).toEqual([7, 8]);
  });

  it("filters a measure (HAVING) in every comparison", async () => {
    expect(await categories("gt", [30])).toEqual(["tools", "toys"]);
    expect(await categories("gte", [31])).toEqual(["tools", "toys"]);
    expect(await categories("lt", [31])).toEqual(["apparel"]);
    expect(await categories("lte", [31])).toEqual(["apparel", "toys"]);
    expect(await categories("equals", [57])).toEqual(["tools"]);
    expect(await categories("notEquals", [57])).toEqual(["apparel", "toys"]);
    expect(await categories("between", [30, 31])).toEqual(["apparel", "toys"]);
    expect(await categories("notBetween", [30, 31])).toEqual(["tools"]);
  });
});

describe("between: refused values", () => {
  let shop: ShopEngine;
  beforeAll(async () => {
    shop = await createDuckDbShop();
  });
  afterAll(() => shop?.cleanup());

  const refused = async (member: string, operator: string, values: unknown[]) => {
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
    const error = await engine.load({ measures: ["sales.count"], filters: [{ member, operator, values }] }, { securityContext: acmeViewer }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(QueryValidationError);
    return (error as QueryValidationError).details.map((d) => [d.path, d.code]);
  };

  it("takes exactly two numbers, the lower first, on number members only", async () => {
    expect(await refused("sales.amount", "between", [1])).toEqual([[["filters", 0, "values"], "wrong_value_count"]]);
    expect(await refused("sales.amount", "between", [1, 2, 3])).toEqual([[["filters", 0, "values"], "wrong_value_count"]]);
    expect(await refused("sales.revenue", "notBetween", [1, "lots"])).toEqual([[["filters", 0, "values", 1], "wrong_value_type"]]);
    expect(await refused("sales.amount", "between", [null, 2])).toEqual([[["filters", 0, "values", 0], "wrong_value_type"]]);
    expect(await refused("sales.amount", "between", [9, 2])).toEqual([[["filters", 0, "values"], "value_out_of_range"]]);
    expect(await refused("sales.status", "between", ["a", "b"])).toEqual([[["filters", 0, "operator"], "bad_operator"]]);
    expect(await refused("sales.created_at", "between", ["2024-01-01", "2024-02-01"])).toEqual([[["filters", 0, "operator"], "bad_operator"]]);
  });
});
