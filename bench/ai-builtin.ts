/**
 * The builtin question engine through the chat API against the query API alone, end to end
 * over HTTP, as an embed viewer of one tenant.
 *   npx tsx bench/ai-builtin.ts [--rows 200000] [--runs 15] [--json]
 * Starts the platform in-process (PGlite storage, the demo deployment on a DuckDB file of
 * --rows orders); the client runs in a worker thread, as a browser would run apart from the
 * server, so that its reading of a response never waits for the server's own work. For each
 * question: time to first token (the first text delta of the NDJSON answer) and time to the
 * whole answer (the stream's end), p50 and p99 over --runs, each in a new thread; baseline:
 * POST …/query of the same semantic query the answer ran, interleaved with it, both warm (the
 * engine's cache serves both sides alike). Before each timed request the server is idle: after
 * an answer the client reads the thread back (untimed), which returns once the answer is
 * stored. Goal: answer ≤ 1.5× the query.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { loadConfig } from "../src/server/config";
import { createLogger } from "../src/server/logger";
import { startPlatform } from "../src/server/platform";
import { figure, printFigures, ratioAtMost, say, type Figure } from "./figures";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const rows = Number(arg("rows", "200000"));
const runs = Number(arg("runs", "15"));

const FIRST_DAY = [
  "revenue by country last quarter",
  "top 5 cities by orders",
  "orders by status over time",
  "Umsatz nach Kategorie",
  "ingresos en España por mes",
];
/**
 * Day-two questions: a part of time, two date ranges, a running total, the top row per group, a
 * numeric filter, and ratios as calculated fields (a share of named rows, an average per customer).
 */
const DAY_TWO = [
  "orders by day of week",
  "compare revenue in Q1 2025 with Q1 2024 by category",
  "cumulative revenue by month",
  "best-selling product in each category",
  "pedidos entre 100 y 500 dólares",
  "What share of our revenue comes from Electronics?",
  "durchschnittlicher Umsatz pro Kunde",
];
const QUESTIONS = [...FIRST_DAY, ...DAY_TWO];

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length - 1) * p))]!;

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

interface ClientInput {
  base: string;
  token: string;
  deploymentId: number;
  runs: number;
}
interface Timings {
  first: number[];
  answer: number[];
  direct: number[];
  /** The day-two questions' answers and queries alone. */
  dayTwoAnswer: number[];
  dayTwoDirect: number[];
}

/** The client (a worker thread): asks every question --runs times, each followed by the query alone. */
async function client({ base, token, deploymentId, runs }: ClientInput): Promise<Timings> {
  const post = (path: string, body: unknown) =>
    fetch(base + path, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  const get = (path: string) => fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
  async function askOnce(question: string): Promise<{ firstToken: number; answer: number; query: unknown }> {
    const thread = (await (await post(`/api/v1/deployments/${deploymentId}/chat/threads`, {})).json()) as { id: string };
    const t0 = performance.now();
    const res = await post(`/api/v1/deployments/${deploymentId}/chat/threads/${thread.id}/messages`, { content: question });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let firstToken = NaN;
    let query: unknown = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffer += value;
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = JSON.parse(buffer.slice(0, nl)) as { type?: string; query?: unknown; error?: unknown };
        buffer = buffer.slice(nl + 1);
        if (line.type === "text" && Number.isNaN(firstToken)) firstToken = performance.now() - t0;
        if (line.type === "query") query = line.query;
        if (line.error) throw new Error(`answer failed: ${JSON.stringify(line.error)}`);
      }
      if (done) break;
    }
    const answered = performance.now() - t0;
    // Untimed: the thread read returns once the answer is stored, so the next request finds the server idle.
    const stored = (await (await get(`/api/v1/deployments/${deploymentId}/chat/threads/${thread.id}`)).json()) as { messages: unknown[] };
    if (stored.messages.length !== 2) throw new Error("the answer was not stored");
    return { firstToken, answer: answered, query };
  }
  async function queryOnce(query: unknown): Promise<number> {
    const t0 = performance.now();
    const res = await post(`/api/v1/deployments/${deploymentId}/query`, { query });
    await res.json();
    return performance.now() - t0;
  }

  const first: number[] = [];
  const answer: number[] = [];
  const direct: number[] = [];
  const dayTwoAnswer: number[] = [];
  const dayTwoDirect: number[] = [];
  for (const q of QUESTIONS) {
    const warm = await askOnce(q); // warms the engine's cache and the value index
    await queryOnce(warm.query);
    for (let i = 0; i < runs; i++) {
      const a = await askOnce(q);
      const d = await queryOnce(a.query);
      first.push(a.firstToken);
      answer.push(a.answer);
      direct.push(d);
      if (DAY_TWO.includes(q)) {
        dayTwoAnswer.push(a.answer);
        dayTwoDirect.push(d);
      }
    }
  }
  return { first, answer, direct, dayTwoAnswer, dayTwoDirect };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-bench-ai-"));
  const adminToken = "svc_" + randomBytes(24).toString("base64url");
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    HOST: "127.0.0.1",
    SVC_DATA_DIR: dataDir,
    SVC_DEMO_ROWS: String(rows),
    SVC_DEMO_HOST_PORT: "0",
    SVC_ADMIN_TOKEN: adminToken,
    SVC_LOG_LEVEL: "silent",
  });
  const platform = await startPlatform(config, createLogger("silent"));
  const base = `http://127.0.0.1:${port}`;
  const post = (path: string, body: unknown, token: string) =>
    fetch(base + path, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  try {
    const list = (await (await fetch(`${base}/api/v1/deployments`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as {
      items: { id: number }[];
    };
    const deploymentId = list.items[0]!.id;
    const gen = (await (
      await post("/api/v1/embed/generate-session", { deploymentId, externalId: "bench@acme.example", embedTenantName: "acme-corp" }, adminToken)
    ).json()) as {
      sessionId: string;
    };
    const { token } = (await (await post("/api/v1/embed/session/token", { sessionId: gen.sessionId }, adminToken)).json()) as { token: string };

    const { first, answer, direct, dayTwoAnswer, dayTwoDirect } = await new Promise<Timings>((resolve, reject) => {
      // The worker runs this file too, as TypeScript: it registers tsx before importing it.
      const boot = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); })`;
      const worker = new Worker(boot, { eval: true, workerData: { base, token, deploymentId, runs } satisfies ClientInput });
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.once("exit", (code) => (code === 0 ? undefined : reject(new Error(`client exited with ${code}`))));
    });
    const figures: Figure[] = [
      figure("builtin AI: time to first token p50 vs query API p50", pct(first, 0.5), "ms", { baseline: pct(direct, 0.5) }),
      figure("builtin AI: time to answer p50 vs query API p50", pct(answer, 0.5), "ms", { baseline: pct(direct, 0.5), goal: ratioAtMost(1.5) }),
      figure("builtin AI: time to answer p99 vs query API p99", pct(answer, 0.99), "ms", { baseline: pct(direct, 0.99), goal: ratioAtMost(1.5) }),
      figure("builtin AI, day-two questions: time to answer p50 vs query API p50", pct(dayTwoAnswer, 0.5), "ms", {
        baseline: pct(dayTwoDirect, 0.5),
        goal: ratioAtMost(1.5),
      }),
    ];
    for (const f of figures)
      say(
        `${f.figure}: ${f.value.toFixed(1)} ms vs ${f.baseline!.toFixed(1)} ms (${f.ratio!.toFixed(2)}×)${f.goal ? ` goal ${f.goal}: ${f.met ? "met" : "not met"}` : ""}`,
      );
    printFigures("ai-builtin", figures);
  } finally {
    await platform.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (isMainThread) await main();
else parentPort!.postMessage(await client(workerData as ClientInput));
