/**
 * `npm run bench`: every bench script of bench/, one after another in name order, at modest
 * sizes (some minutes on two cores), then one table: figure, value, baseline, ratio, goal, met.
 *   npm run bench [-- --full] [--rows N] [--only a,b] [--<script>.<flag> <value>] [--no-build] [--json]
 *
 * - `--full`: each script at its own default sizes (those of the figures in docs/benchmarks.md);
 * - `--rows N`: orders in the data set of the two query benches (default 200 000; 1 000 000 with --full);
 * - `--only a,b`: these scripts only (names without .ts);
 * - `--<script>.<flag> <value>`: passes `--<flag> <value>` to one script, over the default,
 *   e.g. `--upsert-throughput.ops 3000` or `--bridge-roundtrip.runs 400`;
 * - `--no-build`: the browser benches use dist/ as it is, even when older than the sources
 *   (by default `npm run build` runs first when it is);
 * - `--json`: one JSON line of every figure at the end instead of the table.
 * Each script runs with `--json` (bench/figures.ts): its usual lines go to stderr, where they
 * show as it runs, and its figures come back on stdout. The upsert bench needs the Postgres
 * server at 127.0.0.1:5432 (trust auth, database `test`): without it, it is skipped. A script
 * that fails is listed under the table and makes the run exit with status 1; a goal not met
 * does not.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { buildIsStale } from "../scripts/build-freshness.mjs";
import { benchesAt, unlistedScripts, type BenchSpec } from "./benches";
import type { Figure } from "./figures";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
function option(name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("--") ? argv[i + 1] : undefined;
}

const full = flag("full");
const rows = option("rows") ?? (full ? "1000000" : "200000");
const POSTGRES = "postgresql://postgres@127.0.0.1:5432/test";

const BENCHES = benchesAt({ rows, postgres: POSTGRES });

/** `--<script>.<flag> <value>` of the command line, by script. */
function overrides(script: string): Map<string, string> {
  const found = new Map<string, string>();
  argv.forEach((a, i) => {
    if (a.startsWith(`--${script}.`) && argv[i + 1] !== undefined) found.set(a.slice(script.length + 3), argv[i + 1]!);
  });
  return found;
}

/** The script's arguments: the defaults of the chosen size, each override replacing or adding a flag. */
function argsOf(script: string, spec: BenchSpec): string[] {
  const args = [...(full ? (spec.full ?? []) : spec.modest)];
  for (const [name, value] of overrides(script)) {
    const i = args.indexOf(`--${name}`);
    if (i >= 0) args[i + 1] = value;
    else args.push(`--${name}`, value);
  }
  return args;
}

async function postgresAnswers(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

interface Outcome {
  script: string;
  seconds: number;
  figures: Figure[];
  /** Why it has no figures: skipped or failed. */
  problem?: { kind: "skipped" | "failed"; reason: string };
}

function runScript(script: string, args: string[]): Outcome {
  const started = Date.now();
  process.stderr.write(`\n=== bench/${script}.ts ${args.join(" ")} ===\n`);
  const r = spawnSync(path.join(root, "node_modules/.bin/tsx"), [path.join(here, `${script}.ts`), ...args, "--json"], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    // A bench that hangs (a browser that never answers) must not hold the whole run.
    timeout: 30 * 60_000,
  });
  const seconds = (Date.now() - started) / 1000;
  let figures: Figure[] | null = null;
  for (const line of (r.stdout ?? "").split("\n")) {
    let parsed: unknown = null;
    if (line.startsWith("{")) {
      try {
        parsed = JSON.parse(line);
      } catch {
        parsed = null;
      }
    }
    const result = parsed as { bench?: string; figures?: Figure[] } | null;
    if (result?.bench === script && Array.isArray(result.figures)) figures = result.figures;
    else if (line.trim()) process.stderr.write(`${line}\n`);
  }
  if (r.error) return { script, seconds, figures: [], problem: { kind: "failed", reason: r.error.message } };
  if (r.status !== 0) return { script, seconds, figures: figures ?? [], problem: { kind: "failed", reason: `exit status ${r.status ?? r.signal}` } };
  if (!figures) return { script, seconds, figures: [], problem: { kind: "failed", reason: "no JSON line of figures on stdout" } };
  return { script, seconds, figures };
}

function formatValue(value: number | null, unit: string): string {
  if (value === null || !Number.isFinite(value)) return value === null ? "" : String(value);
  const digits = unit === "kB" || unit === "%" ? 1 : unit === "ops/s" || Number.isInteger(value) || Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)}${unit ? ` ${unit}` : ""}`;
}

/** One Markdown table, padded so it also reads in a terminal. */
function table(outcomes: Outcome[]): string {
  const head = ["figure", "value", "baseline", "ratio", "goal", "met?"];
  const body: string[][] = [];
  for (const o of outcomes) {
    body.push([`bench/${o.script}.ts${o.problem ? `: ${o.problem.kind} (${o.problem.reason})` : ""}`, "", "", "", "", ""]);
    for (const f of o.figures) {
      body.push([
        `  ${f.figure}`,
        formatValue(f.value, f.unit),
        formatValue(f.baseline, f.unit),
        f.ratio === null ? "" : `${f.ratio.toFixed(2)}×`,
        f.goal ?? "",
        f.met === null ? "" : f.met ? "yes" : "NO",
      ]);
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const numeric = new Set([1, 2, 3]);
  const line = (cells: string[]) => `| ${cells.map((c, i) => (numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (numeric.has(i) ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`;
  return [line(head), rule, ...body.map(line)].join("\n");
}

async function main() {
  const found = Object.keys(BENCHES).sort();
  const unknown = unlistedScripts(readdirSync(here), BENCHES);
  if (unknown.length)
    throw new Error(
      `no entry in bench/benches.ts for ${unknown.map((s) => `bench/${s}.ts`).join(", ")}: add its arguments to benchesAt, or name it in HELPERS`,
    );
  const only = option("only")?.split(",");
  const unknownOnly = (only ?? []).filter((s) => !BENCHES[s]);
  if (unknownOnly.length) throw new Error(`--only: no bench named ${unknownOnly.join(", ")} (there are ${found.join(", ")})`);
  const scripts = found.filter((s) => !only || only.includes(s));

  const started = Date.now();
  const plans = scripts.map((script) => {
    const spec = BENCHES[script]!;
    // The upsert bench's own --server flag names the Postgres server to check.
    return { script, spec, args: argsOf(script, spec), postgres: spec.postgres && (overrides(script).get("server") ?? spec.postgres) };
  });
  if (plans.some((p) => p.spec.build) && buildIsStale(root)) {
    if (flag("no-build")) process.stderr.write("dist/ is older than the sources or missing; --no-build: the browser benches use it as it is\n");
    else {
      process.stderr.write("\n=== npm run build (dist/ is older than the sources or missing) ===\n");
      const b = spawnSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: ["ignore", process.stderr, "inherit"] });
      if (b.status !== 0) throw new Error("npm run build failed");
    }
  }

  const outcomes: Outcome[] = [];
  for (const { script, args, postgres } of plans) {
    const down = postgres ? await postgresAnswers(postgres) : null;
    if (down) outcomes.push({ script, seconds: 0, figures: [], problem: { kind: "skipped", reason: `no Postgres server at ${postgres}: ${down}` } });
    else outcomes.push(runScript(script, args));
  }

  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  if (flag("json")) {
    process.stdout.write(`${JSON.stringify({ sizes: full ? "full" : "modest", rows: Number(rows), outcomes })}\n`);
  } else {
    process.stdout.write(
      `\nbench: ${scripts.length} scripts, ${full ? "full" : "modest"} sizes (${Number(rows).toLocaleString("en-US")} rows for the query benches), ${minutes} min\n\n`,
    );
    process.stdout.write(`${table(outcomes)}\n\n`);
    for (const o of outcomes) process.stdout.write(`  ${o.script.padEnd(20)} ${o.problem ? o.problem.kind : "ok"}, ${o.seconds.toFixed(0)} s\n`);
  }
  process.exit(outcomes.some((o) => o.problem?.kind === "failed") ? 1 : 0);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
