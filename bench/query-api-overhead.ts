/**
 * Overhead of the query API over running the same SQL straight on DuckDB, end to end over HTTP.
 *   npx tsx bench/query-api-overhead.ts [--rows 1000000] [--runs 21] [--base-port <port>] [--data-dir <dir>] [--json]
 * Starts the whole platform in-process (startPlatform: PGlite storage, the demo deployment on
 * a DuckDB file of --rows orders) listening on a loopback port, then for each demo dashboard
 * report: the p50 of POST …/query with cache "bypass" (fetch to the server), and the p50 of the
 * same compiled SQL (from POST …/query/sql) through @duckdb/node-api in-process; goal: ratio
 * ≤ 1.2× or ≤ 2 ms more. Then the p50 of cached results against a trivial JSON endpoint
 * (GET /api/v1/deployments/{id}), one of each in turn, for an admin key and an embed viewer;
 * goal ≤ 1.5×. Runs are interleaved so drift hits both sides.
 * Without --data-dir a temporary folder is used (and removed); with it, the data set is reused.
 * The platform listens on --base-port (default: a free port the system picks). The HTTP client
 * runs in a worker thread (bench/http-client.ts) and times each request there.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DuckDBInstance, type DuckDBValue } from "@duckdb/node-api";
import { loadConfig } from "../src/server/config";
import { DEMO_REPORTS } from "../src/server/demo/demo-workbook";
import { createLogger } from "../src/server/logger";
import { startPlatform } from "../src/server/platform";
import { startClient } from "./http-client";
import { figure, printFigures, ratioAtMost, say, type Figure, type Goal } from "./figures";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const rows = Number(arg("rows", "1000000"));
const runs = Number(arg("runs", "21"));
const keepDir = process.argv.includes("--data-dir");
const dataDir = keepDir ? resolve(arg("data-dir", ".data/bench-query-api")) : mkdtempSync(join(tmpdir(), "svc-bench-api-"));

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

async function main() {
  const adminToken = "svc_" + randomBytes(24).toString("base64url");
  const port = process.argv.includes("--base-port") ? Number(arg("base-port", "0")) : await freePort();
  // Only these settings: no DATABASE_URL from the environment, so storage is PGlite in dataDir.
  const config = loadConfig({
    PORT: String(port),
    HOST: "127.0.0.1",
    SVC_DATA_DIR: dataDir,
    SVC_DEMO_ROWS: String(rows),
    SVC_DEMO_HOST_PORT: "0",
    SVC_ADMIN_TOKEN: adminToken,
    SVC_LOG_LEVEL: "silent",
  });
  const started = performance.now();
  const platform = await startPlatform(config, createLogger("silent"));
  say(`platform up in ${((performance.now() - started) / 1000).toFixed(1)} s (${rows.toLocaleString("en-US")} orders, data in ${dataDir})`);
  const base = `http://127.0.0.1:${port}`;
  const client = startClient();
  const call = async (method: string, path: string, body?: unknown, token = adminToken) => {
    const reply = await client.send({ method, url: base + path, token, body });
    if (reply.status < 200 || reply.status > 299) throw new Error(`${method} ${path} → ${reply.status} ${JSON.stringify(reply.json)}`);
    return reply.json as Record<string, unknown>;
  };
  /** Milliseconds of one request, as the client thread timed it. */
  const timed = async (method: string, path: string, body?: unknown, token = adminToken) => {
    const reply = await client.send({ method, url: base + path, token, body });
    if (reply.status < 200 || reply.status > 299) throw new Error(`${method} ${path} → ${reply.status} ${JSON.stringify(reply.json)}`);
    return reply.ms;
  };

  let direct: Awaited<ReturnType<DuckDBInstance["connect"]>> | undefined;
  try {
    const list = await call("GET", "/api/v1/deployments");
    const dep = (list.items as { id: number; dataSource: { path?: string } }[])[0]!;
    const path = `/api/v1/deployments/${dep.id}`;
    const instance = await DuckDBInstance.create(dep.dataSource.path!, { access_mode: "READ_ONLY" });
    direct = await instance.connect();
    await direct.run("SET TimeZone = 'UTC'");

    // An embed viewer of one tenant, as the demo dashboard's viewers are (row-level security applies).
    const { sessionId } = (await call("POST", "/api/v1/embed/generate-session", {
      deploymentId: dep.id,
      externalId: "bench",
      embedTenantName: "acme-corp",
    })) as { sessionId: string };
    const { token: embedToken } = (await call("POST", "/api/v1/embed/session/token", { sessionId })) as { token: string };

    const table: string[][] = [];
    const figures: Figure[] = [];
    const apiGoal: Goal = { text: "≤ 1.2× or ≤ 2 ms more", met: (f) => f.ratio! <= 1.2 || f.value - f.baseline! <= 2 };
    const cachedTimes: number[] = [];
    const cachedEmbedTimes: number[] = [];
    for (const r of DEMO_REPORTS) {
      const body = { query: r.query, fillMissingRows: r.fillMissingRows, periodComparisons: r.periodComparisons };
      const { sql, params } = (await call("POST", `${path}/query/sql`, body)) as unknown as { sql: string; params: DuckDBValue[] };
      const runDirect = async () => (await direct!.runAndReadAll(sql, params)).getRowObjectsJS();
      for (let i = 0; i < 2; i++) {
        await call("POST", `${path}/query`, { ...body, cache: "bypass" });
        await runDirect();
      }
      const api: number[] = [];
      const duck: number[] = [];
      // Each side goes first every other run: whichever runs right after the other's query finds
      // DuckDB's threads still winding down.
      const viaApi = async () => api.push(await timed("POST", `${path}/query`, { ...body, cache: "bypass" }));
      const viaDuck = async () => duck.push(await time(runDirect));
      for (let i = 0; i < runs; i++) {
        if (i % 2 === 0) {
          await viaApi();
          await viaDuck();
        } else {
          await viaDuck();
          await viaApi();
        }
      }
      const a = p50(api);
      const d = p50(duck);
      const ok = a / d <= 1.2 || a - d <= 2;
      table.push([r.key, a.toFixed(2), d.toFixed(2), (a / d).toFixed(2), (a - d).toFixed(2), ok ? "yes" : "NO"]);
      figures.push(figure(`query API (cache bypass) vs in-process DuckDB: ${r.key}`, a, "ms", { baseline: d, goal: apiGoal }));
    }
    say();
    say(`API (cache bypass, over HTTP) vs the same SQL directly in DuckDB; p50 of ${runs} runs, ms`);
    printTable(["report", "api p50", "direct p50", "ratio", "overhead", "≤1.2× or ≤2 ms"], table);

    // Cached results against the trivial endpoint, interleaved one by one under the same
    // conditions (not right after a query that kept DuckDB's threads busy).
    const trivial: number[] = [];
    const trivialEmbed: number[] = [];
    for (let i = 0; i < 3; i++) await call("GET", path);
    for (let i = 0; i < runs; i++) {
      for (const r of DEMO_REPORTS) {
        const body = { query: r.query, fillMissingRows: r.fillMissingRows, periodComparisons: r.periodComparisons };
        cachedTimes.push(await timed("POST", `${path}/query`, body));
        trivial.push(await timed("GET", path));
        cachedEmbedTimes.push(await timed("POST", `${path}/query`, body, embedToken));
        trivialEmbed.push(await timed("GET", path, undefined, embedToken));
      }
    }
    say();
    say("cached query results (all reports) vs a trivial JSON endpoint (GET /api/v1/deployments/{id}); p50, ms");
    const row = (who: string, cached: number[], plain: number[]) => {
      const c = p50(cached);
      const tr = p50(plain);
      return [who, c.toFixed(2), tr.toFixed(2), (c / tr).toFixed(2), c / tr <= 1.5 ? "yes" : "NO"];
    };
    printTable(
      ["caller", "cached query p50", "trivial p50", "ratio", "≤1.5×"],
      [row("admin API key", cachedTimes, trivial), row("embed viewer (acme-corp)", cachedEmbedTimes, trivialEmbed)],
    );
    figures.push(figure("cached query result vs trivial endpoint, admin API key", p50(cachedTimes), "ms", { baseline: p50(trivial), goal: ratioAtMost(1.5) }));
    figures.push(
      figure("cached query result vs trivial endpoint, embed viewer", p50(cachedEmbedTimes), "ms", { baseline: p50(trivialEmbed), goal: ratioAtMost(1.5) }),
    );
    printFigures("query-api-overhead", figures);
  } finally {
    await client.stop();
    direct?.closeSync();
    await platform.stop();
    if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

function printTable(head: string[], body: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  say(line(head));
  say(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of body) say(line(r));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
