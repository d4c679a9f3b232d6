/**
 * What one page load costs the browser the suite's tests run in: the demo host page (the demo
 * dashboard in its cross-origin frame, ten queries, its charts drawn) opened in a new context,
 * `--runs` times, in Debian's Chromium headless shell (what `npm test` runs, scripts/ensure-chromium.ts)
 * against the full Chromium in headless mode (the baseline), one browser after the other in the
 * same run. CPU is the browser's whole process tree (/proc, Linux only).
 *   npm run build && npx tsx bench/browser-page-cpu.ts [--runs 6] [--json]
 * Kept for the record (no goal): the suite's browser tests are bound by this figure.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { chromium } from "@playwright/test";
import { rigAddresses } from "../e2e/support/env";
import { CHROMIUM_PATH, HEADLESS_SHELL_PATH } from "../scripts/ensure-chromium";
import { startRigServer, stopRigServer } from "./bridge-rig";
import { figure, printFigures, say } from "./figures";

const runsArg = process.argv.indexOf("--runs");
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 6;
const CLOCK_TICKS = 100;

/** CPU seconds of every live process below `pid` (the browser's children: renderers, GPU, network), and of it. */
function treeCpuSeconds(root: number): number {
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const pid = Number(entry);
      const parent = Number(fields[1]);
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
      children.set(parent, [...(children.get(parent) ?? []), pid]);
    } catch {
      // The process ended while we read.
    }
  }
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    total += cpu.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** This process's direct children, by pid (the browser Playwright launched is one). */
function childPids(): Set<number> {
  const out = new Set<number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === process.pid) out.add(Number(entry));
    } catch {
      // Gone.
    }
  }
  return out;
}

/** Seconds of browser CPU and of wall time per load of the demo host page in `executablePath`. */
async function perLoad(executablePath: string, demoHostUrl: string, loads = runs): Promise<{ cpu: number; wall: number }> {
  const before = childPids();
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"] });
  try {
    const pid = [...childPids()].find((p) => !before.has(p));
    if (pid === undefined) throw new Error("cannot find the browser's process");
    const cpu0 = treeCpuSeconds(pid);
    const t0 = Date.now();
    for (let i = 0; i < loads; i++) {
      const context = await browser.newContext({ reducedMotion: "reduce" });
      const page = await context.newPage();
      await page.goto(`${demoHostUrl}/`);
      await page.locator("#log").getByText("svc:event:dashboard-loaded").first().waitFor({ timeout: 60_000 });
      // The charts below the fold and the last frames of the drawn ones.
      await page.waitForTimeout(1_500);
      await context.close();
    }
    return { cpu: (treeCpuSeconds(pid) - cpu0) / loads, wall: (Date.now() - t0) / 1000 / loads };
  } finally {
    await browser.close();
  }
}

async function main() {
  if (!existsSync("dist/embed/index.html")) throw new Error("build the embed app first: npm run build");
  for (const path of [CHROMIUM_PATH, HEADLESS_SHELL_PATH])
    if (!existsSync(path)) throw new Error(`no browser at ${path}: apt-get install chromium chromium-headless-shell`);
  const basePort = 18280;
  const rig = await startRigServer(basePort);
  try {
    const { demoHostUrl } = rigAddresses(basePort);
    // One load each first: the demo's queries and the platform's caches are warm for both.
    await perLoad(HEADLESS_SHELL_PATH, demoHostUrl, 1);
    const full = await perLoad(CHROMIUM_PATH, demoHostUrl);
    const shell = await perLoad(HEADLESS_SHELL_PATH, demoHostUrl);
    say(`demo host page, ${runs} loads each in new contexts; per load:`);
    say(`  full Chromium (--headless)   CPU ${full.cpu.toFixed(2)} s   wall ${full.wall.toFixed(2)} s`);
    say(`  Chromium headless shell      CPU ${shell.cpu.toFixed(2)} s   wall ${shell.wall.toFixed(2)} s`);
    printFigures("browser-page-cpu", [
      figure("browser CPU per demo host page load: headless shell vs full Chromium", shell.cpu, "s", { baseline: full.cpu }),
      figure("wall time per demo host page load: headless shell vs full Chromium", shell.wall, "s", { baseline: full.wall }),
    ]);
  } finally {
    await stopRigServer(rig);
  }
}

await main();
