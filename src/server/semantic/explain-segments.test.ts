import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueryValidationError } from "./errors";
import { explainChange } from "./explain";
import { mergeSides } from "./explain-segments";
import { createQueryEngine } from "./query-engine";
import { acmeViewer, createDuckDbShop, createPostgresShop, globexViewer, postgresReachable, type ShopEngine } from "./test-support/shop-fixture";

/**
 * Explaining the difference between two segments ("why is revenue in Germany lower than in the
 * US?") on both dialects, under row-level security. Figures by hand from shop-fixture.ts:
 * acme DE (customer 1) 37 = tools 10 + 7, toys 20; US (customer 2) 81 = apparel 30, tools 40,
 * toys 5 + 6. DE against US: −44; apparel −30, tools −23, toys +9. In 2024 (UTC) DE is 30
 * (tools 10, toys 20) and US 81. globex DE (customer 4) 50 = apparel 50; FR (customer 3) 130 =
 * toys 100, tools 30: DE against FR −80; toys −100, apparel +50, tools −30.
 */
const pgUp = await postgresReachable();
const engines: [string, () => Promise<ShopEngine>][] = [
  ["duckdb", createDuckDbShop],
  ...(pgUp ? [["postgres", createPostgresShop] as [string, () => Promise<ShopEngine>]] : []),
];
const country = (value: string) => ({ filters: [{ member: "sales.customers_country", operator: "equals", values: [value] }] });
const input = { measure: "sales.revenue", baseline: country("US"), current: country("DE"), candidates: ["sales.products_category"] };
const brief = (r: Awaited<ReturnType<typeof explainChange>>) =>
  r.contributors.map((c) => [c.value, c.baseline, c.current, c.change, Number(c.share!.toFixed(6))]);

describe.each(engines)("explainChange between two segments (%s)", (_name, create) => {
  let shop: ShopEngine;
  beforeAll(async () => {
    shop = await create();
  });
  afterAll(() => shop?.cleanup());
  const engine = () => createQueryEngine({ model: shop.model, dataSource: shop.dataSource });

  it("ranks the values that make one segment's figure differ from the other's, with their share", async () => {
    const r = await explainChange(engine(), input, { securityContext: acmeViewer });
    expect(r.total).toEqual({ baseline: 81, current: 37, change: -44, relativeChange: expect.closeTo(-44 / 81, 9) });
    expect(r.segments).toEqual({ baseline: input.baseline, current: input.current });
    expect(r.ranges).toBeUndefined();
    const s = (n: number) => Number((n / -44).toFixed(6));
    expect(brief(r)).toEqual([
      ["apparel", 30, 0, -30, s(-30)],
      ["tools", 40, 17, -23, s(-23)],
      ["toys", 11, 20, 9, s(9)],
    ]);
    // The same figures when each candidate (and the total) is queried on its own.
    const apart = await explainChange(engine(), input, { securityContext: acmeViewer, maxCombinedRows: 1 });
    expect(apart.total).toEqual(r.total);
    expect(brief(apart)).toEqual(brief(r));
  });

  it("applies the shared filters to both sides (a date range, an or group)", async () => {
    const in2024 = { member: "sales.created_at", operator: "inDateRange", values: ["2024-01-01", "2024-12-31"] };
    const r = await explainChange(engine(), { ...input, filters: [in2024] }, { securityContext: acmeViewer });
    expect(r.total).toMatchObject({ baseline: 81, current: 30, change: -51 });
    const either = {
      filters: [
        {
          or: [
            { member: "sales.customers_country", operator: "equals", values: ["DE"] },
            { member: "sales.status", operator: "equals", values: ["shipped"] },
          ],
        },
      ],
    };
    // DE (37) or shipped (US's apparel, 30) against US: 67 against 81.
    const r2 = await explainChange(engine(), { ...input, current: either }, { securityContext: acmeViewer });
    expect(r2.total).toMatchObject({ baseline: 81, current: 67, change: -14 });
  });

  it("sees only the viewer's rows", async () => {
    const r = await explainChange(engine(), { ...input, baseline: country("FR") }, { securityContext: globexViewer });
    expect(r.total).toMatchObject({ baseline: 130, current: 50, change: -80 });
    expect(brief(r).map((c) => [c[0], c[3]])).toEqual([
      ["toys", -100],
      ["apparel", 50],
      ["tools", -30],
    ]);
    // acme has no FR rows: globex's are never counted.
    const acme = await explainChange(engine(), { ...input, baseline: country("FR") }, { securityContext: acmeViewer });
    expect(acme.total).toMatchObject({ baseline: 0, current: 37, change: 37 });
  });
});

describe("explainChange between two segments: refused input", () => {
  let shop: ShopEngine;
  beforeAll(async () => {
    shop = await createDuckDbShop();
  });
  afterAll(() => shop?.cleanup());

  const refused = async (change: Record<string, unknown>) => {
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
    const error = await explainChange(engine, { ...input, ...change } as Parameters<typeof explainChange>[1], { securityContext: acmeViewer }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(QueryValidationError);
    return (error as QueryValidationError).details.map((d) => [d.path, d.code]);
  };

  it("names each problem by its place in the input", async () => {
    expect(await refused({ current: ["2024-01-01", "2024-03-31"] })).toEqual([[["current"], "invalid_shape"]]);
    expect(await refused({ baseline: "last year" })).toEqual([[["baseline"], "invalid_shape"]]);
    expect(await refused({ timeDimension: "sales.created_at" })).toEqual([[["timeDimension"], "invalid_shape"]]);
    expect(await refused({ current: { filters: [{ member: "sales.nope", operator: "equals", values: ["x"] }] } })).toEqual([
      [["current", "filters", 0, "member"], "unknown_member"],
    ]);
    // A shared filter keeps its own place; a side's own filters count from 0 after it.
    const shared = [{ member: "sales.status", operator: "equals", values: ["completed"] }];
    expect(await refused({ filters: shared, baseline: { filters: [{ member: "sales.amount", operator: "between", values: [3] }] } })).toEqual([
      [["baseline", "filters", 0, "values"], "wrong_value_count"],
    ]);
    expect(await refused({ candidates: ["sales.revenue"] })).toEqual([[["candidates", 0], "wrong_member_kind"]]);
  });

  it("a periods' input without its time dimension is refused too", async () => {
    expect(await refused({ baseline: ["2023-01-01", "2023-03-31"], current: ["2024-01-01", "2024-03-31"] })).toEqual([[["timeDimension"], "invalid_shape"]]);
  });
});

describe("mergeSides", () => {
  it("puts each side's figure of a combination in one row, 0 where a side has none", () => {
    const rows = mergeSides(
      "m",
      ["d"],
      [
        { d: "a", m: 1 },
        { d: "b", m: 2 },
      ],
      [
        { d: "b", m: 5 },
        { d: null, m: 3 },
      ],
    );
    expect(rows).toEqual([
      { d: "a", "m.baseline": 1, "m.current": 0 },
      { d: "b", "m.baseline": 2, "m.current": 5 },
      { d: null, "m.baseline": 0, "m.current": 3 },
    ]);
  });
});
