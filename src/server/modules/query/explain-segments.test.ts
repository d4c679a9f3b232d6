import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";
import { createShopDeployment, embedSession } from "../../testing/shop-deployment";
import { prepareQueryTestData, type QueryTestData } from "./query-test-data";

/**
 * `POST …/query/explain` between two segments ("why is revenue in Germany lower than in
 * France?") over HTTP: each embed tenant's figures equal SQL written by hand on its own rows, and
 * bad input is a 400 naming its place in the body.
 */
let data: QueryTestData;
let t: TestPlatform;
let deploymentId: number;
const tokens: Record<string, string> = {};
/** Revenue by category, DE and FR, per tenant: by hand, not through the query API. */
const expected = new Map<string, { category: string; de: number; fr: number }[]>();

beforeAll(async () => {
  data = await prepareQueryTestData({ rows: 2000, postgres: false });
  const instance = await DuckDBInstance.create(data.duckdbPath, { access_mode: "READ_ONLY" });
  const conn = await instance.connect();
  for (const tenant of ["acme-corp", "globex-inc"]) {
    const rows = (
      await conn.runAndReadAll(`SELECT p.category AS category,
          coalesce(sum(o.amount) FILTER (WHERE c.country = 'DE'), 0)::DOUBLE AS de,
          coalesce(sum(o.amount) FILTER (WHERE c.country = 'FR'), 0)::DOUBLE AS fr
        FROM orders o JOIN customers c ON c.customer_id = o.customer_id JOIN products p ON p.product_id = o.product_id
        WHERE o.tenant = '${tenant}' AND c.country IN ('DE', 'FR') GROUP BY 1`)
    ).getRowObjectsJS() as { category: string; de: number; fr: number }[];
    expected.set(tenant, rows);
  }
  conn.closeSync();
  instance.closeSync();
  t = await createTestPlatform();
  deploymentId = await createShopDeployment(t, data.duckdbPath);
  for (const tenant of ["acme-corp", "globex-inc"])
    tokens[tenant] = (await embedSession(t, deploymentId, { externalId: "ann", embedTenantName: tenant })).token;
}, 120_000);
afterAll(async () => {
  await t?.close();
  data?.cleanup();
});

const country = (value: string) => ({ filters: [{ member: "sales.customers_country", operator: "equals", values: [value] }] });
const body = { measure: "sales.revenue", baseline: country("FR"), current: country("DE"), candidates: ["sales.products_category"], limit: 100 };
const url = () => `/api/v1/deployments/${deploymentId}/query/explain`;
const cents = (n: number) => Math.round(n * 100) / 100;

describe("POST …/query/explain between two segments", () => {
  it("answers each tenant's own difference, value by value, as SQL by hand", async () => {
    const totals: number[] = [];
    for (const tenant of ["acme-corp", "globex-inc"]) {
      const res = await t.api("POST", url(), body, tokens[tenant]);
      expect(res.status, await res.clone().text()).toBe(200);
      const r = (await res.json()) as {
        segments: unknown;
        ranges?: unknown;
        total: { baseline: number; current: number; change: number };
        contributors: { value: string; baseline: number; current: number; change: number }[];
      };
      const rows = expected.get(tenant)!;
      const de = rows.reduce((s, x) => s + x.de, 0);
      const fr = rows.reduce((s, x) => s + x.fr, 0);
      expect([cents(r.total.baseline), cents(r.total.current), cents(r.total.change)]).toEqual([cents(fr), cents(de), cents(de - fr)]);
      expect(r.segments).toEqual({ baseline: body.baseline, current: body.current });
      expect(r.ranges).toBeUndefined();
      const byHand = rows.filter((x) => cents(x.de - x.fr) !== 0).map((x) => [x.category, cents(x.fr), cents(x.de)]);
      expect(r.contributors.map((c) => [c.value, cents(c.baseline), cents(c.current)]).sort()).toEqual(byHand.sort());
      totals.push(r.total.change);
    }
    // Tenant isolation: globex's difference is not acme's.
    expect(totals[0]).not.toBe(totals[1]);
  });

  it("names bad input by its place in the body", async () => {
    const problems = async (change: Record<string, unknown>) => {
      const res = await t.api("POST", url(), { ...body, ...change }, tokens["acme-corp"]);
      expect(res.status).toBe(400);
      return ((await res.json()) as { details: { path: (string | number)[] }[] }).details.map((d) => d.path);
    };
    expect(await problems({ current: { filters: [{ member: "sales.nope", operator: "equals", values: ["x"] }] } })).toEqual([
      ["current", "filters", 0, "member"],
    ]);
    expect(await problems({ current: ["2024-01-01", "2024-03-31"] })).toEqual([["current"]]);
    expect(await problems({ timeDimension: "sales.created_at" })).toEqual([["timeDimension"]]);
    expect(await problems({ baseline: { filters: [] } })).toEqual([["baseline", "filters"]]);
  });
});
