import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import mysql from "mysql2/promise";
import pg from "pg";
import { generateDemoDataset } from "../../demo/dataset";
import { demoModelFiles } from "../../demo/seed";
import { mysqlOptions, postgresOptions, postgresUrl } from "../../semantic/test-support/shop-fixture";

/** What the data holds per tenant, read straight from the database (the ground truth for RLS). */
export interface TenantFacts {
  orders: number;
  revenue: number;
  ordersQ2of2025: number;
  ordersQ2of2024: number;
  /** Cities of the tenant's customers, sorted. */
  cities: string[];
}

/**
 * The demo data set, small and deterministic, for API tests: a DuckDB file and the same rows
 * copied into a scratch schema on the Postgres server and a scratch database on the MySQL /
 * MariaDB server, with the demo model for each.
 */
export interface QueryTestData {
  duckdbPath: string;
  facts: Record<"acme-corp" | "globex-inc", TenantFacts>;
  /** Scratch schema on the Postgres server (null when only DuckDB was prepared). */
  pgSchema: string | null;
  /** The demo model with tables qualified by the scratch schema, plus a `slow` cube (3 s per query). */
  pgModelFiles: { path: string; content: string }[];
  pgConnection: { host: string; port: number; database: string; user: string; password?: string };
  /** Runs SQL on the Postgres server of the data (outside the platform). */
  pgQuery(sql: string, params?: unknown[]): Promise<pg.QueryResult>;
  /** Scratch database on the MySQL / MariaDB server (null when not prepared). */
  mysqlDatabase: string | null;
  /** The demo model on that database (its SQL in MySQL's words), plus a `slow` cube (3 s per query). */
  mysqlModelFiles: { path: string; content: string }[];
  mysqlConnection: { host: string; port: number; database: string; user: string; password?: string };
  /** Runs SQL on the MySQL server of the data (outside the platform). */
  mysqlQuery(sql: string, params?: unknown[]): Promise<unknown>;
  cleanup(): Promise<void>;
}

const tenants = ["acme-corp", "globex-inc"] as const;

export async function prepareQueryTestData(opts: { rows: number; postgres: boolean; mysql?: boolean }): Promise<QueryTestData> {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-query-api-"));
  const duckdbPath = path.join(dir, "shop.duckdb");
  await generateDemoDataset({ path: duckdbPath, rows: opts.rows });

  const instance = await DuckDBInstance.create(duckdbPath, { access_mode: "READ_ONLY" });
  const conn = await instance.connect();
  const rowsOf = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
  const facts = {} as QueryTestData["facts"];
  for (const tenant of tenants) {
    const [o] = await rowsOf(`
      SELECT count(*) AS n, sum(amount)::DOUBLE AS revenue,
             count(*) FILTER (WHERE created_at >= '2025-04-01' AND created_at < '2025-07-01') AS q2_2025,
             count(*) FILTER (WHERE created_at >= '2024-04-01' AND created_at < '2024-07-01') AS q2_2024
      FROM orders WHERE tenant = '${tenant}'`);
    const cities = await rowsOf(`SELECT DISTINCT city FROM customers WHERE tenant = '${tenant}' ORDER BY city`);
    facts[tenant] = {
      orders: Number(o!.n),
      revenue: Number(o!.revenue),
      ordersQ2of2025: Number(o!.q2_2025),
      ordersQ2of2024: Number(o!.q2_2024),
      cities: cities.map((r) => String(r.city)),
    };
  }
  const tableJson: Record<string, string> = {};
  for (const table of ["orders", "customers", "products"]) {
    const [r] = await rowsOf(`SELECT CAST(to_json(list(t)) AS VARCHAR) AS j FROM ${table} t`);
    tableJson[table] = String(r!.j);
  }
  conn.closeSync();
  instance.closeSync();

  const pgConnection = postgresOptions();
  const schema = `qapi_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 2 });
  pool.on("error", () => {});
  const pgQuery = (sql: string, params: unknown[] = []) => pool.query(sql, params);

  let pgModelFiles: QueryTestData["pgModelFiles"] = [];
  if (opts.postgres) {
    await pgQuery(`CREATE SCHEMA ${schema}`);
    await pgQuery(
      `CREATE TABLE ${schema}.orders (order_id bigint PRIMARY KEY, tenant text, customer_id bigint, product_id int, created_at timestamp, status text, quantity int, amount numeric(12,2))`,
    );
    await pgQuery(
      `CREATE TABLE ${schema}.customers (customer_id bigint PRIMARY KEY, tenant text, name text, country text, city text, latitude double precision, longitude double precision, signed_up_at timestamp)`,
    );
    await pgQuery(`CREATE TABLE ${schema}.products (product_id int PRIMARY KEY, name text, category text, price double precision)`);
    const columns: Record<string, string> = {
      orders: "order_id bigint, tenant text, customer_id bigint, product_id int, created_at timestamp, status text, quantity int, amount numeric(12,2)",
      customers:
        "customer_id bigint, tenant text, name text, country text, city text, latitude double precision, longitude double precision, signed_up_at timestamp",
      products: "product_id int, name text, category text, price double precision",
    };
    for (const table of ["products", "customers", "orders"]) {
      const names = columns[table]!.split(", ")
        .map((c) => c.split(" ")[0])
        .join(", ");
      await pgQuery(`INSERT INTO ${schema}.${table} (${names}) SELECT ${names} FROM jsonb_to_recordset($1::jsonb) AS x(${columns[table]})`, [tableJson[table]]);
    }
    pgModelFiles = [
      ...demoModelFiles().map((f) => ({ path: f.path, content: f.content.replace(/sql_table: (\w+)/g, `sql_table: ${schema}.$1`) })),
      {
        path: "slow.yml",
        content: [
          "cubes:",
          "  - name: slow",
          `    sql: "SELECT pg_sleep(3) AS x, '${schema}' AS tag"`,
          "    dimensions:",
          "      - { name: tag, sql: tag, type: string }",
          "    measures:",
          "      - { name: count, type: count }",
          "",
        ].join("\n"),
      },
    ];
  }

  const mysqlDatabase = opts.mysql ? `svc_test_mysql_qapi_${process.pid}_${Math.random().toString(36).slice(2, 8)}` : null;
  const myPool = opts.mysql ? mysql.createPool({ ...mysqlOptions(), database: undefined, connectionLimit: 2 }) : null;
  const mysqlQuery = async (sql: string, params: unknown[] = []) => (await myPool!.query(sql, params))[0];
  let mysqlModelFiles: QueryTestData["mysqlModelFiles"] = [];
  if (mysqlDatabase) {
    await mysqlQuery(`CREATE DATABASE ${mysqlDatabase}`);
    const columns: Record<string, string> = {
      orders:
        "order_id BIGINT PRIMARY KEY, tenant VARCHAR(64), customer_id BIGINT, product_id INT, created_at DATETIME(6), status VARCHAR(32), quantity INT, amount DECIMAL(12,2)",
      customers:
        "customer_id BIGINT PRIMARY KEY, tenant VARCHAR(64), name TEXT, country TEXT, city TEXT, latitude DOUBLE, longitude DOUBLE, signed_up_at DATETIME(6)",
      products: "product_id INT PRIMARY KEY, name TEXT, category TEXT, price DOUBLE",
    };
    for (const table of ["products", "customers", "orders"]) {
      await mysqlQuery(`CREATE TABLE ${mysqlDatabase}.${table} (${columns[table]})`);
      const names = columns[table]!.split(", ").map((c) => c.split(" ")[0]!);
      const rows = (JSON.parse(tableJson[table]!) as Record<string, unknown>[]).map((r) => names.map((n) => r[n] ?? null));
      for (let i = 0; i < rows.length; i += 2000)
        await mysqlQuery(`INSERT INTO ${mysqlDatabase}.${table} (${names.join(", ")}) VALUES ?`, [rows.slice(i, i + 2000)]);
    }
    mysqlModelFiles = [
      // The same model in MySQL's words: its CAST has DOUBLE, not DOUBLE PRECISION.
      ...demoModelFiles().map((f) => ({
        path: f.path,
        content: f.content.replace(/sql_table: (\w+)/g, `sql_table: ${mysqlDatabase}.$1`).replace(/DOUBLE PRECISION/g, "DOUBLE"),
      })),
      {
        path: "slow.yml",
        content: [
          "cubes:",
          "  - name: slow",
          `    sql: "SELECT SLEEP(3) AS x, '${mysqlDatabase}' AS tag"`,
          "    dimensions:",
          "      - { name: tag, sql: tag, type: string }",
          "    measures:",
          "      - { name: count, type: count }",
          "",
        ].join("\n"),
      },
    ];
  }

  return {
    duckdbPath,
    facts,
    pgSchema: opts.postgres ? schema : null,
    pgModelFiles,
    pgConnection,
    pgQuery,
    mysqlDatabase,
    mysqlModelFiles,
    mysqlConnection: { ...mysqlOptions(), database: mysqlDatabase ?? mysqlOptions().database },
    mysqlQuery,
    async cleanup() {
      if (opts.postgres) await pgQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      if (mysqlDatabase) await mysqlQuery(`DROP DATABASE IF EXISTS ${mysqlDatabase}`).catch(() => {});
      await myPool?.end();
      await pool.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
