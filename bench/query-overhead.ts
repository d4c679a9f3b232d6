/**
 * Overhead of the semantic layer over running the same SQL straight on DuckDB.
 *   npx tsx bench/query-overhead.ts --rows 1000000 [--runs 15] [--path .data/bench-demo.duckdb]
 * Prints, per demo query, the p50 through the engine (cache bypassed), the p50 of the
 * compiled SQL run directly with @duckdb/node-api in-process, their ratio, and the cached p50.
 */
import { DuckDBInstance, type DuckDBValue } from "@duckdb/node-api";
import { mkdirSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDuckDbDataSource } from "../src/server/datasources/duckdb-data-source";
import { generateDemoDataset } from "../src/server/demo/dataset";
import { loadDataModel } from "../src/server/semantic/data-model";
import { createQueryEngine } from "../src/server/semantic/query-engine";
import type { SemanticQuery } from "../src/server/semantic/query-schema";
import type { SecurityContext } from "../src/server/semantic/security-context";

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
  "revenue by month": { measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2024-07-01", "2025-06-30"] }], timezone: "Europe/Berlin" },
  "revenue by category and status": { measures: ["sales.revenue", "sales.count"], dimensions: ["sales.products_category", "sales.status"] },
  "map by city": { measures: ["sales.revenue"], dimensions: ["sales.customers_city", "sales.customers_latitude", "sales.customers_longitude"] },
  "filtered top customers": {
    measures: ["sales.revenue"],
    dimensions: ["sales.customers_name"],
    filters: [{ member: "sales.customers_country", operator: "in", values: ["US", "DE", "FR"] }, { member: "sales.status", operator: "notEquals", values: ["cancelled"] }],
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
  console.log(`${gen.created ? "generated" : "reused"} ${rows.toLocaleString("en-US")} orders in ${path}`);

  const model = loadDataModel(readdirSync(modelDir).filter((f) => f.endsWith(".yml")).map((f) => ({ path: f, content: readFileSync(join(modelDir, f), "utf8") })));
  const dataSource = createDuckDbDataSource({ path, readOnly: true, poolSize: 1 });
  const engine = createQueryEngine({ model, dataSource });
  const direct = await (await DuckDBInstance.create(path, { access_mode: "READ_ONLY" })).connect();
  await direct.run("SET TimeZone = 'UTC'");

  console.log(["query", "engine p50 ms", "direct p50 ms", "ratio", "cached p50 ms"].join("\t"));
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
    console.log([name, e.toFixed(2), d.toFixed(2), (e / d).toFixed(2), p50(cached).toFixed(3)].join("\t"));
  }
  direct.closeSync();
  await dataSource.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
