/**
 * Explaining a change against the two period queries it needs.
 *   npx tsx bench/explain.ts [--rows 10000000] [--runs 5] [--data-dir DIR] [--json]
 * In-process: the demo data model on a DuckDB file of --rows orders (generated once into
 * --data-dir, default .data/bench, and kept), one tenant's viewer. Figure: `explainChange` of
 * revenue from Q1 to Q2 2025 over three candidates (category, country, status) against its
 * baseline, the two period queries it needs (revenue by the three candidates with a dateRange of
 * each quarter, one after the other), both warm and interleaved, median of --runs. Goal:
 * explain ≤ 2× the two queries.
 * The engine keeps compiled queries for both sides alike; results are not cached (cacheTtlMs 0).
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDuckDbDataSource } from "../src/server/datasources/duckdb-data-source";
import { generateDemoDataset } from "../src/server/demo/dataset";
import { loadDataModel } from "../src/server/semantic/data-model";
import { explainChange } from "../src/server/semantic/explain";
import { createQueryEngine } from "../src/server/semantic/query-engine";
import type { SecurityContext } from "../src/server/semantic/security-context";
import { figure, printFigures, ratioAtMost, say } from "./figures";

const root = fileURLToPath(new URL("..", import.meta.url));
function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const rows = Number(arg("rows", "10000000"));
const runs = Number(arg("runs", "5"));
const dataDir = path.resolve(arg("data-dir", path.join(root, ".data", "bench")));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

mkdirSync(dataDir, { recursive: true });
const file = path.join(dataDir, `shop-${rows}.duckdb`);
const generating = performance.now();
const made = await generateDemoDataset({ path: file, rows });
if (made.created) say(`generated ${rows} orders in ${((performance.now() - generating) / 1000).toFixed(1)} s (${file})`);

const modelDir = path.join(root, "src", "server", "demo", "data-model");
const model = loadDataModel(
  readdirSync(modelDir)
    .filter((f) => f.endsWith(".yml"))
    .map((f) => ({ path: f, content: readFileSync(path.join(modelDir, f), "utf8") })),
);
const dataSource = createDuckDbDataSource({ path: file, readOnly: true });
// Results uncached: each side runs its SQL every time (compiled queries stay cached, alike for both).
const engine = createQueryEngine({ model, dataSource, cacheTtlMs: 0 });
const viewer: SecurityContext = { embedTenant: "acme-corp", groups: [], userAttributes: {}, role: "viewer" };

const Q1: [string, string] = ["2025-01-01", "2025-03-31"];
const Q2: [string, string] = ["2025-04-01", "2025-06-30"];
const candidates = ["sales.products_category", "sales.customers_country", "sales.status"];
/** What explaining needs to read: the measure of one period by the candidates. */
const periodQuery = (range: [string, string]) => ({
  measures: ["sales.revenue"],
  dimensions: candidates,
  timeDimensions: [{ dimension: "sales.created_at", dateRange: range }],
  limit: 50_000,
});
const input = { measure: "sales.revenue", timeDimension: "sales.created_at", baseline: Q1, current: Q2, candidates };

async function twoPeriods(): Promise<number> {
  const t = performance.now();
  await engine.load(periodQuery(Q1), { securityContext: viewer });
  await engine.load(periodQuery(Q2), { securityContext: viewer });
  return performance.now() - t;
}
async function explain(): Promise<number> {
  const t = performance.now();
  const result = await explainChange(engine, input, { securityContext: viewer });
  if (result.contributors.length === 0) throw new Error("explain found no contributor");
  return performance.now() - t;
}

// Warm both sides (DuckDB's file pages, the compiled queries), then interleave.
await twoPeriods();
await explain();
const base: number[] = [];
const measured: number[] = [];
for (let i = 0; i < runs; i++) {
  base.push(await twoPeriods());
  measured.push(await explain());
}
await dataSource.close();

const f = figure(`explain revenue Q1→Q2 2025 over 3 candidates, ${rows} rows, vs the two period queries`, median(measured), "ms", {
  baseline: median(base),
  goal: ratioAtMost(2),
});
say(`two period queries: median ${f.baseline!.toFixed(1)} ms; explain: median ${f.value.toFixed(1)} ms; ${f.ratio!.toFixed(2)}× (goal ${f.goal})`);
printFigures("explain", [f]);
