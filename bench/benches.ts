/**
 * The bench scripts of bench/ and their arguments for `npm run bench` (bench/run.ts): every
 * script of the folder is either here or a helper, which scripts/bench-list.test.ts checks.
 */

/** Files of bench/ that are not benches. */
export const HELPERS: ReadonlySet<string> = new Set([
  "run.ts",
  "benches.ts",
  "bridge-rig.ts",
  "rig-server.ts",
  "figures.ts",
  "floor-page.ts",
  "http-client.ts",
  "postgres-shop.ts",
]);

export interface BenchSpec {
  /** Arguments at the modest sizes of `npm run bench`. */
  modest: string[];
  /** Arguments under --full (none: the script's own defaults). */
  full?: string[];
  /** Needs the browser bundles of `npm run build`. */
  build?: boolean;
  /** Needs the Postgres server (its URL). */
  postgres?: string;
}

/** Every bench by script name (without .ts), with the query benches' row count and the Postgres server's URL. */
export function benchesAt({ rows, postgres }: { rows: string; postgres: string }): Record<string, BenchSpec> {
  return {
    "app-time-to-ready": { modest: ["--runs", "5"], build: true },
    "ai-builtin": { modest: ["--rows", rows, "--runs", "15"], full: ["--rows", rows, "--runs", "41"] },
    "browser-page-cpu": { modest: ["--runs", "3"], build: true },
    "builder-first-result": { modest: ["--runs", "5"], build: true },
    "bridge-roundtrip": { modest: ["--runs", "200", "--warmup", "20"], build: true },
    "cluster-throughput": { modest: ["--seconds", "3", "--rounds", "3"], postgres },
    "dashboard-apps": { modest: ["--runs", "2", "--python-runs", "3"], build: true },
    "dashboard-bundle": { modest: [], build: true },
    "dashboard-load": { modest: ["--runs", "2"], build: true },
    explain: { modest: ["--rows", "1000000", "--runs", "5"], full: ["--rows", "10000000", "--runs", "9"] },
    "model-build": { modest: ["--runs", "3"] },
    "mysql-vs-duckdb": { modest: ["--rows", rows, "--runs", "5"], full: ["--rows", rows] },
    "query-api-overhead": { modest: ["--rows", rows, "--runs", "9"], full: ["--rows", rows] },
    "query-overhead": { modest: ["--rows", rows, "--runs", "9"], full: ["--rows", rows] },
    "python-start": { modest: ["--runs", "4"] },
    "report-ready": { modest: ["--runs", "6"], build: true },
    rollups: { modest: ["--rows", "2000000", "--runs", "3"], full: ["--rows", "10000000"] },
    "request-overhead": { modest: ["--runs", "1000"], full: ["--runs", "3000"] },
    "spawn-cost": { modest: ["--runs", "10"] },
    "start-up": { modest: ["--runs", "3"], build: true },
    "test-storage": { modest: ["--runs", "8"] },
    "time-to-ready": { modest: ["--runs", "6"], build: true },
    "upsert-throughput": { modest: ["--ops", "1000", "--pglite-ops", "300"], postgres },
  };
}

/** Scripts of bench/ (file names) that are neither a bench of `benches` nor a helper. */
export function unlistedScripts(files: string[], benches: Record<string, BenchSpec>): string[] {
  return files
    .filter((f) => f.endsWith(".ts") && !HELPERS.has(f))
    .map((f) => f.slice(0, -3))
    .filter((s) => !benches[s])
    .sort();
}
