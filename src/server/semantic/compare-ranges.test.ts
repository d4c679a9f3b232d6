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
 * Period against period (docs/data-model.md, "Comparing two date ranges") on both dialects,
 * under row-level security. Figures worked out by hand from the shop's orders (shop-fixture.ts):
 * acme in Q1 2023 has one order (#5, tools, 7); in Q1 2024 (UTC) #1 tools 10, #4 tools 40,
 * #2 toys 20 and #3 apparel 30 — #3 (31 March 22:30 UTC) is 1 April in Berlin, so Q2 there.
 * globex: Q1 2023 #8 tools 30; Q1 2024 #6 toys 100 and #7 apparel 50.
 */
const pgUp = await postgresReachable();
const mysqlUp = await mysqlReachable();
const engines: [string, () => Promise<ShopEngine>][] = [
  ["duckdb", createDuckDbShop],
  ...(pgUp ? [["postgres", createPostgresShop] as [string, () => Promise<ShopEngine>]] : []),
  ...(mysqlUp ? [["mysql", createMySqlShop] as [string, () => Promise<ShopEngine>]] : []),
];
const Q1_2023: [string, string] = ["2023-01-01", "2023-03-31"];
const Q1_2024: [string, string] = ["2024-01-01", "2024-03-31"];
const NOW = new Date("2024-11-15T12:00:00Z");

describe.each(engines)("compare two date ranges (%s)", (_name, create) => {
  let shop: ShopEngine;
  beforeAll(async () => {
    shop = await create();
  });
  afterAll(() => shop?.cleanup());

  const load = async (query: Record<string, unknown>, ctx = acmeViewer) => {
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource, now: () => NOW });
    return engine.load(query, { securityContext: ctx });
  };
  const byCategory = (compare: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    measures: ["sales.revenue", "sales.count"],
    dimensions: ["sales.products_category"],
    compare: { dimension: "sales.created_at", ...compare },
    ...extra,
  });
  const revenueRows = (data: Record<string, unknown>[]) =>
    data.map((r) => [
      r["sales.products_category"],
      r["sales.revenue.baseline"],
      r["sales.revenue.current"],
      r["sales.revenue.change"],
      r["sales.revenue.relativeChange"] === null ? null : Number(Number(r["sales.revenue.relativeChange"]).toFixed(6)),
    ]);

  it("lines up Q1 2023 against Q1 2024 by category, with change and relative change (null on a zero baseline)", async () => {
    const r = await load(byCategory({ baseline: Q1_2023, current: Q1_2024 }));
    // tools 7 → 10 + 40; apparel and toys had nothing in Q1 2023. Largest current revenue first.
    expect(revenueRows(r.data)).toEqual([
      ["tools", 7, 50, 43, 6.142857],
      ["apparel", 0, 30, 30, null],
      ["toys", 0, 20, 20, null],
    ]);
    expect(r.data.map((x) => [x["sales.count.baseline"], x["sales.count.current"], x["sales.count.change"], x["sales.count.relativeChange"]])).toEqual([
      [1, 2, 1, 1],
      [0, 1, 1, null],
      [0, 1, 1, null],
    ]);
    expect(Object.keys(r.data[0]!)).not.toContain("sales.revenue");
    expect(r.annotation.compare?.["sales.revenue.baseline"]).toMatchObject({
      measure: "sales.revenue",
      output: "baseline",
      format: "currency",
      title: "Sales Revenue (Q1 2023)",
      ranges: { baseline: { from: "2023-01-01T00:00:00.000", to: "2023-04-01T00:00:00.000" } },
    });
    expect(r.annotation.compare?.["sales.revenue.relativeChange"]).toMatchObject({ output: "relativeChange", format: "percent" });
  });

  it("reads the ranges in the query's zone, and orders by a compare column", async () => {
    // In Berlin #3 falls in April: apparel is in neither range and has no row.
    const r = await load(byCategory({ baseline: Q1_2023, current: Q1_2024 }, { timezone: "Europe/Berlin", order: [["sales.revenue.change", "asc"]] }));
    expect(revenueRows(r.data)).toEqual([
      ["toys", 0, 20, 20, null],
      ["tools", 7, 50, 43, 6.142857],
    ]);
  });

  it("takes relative ranges, and compares totals without dimensions", async () => {
    // Today is 15 November 2024: last year is 2023 (#5: 7), this year 2024 (#1–4, #9, #10: 10+20+30+40+5+6 = 111).
    const r = await load({
      measures: ["sales.count", "sales.revenue"],
      compare: { dimension: "sales.created_at", baseline: "last year", current: "this year" },
    });
    expect(r.data).toEqual([
      {
        "sales.count.baseline": 1,
        "sales.count.current": 6,
        "sales.count.change": 5,
        "sales.count.relativeChange": 5,
        "sales.revenue.baseline": 7,
        "sales.revenue.current": 111,
        "sales.revenue.change": 104,
        "sales.revenue.relativeChange": expect.closeTo(104 / 7, 9),
      },
    ]);
  });

  it("sees only the viewer's rows in both periods", async () => {
    const r = await load(byCategory({ baseline: Q1_2023, current: Q1_2024 }), globexViewer);
    // globex: tools 30 → 0 (−100 %), toys 0 → 100, apparel 0 → 50; none of acme's orders.
    expect(revenueRows(r.data)).toEqual([
      ["toys", 0, 100, 100, null],
      ["apparel", 0, 50, 50, null],
      ["tools", 30, 0, -30, -1],
    ]);
  });

  it("lines up parts of time of the compared dimension", async () => {
    // Q1 2023: #5 on a Wednesday (3). Q1 2024 (UTC): #4 Monday 40, #1 and #2 Saturday 30, #3 Sunday 30.
    const r = await load({
      measures: ["sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }],
      compare: { dimension: "sales.created_at", baseline: Q1_2023, current: Q1_2024 },
    });
    expect(r.data.map((x) => [x["sales.created_at.dayOfWeek"], x["sales.revenue.baseline"], x["sales.revenue.current"]])).toEqual([
      [1, 0, 40],
      [3, 7, 0],
      [6, 0, 30],
      [7, 0, 30],
    ]);
  });
});

describe("compare: refused shapes", () => {
  let shop: ShopEngine;
  beforeAll(async () => {
    shop = await createDuckDbShop();
  });
  afterAll(() => shop?.cleanup());

  const refused = async (query: Record<string, unknown>, options: Record<string, unknown> = {}) => {
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
    const error = await engine.load(query, { securityContext: acmeViewer, ...options }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(QueryValidationError);
    return (error as QueryValidationError).details.map((d) => d.path);
  };
  const compare = { dimension: "sales.created_at", baseline: Q1_2023, current: Q1_2024 };

  it("names the path of each problem", async () => {
    expect(await refused({ measures: ["sales.count"], compare: { ...compare, dimension: "sales.status" } })).toEqual([["compare", "dimension"]]);
    expect(await refused({ measures: ["sales.count"], compare: { ...compare, baseline: "the other day" } })).toEqual([["compare", "baseline"]]);
    expect(await refused({ measures: ["sales.count"], compare: { ...compare, current: ["2024-03-31", "2024-01-01"] } })).toEqual([["compare", "current"]]);
    expect(await refused({ measures: ["sales.count"], compare: { dimension: "sales.created_at", baseline: Q1_2023 } })).toEqual([["compare", "current"]]);
    expect(await refused({ dimensions: ["sales.status"], compare })).toEqual([["compare"]]);
    expect(await refused({ measures: ["sales.count"], dimensions: ["sales.created_at"], compare })).toEqual([["dimensions", 0]]);
    expect(
      await refused({ measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: Q1_2024 }], compare }),
    ).toEqual([
      ["timeDimensions", 0, "granularity"],
      ["timeDimensions", 0, "dateRange"],
    ]);
    expect(await refused({ measures: ["sales.count"], filters: [{ member: "sales.revenue", operator: "gt", values: [1] }], compare })).toEqual([
      ["filters", 0],
    ]);
    expect(await refused({ measures: ["sales.count"], compare, order: [["sales.count", "desc"]] })).toEqual([["order", 0]]);
    expect(
      await refused(
        {
          measures: ["sales.count"],
          timeDimensions: [{ dimension: "sales.created_at", granularity: "month" }],
          compare: { ...compare, dimension: "sales.created_at" },
        },
        { periodComparisons: [{ measure: "sales.count", timeDimension: "sales.created_at", offset: { amount: 1, unit: "year" } }] },
      ),
    ).toEqual([["timeDimensions", 0, "granularity"]]);
    expect(
      await refused(
        { measures: ["sales.count"], compare },
        { periodComparisons: [{ measure: "sales.count", timeDimension: "sales.created_at", offset: { amount: 1, unit: "year" } }] },
      ),
    ).toEqual([["periodComparisons", 0, "timeDimension"], ["periodComparisons"]]);
    expect(
      await refused(
        { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "monthOfYear" }], compare },
        { fillMissingRows: { member: "sales.created_at" } },
      ),
    ).toEqual([["fillMissingRows", "member"], ["fillMissingRows"]]);
  });
});
