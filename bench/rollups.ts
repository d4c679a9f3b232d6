/**
 * The demo dashboard's queries answered from rollups against the same queries over the orders.
 *   npx tsx bench/rollups.ts [--rows 5000000] [--small-rows 100000] [--runs 5] [--data-dir DIR] [--json]
 *     [--engine duckdb|postgres] [--server postgresql://postgres@127.0.0.1:5432]
 * In-process, on DuckDB (or, with `--engine postgres`, on the Postgres server at --server, the
 * same rows copied into a database of their own by bench/postgres-shop.ts): the demo data model with its rollups (src/server/demo/data-model/rollups.yml)
 * on a file of --rows orders and on one of --small-rows orders (both generated once into --data-dir,
 * default .data/bench, as rollups-shop-<rows>.duckdb, and kept). The rollups are built in full on
 * the large file (time and the process's resident memory reported). One pass is every chart widget
 * of the demo dashboard, one after the other, as an acme-corp viewer loads it (the reports' queries
 * with their fill and period comparisons). Median of --runs, the three sides interleaved, results
 * not cached (cacheTtlMs 0). Before timing, every widget is checked to be answered from a rollup,
 * with the same rows as without. Figures and goals (issue 32):
 *   - from rollups on --rows vs without rollups on --small-rows: ≤ 1.5×;
 *   - without rollups vs from rollups, both on --rows: ≥ 20×;
 *   - each rollup's full build: time and memory, for the record; for a rollup with partitions, an
 *     incremental build right after it (its update window deleted and aggregated again in place, the rest kept),
 *     against the full one.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDuckDbDataSource } from "../src/server/datasources/duckdb-data-source";
import { createPostgresDataSource } from "../src/server/datasources/postgres-data-source";
import type { DataSource } from "../src/server/datasources";
import { generateDemoDataset } from "../src/server/demo/dataset";
import { demoModelFiles } from "../src/server/demo/seed";
import { DEMO_REPORTS, type DemoReport } from "../src/server/demo/demo-workbook";
import { loadDataModel } from "../src/server/semantic/data-model";
import { createQueryEngine, type QueryEngine } from "../src/server/semantic/query-engine";
import { buildRollupTable, type RollupBuildResult } from "../src/server/semantic/rollup-build";
import type { SecurityContext } from "../src/server/semantic/security-context";
import type { FillMissingRows, PeriodComparison } from "../src/server/semantic/compile-query";
import { figure, printFigures, ratioAtLeast, ratioAtMost, say, type Figure } from "./figures";
import { postgresShop } from "./postgres-shop";

const root = fileURLToPath(new URL("..", import.meta.url));
function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const rows = Number(arg("rows", "5000000"));
const smallRows = Number(arg("small-rows", "100000"));
const runs = Number(arg("runs", "5"));
const engine = arg("engine", "duckdb");
if (engine !== "duckdb" && engine !== "postgres") throw new Error("--engine is duckdb or postgres");
const server = arg("server", "postgresql://postgres@127.0.0.1:5432");
const dataDir = path.resolve(arg("data-dir", path.join(root, ".data", "bench")));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const n = (x: number) => x.toLocaleString("en-US");

async function dataset(count: number): Promise<string> {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, `rollups-shop-${count}.duckdb`);
  const started = performance.now();
  const made = await generateDemoDataset({ path: file, rows: count });
  if (made.created) say(`generated ${n(count)} orders in ${((performance.now() - started) / 1000).toFixed(1)} s (${file})`);
  return file;
}

const model = loadDataModel(demoModelFiles({ rollups: true }));
const viewer: SecurityContext = { embedTenant: "acme-corp", groups: [], userAttributes: {}, role: "viewer" };
/** The dashboard's chart widgets: every report of the demo workbook. */
const widgets: DemoReport[] = DEMO_REPORTS;

const largeFile = await dataset(rows);
const smallFile = await dataset(smallRows);

// Full builds on the large data set, one rollup after the other.
const large: DataSource =
  engine === "postgres"
    ? createPostgresDataSource({ ...(await postgresShop(largeFile, rows, server, say)), poolSize: 2 })
    : createDuckDbDataSource({ path: largeFile, poolSize: 2 });
const built: RollupBuildResult[] = [];
const buildFigures: Figure[] = [];
for (const rollup of model.rollups.values()) {
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const result = await buildRollupTable(large, model, rollup);
  const ms = performance.now() - started;
  const rssAfter = process.memoryUsage().rss;
  built.push(result);
  say(`built ${rollup.name}: ${n(result.rowCount)} rows in ${(ms / 1000).toFixed(2)} s, resident memory ${mb(rssBefore)} → ${mb(rssAfter)} MB`);
  buildFigures.push(figure(`full build of ${rollup.name} (${n(rows)} orders → ${n(result.rowCount)} rows)`, Math.round(ms), "ms"));
  buildFigures.push(figure(`resident memory after building ${rollup.name}`, mb(rssAfter), "MB"));
  if (!rollup.partitionGranularity) continue;
  const incrementalStarted = performance.now();
  const again = await buildRollupTable(large, model, rollup, undefined, "auto");
  const incrementalMs = performance.now() - incrementalStarted;
  built[built.length - 1] = again;
  say(`incremental build of ${rollup.name} from ${again.from}: ${(incrementalMs / 1000).toFixed(2)} s, resident memory ${mb(process.memoryUsage().rss)} MB`);
  buildFigures.push(
    figure(
      `incremental build of ${rollup.name} (the last ${rollup.updateWindow} ${rollup.partitionGranularity}) vs its full build`,
      Math.round(incrementalMs),
      "ms",
      {
        baseline: Math.round(ms),
      },
    ),
  );
}

const fromRollups = createQueryEngine({ model, dataSource: large, cacheTtlMs: 0, rollups: () => built });
const small: DataSource =
  engine === "postgres"
    ? createPostgresDataSource({ ...(await postgresShop(smallFile, smallRows, server, say)), poolSize: 2 })
    : createDuckDbDataSource({ path: smallFile, readOnly: true, poolSize: 2 });
const smallEngine = createQueryEngine({ model, dataSource: small, cacheTtlMs: 0 });

const load = (engine: QueryEngine, w: DemoReport, useRollups: boolean) =>
  engine.load(w.query, {
    securityContext: viewer,
    useRollups,
    fillMissingRows: w.fillMissingRows as FillMissingRows | undefined,
    periodComparisons: w.periodComparisons as PeriodComparison[] | undefined,
  });

// Every widget from a rollup, with the rows of the orders (as sets: ties of an order may come either way).
const lines = (data: Record<string, unknown>[]) => data.map((r) => JSON.stringify(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))).sort();
for (const w of widgets) {
  const [rolled, direct] = [await load(fromRollups, w, true), await load(fromRollups, w, false)];
  if (!rolled.annotation.rollup) throw new Error(`widget ${w.key} was not answered from a rollup`);
  if (JSON.stringify(lines(rolled.data)) !== JSON.stringify(lines(direct.data))) throw new Error(`widget ${w.key}: rows differ with and without rollups`);
  say(`${w.key}: ${rolled.annotation.rollup}, ${rolled.data.length} rows`);
}

/** Each widget's times, by side. */
const perWidget = new Map<string, number[]>();
async function pass(engine: QueryEngine, useRollups: boolean, side?: string): Promise<number> {
  const started = performance.now();
  for (const w of widgets) {
    const t = performance.now();
    await load(engine, w, useRollups);
    if (side) perWidget.set(`${side} ${w.key}`, [...(perWidget.get(`${side} ${w.key}`) ?? []), performance.now() - t]);
  }
  return performance.now() - started;
}

// Warm each side once (file pages, compiled queries), then interleave.
await pass(fromRollups, true);
await pass(fromRollups, false);
await pass(smallEngine, false);
const times = { rolled: [] as number[], direct: [] as number[], small: [] as number[] };
for (let i = 0; i < runs; i++) {
  times.rolled.push(await pass(fromRollups, true, "rollup"));
  times.direct.push(await pass(fromRollups, false, "orders"));
  times.small.push(await pass(smallEngine, false));
}
const rolled = median(times.rolled);
const direct = median(times.direct);
const smallDirect = median(times.small);
await large.close();
await small.close();

const round = (x: number) => Math.round(x * 10) / 10;
for (const w of widgets) {
  const [r, d] = [median(perWidget.get(`rollup ${w.key}`)!), median(perWidget.get(`orders ${w.key}`)!)];
  say(`  ${w.key.padEnd(20)} from rollups ${round(r)} ms, without ${round(d)} ms (${(d / r).toFixed(1)}×)`);
}
const figures: Figure[] = [
  figure(`dashboard (${widgets.length} widgets) from rollups, ${n(rows)} orders on ${engine}, vs without rollups on ${n(smallRows)}`, round(rolled), "ms", {
    baseline: round(smallDirect),
    goal: ratioAtMost(1.5),
  }),
  figure(`dashboard without rollups vs from rollups, ${n(rows)} orders on ${engine}`, round(direct), "ms", { baseline: round(rolled), goal: ratioAtLeast(20) }),
  ...buildFigures,
];
say(
  `dashboard, median of ${runs}: from rollups ${round(rolled)} ms; without ${round(direct)} ms (${(direct / rolled).toFixed(1)}×); without on ${n(smallRows)} orders ${round(smallDirect)} ms`,
);
printFigures("rollups", figures);
