import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../app";
import { DEMO_REPORTS } from "../../demo/demo-workbook";
import { silentLogger } from "../../logger";
import { mysqlReachable, postgresReachable } from "../../semantic/test-support/shop-fixture";
import { createQueryEngineRegistry } from "./engines";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";
import { prepareQueryTestData, type QueryTestData } from "./query-test-data";

const pgUp = await postgresReachable();
const mysqlUp = await mysqlReachable();
type Backend = "duckdb" | "postgres" | "mysql";
const backends: Backend[] = ["duckdb", ...(pgUp ? ["postgres" as const] : []), ...(mysqlUp ? ["mysql" as const] : [])];
type Viewer = "acme-corp" | "globex-inc" | "no-tenant";

let data: QueryTestData;
beforeAll(async () => {
  data = await prepareQueryTestData({ rows: 3000, postgres: pgUp, mysql: mysqlUp });
}, 60_000);
afterAll(() => data?.cleanup());

const report = (key: string) => DEMO_REPORTS.find((r) => r.key === key)!;
/**
 * Rows as a set, numbers to 9 significant digits: engines sum doubles in different orders, and
 * rows that tie on a query's order may come in any order.
 */
const rowSet = (rows: Record<string, unknown>[]) =>
  rows.map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "number" ? Number(v.toPrecision(9)) : v])))).sort();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(storageKinds)("query API (%s storage)", (storage) => {
  let t: TestPlatform;
  let shortApp: ReturnType<typeof createApp>;
  let shortRegistry: ReturnType<typeof createQueryEngineRegistry>;
  const deploymentIds = {} as Record<Backend, number>;
  let downId: number;
  let mysqlDownId: number;
  const tokens = {} as Record<Backend, Record<Viewer, string>>;

  const query = (backend: Backend, body: unknown, token?: string | null) => t.api("POST", `/api/v1/deployments/${deploymentIds[backend]}/query`, body, token);
  /** The lines of a batch answer (NDJSON), after checking it is one. */
  async function batch(backend: Backend, body: unknown, token?: string | null) {
    const res = await t.api("POST", `/api/v1/deployments/${deploymentIds[backend]}/query/batch`, body, token);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    const text = await res.text();
    expect(text.endsWith("\n")).toBe(true);
    return text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { index: number; status: number; body: Record<string, unknown> });
  }

  async function createDeployment(body: Record<string, unknown>) {
    const res = await t.api("POST", "/build/api/v1/deployments/", body);
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { id: number }).id;
  }

  async function embedToken(deploymentId: number, tenant: string | null) {
    const gen = await t.api("POST", "/api/v1/embed/generate-session", {
      deploymentId,
      externalId: `viewer-${tenant ?? "none"}`,
      ...(tenant ? { embedTenantName: tenant } : {}),
    });
    expect(gen.status, await gen.clone().text()).toBe(200);
    const { sessionId } = (await gen.json()) as { sessionId: string };
    const ex = await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null);
    expect(ex.status).toBe(200);
    return ((await ex.json()) as { token: string }).token;
  }

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    deploymentIds.duckdb = await createDeployment({
      name: "shop on duckdb",
      dataSource: { type: "duckdb", path: data.duckdbPath },
      dataModelFiles: (await import("../../demo/seed")).demoModelFiles(),
    });
    if (pgUp) {
      const { host, port, database, user, password } = data.pgConnection;
      deploymentIds.postgres = await createDeployment({
        name: "shop on postgres",
        dataSource: { type: "postgres", host, port, database, user, ...(password ? { password } : {}) },
        dataModelFiles: data.pgModelFiles,
      });
      downId = await createDeployment({
        name: "postgres that is down",
        dataSource: { type: "postgres", host: "127.0.0.1", port: 1, database, user },
        dataModelFiles: data.pgModelFiles,
      });
    }
    if (mysqlUp) {
      const { host, port, database, user, password } = data.mysqlConnection;
      deploymentIds.mysql = await createDeployment({
        name: "shop on mysql",
        dataSource: { type: "mysql", host, port, database, user, ...(password ? { password } : {}) },
        dataModelFiles: data.mysqlModelFiles,
      });
      mysqlDownId = await createDeployment({
        name: "mysql that is down",
        dataSource: { type: "mysql", host: "127.0.0.1", port: 1, database, user },
        dataModelFiles: data.mysqlModelFiles,
      });
    }
    for (const backend of backends) {
      tokens[backend] = {
        "acme-corp": await embedToken(deploymentIds[backend], "acme-corp"),
        "globex-inc": await embedToken(deploymentIds[backend], "globex-inc"),
        "no-tenant": await embedToken(deploymentIds[backend], null),
      };
    }
    // Same storage and services, but queries are cut off after 300 ms.
    shortRegistry = createQueryEngineRegistry({ db: t.deps.db, secretBox: t.deps.secretBox, logger: silentLogger, queryTimeoutMs: 300 });
    shortApp = createApp({ ...t.deps, queryEngines: shortRegistry });
  }, 60_000);
  afterAll(async () => {
    await shortRegistry?.close();
    await t?.close();
  });

  describe.each(backends)("on %s", (backend) => {
    const totals = { measures: ["sales.count", "sales.revenue"] };

    it("returns rows with annotations and the time dimension under both column names", async () => {
      const r = report("revenue_trend");
      const res = await query(backend, { query: r.query });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.fromCache).toBe(false);
      expect(body.annotation.measures["sales.revenue"]).toMatchObject({ title: "Sales Revenue", shortTitle: "Revenue", type: "number", format: "currency" });
      expect(body.annotation.measures["sales.count"]).toMatchObject({ shortTitle: "Orders" });
      expect(body.annotation.timeDimensions["sales.created_at.month"]).toMatchObject({ shortTitle: "Order Date", granularity: "month" });
      expect(body.data).toHaveLength(24);
      expect(body.data[0]["sales.created_at.month"]).toBe("2023-07-01T00:00:00.000");
      expect(body.data[0]["sales.created_at"]).toBe(body.data[0]["sales.created_at.month"]);
      const orders = body.data.reduce((n: number, row: Record<string, number>) => n + Number(row["sales.count"]), 0);
      expect(orders).toBe(data.facts["acme-corp"].orders + data.facts["globex-inc"].orders);
    });

    it("answers every bad input with 400 naming the problem's path and code", async () => {
      const cases: [string, unknown, (string | number)[], string][] = [
        ["unknown member", { measures: ["sales.nope"] }, ["query", "measures", 0], "unknown_member"],
        ["hidden cube member", { measures: ["orders.count"] }, ["query", "measures", 0], "unknown_member"],
        ["dimension as measure", { measures: ["sales.status"] }, ["query", "measures", 0], "wrong_member_kind"],
        ["limit of the wrong type", { measures: ["sales.count"], limit: "10" }, ["query", "limit"], "invalid_type"],
        ["members of the wrong type", { measures: "sales.count" }, ["query", "measures"], "invalid_type"],
        [
          "value of the wrong type",
          { measures: ["sales.count"], filters: [{ member: "sales.quantity", operator: "gt", values: ["many"] }] },
          ["query", "filters", 0, "values", 0],
          "wrong_value_type",
        ],
        [
          "unknown operator",
          { measures: ["sales.count"], filters: [{ member: "sales.status", operator: "like", values: ["x"] }] },
          ["query", "filters", 0, "operator"],
          "bad_operator",
        ],
        [
          "malformed date range",
          { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2024-13-45", "soon"] }] },
          ["query", "timeDimensions", 0, "dateRange"],
          "malformed_date_range",
        ],
        [
          "malformed date range in a filter",
          { measures: ["sales.count"], filters: [{ member: "sales.created_at", operator: "inDateRange", values: ["2024-01-01", "yesterday-ish", "x"] }] },
          ["query", "filters", 0, "values"],
          "malformed_date_range",
        ],
        [
          "measure mixed with a dimension in one filter group",
          {
            measures: ["sales.count"],
            filters: [
              {
                or: [
                  { member: "sales.revenue", operator: "gt", values: [10] },
                  { member: "sales.status", operator: "equals", values: ["completed"] },
                ],
              },
            ],
          },
          ["query", "filters", 0],
          "measure_filter_not_allowed",
        ],
        ["absurd limit", { measures: ["sales.count"], limit: 1_000_000_000 }, ["query", "limit"], "limit_out_of_range"],
        ["negative limit", { measures: ["sales.count"], limit: -1 }, ["query", "limit"], "limit_out_of_range"],
        ["unknown time zone", { measures: ["sales.count"], timezone: "Mars/Olympus" }, ["query", "timezone"], "bad_timezone"],
        ["SQL in a member name", { measures: ["sales.count; DROP TABLE orders"] }, ["query", "measures", 0], "unknown_member"],
        [
          "compare range that is not a range",
          { measures: ["sales.count"], compare: { dimension: "sales.created_at", baseline: "some day", current: "this year" } },
          ["query", "compare", "baseline"],
          "malformed_date_range",
        ],
        [
          "compare without its current range",
          { measures: ["sales.count"], compare: { dimension: "sales.created_at", baseline: "last year" } },
          ["query", "compare", "current"],
          "invalid_union",
        ],
        [
          "calculation of a measure the query does not have",
          { measures: ["sales.count"], calculations: [{ type: "percentOfTotal", measure: "sales.revenue" }] },
          ["query", "calculations", 0, "measure"],
          "unknown_member",
        ],
        [
          "between with one value",
          { measures: ["sales.count"], filters: [{ member: "sales.quantity", operator: "between", values: [1] }] },
          ["query", "filters", 0, "values"],
          "wrong_value_count",
        ],
        [
          "group limit of zero",
          { measures: ["sales.count"], dimensions: ["sales.status"], groupLimit: { within: ["sales.status"], limit: 0 } },
          ["query", "groupLimit", "limit"],
          "limit_out_of_range",
        ],
      ];
      for (const [what, q, path, code] of cases) {
        const res = await query(backend, { query: q });
        expect(res.status, what).toBe(400);
        const body = await res.json();
        expect(body.code, what).toBe("validation_failed");
        expect(body.details, what).toContainEqual(expect.objectContaining({ path, code }));
        expect(body.message, what).toMatch(/\S/);
      }
      const unknownKey = await query(backend, { query: { measures: ["sales.count"] }, rows: 5 });
      expect(unknownKey.status).toBe(400);
      expect((await unknownKey.json()).details[0].code).toBe("unrecognized_keys");
      const badFill = await query(backend, { query: { measures: ["sales.count"] }, fillMissingRows: { member: "sales.created_at" } });
      expect(badFill.status).toBe(400);
      expect((await badFill.json()).details).toContainEqual(expect.objectContaining({ path: ["fillMissingRows", "member"], code: "bad_option" }));
      const compareWithComparisons = await query(backend, {
        query: { measures: ["sales.count"], compare: { dimension: "sales.created_at", baseline: "last year", current: "this year" } },
        periodComparisons: [{ measure: "sales.count", timeDimension: "sales.created_at", offset: { amount: 1, unit: "year" } }],
      });
      expect(compareWithComparisons.status).toBe(400);
      expect((await compareWithComparisons.json()).details).toContainEqual(expect.objectContaining({ path: ["periodComparisons"], code: "bad_option" }));
      const badValues = await t.api("POST", `/api/v1/deployments/${deploymentIds[backend]}/query/values`, { member: "sales.revenue" });
      expect(badValues.status).toBe(400);
      expect((await badValues.json()).details).toContainEqual(expect.objectContaining({ path: ["member"], code: "wrong_member_kind" }));
    });

    it("explains a change under the embed viewer's row-level security, and names bad input by its path", async () => {
      const url = `/api/v1/deployments/${deploymentIds[backend]}/query/explain`;
      const body = {
        measure: "sales.count",
        timeDimension: "sales.created_at",
        baseline: ["2024-04-01", "2024-06-30"],
        current: ["2025-04-01", "2025-06-30"],
        candidates: ["sales.status"],
        limit: 100,
      };
      for (const tenant of ["acme-corp", "globex-inc"] as const) {
        const res = await t.api("POST", url, body, tokens[backend][tenant]);
        expect(res.status, await res.clone().text()).toBe(200);
        const r = (await res.json()) as { total: { baseline: number; current: number; change: number }; contributors: { change: number; share: number }[] };
        // The tenant's orders in both quarters, counted straight from the database (query-test-data.ts).
        const facts = data.facts[tenant];
        expect(r.total).toMatchObject({ baseline: facts.ordersQ2of2024, current: facts.ordersQ2of2025, change: facts.ordersQ2of2025 - facts.ordersQ2of2024 });
        // Statuses split the orders: their changes add up to the total change, their shares to 1.
        expect(r.contributors.reduce((n, c) => n + c.change, 0)).toBe(r.total.change);
        if (r.total.change !== 0) expect(r.contributors.reduce((n, c) => n + c.share, 0)).toBeCloseTo(1, 9);
      }
      const bad = await t.api("POST", url, { ...body, candidates: ["sales.revenue"], baseline: "someday" });
      expect(bad.status).toBe(400);
      const details = ((await bad.json()) as { details: { path: unknown[] }[] }).details.map((d) => d.path);
      expect(details).toEqual(expect.arrayContaining([["candidates", 0], ["baseline"]]));
      const shape = await t.api("POST", url, { ...body, candidates: [] });
      expect(shape.status).toBe(400);
    });

    it("answers a refused query of a batch with its own status and body, and the others with their rows", async () => {
      const lines = await batch(backend, {
        queries: [{ query: totals }, { query: { measures: ["sales.nope"] } }, { query: { measures: ["sales.count"], dimensions: ["sales.status"] } }],
      });
      const byIndex = new Map(lines.map((l) => [l.index, l]));
      expect(lines).toHaveLength(3);
      expect(byIndex.get(0)!.status).toBe(200);
      expect(byIndex.get(2)!.status).toBe(200);
      expect(byIndex.get(1)).toMatchObject({ status: 400, body: { code: "validation_failed" } });
      expect((byIndex.get(1)!.body.details as { path: unknown[] }[])[0]!.path).toEqual(["queries", 1, "query", "measures", 0]);
    });

    it("refuses a malformed or oversized batch as a whole, and a batch without credentials", async () => {
      const url = `/api/v1/deployments/${deploymentIds[backend]}/query/batch`;
      for (const body of [
        { queries: [] },
        { queries: Array.from({ length: 65 }, () => ({ query: totals })) },
        { queries: [{ query: totals, extra: 1 }] },
        {},
      ]) {
        const res = await t.api("POST", url, body);
        expect(res.status).toBe(400);
        expect((await res.json()).code).toBe("validation_failed");
      }
      expect((await t.api("POST", url, { queries: [{ query: totals }] }, null)).status).toBe(401);
    });

    it("keeps SQL fragments in filter values as values", async () => {
      const injected = "completed' OR '1'='1";
      const q = { measures: ["sales.count"], filters: [{ member: "sales.status", operator: "equals", values: [injected] }] };
      const res = await query(backend, { query: q });
      expect(res.status).toBe(200);
      const rows = (await res.json()).data as Record<string, unknown>[];
      expect(rows.every((r) => Number(r["sales.count"] ?? 0) === 0)).toBe(true);
      const compiled = await (await t.api("POST", `/api/v1/deployments/${deploymentIds[backend]}/query/sql`, { query: q })).json();
      expect(compiled.params).toContain(injected);
      expect(compiled.sql).not.toContain("'1'='1");
      const values = await t.api("POST", `/api/v1/deployments/${deploymentIds[backend]}/query/values`, {
        member: "sales.customers_city",
        search: "%' OR 1=1 --",
      });
      expect(values.status).toBe(200);
      expect((await values.json()).values).toEqual([]);
    });

    it("compiles to SQL with bound parameters for platform users and refuses embed viewers", async () => {
      const body = {
        query: {
          measures: ["sales.revenue"],
          dimensions: ["sales.status"],
          filters: [{ member: "sales.status", operator: "in", values: ["completed", "shipped"] }],
          limit: 7,
        },
      };
      const res = await t.api("POST", `/api/v1/deployments/${deploymentIds[backend]}/query/sql`, body);
      expect(res.status).toBe(200);
      const { sql, params } = await res.json();
      expect(sql).toMatch(/SELECT/i);
      expect(sql).not.toContain("completed");
      expect(params).toEqual(expect.arrayContaining(["completed", "shipped"]));
      const embed = await t.api("POST", `/api/v1/deployments/${deploymentIds[backend]}/query/sql`, body, tokens[backend]["acme-corp"]);
      expect(embed.status).toBe(403);
    });

    it("lists views and members in /meta", async () => {
      const res = await t.api("GET", `/api/v1/deployments/${deploymentIds[backend]}/meta`);
      expect(res.status).toBe(200);
      const { sources } = await res.json();
      const sales = sources.find((s: { name: string }) => s.name === "sales");
      expect(sales).toMatchObject({ kind: "view", title: "Sales" });
      expect(sales.measures.map((m: { name: string }) => m.name)).toContain("sales.revenue");
      expect(sales.dimensions.find((d: { name: string }) => d.name === "sales.created_at")).toMatchObject({ type: "time", shortTitle: "Order Date" });
      expect(sources.map((s: { name: string }) => s.name)).not.toContain("orders");
    });

    it("serves a repeated query from the cache and re-runs it with cache bypass", async () => {
      const body = { query: { measures: ["sales.units"], dimensions: ["sales.products_category"] } };
      const first = await (await query(backend, body)).json();
      const second = await (await query(backend, body)).json();
      const refreshed = await (await query(backend, { ...body, cache: "bypass" })).json();
      expect([first.fromCache, second.fromCache, refreshed.fromCache]).toEqual([false, true, false]);
      expect(refreshed.data).toEqual(first.data);
    });

    it("refuses before running a fill whose known grid is larger than the limit, naming it", async () => {
      const res = await query(backend, {
        query: {
          measures: ["sales.count"],
          timeDimensions: [{ dimension: "sales.created_at", granularity: "second", dateRange: ["1900-01-01", "2100-01-01"] }],
        },
        fillMissingRows: { member: "sales.created_at" },
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { code: string; message: string; details: { path: unknown[]; code: string }[] };
      expect(body.code).toBe("validation_failed");
      expect(body.details).toEqual([expect.objectContaining({ path: ["fillMissingRows"], code: "limit_out_of_range" })]);
      expect(body.message).toContain("100,000");
    });

    it.each([
      ["a number beyond int64", { member: "sales.amount", operator: "gt", values: [1e308] }, "value_out_of_range"],
      ["an integer beyond int64 as text", { member: "sales.order_id", operator: "equals", values: ["9223372036854775808"] }, "value_out_of_range"],
      ["a date whose next day is in year 10000", { member: "sales.created_at", operator: "afterDate", values: ["9999-12-31"] }, "wrong_value_type"],
      [
        "a date range ending in year 9999",
        { member: "sales.created_at", operator: "inDateRange", values: ["2024-01-01", "9999-12-31"] },
        "malformed_date_range",
      ],
    ])("refuses %s with 400 before the engine sees it", async (_name, filter, code) => {
      const res = await query(backend, { query: { measures: ["sales.count"], filters: [filter] }, cache: "bypass" });
      const body = (await res.json()) as { code: string; details: { code: string }[] };
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(body.code).toBe("validation_failed");
      expect(body.details).toContainEqual(expect.objectContaining({ code }));
    });

    it("answers dates at the edge of the query years", async () => {
      const res = await query(backend, {
        query: { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", granularity: "year", dateRange: ["1000-01-01", "9998-12-31"] }] },
        cache: "bypass",
      });
      expect(res.status, await res.clone().text()).toBe(200);
    });

    it("holds the time limit for a fill over an open range at second granularity", async () => {
      const res = await shortApp.request(`/api/v1/deployments/${deploymentIds[backend]}/query`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({
          query: { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", granularity: "second" }] },
          fillMissingRows: { member: "sales.created_at" },
          cache: "bypass",
        }),
      });
      expect(res.status, await res.clone().text()).toBe(504);
      expect(await res.json()).toMatchObject({ code: "query_timeout" });
      // The engine stopped: the next query on the same data source answers. On a loaded machine a
      // count alone can pass the 300 ms limit, so it may ask a few times; an engine still running
      // the fill (it would run for hours) times every one of them out.
      let next = 0;
      for (let attempt = 0; attempt < 5 && next !== 200; attempt++) {
        const res = await shortApp.request(`/api/v1/deployments/${deploymentIds[backend]}/query`, {
          method: "POST",
          headers: { authorization: `Bearer ${t.adminToken}`, "content-type": "application/json" },
          body: JSON.stringify({ query: { measures: ["sales.count"] }, cache: "bypass" }),
        });
        next = res.status;
      }
      expect(next).toBe(200);
    });

    describe("row-level security", () => {
      const viewers: Viewer[] = ["acme-corp", "globex-inc", "no-tenant"];
      const expected = (viewer: Viewer) =>
        viewer === "no-tenant" ? { orders: 0, revenue: 0, ordersQ2of2025: 0, ordersQ2of2024: 0, cities: [] as string[] } : data.facts[viewer];

      it("gives the admin every tenant's rows", async () => {
        const res = await query(backend, { query: totals });
        const [row] = (await res.json()).data;
        expect(Number(row["sales.count"])).toBe(data.facts["acme-corp"].orders + data.facts["globex-inc"].orders);
        expect(Number(row["sales.revenue"])).toBeCloseTo(data.facts["acme-corp"].revenue + data.facts["globex-inc"].revenue, 2);
      });

      it.each(viewers)("shows %s only its own rows through /query", async (viewer) => {
        const res = await query(backend, { query: totals }, tokens[backend][viewer]);
        expect(res.status).toBe(200);
        const rows = (await res.json()).data as Record<string, unknown>[];
        expect(Number(rows[0]?.["sales.count"] ?? 0)).toBe(expected(viewer).orders);
        expect(Number(rows[0]?.["sales.revenue"] ?? 0)).toBeCloseTo(expected(viewer).revenue, 2);
        const byCity = await query(backend, { query: { measures: ["sales.count"], dimensions: ["sales.customers_city"] } }, tokens[backend][viewer]);
        const cities = ((await byCity.json()).data as Record<string, string>[]).map((r) => r["sales.customers_city"]).sort();
        expect(cities.every((c) => expected(viewer).cities.includes(c))).toBe(true);
        if (viewer === "no-tenant") expect(cities).toEqual([]);
      });

      it.each(viewers)("shows %s only its own values through /query/values", async (viewer) => {
        const res = await t.api(
          "POST",
          `/api/v1/deployments/${deploymentIds[backend]}/query/values`,
          { member: "sales.customers_city", limit: 1000 },
          tokens[backend][viewer],
        );
        expect(res.status).toBe(200);
        expect(((await res.json()).values as string[]).sort()).toEqual(expected(viewer).cities);
      });

      it.each(viewers)("lets %s read /meta without data and with its deployment only", async (viewer) => {
        const res = await t.api("GET", `/api/v1/deployments/${deploymentIds[backend]}/meta`, undefined, tokens[backend][viewer]);
        expect(res.status).toBe(200);
        const body = await res.json();
        expect(body.sources.map((s: { name: string }) => s.name)).toContain("sales");
        expect(JSON.stringify(body)).not.toMatch(/acme-corp|globex-inc/);
      });

      it.each(viewers)("fills missing rows for %s from its own rows only", async (viewer) => {
        const r = report("revenue_trend");
        const res = await query(backend, { query: r.query, fillMissingRows: r.fillMissingRows }, tokens[backend][viewer]);
        expect(res.status).toBe(200);
        const rows = (await res.json()).data as Record<string, unknown>[];
        expect(rows).toHaveLength(24);
        expect(rows.reduce((n, row) => n + Number(row["sales.count"] ?? 0), 0)).toBe(expected(viewer).orders);
      });

      it.each(viewers)("compares periods for %s over its own rows only", async (viewer) => {
        const r = report("kpi_orders");
        const res = await query(backend, { query: r.query, periodComparisons: r.periodComparisons }, tokens[backend][viewer]);
        expect(res.status).toBe(200);
        const rows = (await res.json()).data as Record<string, unknown>[];
        const output = r.periodComparisons![0]!.outputs![0]!;
        const row = rows[0] ?? {};
        expect(Number(row["sales.count"] ?? 0)).toBe(expected(viewer).ordersQ2of2025);
        expect(Number(row[output] ?? 0)).toBe(expected(viewer).ordersQ2of2024);
      });

      it.each(viewers)("answers %s's batch exactly as its single queries, each under its own row-level security", async (viewer) => {
        const bodies = [
          { query: totals },
          { query: { measures: ["sales.count"], dimensions: ["sales.customers_city"], order: { "sales.customers_city": "asc" } } },
          { query: report("revenue_trend").query, fillMissingRows: report("revenue_trend").fillMissingRows },
        ];
        const lines = await batch(backend, { queries: bodies }, tokens[backend][viewer]);
        expect(lines.map((l) => l.index).sort()).toEqual([0, 1, 2]);
        for (const line of lines) {
          expect(line.status).toBe(200);
          const single = await (await query(backend, bodies[line.index], tokens[backend][viewer])).json();
          expect((line.body as { data: unknown }).data).toEqual(single.data);
          expect((line.body as { annotation: unknown }).annotation).toEqual(single.annotation);
        }
        const total = lines.find((l) => l.index === 0)!.body as { data: Record<string, unknown>[] };
        expect(Number(total.data[0]?.["sales.count"] ?? 0)).toBe(expected(viewer).orders);
      });

      it("answers 404 to an embed token of another deployment on every endpoint", async () => {
        const other = backends.find((b) => b !== backend);
        const otherId = other ? deploymentIds[other] : await createDeployment({ name: "elsewhere", dataSource: { type: "duckdb", path: data.duckdbPath } });
        const token = tokens[backend]["acme-corp"];
        const calls = [
          t.api("POST", `/api/v1/deployments/${otherId}/query`, { query: totals }, token),
          t.api("POST", `/api/v1/deployments/${otherId}/query/batch`, { queries: [{ query: totals }] }, token),
          t.api("POST", `/api/v1/deployments/${otherId}/query/values`, { member: "sales.customers_city" }, token),
          t.api("GET", `/api/v1/deployments/${otherId}/meta`, undefined, token),
          t.api("GET", `/api/v1/deployments/${otherId}`, undefined, token),
        ];
        for (const res of await Promise.all(calls)) {
          expect(res.status).toBe(404);
          expect((await res.json()).code).toBe("not_found");
        }
      });
    });
  });

  describe.skipIf(!pgUp)("on a Postgres data source", () => {
    const slowQuery = { query: { measures: ["slow.count"] } };
    const activeSlowQueries = async () =>
      Number(
        (
          await data.pgQuery(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND query LIKE '%pg_sleep%' AND query LIKE $1",
            [`%${data.pgSchema}%`],
          )
        ).rows[0].n,
      );
    async function waitFor(check: () => Promise<boolean>, ms = 2000) {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        if (await check()) return true;
        await sleep(25);
      }
      return check();
    }

    it("answers 503 datasource_unavailable when the server is down", async () => {
      const res = await t.api("POST", `/api/v1/deployments/${downId}/query`, { query: { measures: ["sales.count"] } });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: "datasource_unavailable" });
      const values = await t.api("POST", `/api/v1/deployments/${downId}/query/values`, { member: "sales.status" });
      expect(values.status).toBe(503);
    });

    it("answers 504 query_timeout past the timeout and cancels the query in the database", async () => {
      const started = Date.now();
      const res = await shortApp.request(`/api/v1/deployments/${deploymentIds.postgres}/query`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify(slowQuery),
      });
      expect(res.status).toBe(504);
      expect(await res.json()).toMatchObject({ code: "query_timeout" });
      expect(Date.now() - started).toBeLessThan(2500);
      expect(await waitFor(async () => (await activeSlowQueries()) === 0, 1000)).toBe(true);
    });

    it("cancels the database query when the client goes away", async () => {
      const controller = new AbortController();
      const started = Date.now();
      const pending = Promise.resolve(
        t.app.request(`/api/v1/deployments/${deploymentIds.postgres}/query`, {
          method: "POST",
          headers: { authorization: `Bearer ${t.adminToken}`, "content-type": "application/json" },
          body: JSON.stringify({ ...slowQuery, cache: "bypass" }),
          signal: controller.signal,
        }),
      );
      expect(await waitFor(async () => (await activeSlowQueries()) === 1)).toBe(true);
      controller.abort();
      const res = await pending;
      expect(res.status).toBe(499);
      expect(await waitFor(async () => (await activeSlowQueries()) === 0, 1000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(2900);
    });

    it("re-runs a cached query on refresh and sees new rows", async () => {
      const q = { query: { measures: ["sales.count"], filters: [{ member: "sales.status", operator: "equals", values: [`probe-${storage}`] }] } };
      const count = async (body: unknown) => {
        const r = await (await query("postgres", body)).json();
        return [Number(r.data[0]?.["sales.count"] ?? 0), r.fromCache];
      };
      expect(await count(q)).toEqual([0, false]);
      await data.pgQuery(`INSERT INTO ${data.pgSchema}.orders VALUES (999999, 'acme-corp', 1, 1, '2025-01-01', $1, 1, 1.00)`, [`probe-${storage}`]);
      try {
        expect(await count(q)).toEqual([0, true]);
        expect(await count({ ...q, cache: "bypass" })).toEqual([1, false]);
        expect(await count(q)).toEqual([1, true]);
      } finally {
        await data.pgQuery(`DELETE FROM ${data.pgSchema}.orders WHERE order_id = 999999`);
      }
    });
  });

  describe.skipIf(!mysqlUp)("on a MySQL / MariaDB data source", () => {
    const slowQuery = { query: { measures: ["slow.count"] } };
    /** Statements of the slow cube running on the server (this look-up aside). */
    const runningSlowQueries = async () => {
      const rows = (await data.mysqlQuery(
        "SELECT count(*) AS n FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND INFO LIKE '%SLEEP(3)%' AND INFO LIKE ?",
        [`%${data.mysqlDatabase}%`],
      )) as { n: number }[];
      return Number(rows[0]!.n);
    };
    async function waitFor(check: () => Promise<boolean>, ms = 2000) {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        if (await check()) return true;
        await sleep(25);
      }
      return check();
    }

    it("answers 503 datasource_unavailable when the server is down", async () => {
      const res = await t.api("POST", `/api/v1/deployments/${mysqlDownId}/query`, { query: { measures: ["sales.count"] } });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: "datasource_unavailable" });
      const values = await t.api("POST", `/api/v1/deployments/${mysqlDownId}/query/values`, { member: "sales.status" });
      expect(values.status).toBe(503);
    });

    it("answers 504 query_timeout past the timeout and kills the query in the server", async () => {
      const started = Date.now();
      const res = await shortApp.request(`/api/v1/deployments/${deploymentIds.mysql}/query`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify(slowQuery),
      });
      expect(res.status).toBe(504);
      expect(await res.json()).toMatchObject({ code: "query_timeout" });
      expect(Date.now() - started).toBeLessThan(2500);
      expect(await waitFor(async () => (await runningSlowQueries()) === 0, 1000)).toBe(true);
    });

    it("kills the server's query when the client goes away", async () => {
      const controller = new AbortController();
      const started = Date.now();
      const pending = Promise.resolve(
        t.app.request(`/api/v1/deployments/${deploymentIds.mysql}/query`, {
          method: "POST",
          headers: { authorization: `Bearer ${t.adminToken}`, "content-type": "application/json" },
          body: JSON.stringify({ ...slowQuery, cache: "bypass" }),
          signal: controller.signal,
        }),
      );
      expect(await waitFor(async () => (await runningSlowQueries()) === 1)).toBe(true);
      controller.abort();
      const res = await pending;
      expect(res.status).toBe(499);
      expect(await waitFor(async () => (await runningSlowQueries()) === 0, 1000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(2900);
    });

    it("answers the same rows as DuckDB for every demo report, for each tenant", async () => {
      for (const r of DEMO_REPORTS) {
        for (const viewer of ["acme-corp", "globex-inc"] as const) {
          const body = { query: r.query, cache: "bypass" };
          const [duck, my] = await Promise.all([query("duckdb", body, tokens.duckdb[viewer]), query("mysql", body, tokens.mysql[viewer])]);
          const expected = (await duck.json()) as { data: Record<string, unknown>[] };
          expect(my.status, `${r.key} for ${viewer}`).toBe(duck.status);
          const got = (await my.json()) as { data: Record<string, unknown>[] };
          expect(expected.data.length, r.key).toBeGreaterThan(0);
          expect(rowSet(got.data), `${r.key} for ${viewer}`).toEqual(rowSet(expected.data));
        }
      }
    });

    it("re-runs a cached query on refresh and sees new rows", async () => {
      const q = { query: { measures: ["sales.count"], filters: [{ member: "sales.status", operator: "equals", values: [`probe-${storage}`] }] } };
      const count = async (body: unknown) => {
        const r = await (await query("mysql", body)).json();
        return [Number(r.data[0]?.["sales.count"] ?? 0), r.fromCache];
      };
      expect(await count(q)).toEqual([0, false]);
      await data.mysqlQuery(`INSERT INTO ${data.mysqlDatabase}.orders VALUES (999999, 'acme-corp', 1, 1, '2025-01-01', ?, 1, 1.00)`, [`probe-${storage}`]);
      try {
        expect(await count(q)).toEqual([0, true]);
        expect(await count({ ...q, cache: "bypass" })).toEqual([1, false]);
        expect(await count(q)).toEqual([1, true]);
      } finally {
        await data.mysqlQuery(`DELETE FROM ${data.mysqlDatabase}.orders WHERE order_id = 999999`);
      }
    });
  });
});
