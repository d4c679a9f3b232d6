/**
 * One node against two behind haproxy, on one Postgres database (scripts/cluster/cluster.ts
 * starts real node processes): query and upsert throughput through the balancer at the same
 * client concurrency, and the p99 of a bounded burst (a fixed number of queries, a cap on
 * those in flight). On a 2-core machine the load generator, Postgres, haproxy and the nodes
 * share the same cores, so two nodes are expected near 1× of one here; the figure is what a
 * second node costs or gains on the same hardware, not what it gains on a second machine.
 *
 * One node and two stand side by side (each on a database of its own) and are measured in turn,
 * round after round; the figures are the medians of the rounds.
 *
 *   npx tsx bench/cluster-throughput.ts [--rounds 3] [--seconds 5] [--clients 16] [--burst 300] [--burst-in-flight 64] [--rows 20000] [--server <url>] [--json]
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { startCluster, type RunningCluster } from "../scripts/cluster/cluster";
import { generateDemoDataset } from "../src/server/demo/dataset";
import { demoModelFiles } from "../src/server/demo/seed";
import { figure, printFigures, ratioAtLeast, say, type Figure } from "./figures";

const { values: args } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    clients: { type: "string", default: "16" },
    burst: { type: "string", default: "300" },
    "burst-in-flight": { type: "string", default: "64" },
    rounds: { type: "string", default: "3" },
    rows: { type: "string", default: "20000" },
    server: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/test" },
    json: { type: "boolean", default: false },
  },
});
const SECONDS = Number(args.seconds);
const CLIENTS = Number(args.clients);
const BURST = Number(args.burst);
const IN_FLIGHT = Number(args["burst-in-flight"]);
const ROUNDS = Math.max(1, Number(args.rounds));

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

interface Load {
  opsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** The failed answers by status ("network" when none came). */
  failures: Record<string, number>;
}

function failed(failures: Record<string, number>, res: Response | null) {
  const key = res ? String(res.status) : "network";
  failures[key] = (failures[key] ?? 0) + 1;
}

/** `clients` loops calling `op` for `seconds`; every answer but a 2xx counts as an error. */
async function sustained(op: (i: number) => Promise<Response>, clients: number, seconds: number): Promise<Load> {
  const latencies: number[] = [];
  let errors = 0;
  const failures: Record<string, number> = {};
  let next = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const res = await op(next++).catch(() => null);
        if (!res || res.status >= 300) {
          errors++;
          failed(failures, res);
        }
        await res?.arrayBuffer().catch(() => {});
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { opsPerSecond: latencies.length / elapsed, p50: pct(latencies, 50), p99: pct(latencies, 99), errors, failures };
}

/** `total` calls of `op`, at most `inFlight` at a time, all started as soon as a slot frees. */
async function burst(op: (i: number) => Promise<Response>, total: number, inFlight: number): Promise<Load> {
  const latencies: number[] = [];
  let errors = 0;
  const failures: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let i = next++; i < total; i = next++) {
        const t0 = performance.now();
        const res = await op(i).catch(() => null);
        if (!res || res.status >= 300) {
          errors++;
          failed(failures, res);
        }
        await res?.arrayBuffer().catch(() => {});
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { opsPerSecond: total / ((performance.now() - started) / 1000), p50: pct(latencies, 50), p99: pct(latencies, 99), errors, failures };
}

interface Measured {
  query: Load;
  upsert: Load;
  burst: Load;
}

/** A cluster on a database of its own, with the bench deployment; `stop` drops both. */
async function prepare(nodes: number, duckdbPath: string) {
  const workDir = mkdtempSync(path.join(tmpdir(), `svc-bench-cluster-${nodes}-`));
  const dbName = `svc_bench_${nodes}_${randomBytes(3).toString("hex")}`;
  const u = new URL(args.server);
  u.pathname = "/" + dbName;
  const token = "svc_" + randomBytes(24).toString("base64url");
  let cluster: RunningCluster | null = null;
  const stop = async () => {
    await cluster?.stop();
    const admin = new pg.Client({ connectionString: args.server });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    rmSync(workDir, { recursive: true, force: true });
  };
  try {
    cluster = await startCluster({
      databaseUrl: u.toString(),
      nodes,
      workDir,
      env: { SVC_ADMIN_TOKEN: token, SVC_SECRET_KEY: randomBytes(24).toString("base64url"), SVC_LOG_LEVEL: "warn" },
    });
    const url = cluster.url;
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const created = await fetch(`${url}/build/api/v1/deployments/`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "bench", dataSource: { type: "duckdb", path: duckdbPath }, dataModelFiles: demoModelFiles() }),
    });
    if (created.status !== 201) throw new Error(`creating the deployment failed: ${created.status} ${await created.text()}`);
    const { id } = (await created.json()) as { id: number };
    const statuses = ["completed", "pending", "cancelled", "returned", "shipped"];
    let round = 0;
    // A different filter value each time and no cache: every query reaches the data source.
    const query = (i: number) =>
      fetch(`${url}/api/v1/deployments/${id}/query`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          query: {
            measures: ["sales.count", "sales.revenue"],
            dimensions: ["sales.status"],
            filters: [{ member: "sales.quantity", operator: "gt", values: [String(i % 5)] }],
          },
          cache: "bypass",
        }),
      });
    const upsert = (i: number) =>
      fetch(`${url}/api/v1/deployments/${id}/workbooks/by-slug/bench-${round}-${i}`, {
        method: "PUT",
        headers,
        body: JSON.stringify({ name: `Bench ${i}`, meta: { status: statuses[i % statuses.length] } }),
      });
    const probe = await query(0);
    if (probe.status !== 200) throw new Error(`the bench query failed: ${probe.status} ${await probe.text()}`);
    await sustained(query, CLIENTS, 1); // warm-up: engines built, pools open on every node
    return {
      stop,
      async measure(): Promise<Measured> {
        round++;
        const q = await sustained(query, CLIENTS, SECONDS);
        const w = await sustained(upsert, CLIENTS, SECONDS);
        const b = await burst(query, BURST, IN_FLIGHT);
        return { query: q, upsert: w, burst: b };
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The median round of each figure (by throughput, or by p99 for the burst), errors summed over all rounds. */
function medianOf(rounds: Measured[]): Measured {
  const pick = (get: (m: Measured) => Load, by: (l: Load) => number): Load => {
    const loads = rounds.map(get).sort((a, b) => by(a) - by(b));
    const failures: Record<string, number> = {};
    for (const l of loads) for (const [k, n] of Object.entries(l.failures)) failures[k] = (failures[k] ?? 0) + n;
    return { ...loads[Math.floor(loads.length / 2)]!, errors: loads.reduce((n, l) => n + l.errors, 0), failures };
  };
  return {
    query: pick(
      (m) => m.query,
      (l) => l.opsPerSecond,
    ),
    upsert: pick(
      (m) => m.upsert,
      (l) => l.opsPerSecond,
    ),
    burst: pick(
      (m) => m.burst,
      (l) => l.p99,
    ),
  };
}

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-bench-cluster-data-"));
try {
  const duckdbPath = path.join(dataDir, "shop.duckdb");
  await generateDemoDataset({ path: duckdbPath, rows: Number(args.rows) });
  say(
    `cluster bench: ${CLIENTS} clients for ${SECONDS} s per figure, burst of ${BURST} queries with ${IN_FLIGHT} in flight, ${args.rows} orders, ${ROUNDS} rounds (medians)`,
  );
  // Both set-ups stand side by side and are measured in turn, round after round: load from
  // elsewhere on the machine then weighs on both alike, and the medians are compared.
  const single = await prepare(1, duckdbPath);
  const pair = await prepare(2, duckdbPath).catch(async (err: unknown) => {
    await single.stop();
    throw err;
  });
  const rounds: { one: Measured; two: Measured }[] = [];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      const one = await single.measure();
      const two = await pair.measure();
      rounds.push({ one, two });
      say(
        `round ${r + 1}: query ×${(two.query.opsPerSecond / one.query.opsPerSecond).toFixed(2)}, upsert ×${(two.upsert.opsPerSecond / one.upsert.opsPerSecond).toFixed(2)}`,
      );
    }
  } finally {
    await single.stop();
    await pair.stop();
  }
  const one = medianOf(rounds.map((r) => r.one));
  const two = medianOf(rounds.map((r) => r.two));
  const line = (name: string, a: Load, b: Load) =>
    say(
      `${name.padEnd(8)} one node ${a.opsPerSecond.toFixed(0).padStart(6)} ops/s p50 ${a.p50.toFixed(1)} ms p99 ${a.p99.toFixed(1)} ms (${a.errors} errors)` +
        ` | two nodes ${b.opsPerSecond.toFixed(0).padStart(6)} ops/s p50 ${b.p50.toFixed(1)} ms p99 ${b.p99.toFixed(1)} ms (${b.errors} errors)` +
        ` | ×${(b.opsPerSecond / a.opsPerSecond).toFixed(2)}`,
    );
  line("query", one.query, two.query);
  line("upsert", one.upsert, two.upsert);
  line("burst", one.burst, two.burst);
  const errors = [one, two].reduce((n, m) => n + m.query.errors + m.upsert.errors + m.burst.errors, 0);
  if (errors) {
    const by = (m: Measured) => JSON.stringify({ query: m.query.failures, upsert: m.upsert.failures, burst: m.burst.failures });
    say(`${errors} requests failed: one node ${by(one)}, two nodes ${by(two)}`);
  }
  const figures: Figure[] = [
    figure("query throughput, two nodes vs one (2 cores shared)", two.query.opsPerSecond, "ops/s", {
      baseline: one.query.opsPerSecond,
      goal: ratioAtLeast(0.8),
    }),
    figure("upsert throughput, two nodes vs one (2 cores shared)", two.upsert.opsPerSecond, "ops/s", {
      baseline: one.upsert.opsPerSecond,
      goal: ratioAtLeast(0.8),
    }),
    figure(`query p99 in a burst of ${BURST} (${IN_FLIGHT} in flight), two nodes vs one`, two.burst.p99, "ms", { baseline: one.burst.p99 }),
    figure("requests failed", errors, ""),
  ];
  printFigures("cluster-throughput", figures);
  if (errors) process.exitCode = 1;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
