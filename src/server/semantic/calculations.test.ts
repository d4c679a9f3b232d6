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
 * Calculations over the aggregated rows (docs/data-model.md, "Calculations over the rows") on
 * both dialects, under row-level security. Figures by hand from shop-fixture.ts. acme's orders
 * by category and country: tools DE #1 10 + #5 7 = 17 (2 orders), tools US #4 40 (1); toys DE #2
 * 20 (1), toys US #9 5 + #10 6 = 11 (2); apparel US #3 30 (1). By category: tools 57, toys 31,
 * apparel 30, total 118. globex: toys 100, apparel 50, tools 30 (total 180).
 * By month (UTC): 2023-03 7, 2024-01 40, 2024-03 60, 2024-10 11.
 */
const pgUp = await postgresReachable();
const mysqlUp = await mysqlReachable();
const engines: [string, () => Promise<ShopEngine>][] = [
  ["duckdb", createDuckDbShop],
  ...(pgUp ? [["postgres", createPostgresShop] as [string, () => Promise<ShopEngine>]] : []),
  ...(mysqlUp ? [["mysql", createMySqlShop] as [string, () => Promise<ShopEngine>]] : []),
];
const round = (v: unknown) => (v === null ? null : Number(Number(v).toFixed(6)));

describe.each(engines)("calculations over the rows (%s)", (_name, create) => {
  let shop: ShopEngine;
  beforeAll(async () => {
    shop = await create();
  });
  afterAll(() => shop?.cleanup());

  const load = async (query: Record<string, unknown>, ctx = acmeViewer, options: Record<string, unknown> = {}) => {
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
    return engine.load(query, { securityContext: ctx, ...options });
  };

  it("gives each category's share of the viewer's revenue and its rank, before the final limit", async () => {
    const query = {
      measures: ["sales.revenue", "sales.count"],
      dimensions: ["sales.products_category"],
      calculations: [
        { type: "percentOfTotal", measure: "sales.revenue" },
        { type: "rank", measure: "sales.revenue" },
        { type: "rank", measure: "sales.count", name: "count_rank" },
        { type: "rank", measure: "sales.count", direction: "asc", name: "count_rank_asc" },
      ],
    };
    const r = await load(query);
    expect(
      r.data.map((x) => [
        x["sales.products_category"],
        round(x["sales.revenue.percentOfTotal"]),
        x["sales.revenue.rank"],
        x["count_rank"],
        x["count_rank_asc"],
      ]),
    ).toEqual([
      ["tools", round(57 / 118), 1, 1, 2],
      ["toys", round(31 / 118), 2, 1, 2],
      ["apparel", round(30 / 118), 3, 3, 1],
    ]);
    expect(r.annotation.calculations?.["sales.revenue.percentOfTotal"]).toMatchObject({
      calculation: "percentOfTotal",
      measure: "sales.revenue",
      format: "percent",
      title: "Sales Revenue (% of total)",
    });
    // A share is no sum of revenue: nothing may add shares up or show them as money.
    expect(r.annotation.calculations?.["sales.revenue.percentOfTotal"]).not.toHaveProperty("measureType");
    expect(r.annotation.calculations?.["sales.revenue.rank"]).toMatchObject({ calculation: "rank", type: "number" });
    expect(r.annotation.calculations?.["sales.revenue.rank"]).not.toHaveProperty("format");
    // The share is of all the viewer's rows, not of the page the limit keeps.
    const first = await load({ ...query, limit: 1 });
    expect(first.data.map((x) => round(x["sales.revenue.percentOfTotal"]))).toEqual([round(57 / 118)]);
    // globex's shares are of globex's 180 only.
    const g = await load(query, globexViewer);
    expect(g.data.map((x) => [x["sales.products_category"], round(x["sales.revenue.percentOfTotal"])])).toEqual([
      ["toys", round(100 / 180)],
      ["apparel", round(50 / 180)],
      ["tools", round(30 / 180)],
    ]);
  });

  it("gives shares within a group", async () => {
    const r = await load({
      measures: ["sales.revenue"],
      dimensions: ["sales.products_category", "sales.customers_country"],
      calculations: [{ type: "percentOfTotal", measure: "sales.revenue", within: ["sales.products_category"], name: "share_in_category" }],
      order: [
        ["sales.products_category", "asc"],
        ["sales.customers_country", "asc"],
      ],
    });
    expect(r.data.map((x) => [x["sales.products_category"], x["sales.customers_country"], round(x["share_in_category"])])).toEqual([
      ["apparel", "US", 1],
      ["tools", "DE", round(17 / 57)],
      ["tools", "US", round(40 / 57)],
      ["toys", "DE", round(20 / 31)],
      ["toys", "US", round(11 / 31)],
    ]);
  });

  it("runs totals along the months, overall and within each country", async () => {
    const r = await load({
      measures: ["sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "month" }],
      calculations: [{ type: "runningTotal", measure: "sales.revenue" }],
    });
    expect(r.data.map((x) => [String(x["sales.created_at.month"]).slice(0, 7), x["sales.revenue"], x["sales.revenue.runningTotal"]])).toEqual([
      ["2023-03", 7, 7],
      ["2024-01", 40, 47],
      ["2024-03", 60, 107],
      ["2024-10", 11, 118],
    ]);
    // DE: 2023-03 #5 7, 2024-03 #1 + #2 30. US: 2024-01 #4 40, 2024-03 #3 30, 2024-10 11. Newest first: the total still runs oldest first.
    const c = await load({
      measures: ["sales.revenue"],
      dimensions: ["sales.customers_country"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "month" }],
      calculations: [{ type: "runningTotal", measure: "sales.revenue", within: ["sales.customers_country"], along: "sales.created_at.month" }],
      order: [
        ["sales.customers_country", "asc"],
        ["sales.created_at.month", "desc"],
      ],
    });
    expect(c.data.map((x) => [x["sales.customers_country"], String(x["sales.created_at.month"]).slice(0, 7), x["sales.revenue.runningTotal"]])).toEqual([
      ["DE", "2024-03", 37],
      ["DE", "2023-03", 7],
      ["US", "2024-10", 81],
      ["US", "2024-03", 70],
      ["US", "2024-01", 40],
    ]);
  });

  it("keeps the top rows within each group (the best-selling country of each category)", async () => {
    const r = await load({
      measures: ["sales.count", "sales.revenue"],
      dimensions: ["sales.products_category", "sales.customers_country"],
      groupLimit: { within: ["sales.products_category"], limit: 1 },
      order: [["sales.products_category", "asc"]],
    });
    // Default order of the group: the first measure (count) descending.
    expect(r.data.map((x) => [x["sales.products_category"], x["sales.customers_country"], x["sales.count"]])).toEqual([
      ["apparel", "US", 1],
      ["tools", "DE", 2],
      ["toys", "US", 2],
    ]);
    const byRevenue = await load({
      measures: ["sales.count", "sales.revenue"],
      dimensions: ["sales.products_category", "sales.customers_country"],
      calculations: [{ type: "percentOfTotal", measure: "sales.revenue", within: ["sales.products_category"], name: "share" }],
      groupLimit: { within: ["sales.products_category"], limit: 1, order: [["sales.revenue", "desc"]] },
      order: [["sales.products_category", "asc"]],
    });
    // The share is worked out before the rows beyond the group's limit go.
    expect(byRevenue.data.map((x) => [x["sales.products_category"], x["sales.customers_country"], x["sales.revenue"], round(x["share"])])).toEqual([
      ["apparel", "US", 30, 1],
      ["tools", "US", 40, round(40 / 57)],
      ["toys", "DE", 20, round(20 / 31)],
    ]);
  });

  it("ranks compared periods by their change", async () => {
    // Q1 2023 → Q1 2024 (UTC): tools +43, apparel +30, toys +20 (total +93).
    const r = await load({
      measures: ["sales.revenue"],
      dimensions: ["sales.products_category"],
      compare: { dimension: "sales.created_at", baseline: ["2023-01-01", "2023-03-31"], current: ["2024-01-01", "2024-03-31"] },
      calculations: [
        { type: "rank", measure: "sales.revenue.change" },
        { type: "percentOfTotal", measure: "sales.revenue.change", name: "share_of_change" },
      ],
      order: [["sales.revenue.change.rank", "asc"]],
    });
    expect(r.data.map((x) => [x["sales.products_category"], x["sales.revenue.change.rank"], round(x["share_of_change"])])).toEqual([
      ["tools", 1, round(43 / 93)],
      ["apparel", 2, round(30 / 93)],
      ["toys", 3, round(20 / 93)],
    ]);
  });
});

describe("calculations: refused shapes", () => {
  let shop: ShopEngine;
  beforeAll(async () => {
    shop = await createDuckDbShop();
  });
  afterAll(() => shop?.cleanup());

  const refused = async (query: Record<string, unknown>) => {
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
    const error = await engine.load(query, { securityContext: acmeViewer }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(QueryValidationError);
    return (error as QueryValidationError).details.map((d) => d.path);
  };
  const base = { measures: ["sales.revenue"], dimensions: ["sales.products_category"] };

  it("names the path of each problem", async () => {
    expect(await refused({ ...base, calculations: [{ type: "median", measure: "sales.revenue" }] })).toEqual([["calculations", 0, "type"]]);
    expect(await refused({ ...base, calculations: [{ type: "rank", measure: "sales.count" }] })).toEqual([["calculations", 0, "measure"]]);
    expect(await refused({ ...base, calculations: [{ type: "rank", measure: "sales.revenue", within: ["sales.status"] }] })).toEqual([
      ["calculations", 0, "within", 0],
    ]);
    expect(await refused({ ...base, calculations: [{ type: "runningTotal", measure: "sales.revenue" }] })).toEqual([["calculations", 0, "along"]]);
    expect(await refused({ ...base, calculations: [{ type: "rank", measure: "sales.revenue", along: "sales.products_category" }] })).toEqual([
      ["calculations", 0, "along"],
    ]);
    expect(await refused({ ...base, calculations: [{ type: "rank", measure: "sales.revenue", direction: "up" }] })).toEqual([["calculations", 0, "direction"]]);
    expect(
      await refused({
        ...base,
        calculations: [
          { type: "rank", measure: "sales.revenue" },
          { type: "rank", measure: "sales.revenue" },
        ],
      }),
    ).toEqual([["calculations", 1, "name"]]);
    expect(await refused({ ...base, calculations: [{ type: "rank", measure: "sales.revenue", name: "x; DROP TABLE orders" }] })).toEqual([
      ["calculations", 0, "name"],
    ]);
    expect(await refused({ ...base, calculations: [{ type: "rank", measure: "sales.revenue", name: "sales.products_category" }] })).toEqual([
      ["calculations", 0, "name"],
    ]);
    expect(await refused({ ...base, calculations: [{ type: "rank" }] })).toEqual([["calculations", 0, "measure"]]);
    expect(await refused({ ...base, groupLimit: { within: ["sales.products_category"], limit: 0 } })).toEqual([["groupLimit", "limit"]]);
    expect(await refused({ ...base, groupLimit: { within: ["sales.status"], limit: 1 } })).toEqual([["groupLimit", "within", 0]]);
    expect(await refused({ ...base, groupLimit: { within: ["sales.products_category"], limit: 1, order: [["sales.count", "desc"]] } })).toEqual([
      ["groupLimit", "order", 0],
    ]);
    expect(await refused({ ...base, order: [["sales.revenue.rank", "asc"]] })).toEqual([["order", 0]]);
  });
});
