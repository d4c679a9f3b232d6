/**
 * The demo data set on a Postgres server, for benches that compare engines: the rows of a
 * generated DuckDB file (src/server/demo/dataset.ts) copied once into database
 * `svc_bench_shop_<rows>` on the server (the same tables and columns, orders indexed by tenant and
 * time as a Postgres deployment would index them), kept for the next run. The copy goes through
 * CSV files the server reads itself (`COPY … FROM '<file>'`, which needs a superuser, as the
 * local server's `postgres` is): ten million orders load in about a minute.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { PostgresDataSourceOptions } from "../src/server/datasources";
import { DEMO_TABLES_POSTGRES } from "../src/server/demo/dataset";

const TABLES: Readonly<Record<string, string>> = DEMO_TABLES_POSTGRES;

const columnsOf = (table: string) => TABLES[table]!.split(", ").map((c) => c.split(" ")[0]!);

/** Connection options of the database holding `rows` orders from `duckFile` on the server at `serverUrl`; copied on first use. */
export async function postgresShop(duckFile: string, rows: number, serverUrl: string, say: (line: string) => void): Promise<PostgresDataSourceOptions> {
  const server = new URL(serverUrl);
  const database = `svc_bench_shop_${rows}`;
  const at = (db: string) => {
    const url = new URL(server);
    url.pathname = `/${db}`;
    return url.toString();
  };
  const admin = new pg.Client({ connectionString: at("postgres") });
  await admin.connect();
  try {
    const exists = (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [database])).rowCount === 1;
    if (!exists) await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  const client = new pg.Client({ connectionString: at(database) });
  await client.connect();
  try {
    const loaded = await client
      .query<{ rows: string }>("SELECT rows FROM bench_meta")
      .then((r) => Number(r.rows[0]?.rows) === rows)
      .catch(() => false);
    if (!loaded) await copyRows(client, duckFile, rows, say);
  } finally {
    await client.end();
  }
  return {
    host: server.hostname,
    port: Number(server.port || 5432),
    database,
    user: decodeURIComponent(server.username) || "postgres",
    password: server.password ? decodeURIComponent(server.password) : undefined,
  };
}

async function copyRows(client: pg.Client, duckFile: string, rows: number, say: (line: string) => void): Promise<void> {
  const started = performance.now();
  const dir = mkdtempSync(path.join(tmpdir(), "svc-bench-shop-"));
  // The server's own process reads the files.
  chmodSync(dir, 0o755);
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const duck = await DuckDBInstance.create(duckFile, { access_mode: "READ_ONLY" });
  const conn = await duck.connect();
  try {
    await client.query("DROP TABLE IF EXISTS bench_meta, orders, customers, products");
    for (const table of Object.keys(TABLES)) {
      const file = path.join(dir, `${table}.csv`);
      const columns = columnsOf(table);
      await conn.run(`COPY (SELECT ${columns.join(", ")} FROM ${table}) TO '${file}' (HEADER, DELIMITER ',')`);
      chmodSync(file, 0o644);
      await client.query(`CREATE TABLE ${table} (${TABLES[table]})`);
      await client.query(`COPY ${table} (${columns.join(", ")}) FROM '${file}' WITH (FORMAT csv, HEADER true)`);
    }
    await client.query("CREATE INDEX orders_tenant_created ON orders (tenant, created_at)");
    await client.query("ANALYZE");
    await client.query("CREATE TABLE bench_meta (rows bigint)");
    await client.query("INSERT INTO bench_meta VALUES ($1)", [rows]);
  } finally {
    conn.closeSync();
    duck.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
  say(`copied ${rows.toLocaleString("en-US")} orders into Postgres in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
