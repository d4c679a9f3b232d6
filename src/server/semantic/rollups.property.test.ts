import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDuckDbDataSource, createMySqlDataSource, createPostgresDataSource, type DataSource } from "../datasources";
import { DEMO_TABLES_POSTGRES, generateDemoDataset } from "../demo/dataset";
import type { SemanticQuery } from "../../schema/semantic-query";
import { ROLLUP_SCHEMA, rollupRowOrder } from "./compiler/rollup-plan";
import type { DataModel } from "./data-model";
import { createQueryEngine, type QueryEngine } from "./query-engine";
import { buildRollupTable, rollupTableExists, type RollupBuildResult } from "./rollup-build";
import type { SecurityContext } from "./security-context";
import { demoModelWithRollups } from "./test-support/demo-rollups";
import { checkIncrementalBuild } from "./test-support/incremental-rollup";
import { mysqlOptions, mysqlReachable, postgresOptions, postgresReachable, postgresUrl } from "./test-support/shop-fixture";

// For random queries over the demo model, the answer read from rollups equals the answer read
// from the orders: same rows, same values to the cent, for each tenant and for an admin.

const viewers: Record<string, SecurityContext> = {
  acme: { embedTenant: "acme-corp", groups: [], userAttributes: {}, role: "viewer" },
  globex: { embedTenant: "globex-inc", groups: [], userAttributes: {}, role: "viewer" },
  admin: { embedTenant: null, groups: [], userAttributes: {}, role: "admin" },
};

/** A small deterministic generator (mulberry32): the same queries on every run. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const some = <T>(xs: readonly T[], p: number): T[] => xs.filter(() => next() < p);
  return { next, pick, some };
}

const MEASURES = ["count", "revenue", "units", "average_order_value", "completed_count", "completion_rate", "customer_count"] as const;
const DIMENSIONS = ["status", "customers_country", "products_category", "customers_city"] as const;
const GRAINS = ["day", "week", "month", "quarter", "year", "hour"] as const;
const RANGES: [string, string][] = [
  ["2025-01-01", "2025-03-31"],
  ["2024-07-01", "2025-06-30"],
  ["2025-02-10", "2025-02-20"],
  ["2025-01-01T06:00:00", "2025-01-31"],
];

export function randomQueries(seed: number, n: number, measureNames: readonly string[] = MEASURES): SemanticQuery[] {
  const r = random(seed);
  const queries: SemanticQuery[] = [];
  while (queries.length < n) {
    const measures = r.some(measureNames, 0.35).map((m) => `sales.${m}`);
    const dimensions = r.some(DIMENSIONS, 0.3).map((d) => `sales.${d}`);
    const withTime = r.next() < 0.6;
    const timeDimensions = withTime
      ? [{ dimension: "sales.created_at", granularity: r.pick(GRAINS), ...(r.next() < 0.5 ? { dateRange: r.pick(RANGES) } : {}) }]
      : r.next() < 0.3
        ? [{ dimension: "sales.created_at", dateRange: r.pick(RANGES) }]
        : [];
    if (!measures.length && !dimensions.length && !withTime) continue;
    const filters: SemanticQuery["filters"] = [];
    if (r.next() < 0.3) filters.push({ member: "sales.status", operator: r.pick(["equals", "notEquals"] as const), values: ["completed"] });
    if (r.next() < 0.2) filters.push({ member: "sales.products_category", operator: "in", values: ["Books", "Electronics"] });
    if (r.next() < 0.15 && measures.includes("sales.revenue")) filters.push({ member: "sales.revenue", operator: "gt", values: [500] });
    if (r.next() < 0.1) filters.push({ member: "sales.created_at", operator: "afterDate", values: ["2025-03-15"] });
    queries.push({ measures, dimensions, timeDimensions, filters, limit: 50_000 });
  }
  return queries;
}

/** Rows as sorted lines of rounded values: numbers to the cent (numeric strings too), everything else as it is. */
function canonical(rows: Record<string, unknown>[]): string[] {
  const value = (v: unknown) => {
    const n = typeof v === "number" ? v : typeof v === "string" && /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(v) ? Number(v) : undefined;
    return n === undefined ? JSON.stringify(v) : (Math.round(n * 100) / 100).toFixed(2);
  };
  return rows
    .map((row) =>
      Object.keys(row)
        .sort()
        .map((k) => `${k}=${value(row[k])}`)
        .join("|"),
    )
    .sort();
}

interface Rig {
  dataSource: DataSource;
  model: DataModel;
  built: RollupBuildResult[];
  engine: QueryEngine;
}

async function buildRig(dataSource: DataSource, model: DataModel): Promise<Rig> {
  const built: RollupBuildResult[] = [];
  for (const rollup of model.rollups.values()) built.push(await buildRollupTable(dataSource, model, rollup));
  return { dataSource, model, built, engine: createQueryEngine({ model, dataSource, cacheTtlMs: 0, rollups: () => built }) };
}

async function compareAll(rig: Rig, seed: number, measureNames: readonly string[] = MEASURES) {
  let fromRollups = 0;
  const queries = randomQueries(seed, 60, measureNames);
  for (const query of queries) {
    for (const [name, securityContext] of Object.entries(viewers)) {
      const direct = await rig.engine.load(query, { securityContext, useRollups: false });
      const rolled = await rig.engine.load(query, { securityContext });
      expect(direct.annotation.rollup).toBeUndefined();
      if (rolled.annotation.rollup) fromRollups++;
      expect({ name, query, rows: canonical(rolled.data) }).toEqual({ name, query, rows: canonical(direct.data) });
    }
  }
  // Most of the random queries are covered: a matcher that never answers would pass the equality vacuously.
  expect(fromRollups).toBeGreaterThanOrEqual(queries.length / 2);
  return fromRollups;
}

let dir: string;
let duckPath: string;

const DEMO_TABLES = [
  ["products", ["product_id", "name", "category", "price"]],
  ["customers", ["customer_id", "tenant", "name", "country", "city", "latitude", "longitude", "signed_up_at"]],
  ["orders", ["order_id", "tenant", "customer_id", "product_id", "created_at", "status", "quantity", "amount"]],
] as const;

/** The DuckDB file's rows into the same tables in `schema` of another engine. */
async function copyDemoRows(run: (sql: string, params: unknown[]) => Promise<void>, schema: string, param: (n: number) => string) {
  const duck = createDuckDbDataSource({ path: duckPath, readOnly: true });
  try {
    for (const [table, columns] of DEMO_TABLES) {
      const rows = await duck.query(`SELECT ${columns.join(", ")} FROM ${table}`, []);
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500);
        const values = chunk.map((_, r) => `(${columns.map((_c, c) => param(r * columns.length + c + 1)).join(", ")})`);
        // Timestamps as "YYYY-MM-DD HH:MM:SS.sss", which every engine reads.
        const params = chunk.flatMap((row) =>
          columns.map((c) => (typeof row[c] === "string" && /^\d{4}-\d\d-\d\dT/.test(row[c]) ? row[c].replace("T", " ") : row[c])),
        );
        await run(`INSERT INTO ${schema}.${table} (${columns.join(", ")}) VALUES ${values.join(", ")}`, params);
      }
    }
  } finally {
    await duck.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "svc-rollups-"));
  duckPath = path.join(dir, "demo.duckdb");
  await generateDemoDataset({ path: duckPath, rows: 4000 });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("rollups answer as the cubes do (DuckDB)", () => {
  it("gives the same rows for random queries, every tenant", async () => {
    const dataSource = createDuckDbDataSource({ path: duckPath, poolSize: 2 });
    try {
      const rig = await buildRig(dataSource, demoModelWithRollups());
      expect(rig.built[0]!.rowCount).toBeGreaterThan(0);
      await compareAll(rig, 7);
    } finally {
      await dataSource.close();
    }
  }, 120_000);

  it("builds incrementally: the update window aggregated again, the partitions before it kept", async () => {
    const dataSource = createDuckDbDataSource({ path: duckPath, poolSize: 2 });
    try {
      await checkIncrementalBuild(dataSource, demoModelWithRollups(), "orders");
    } finally {
      await dataSource.close();
    }
  });

  it("keeps built rollups across a restart", async () => {
    const model = demoModelWithRollups();
    const again = createDuckDbDataSource({ path: duckPath, readOnly: true });
    try {
      for (const rollup of model.rollups.values()) expect(await rollupTableExists(again, model, rollup)).toBe(true);
    } finally {
      await again.close();
    }
  });
});

describe("rollups on DuckDB keep sums in 64 bits", () => {
  it("stores a sum of decimals as DECIMAL(18, s) and of integers as BIGINT when every value fits, and reads the same totals", async () => {
    const model = demoModelWithRollups();
    const dataSource = createDuckDbDataSource({ path: duckPath });
    try {
      const built = await buildRollupTable(dataSource, model, model.rollups.get("orders_daily")!);
      const [schema, table] = built.table.split(".");
      const types = await dataSource.query(
        `SELECT column_name AS c, data_type AS t FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND column_name LIKE 'm%'`,
        [schema, table],
      );
      expect(Object.fromEntries(types.map((r) => [r.c, r.t]))).toEqual({
        m_count: "BIGINT",
        m_revenue: "DECIMAL(18,2)",
        m_units: "BIGINT",
        m_completed_count: "BIGINT",
      });
      const [rolled] = await dataSource.query(`SELECT sum(m_revenue) AS r, sum(m_units) AS u FROM ${built.table}`, []);
      const [direct] = await dataSource.query(`SELECT sum(amount) AS r, sum(quantity) AS u FROM orders`, []);
      expect(rolled).toEqual(direct);
    } finally {
      await dataSource.close();
    }
  });
});

describe("rollups on DuckDB are written in the order their readers filter on", () => {
  it("orders the built rows by the tenant's columns, then a count-distinct's keys, then the rest", async () => {
    const model = demoModelWithRollups();
    const rollup = model.rollups.get("orders_customers_monthly")!;
    const order = ["d_orders__tenant", "d_customers__tenant", "k_customer_count", "d_customers__country", "t_month"];
    expect(rollupRowOrder(model, rollup)).toEqual(order);
    const dataSource = createDuckDbDataSource({ path: duckPath });
    const statements: string[] = [];
    const recorded: DataSource = { ...dataSource, query: (sql, params, run) => (statements.push(sql), dataSource.query(sql, params, run)) };
    try {
      const built = await buildRollupTable(recorded, model, rollup);
      // Small tables come out of DuckDB's grouping in order anyway; large ones do not (the
      // customers rollup at 50 million orders), so the statement itself is what is checked.
      const create = statements.find((sql) => sql.startsWith("CREATE TABLE"))!;
      expect(create.trimEnd().endsWith(`ORDER BY ${order.map((c) => `"${c}"`).join(", ")}`)).toBe(true);
      const rows = await dataSource.query(`SELECT d_orders__tenant AS t, k_customer_count AS k FROM ${built.table}`, []);
      const key = (r: (typeof rows)[number]) => `${String(r.t)}\u0000${String(r.k).padStart(12, "0")}`;
      expect(new Set(rows.map((r) => r.t)).size).toBe(2);
      expect(rows.map(key)).toEqual(rows.map(key).sort());
    } finally {
      await dataSource.close();
    }
  });
});

describe.runIf(await postgresReachable())("rollups answer as the cubes do (Postgres)", () => {
  const schema = `rollup_demo_${process.pid}_${Math.random().toString(36).slice(2, 7)}`;
  let admin: pg.Client;
  let rig: Rig | undefined;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    for (const [table, columns] of Object.entries(DEMO_TABLES_POSTGRES)) await admin.query(`CREATE TABLE ${schema}.${table} (${columns})`);
    await copyDemoRows(
      (sql, params) => admin.query(sql, params).then(() => {}),
      schema,
      (n) => `$${n}`,
    );
  }, 60_000);

  afterAll(async () => {
    if (rig)
      for (const b of rig.built)
        await admin.query(
          `DROP TABLE IF EXISTS ${b.table
            .split(".")
            .map((p) => `"${p}"`)
            .join(".")}`,
        );
    await rig?.dataSource.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  });

  it("gives the same rows for random queries, every tenant", async () => {
    rig = await buildRig(createPostgresDataSource({ ...postgresOptions(), poolSize: 2 }), demoModelWithRollups(schema));
    expect(rig.built.every((b) => b.table.startsWith(`${ROLLUP_SCHEMA}.`) && b.sizeBytes! > 0)).toBe(true);
    await compareAll(rig, 11);
  }, 120_000);

  it("builds incrementally: the update window aggregated again, the partitions before it kept", async () => {
    await checkIncrementalBuild(rig!.dataSource, rig!.model, `${schema}.orders`);
  });
});

describe.runIf(await mysqlReachable())("rollups answer as the cubes do (MySQL / MariaDB)", () => {
  const schema = `rollup_demo_${process.pid}_${Math.random().toString(36).slice(2, 7)}`;
  let setup: DataSource;
  let rig: Rig | undefined;

  beforeAll(async () => {
    setup = createMySqlDataSource({ ...mysqlOptions(), poolSize: 1 });
    await setup.query(`CREATE DATABASE ${schema}`, []);
    await setup.query(`CREATE TABLE ${schema}.products (product_id BIGINT PRIMARY KEY, name TEXT, category TEXT, price DECIMAL(12,2))`, []);
    await setup.query(
      `CREATE TABLE ${schema}.customers (customer_id BIGINT PRIMARY KEY, tenant VARCHAR(32), name TEXT, country VARCHAR(8), city TEXT, latitude DOUBLE, longitude DOUBLE, signed_up_at DATETIME(6))`,
      [],
    );
    await setup.query(
      `CREATE TABLE ${schema}.orders (order_id BIGINT PRIMARY KEY, tenant VARCHAR(32), customer_id BIGINT, product_id BIGINT, created_at DATETIME(6), status VARCHAR(16), quantity INT, amount DECIMAL(12,2))`,
      [],
    );
    await copyDemoRows(
      (sql, params) => setup.query(sql, params).then(() => {}),
      schema,
      () => "?",
    );
  }, 60_000);

  afterAll(async () => {
    if (rig)
      for (const b of rig.built)
        await setup.query(
          `DROP TABLE IF EXISTS ${b.table
            .split(".")
            .map((p) => `\`${p}\``)
            .join(".")}`,
          [],
        );
    await rig?.dataSource.close();
    await setup.query(`DROP DATABASE ${schema}`, []);
    await setup.close();
  });

  it("gives the same rows for random queries, every tenant", async () => {
    rig = await buildRig(createMySqlDataSource({ ...mysqlOptions(), poolSize: 2 }), demoModelWithRollups(schema));
    expect(rig.built.every((b) => b.table.startsWith(`${ROLLUP_SCHEMA}.`) && b.rowCount > 0)).toBe(true);
    // The demo's completion rate (CAST … AS DOUBLE PRECISION in the model) is read as MySQL's CAST … AS DOUBLE.
    await compareAll(rig, 13);
  }, 120_000);

  it("builds incrementally: the update window aggregated again, the partitions before it kept", async () => {
    await checkIncrementalBuild(rig!.dataSource, rig!.model, `${schema}.orders`);
  });
});
