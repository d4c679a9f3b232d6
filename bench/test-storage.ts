/**
 * The suite's storage per test platform: a PGlite emptied and reused (what a worker's next test
 * file gets, src/server/testing/storage-template.ts) against one loaded anew from the migrated
 * template (the baseline: what every test platform cost before), CPU and wall time each.
 *   npx tsx bench/test-storage.ts [--runs 8] [--json]
 */
import { pgliteFromTemplate } from "../src/server/testing/storage-template";
import { migratedPgliteDump } from "../src/server/db/pglite-template";
import { openDatabase } from "../src/server/db/connection";
import { figure, jsonOutput, ratioAtMost, say } from "./figures";

const runsAt = process.argv.indexOf("--runs");
const runs = runsAt >= 0 ? Number(process.argv[runsAt + 1]) : 8;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function measure(open: () => Promise<{ close(): Promise<void> }>) {
  const wallAt = performance.now();
  const cpuAt = cpu();
  for (let i = 0; i < runs; i++) {
    const database = await open();
    await database.close();
  }
  return { wall: (performance.now() - wallAt) / runs, cpu: (cpu() - cpuAt) / runs };
}

// Instances are kept for reuse in the suite's workers only (where vitest sets VITEST): as there.
process.env.VITEST = "true";
const dump = await migratedPgliteDump();
// Warm both paths once (the dump read, the wasm compiled, one instance kept for reuse).
await (await openDatabase({ dataDir: ":memory:", pgliteDataDir: dump })).close();
await (await pgliteFromTemplate()).close();
const fresh = await measure(() => openDatabase({ dataDir: ":memory:", pgliteDataDir: dump }));
const reused = await measure(() => pgliteFromTemplate());
say(
  `per test platform, ${runs} runs: loaded anew ${fresh.cpu.toFixed(0)} ms CPU (${fresh.wall.toFixed(0)} ms), reused ${reused.cpu.toFixed(0)} ms CPU (${reused.wall.toFixed(0)} ms)`,
);
const figures = [
  figure("test storage: a reused PGlite's CPU vs one loaded from the template", reused.cpu, "ms", { baseline: fresh.cpu, goal: ratioAtMost(0.2) }),
  figure("test storage: a reused PGlite's wall time vs one loaded from the template", reused.wall, "ms", { baseline: fresh.wall }),
];
if (jsonOutput) console.log(JSON.stringify({ bench: "test-storage", figures }));
process.exit(0);
