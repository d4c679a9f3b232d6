import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filterOperators, granularities } from "../../../schema/semantic-query";
import { mysqlReachable, postgresReachable } from "../../semantic/test-support/shop-fixture";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";
import { prepareQueryTestData, type QueryTestData } from "./query-test-data";

/**
 * The query API with real members and hostile values (docs/decisions.md "Hostile input"):
 * the OpenAPI fuzzer knows member names but not which values an engine refuses; this walks
 * the demo model's members with every operator, granularity and date range, and values at the
 * edges of what DuckDB, Postgres and MySQL hold. Never a 5xx, every 4xx with the error body.
 */
const pgUp = await postgresReachable();
const mysqlUp = await mysqlReachable();
type Backend = "duckdb" | "postgres" | "mysql";
const backends: Backend[] = ["duckdb", ...(pgUp ? ["postgres" as const] : []), ...(mysqlUp ? ["mysql" as const] : [])];

const DIMENSIONS = [
  "sales.order_id",
  "sales.status",
  "sales.created_at",
  "sales.quantity",
  "sales.amount",
  "customers.country",
  "customers.city",
  "products.price",
];
const MEASURES = ["sales.count", "sales.revenue", "sales.average_order_value", "sales.completion_rate", "sales.customer_count"];
const TIME = "sales.created_at";

const hostileValue = fc.constantFrom<unknown>(
  0,
  -0,
  1.5,
  -1,
  2_147_483_648,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  -1e308,
  5e-324,
  "9223372036854775807",
  "9223372036854775808",
  "-9223372036854775809",
  "1e400",
  "NaN",
  "Infinity",
  "",
  " ",
  "%_\\",
  "' OR 1=1 --",
  "0000-01-01",
  "0099-12-31",
  "0999-12-31",
  "1000-01-01",
  "1970-01-01T00:00:00Z",
  "2024-02-29",
  "2024-02-30",
  "2024-03-31T02:30",
  "2024-06-01T10:00:00+14:00",
  "9998-12-31",
  "9999-12-31",
  "9999-12-31T23:59:59.999999Z",
  "10000-01-01",
  true,
  null,
);

const relativeRange = fc.constantFrom("today", "last 7 days", "next 9999 years", "last 9999 years", "last 0 days", "this century", "next 1000 years");
const absoluteRange = fc.tuple(hostileValue, hostileValue).map(([a, b]) => [String(a), String(b)]);

const filter = fc.record({
  member: fc.constantFrom(...DIMENSIONS, ...MEASURES),
  operator: fc.constantFrom<string>(...filterOperators),
  // Mostly one value, which most operators take, so that filters reach the engines.
  values: fc.oneof({ weight: 4, arbitrary: fc.tuple(hostileValue) }, { weight: 1, arbitrary: fc.array(hostileValue, { maxLength: 3 }) }),
});

const queryBody = fc.record(
  {
    measures: fc.subarray(MEASURES, { maxLength: 2 }),
    dimensions: fc.subarray(
      DIMENSIONS.filter((d) => d !== TIME),
      { maxLength: 2 },
    ),
    filters: fc.array(filter, { minLength: 1, maxLength: 3 }),
    timeDimensions: fc.array(
      fc.record(
        { dimension: fc.constant(TIME), granularity: fc.constantFrom(...granularities), dateRange: fc.oneof(relativeRange, absoluteRange) },
        { requiredKeys: ["dimension"] },
      ),
      { maxLength: 1 },
    ),
    timezone: fc.constantFrom("UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kathmandu"),
    limit: fc.constantFrom(1, 100, 50_000),
  },
  { requiredKeys: ["measures"] },
);

// compare, calculations and groupLimit: names of columns that exist, that exist only with compare, and that do not.
const COLUMNS = [
  "sales.status",
  "sales.products_category",
  "sales.created_at.month",
  "sales.created_at.dayOfWeek",
  "sales.count",
  "sales.revenue",
  "sales.revenue.change",
  "sales.count.current",
  "sales.revenue.rank",
  "nope",
  "",
];
/**
 * A query with compare, calculations and a group limit: its columns mostly taken from the query's
 * own (so that many reach the engines), sometimes from anywhere, with hostile values here and there.
 */
const analysisBody = fc
  .record({
    measures: fc.subarray(["sales.count", "sales.revenue", "sales.average_order_value"], { minLength: 1, maxLength: 2 }),
    dimensions: fc.subarray(["sales.status", "sales.products_category", TIME], { maxLength: 2 }),
    part: fc.option(fc.constantFrom("dayOfWeek", "monthOfYear", "granularity"), { nil: undefined }),
    compared: fc.boolean(),
  })
  .chain(({ measures, dimensions, part, compared }) => {
    const keys = [...dimensions, ...(part === undefined ? [] : part === "granularity" ? [`${TIME}.month`] : [`${TIME}.${part}`])];
    const measureColumns = compared ? measures.flatMap((m) => ["baseline", "current", "change", "relativeChange"].map((o) => `${m}.${o}`)) : measures;
    const own = <T>(list: T[]) =>
      list.length
        ? fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...list) }, { weight: 1, arbitrary: fc.constantFrom(...COLUMNS) })
        : fc.constantFrom(...COLUMNS);
    const range = (valid: [string, string]) =>
      fc.oneof({ weight: 4, arbitrary: fc.constant(valid) }, { weight: 1, arbitrary: relativeRange }, { weight: 1, arbitrary: absoluteRange });
    return fc.record(
      {
        measures: fc.constant(measures),
        dimensions: fc.constant(dimensions),
        timeDimensions: fc.constant(part === undefined ? [] : [part === "granularity" ? { dimension: TIME, granularity: "month" } : { dimension: TIME, part }]),
        ...(compared
          ? {
              compare: fc.record({
                dimension: fc.constantFrom(TIME, TIME, TIME, "sales.status"),
                baseline: range(["2024-04-01", "2024-06-30"]),
                current: range(["2025-04-01", "2025-06-30"]),
              }),
            }
          : {}),
        calculations: fc.array(
          fc.record(
            {
              type: fc.constantFrom("percentOfTotal", "percentOfTotal", "runningTotal", "rank", "rank", "median"),
              measure: own(measureColumns),
              within: fc.array(own(keys), { maxLength: 1 }),
              along: own(keys),
              direction: fc.constantFrom("asc", "desc", "up"),
              name: fc.constantFrom("sales.count", "a.b.c.d.e", "x; DROP TABLE orders"),
            },
            { requiredKeys: ["type", "measure"] },
          ),
          { maxLength: 2 },
        ),
        groupLimit: fc.record(
          {
            within: fc.array(own(keys), { minLength: 1, maxLength: 1 }),
            limit: fc.constantFrom(1, 1, 3, 0, 50_001, 1.5),
            order: fc.array(fc.tuple(own(measureColumns), fc.constantFrom("asc", "desc", "desc", "sideways")), { maxLength: 1 }),
          },
          { requiredKeys: ["within", "limit"] },
        ),
        filters: fc.array(
          fc.record({
            member: fc.constantFrom("sales.amount", "sales.quantity", "sales.revenue", "sales.status"),
            operator: fc.constantFrom("between", "notBetween", "gte"),
            values: fc.oneof(
              { weight: 4, arbitrary: fc.tuple(fc.constantFrom(1, 10, "5"), fc.constantFrom(100, 1000)) },
              { weight: 1, arbitrary: fc.array(hostileValue, { maxLength: 3 }) },
            ),
          }),
          { maxLength: 1 },
        ),
        limit: fc.constantFrom(1, 100),
      },
      { requiredKeys: ["measures", "dimensions", "timeDimensions"] },
    );
  });

let data: QueryTestData;
beforeAll(async () => {
  data = await prepareQueryTestData({ rows: 300, postgres: pgUp, mysql: mysqlUp });
}, 60_000);
afterAll(() => data?.cleanup());

describe("query values at the engines' edges (pglite storage)", () => {
  let t: TestPlatform;
  const ids = {} as Record<Backend, number>;

  beforeAll(async () => {
    t = await createTestPlatform({ storage: "pglite" });
    const create = async (body: Record<string, unknown>) => {
      const res = await t.api("POST", "/build/api/v1/deployments/", body);
      expect(res.status, await res.clone().text()).toBe(201);
      return ((await res.json()) as { id: number }).id;
    };
    ids.duckdb = await create({
      name: "values on duckdb",
      dataSource: { type: "duckdb", path: data.duckdbPath },
      dataModelFiles: (await import("../../demo/seed")).demoModelFiles(),
    });
    if (pgUp) {
      const { host, port, database, user, password } = data.pgConnection;
      ids.postgres = await create({
        name: "values on postgres",
        dataSource: { type: "postgres", host, port, database, user, ...(password ? { password } : {}) },
        dataModelFiles: data.pgModelFiles,
      });
    }
    if (mysqlUp) {
      const { host, port, database, user, password } = data.mysqlConnection;
      ids.mysql = await create({
        name: "values on mysql",
        dataSource: { type: "mysql", host, port, database, user, ...(password ? { password } : {}) },
        dataModelFiles: data.mysqlModelFiles,
      });
    }
  }, 60_000);
  afterAll(() => t?.close());

  it.each(backends)(
    "never answers 5xx on %s, and every refusal names its problem",
    async (backend) => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(queryBody, async (query) => {
          const res = await t.api("POST", `/api/v1/deployments/${ids[backend]}/query`, { query, cache: "bypass" });
          const body = (await res.json()) as { code?: string; message?: string; details?: unknown };
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          expect(res.status, `${JSON.stringify(query)} → ${JSON.stringify(body)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(body.code).toEqual(expect.any(String));
            expect(body.message).toEqual(expect.any(String));
            if (body.code === "validation_failed") expect(body.details).toEqual(expect.any(Array));
          }
        }),
        { seed: 20261123, numRuns: 200 },
      );
      // The generator reaches past validation into the engines, not only into refusals.
      expect(statuses.get(200) ?? 0).toBeGreaterThan(10);
      expect(statuses.get(400) ?? 0).toBeGreaterThan(10);
    },
    120_000,
  );

  it.each(backends)(
    "never answers 5xx on %s for compare, calculations, groupLimit and between, and every refusal names its path",
    async (backend) => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(analysisBody, async (query) => {
          const res = await t.api("POST", `/api/v1/deployments/${ids[backend]}/query`, { query, cache: "bypass" });
          const body = (await res.json()) as { code?: string; details?: { path?: unknown[] }[] };
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          expect(res.status, `${JSON.stringify(query)} → ${JSON.stringify(body)}`).toBeLessThan(500);
          if (res.status === 400) {
            expect(body.code).toBe("validation_failed");
            for (const d of body.details ?? []) expect(d.path).toEqual(expect.arrayContaining(["query"]));
          }
        }),
        { seed: 20261128, numRuns: 150 },
      );
      expect(statuses.get(200) ?? 0).toBeGreaterThan(5);
      expect(statuses.get(400) ?? 0).toBeGreaterThan(10);
    },
    120_000,
  );
});
