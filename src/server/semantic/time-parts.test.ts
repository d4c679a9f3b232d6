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
 * Parts of time (docs/data-model.md "Parts of time"): a time dimension read as its weekday,
 * hour, day of the month, ISO week, month or quarter, in the query's zone, on both dialects,
 * under the viewer's row-level security. The expected figures are worked out by hand from the
 * shop's ten orders (shop-fixture.ts), not by the query API: in UTC, acme's orders fall on a
 * Saturday (2), a Sunday (3), a Monday and a Wednesday; in Berlin, two of them move to the next
 * day (summer time began on 31 March 2024 at 01:00 UTC and ended on 27 October at 01:00 UTC).
 */
const pgUp = await postgresReachable();
const mysqlUp = await mysqlReachable();
const engines: [string, () => Promise<ShopEngine>][] = [
  ["duckdb", createDuckDbShop],
  ...(pgUp ? [["postgres", createPostgresShop] as [string, () => Promise<ShopEngine>]] : []),
  ...(mysqlUp ? [["mysql", createMySqlShop] as [string, () => Promise<ShopEngine>]] : []),
];

describe.each(engines)("parts of time (%s)", (_name, create) => {
  let shop: ShopEngine;
  beforeAll(async () => {
    shop = await create();
  });
  afterAll(() => shop?.cleanup());

  const load = async (query: Record<string, unknown>, ctx = acmeViewer) => {
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
    return engine.load(query, { securityContext: ctx });
  };
  const rows = (data: Record<string, unknown>[], key: string) => data.map((r) => [r[key], r["sales.count"], r["sales.revenue"]]);

  it("groups by day of week in UTC, Monday first, with only the viewer's orders", async () => {
    const r = await load({ measures: ["sales.count", "sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }] });
    expect(rows(r.data, "sales.created_at.dayOfWeek")).toEqual([
      [1, 1, 40],
      [3, 1, 7],
      [6, 2, 30],
      [7, 3, 41],
    ]);
    expect(r.annotation.dimensions["sales.created_at.dayOfWeek"]).toMatchObject({ type: "number", timePart: "dayOfWeek" });
    // globex's orders are on a Friday (2) and a Saturday: none reaches acme, nor acme's globex.
    const g = await load({ measures: ["sales.count", "sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }] }, globexViewer);
    expect(rows(g.data, "sales.created_at.dayOfWeek")).toEqual([
      [5, 2, 80],
      [6, 1, 100],
    ]);
  });

  it("reads the weekday and the hour in the query's zone, across both summer-time changes", async () => {
    const r = await load({
      measures: ["sales.count", "sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }],
      timezone: "Europe/Berlin",
    });
    expect(rows(r.data, "sales.created_at.dayOfWeek")).toEqual([
      [1, 2, 70],
      [3, 1, 7],
      [6, 1, 10],
      [7, 3, 31],
    ]);
    const h = await load({
      measures: ["sales.count", "sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", part: "hourOfDay" }],
      timezone: "Europe/Berlin",
    });
    expect(rows(h.data, "sales.created_at.hourOfDay")).toEqual([
      [0, 2, 50],
      [2, 2, 11],
      [11, 1, 7],
      [13, 1, 40],
      [23, 1, 10],
    ]);
  });

  it("keeps the date range of the dimension, and combines parts with a granularity and an order", async () => {
    const ranged = await load({
      measures: ["sales.count", "sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek", dateRange: ["2024-01-01", "2024-12-31"] }],
    });
    expect(rows(ranged.data, "sales.created_at.dayOfWeek")).toEqual([
      [1, 1, 40],
      [6, 2, 30],
      [7, 3, 41],
    ]);
    const r = await load({
      measures: ["sales.count", "sales.revenue"],
      timeDimensions: [
        { dimension: "sales.created_at", part: "quarterOfYear" },
        { dimension: "sales.created_at", part: "monthOfYear" },
      ],
      order: [["sales.created_at.monthOfYear", "desc"]],
    });
    expect(r.data.map((x) => [x["sales.created_at.quarterOfYear"], x["sales.created_at.monthOfYear"], x["sales.count"], x["sales.revenue"]])).toEqual([
      [4, 10, 2, 11],
      [1, 3, 4, 67],
      [1, 1, 1, 40],
    ]);
    const both = await load({
      measures: ["sales.count"],
      timeDimensions: [
        { dimension: "sales.created_at", part: "weekOfYear" },
        { dimension: "sales.created_at", part: "dayOfMonth" },
        { dimension: "sales.created_at", granularity: "year" },
      ],
      order: [
        ["sales.created_at.year", "asc"],
        ["sales.created_at.weekOfYear", "asc"],
        // Rows of one week in a fixed order on every engine.
        ["sales.created_at.dayOfMonth", "asc"],
      ],
    });
    // ISO weeks: 15 March 2023 is in week 11; 15 January 2024 in week 3, 30 and 31 March in week 13, 27 October in week 43.
    expect(
      both.data.map((x) => [
        String(x["sales.created_at.year"]).slice(0, 4),
        x["sales.created_at.weekOfYear"],
        x["sales.created_at.dayOfMonth"],
        x["sales.count"],
      ]),
    ).toEqual([
      ["2023", 11, 15, 1],
      ["2024", 3, 15, 1],
      ["2024", 13, 30, 2],
      ["2024", 13, 31, 1],
      ["2024", 43, 27, 2],
    ]);
  });
});

describe("parts of time: refused shapes", () => {
  let shop: ShopEngine;
  beforeAll(async () => {
    shop = await createDuckDbShop();
  });
  afterAll(() => shop?.cleanup());

  it("names an unknown part, and a part given with a granularity, at their place", async () => {
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
    const refused = async (query: Record<string, unknown>) => {
      const error = await engine.load(query, { securityContext: acmeViewer }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(QueryValidationError);
      return (error as QueryValidationError).details;
    };
    expect(await refused({ measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "weekday; DROP TABLE orders" }] })).toEqual([
      expect.objectContaining({ path: ["timeDimensions", 0, "part"], message: expect.stringContaining("unknown part of time") }),
    ]);
    expect(await refused({ measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek", granularity: "day" }] })).toEqual([
      expect.objectContaining({ path: ["timeDimensions", 0, "part"], message: expect.stringContaining("not both") }),
    ]);
    expect(
      await refused({
        measures: ["sales.count"],
        dimensions: ["sales.customers_city"],
        timeDimensions: [{ dimension: "sales.customers_city", part: "dayOfWeek" }],
      }),
    ).toEqual([expect.objectContaining({ path: ["timeDimensions", 0, "dimension"] })]);
  });
});
