/**
 * Start-up: from the command to the first request the platform answers.
 *
 * - **warm**: `node scripts/start.mjs` (what `npm start` runs) on a data folder that has been
 *   started before, the build current: goal ≤ 2 s.
 * - **new data folder**: the same on an empty data folder (storage copied from the machine's
 *   template, the demo's 100 000-row data set generated), the build current.
 * - **first start**: an empty data folder and no build (the browser apps are built while the
 *   platform opens its storage): goal ≤ 6 s. Run with `--first-start` (it deletes and rebuilds
 *   dist/, so not while browser tests use it).
 * - **dev**: `npm run dev`'s process on an empty data folder, to its banner: goal ≤ 10 s.
 * - **floor**: a Node process that starts a bare HTTP server and answers the same request, the
 *   baseline of every ratio.
 *
 *   npx tsx bench/start-up.ts [--runs 3] [--first-start] [--json]
 *
 * Every measure is the time until `GET /api/v1/auth/me` answers (any status), polled every
 * 20 ms, except dev's (its banner: it serves the embed from sources, first request compiles).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { figure, printFigures, say, valueAtMost, type Figure } from "./figures";

const root = fileURLToPath(new URL("..", import.meta.url));
const argv = process.argv.slice(2);
const runs = Number(argv[argv.indexOf("--runs") + 1]) || 3;
const firstStart = argv.includes("--first-start");
const PORT = 18_970;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function answers(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/api/v1/auth/me`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  // The whole process group: npm and tsx start the platform as a child of their own.
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The group has ended already.
    }
  };
  signal("SIGTERM");
  await Promise.race([exited, sleep(15_000)]);
  if (child.exitCode === null) signal("SIGKILL");
}

/** Milliseconds from spawning `argv` until the port answers (or the banner is printed). */
async function timeToServe(argv: string[], env: Record<string, string>, until: "request" | "banner" = "request"): Promise<number> {
  const started = performance.now();
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: root,
    env: { ...process.env, PORT: String(PORT), SVC_DEMO_HOST_PORT: String(PORT + 1), SVC_LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d));
  child.stderr!.on("data", (d: Buffer) => (out += d));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${argv.join(" ")} exited with ${child.exitCode}:\n${out}`);
      if (until === "banner" ? out.includes("svc is running") : await answers(PORT)) return performance.now() - started;
      if (performance.now() - started > 120_000) throw new Error(`${argv.join(" ")} did not serve in 120 s:\n${out}`);
      await sleep(20);
    }
  } finally {
    await stop(child);
    // Until the port is free again (a child of the group may close it a moment later).
    for (let i = 0; i < 100 && (await answers(PORT)); i++) await sleep(100);
  }
}

const FLOOR = `require("node:http").createServer((q, s) => s.end("{}")).listen(${PORT}, "127.0.0.1")`;
const start = [process.execPath, "scripts/start.mjs"];
const dataDirs: string[] = [];
const newDataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-bench-start-"));
  dataDirs.push(dir);
  return dir;
};

try {
  // The build current, and a data folder started once.
  const warmDir = newDataDir();
  await timeToServe(start, { SVC_DATA_DIR: warmDir });
  const floor: number[] = [];
  const warm: number[] = [];
  const fresh: number[] = [];
  const dev: number[] = [];
  const first: number[] = [];
  for (let i = 0; i < runs; i++) {
    floor.push(await timeToServe([process.execPath, "-e", FLOOR], {}));
    warm.push(await timeToServe(start, { SVC_DATA_DIR: warmDir }));
    fresh.push(await timeToServe(start, { SVC_DATA_DIR: newDataDir() }));
    dev.push(await timeToServe(["npm", "run", "--silent", "dev"], { SVC_DATA_DIR: newDataDir() }, "banner"));
    if (firstStart) {
      rmSync(path.join(root, "dist"), { recursive: true, force: true });
      first.push(await timeToServe(start, { SVC_DATA_DIR: newDataDir() }));
    }
    say(
      `run ${i + 1}: floor ${floor.at(-1)!.toFixed(0)} ms, warm ${warm.at(-1)!.toFixed(0)} ms, new data folder ${fresh.at(-1)!.toFixed(0)} ms, dev ${dev.at(-1)!.toFixed(0)} ms${firstStart ? `, first start ${first.at(-1)!.toFixed(0)} ms` : ""}`,
    );
  }
  const base = median(floor);
  const figures: Figure[] = [
    figure("npm start, warm data folder: to first served request vs a bare Node HTTP server", median(warm), "ms", {
      baseline: base,
      goal: valueAtMost(2000, "ms"),
    }),
    figure("npm start, new data folder (template, 100 000-row demo): to first served request", median(fresh), "ms", { baseline: base }),
    figure("npm run dev, new data folder: to its banner", median(dev), "ms", { baseline: base, goal: valueAtMost(10_000, "ms") }),
  ];
  if (firstStart)
    figures.push(
      figure("npm start, first start (no build, new data folder): to first served request", median(first), "ms", {
        baseline: base,
        goal: valueAtMost(6000, "ms"),
      }),
    );
  for (const f of figures)
    say(
      `${f.figure}: ${f.value.toFixed(0)} ms (floor ${base.toFixed(0)} ms, ${f.ratio!.toFixed(1)}×)${f.goal ? `, goal ${f.goal}: ${f.met ? "met" : "not met"}` : ""}`,
    );
  printFigures("start-up", figures);
} finally {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
