/**
 * A Python report's run in its sandbox process (one process per run, src/server/modules/apps/
 * python-sandbox.ts), with the interpreter's WebAssembly compiled by V8's baseline compiler only
 * (what the platform does) against V8's default tiering (the baseline: the optimising compiler
 * on hot code too). Each side runs the same scripts in the same minutes: a trivial report over
 * 1 000 rows and a two-million-step loop; the figures are the CPU of the sandbox processes and the
 * wall time, per run, the interpreter's snapshot already made.
 *   npx tsx bench/python-start.ts [--runs 6] [--json]
 */
import { readFileSync } from "node:fs";
import { PythonSandbox, type PythonJob } from "../src/server/modules/apps/python-sandbox";
import { spawnerHelperPid } from "../src/server/process/spawner";
import { figure, jsonOutput, printFigures, ratioAtMost, say } from "./figures";

const runsAt = process.argv.indexOf("--runs");
const runs = runsAt >= 0 ? Number(process.argv[runsAt + 1]) : 6;
if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs takes a whole number of at least 1");

/**
 * CPU seconds of the sandbox processes that have ended: they are forked and reaped by the
 * spawner's helper (src/server/process/spawner.ts), so its /proc stat's cutime and cstime.
 */
function childrenCpu(): number {
  const pid = spawnerHelperPid();
  if (pid === null) throw new Error("the spawner's helper is not running");
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

const rows = Array.from({ length: 1000 }, (_, i) => ({ id: i, amount: i % 97 }));
const JOBS: { name: string; job: PythonJob }[] = [
  { name: "trivial report", job: { code: "print(sum(r['amount'] for r in rows))", rows, columns: ["id", "amount"] } },
  { name: "2M-step loop", job: { code: "s = 0\nfor i in range(2_000_000):\n    s += i * i % 7\nprint(s)", rows: [], columns: [] } },
];

interface Side {
  cpu: number;
  wall: number;
}

/** Runs each job `runs` times in a new sandbox; CPU and wall per run (the sandbox's spare process included, as in the platform). */
async function measure(wasmTierUp: boolean, job: PythonJob): Promise<Side> {
  const sandbox = new PythonSandbox(undefined, { wasmTierUp, workers: 2 });
  // The snapshot is made by the first process; the runs measured start from it, as every run after the first does.
  await sandbox.run(job);
  await new Promise((r) => setTimeout(r, 300));
  const cpuAt = childrenCpu();
  const wallAt = performance.now();
  for (let i = 0; i < runs; i++) {
    const result = await sandbox.run(job);
    if (!result.ok) throw new Error(`the Python run failed: ${JSON.stringify(result).slice(0, 300)}`);
  }
  const wall = (performance.now() - wallAt) / runs;
  await sandbox.close();
  // The processes are killed when their run ends; their CPU is counted once they are reaped.
  await new Promise((r) => setTimeout(r, 500));
  return { cpu: ((childrenCpu() - cpuAt) * 1000) / runs, wall };
}

const figures = [];
for (const { name, job } of JOBS) {
  // Alternating sides, twice each, so that a busy minute weighs on both.
  const product: Side[] = [];
  const baseline: Side[] = [];
  for (let round = 0; round < 2; round++) {
    baseline.push(await measure(true, job));
    product.push(await measure(false, job));
  }
  const mean = (sides: Side[], k: keyof Side) => sides.reduce((s, x) => s + x[k], 0) / sides.length;
  const p = { cpu: mean(product, "cpu"), wall: mean(product, "wall") };
  const b = { cpu: mean(baseline, "cpu"), wall: mean(baseline, "wall") };
  say(
    `${name}, ${runs} runs × 2 rounds: baseline compiler only ${p.cpu.toFixed(0)} ms CPU, ${p.wall.toFixed(0)} ms wall per run; ` +
      `V8's default tiering ${b.cpu.toFixed(0)} ms CPU, ${b.wall.toFixed(0)} ms wall (${(p.cpu / b.cpu).toFixed(2)}× CPU, ${(p.wall / b.wall).toFixed(2)}× wall)`,
  );
  figures.push(
    figure(`Python run, ${name}: sandbox CPU per run vs V8's default wasm tiering`, p.cpu, "ms", { baseline: b.cpu, goal: ratioAtMost(0.8) }),
    figure(`Python run, ${name}: wall per run vs V8's default wasm tiering`, p.wall, "ms", { baseline: b.wall, goal: ratioAtMost(1) }),
  );
}
if (jsonOutput) printFigures("python-start", figures);
process.exit(0);
