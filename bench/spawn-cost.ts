/**
 * What starting a short command costs a server that holds a few hundred megabytes: the time its
 * event loop is held, and the time to the command's end, for the platform's way (the spawner's
 * helper process, src/server/process/spawner.ts) against Node's own `spawn` from the server
 * (the baseline), one of each in turn, in the same process.
 *   npx tsx bench/spawn-cost.ts [--runs 20] [--megabytes 400] [--json]
 */
import { spawn } from "node:child_process";
import { runCommand } from "../src/server/process/spawner";
import { figure, printFigures, ratioAtMost, say } from "./figures";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i > 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number of at least 1`);
  return value;
}

const runs = arg("runs", 20);
const megabytes = arg("megabytes", 400);
// A server's memory: written pages, as a platform holding PGlite, caches and modules has.
const held: Buffer[] = Array.from({ length: megabytes }, () => Buffer.alloc(1024 * 1024, 1));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The longest the event loop went without a turn while `start` ran to its end, and that time. */
async function measure(start: () => Promise<unknown>): Promise<{ hold: number; wall: number }> {
  let last = performance.now();
  let hold = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    hold = Math.max(hold, now - last);
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 5));
  hold = 0;
  last = performance.now();
  const began = performance.now();
  await start();
  const wall = performance.now() - began;
  clearInterval(tick);
  hold = Math.max(hold, performance.now() - last);
  return { hold, wall };
}

const direct = () =>
  new Promise<void>((resolve, reject) => {
    const child = spawn("/bin/true", [], { stdio: "ignore" });
    child.on("error", reject);
    child.on("close", () => resolve());
  });
const helper = () => runCommand("/bin/true", []);

await helper(); // the helper started once, as a running platform has it
const sides = { direct: [] as { hold: number; wall: number }[], helper: [] as { hold: number; wall: number }[] };
for (let i = 0; i < runs; i++) {
  sides.direct.push(await measure(direct));
  sides.helper.push(await measure(helper));
}
const d = { hold: median(sides.direct.map((s) => s.hold)), wall: median(sides.direct.map((s) => s.wall)) };
const h = { hold: median(sides.helper.map((s) => s.hold)), wall: median(sides.helper.map((s) => s.wall)) };
say(`/bin/true from a process holding ${held.length} MB, ${runs} runs each, medians (ms):`);
say(`  Node's spawn from the server: event loop held ${d.hold.toFixed(1)}, to the end ${d.wall.toFixed(1)}`);
say(`  the spawner's helper:         event loop held ${h.hold.toFixed(1)}, to the end ${h.wall.toFixed(1)}`);
const figures = [
  figure(`event loop held by starting a command, ${megabytes} MB server: helper vs Node's spawn`, h.hold, "ms", { baseline: d.hold, goal: ratioAtMost(0.25) }),
  figure(`a command's time to its end, ${megabytes} MB server: helper vs Node's spawn`, h.wall, "ms", { baseline: d.wall, goal: ratioAtMost(1) }),
];
for (const f of figures)
  say(`${f.figure}: ${f.value.toFixed(1)} vs ${f.baseline!.toFixed(1)} ms, ${f.ratio!.toFixed(2)}× (goal ${f.goal}: ${f.met ? "met" : "not met"})`);
printFigures("spawn-cost", figures);
process.exit(0);
