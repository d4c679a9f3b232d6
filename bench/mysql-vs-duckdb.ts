/**
 * The demo dashboard's reports on MySQL / MariaDB against DuckDB, on the same rows.
 *   npx tsx bench/mysql-vs-duckdb.ts [--rows 200000] [--runs 9] [--server mysql://root@127.0.0.1:3306] [--json]
 * Generates the demo data set (DuckDB file), copies its rows once into database
 * `svc_bench_mysql_<rows>` on the server (indexed as a MySQL deployment would be: orders by
 * tenant and time), then runs every report of DEMO_REPORTS (with its fill and period
 * comparisons) through the query engine on each data source as one tenant's viewer, cache
 * bypassed, and prints each one's p50 and the ratio of the sums. Without the server answering,
 * it says so and exits 0 with no figures.
 */
import { DuckDBInstance } from "@duckdb/node-api";
import mysql from "mysql2/promise";
import { mkdirSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDuckDbDataSource } from "../src/server/datasources/duckdb-data-source";
import { createMySqlDataSource } from "../src/server/datasources/mysql-data-source";
import { generateDemoDataset } from "../src/server/demo/dataset";
import { DEMO_REPORTS } from "../src/server/demo/demo-workbook";
import { loadDataModel } from "../src/server/semantic/data-model";
import { createQueryEngine, type QueryEngine } from "../src/server/semantic/query-engine";
import type { SecurityContext } from "../src/server/semantic/security-context";
import { figure, printFigures, say, type Figure } from "./figures";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const rows = Number(arg("rows", "200000"));
const runs = Number(arg("runs", "9"));
const server = new URL(arg("server", "mysql://root@127.0.0.1:3306"));
const path = `.data/bench-demo-${rows}.duckdb`;
const database = `svc_bench_mysql_${rows}`;
const here = dirname(fileURLToPath(import.meta.url));
const modelDir = join(here, "../src/server/demo/data-model");
const viewer: SecurityContext = { embedTenant: "acme-corp", groups: [], userAttributes: {}, role: "viewer" };

const TABLES: Record<string, string> = {
  products: "product_id INT PRIMARY KEY, name TEXT, category TEXT, price DOUBLE",
  customers:
    "customer_id BIGINT PRIMARY KEY, tenant VARCHAR(64), name TEXT, country TEXT, city TEXT, latitude DOUBLE, longitude DOUBLE, signed_up_at DATETIME(6)",
  orders:
    "order_id BIGINT PRIMARY KEY, tenant VARCHAR(64), customer_id BIGINT, product_id INT, created_at DATETIME(6), status VARCHAR(32), quantity INT, amount DECIMAL(12,2)",
};

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Copies the DuckDB file's rows into the MySQL database, unless it already holds them all. */
async function copyRows(conn: mysql.Connection) {
  await conn.query(`CREATE DATABASE IF NOT EXISTS ${database}`);
  const [existing] = await conn.query<mysql.RowDataPacket[]>(
    "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'orders'",
    [database],
  );
  if (existing.length) {
    const [counted] = await conn.query<mysql.RowDataPacket[]>(`SELECT count(*) AS n FROM ${database}.orders`);
    if (Number(counted[0]?.n) === rows) return say(`reused ${rows.toLocaleString("en-US")} orders in ${database}`);
  }
  const instance = await DuckDBInstance.create(path, { access_mode: "READ_ONLY" });
  const duck = await instance.connect();
  for (const [table, columns] of Object.entries(TABLES)) {
    await conn.query(`DROP TABLE IF EXISTS ${database}.${table}`);
    await conn.query(`CREATE TABLE ${database}.${table} (${columns}${table === "orders" ? ", INDEX (tenant, created_at)" : ""})`);
    const names = columns.split(", ").map((c) => c.split(" ")[0]!);
    const select = names.map((n) => (/_at$/.test(n) ? `strftime(${n}, '%Y-%m-%d %H:%M:%S.%f') AS ${n}` : n)).join(", ");
    const all = (await duck.runAndReadAll(`SELECT ${select} FROM ${table}`)).getRowsJS();
    for (let i = 0; i < all.length; i += 5000) {
      const chunk = all.slice(i, i + 5000).map((r) => r.map((v) => (typeof v === "bigint" ? Number(v) : v)));
      await conn.query(`INSERT INTO ${database}.${table} (${names.join(", ")}) VALUES ?`, [chunk]);
    }
  }
  duck.closeSync();
  instance.closeSync();
  say(`copied ${rows.toLocaleString("en-US")} orders into ${database}`);
}

async function reportMs(engine: QueryEngine, report: (typeof DEMO_REPORTS)[number]): Promise<number> {
  const options = {
    securityContext: viewer,
    bypassCache: true,
    fillMissingRows: report.fillMissingRows ?? null,
    periodComparisons: report.periodComparisons ?? null,
  };
  for (let i = 0; i < 2; i++) await engine.load(report.query, options);
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await engine.load(report.query, options);
    xs.push(performance.now() - t);
  }
  return p50(xs);
}

async function main() {
  const connection = {
    host: server.hostname,
    port: Number(server.port || 3306),
    user: decodeURIComponent(server.username),
    password: server.password || undefined,
  };
  let admin: mysql.Connection;
  try {
    admin = await mysql.createConnection({ ...connection, connectTimeout: 3000 });
  } catch (e) {
    say(`skipped: no MySQL / MariaDB server at ${server.host} (${(e as Error).message})`);
    printFigures("mysql-vs-duckdb", []);
    return;
  }
  mkdirSync(".data", { recursive: true });
  const gen = await generateDemoDataset({ path, rows });
  say(`${gen.created ? "generated" : "reused"} ${rows.toLocaleString("en-US")} orders in ${path}`);
  await copyRows(admin);
  await admin.end();

  const files = readdirSync(modelDir)
    .filter((f) => f.endsWith(".yml"))
    .map((f) => ({ path: f, content: readFileSync(join(modelDir, f), "utf8") }));
  const duckDataSource = createDuckDbDataSource({ path, readOnly: true, poolSize: 1 });
  const mysqlDataSource = createMySqlDataSource({ ...connection, database, poolSize: 1 });
  const duckEngine = createQueryEngine({ model: loadDataModel(files), dataSource: duckDataSource });
  // The same model in MySQL's words (its CAST has DOUBLE, not DOUBLE PRECISION), on the copied database.
  const mysqlFiles = files.map((f) => ({
    path: f.path,
    content: f.content.replace(/sql_table: (\w+)/g, `sql_table: ${database}.$1`).replace(/DOUBLE PRECISION/g, "DOUBLE"),
  }));
  const mysqlEngine = createQueryEngine({ model: loadDataModel(mysqlFiles), dataSource: mysqlDataSource });
  const [version] = await mysqlDataSource.query("SELECT VERSION() AS v", []);

  const figures: Figure[] = [];
  say(`\ndemo reports as acme-corp's viewer, ${rows.toLocaleString("en-US")} orders, p50 of ${runs} runs (ms), ${version?.v}`);
  say(["report", "MySQL", "DuckDB", "ratio"].join("\t"));
  let mysqlTotal = 0;
  let duckTotal = 0;
  for (const report of DEMO_REPORTS) {
    const m = await reportMs(mysqlEngine, report);
    const d = await reportMs(duckEngine, report);
    mysqlTotal += m;
    duckTotal += d;
    say([report.key, m.toFixed(1), d.toFixed(1), (m / d).toFixed(2)].join("\t"));
    figures.push(figure(`MySQL vs DuckDB: ${report.key}`, m, "ms", { baseline: d }));
  }
  say(["all reports", mysqlTotal.toFixed(1), duckTotal.toFixed(1), (mysqlTotal / duckTotal).toFixed(2)].join("\t"));
  figures.push(figure("MySQL vs DuckDB: the demo dashboard's reports, summed p50", mysqlTotal, "ms", { baseline: duckTotal }));
  printFigures("mysql-vs-duckdb", figures);
  await duckDataSource.close();
  await mysqlDataSource.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
