/**
 * Overhead of the semantic layer over running the same SQL straight on DuckDB.
 *   npx tsx bench/query-overhead.ts --rows 1000000 [--runs 15] [--path .data/bench-demo.duckdb] [--json]
 * Prints, per demo query, the p50 through the engine (cache bypassed), the p50 of the
 * compiled SQL run directly with @duckdb/node-api in-process, their ratio, and the cached p50.
 * Then, per demo report (DEMO_REPORTS, with its fillMissingRows / periodComparisons), the p50
 * of the compiled SQL in UTC and in Europe/Berlin against hand-written minimal SQL for the
 * same result in UTC (plain date_trunc on the raw column), and their ratios.
 */
import { DuckDBInstance, type DuckDBValue } from "@duckdb/node-api";
import { mkdirSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDuckDbDataSource } from "../src/server/datasources/duckdb-data-source";
import { generateDemoDataset } from "../src/server/demo/dataset";
import { DEMO_REPORTS } from "../src/server/demo/demo-workbook";
import { loadDataModel } from "../src/server/semantic/data-model";
import { createQueryEngine } from "../src/server/semantic/query-engine";
import type { SemanticQuery } from "../src/schema/semantic-query";
import type { SecurityContext } from "../src/server/semantic/security-context";
import { figure, printFigures, say, type Figure } from "./figures";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const rows = Number(arg("rows", "1000000"));
const runs = Number(arg("runs", "15"));
const path = arg("path", `.data/bench-demo-${rows}.duckdb`);
const here = dirname(fileURLToPath(import.meta.url));
const modelDir = join(here, "../src/server/demo/data-model");

const viewer: SecurityContext = { embedTenant: "acme-corp", groups: [], userAttributes: {}, role: "viewer" };
const queries: Record<string, SemanticQuery> = {
  "kpi totals": { measures: ["sales.revenue", "sales.count", "sales.average_order_value", "sales.customer_count"] },
  "revenue by month": {
    measures: ["sales.revenue"],
    timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2024-07-01", "2025-06-30"] }],
    timezone: "Europe/Berlin",
  },
  "revenue by category and status": { measures: ["sales.revenue", "sales.count"], dimensions: ["sales.products_category", "sales.status"] },
  "map by city": { measures: ["sales.revenue"], dimensions: ["sales.customers_city", "sales.customers_latitude", "sales.customers_longitude"] },
  "filtered top customers": {
    measures: ["sales.revenue"],
    dimensions: ["sales.customers_name"],
    filters: [
      { member: "sales.customers_country", operator: "in", values: ["US", "DE", "FR"] },
      { member: "sales.status", operator: "notEquals", values: ["cancelled"] },
    ],
    order: { "sales.revenue": "desc" },
    limit: 20,
  },
};

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function main() {
  mkdirSync(dirname(path), { recursive: true });
  const gen = await generateDemoDataset({ path, rows });
  say(`${gen.created ? "generated" : "reused"} ${rows.toLocaleString("en-US")} orders in ${path}`);

  const model = loadDataModel(
    readdirSync(modelDir)
      .filter((f) => f.endsWith(".yml"))
      .map((f) => ({ path: f, content: readFileSync(join(modelDir, f), "utf8") })),
  );
  const dataSource = createDuckDbDataSource({ path, readOnly: true, poolSize: 1 });
  const engine = createQueryEngine({ model, dataSource });
  const direct = await (await DuckDBInstance.create(path, { access_mode: "READ_ONLY" })).connect();
  await direct.run("SET TimeZone = 'UTC'");

  const figures: Figure[] = [];
  say(["query", "engine p50 ms", "direct p50 ms", "ratio", "cached p50 ms"].join("\t"));
  for (const [name, query] of Object.entries(queries)) {
    const { sql, params } = engine.sql(query, { securityContext: viewer });
    const viaEngine: number[] = [];
    const viaDuckDb: number[] = [];
    const cached: number[] = [];
    for (let i = 0; i < 2; i++) {
      await engine.load(query, { securityContext: viewer, bypassCache: true });
      await direct.runAndReadAll(sql, params as DuckDBValue[]);
    }
    for (let i = 0; i < runs; i++) {
      viaEngine.push(await time(() => engine.load(query, { securityContext: viewer, bypassCache: true })));
      viaDuckDb.push(await time(async () => (await direct.runAndReadAll(sql, params as DuckDBValue[])).getRowObjectsJS()));
      cached.push(await time(() => engine.load(query, { securityContext: viewer })));
    }
    const e = p50(viaEngine);
    const d = p50(viaDuckDb);
    say([name, e.toFixed(2), d.toFixed(2), (e / d).toFixed(2), p50(cached).toFixed(3)].join("\t"));
    figures.push(figure(`engine vs compiled SQL in DuckDB: ${name}`, e, "ms", { baseline: d }));
  }

  // Demo reports: compiled SQL (UTC, Europe/Berlin) against hand-written SQL (UTC).
  const base = `FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id LEFT JOIN products p ON o.product_id = p.product_id
WHERE o.tenant = 'acme-corp' AND c.tenant = 'acme-corp'`;
  const q2 = `o.created_at >= TIMESTAMP '2025-04-01' AND o.created_at < TIMESTAMP '2025-07-01'`;
  const q2prev = `o.created_at >= TIMESTAMP '2024-04-01' AND o.created_at < TIMESTAMP '2024-07-01'`;
  const kpiSql = (m: string) => `WITH cur AS (SELECT date_trunc('quarter', o.created_at) AS q, ${m} AS v ${base} AND ${q2} GROUP BY 1),
prev AS (SELECT date_trunc('quarter', o.created_at + INTERVAL '1 year') AS q, ${m} AS v ${base} AND ${q2prev} GROUP BY 1)
SELECT cur.*, prev.v AS prev_v FROM cur LEFT JOIN prev ON prev.q = cur.q`;
  const full = `o.created_at >= TIMESTAMP '2023-07-01' AND o.created_at < TIMESTAMP '2025-07-01'`;
  const handWritten: Record<string, string> = {
    kpi_revenue: kpiSql("sum(o.amount)"),
    kpi_orders: kpiSql("count(*)"),
    kpi_aov: kpiSql("sum(o.amount) / NULLIF(count(*), 0)"),
    kpi_completion: kpiSql("CAST(count(CASE WHEN o.status = 'completed' THEN 1 END) AS DOUBLE) / NULLIF(count(*), 0)"),
    revenue_trend: `WITH q AS (SELECT date_trunc('month', o.created_at) AS m, sum(o.amount) AS r, count(*) AS n ${base} AND ${full} GROUP BY 1)
SELECT g.m, COALESCE(q.r, 0), COALESCE(q.n, 0) FROM (SELECT unnest(generate_series(TIMESTAMP '2023-07-01', TIMESTAMP '2025-06-01', INTERVAL '1 month')) AS m) g LEFT JOIN q ON q.m = g.m ORDER BY 1`,
    revenue_by_category: `SELECT p.category, sum(o.amount) AS r ${base} GROUP BY 1 ORDER BY 2 DESC`,
    units_by_quarter: `SELECT p.category, date_trunc('quarter', o.created_at), sum(o.quantity) ${base} AND ${full} GROUP BY 1, 2 ORDER BY 2`,
    orders_by_status: `SELECT o.status, count(*) ${base} GROUP BY 1 ORDER BY 2 DESC`,
    top_cities: `SELECT c.city, c.country, sum(o.amount), count(*), sum(o.amount) / NULLIF(count(*), 0), CAST(count(CASE WHEN o.status = 'completed' THEN 1 END) AS DOUBLE) / NULLIF(count(*), 0) ${base} GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 500`,
    customer_map: `SELECT c.city, c.latitude, c.longitude, sum(o.amount) ${base} GROUP BY 1, 2, 3 ORDER BY 4 DESC`,
    highlights: `SELECT sum(o.amount), count(*), count(DISTINCT o.customer_id), sum(o.quantity) ${base}`,
  };
  const directP50 = async (sql: string, params: unknown[]) => {
    for (let i = 0; i < 2; i++) await direct.runAndReadAll(sql, params as DuckDBValue[]);
    const xs: number[] = [];
    for (let i = 0; i < runs; i++) xs.push(await time(async () => (await direct.runAndReadAll(sql, params as DuckDBValue[])).getRowObjectsJS()));
    return p50(xs);
  };
  say(`\ndemo reports, ${rows.toLocaleString("en-US")} rows, p50 of ${runs} runs (ms)`);
  say(["report", "compiled UTC", "compiled Berlin", "hand-written UTC", "UTC ratio", "Berlin ratio"].join("\t"));
  for (const report of DEMO_REPORTS) {
    const options = { securityContext: viewer, fillMissingRows: report.fillMissingRows ?? null, periodComparisons: report.periodComparisons ?? null };
    const inUtc = engine.sql({ ...report.query, timezone: "UTC" }, options);
    const inBerlin = engine.sql({ ...report.query, timezone: "Europe/Berlin" }, options);
    const utcMs = await directP50(inUtc.sql, inUtc.params);
    const berlinMs = await directP50(inBerlin.sql, inBerlin.params);
    const hand = handWritten[report.key];
    const handMs = hand ? await directP50(hand, []) : NaN;
    say([report.key, utcMs.toFixed(1), berlinMs.toFixed(1), handMs.toFixed(1), (utcMs / handMs).toFixed(2), (berlinMs / handMs).toFixed(2)].join("\t"));
    if (hand) {
      figures.push(figure(`compiled vs hand-written SQL, UTC: ${report.key}`, utcMs, "ms", { baseline: handMs }));
      figures.push(figure(`compiled (Europe/Berlin) vs hand-written SQL (UTC): ${report.key}`, berlinMs, "ms", { baseline: handMs }));
    }
  }
  printFigures("query-overhead", figures);
  direct.closeSync();
  await dataSource.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
