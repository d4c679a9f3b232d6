/**
 * `npm test`: the whole suite. The type check, the lint (ESLint and Prettier's check, as
 * `npm run lint`), unit and in-process API tests (vitest), the two-node cluster tests (real
 * processes behind haproxy, `npm run test:cluster`), the package check, and the browser tests
 * (Playwright in Debian's Chromium against the real server on two origins), side by side.
 * Ends with one line `tests: N passed, N failed`.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureChromium } from "./ensure-chromium";

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux Node supports). */
const CLOCK_TICKS = 100;
const root = fileURLToPath(new URL("..", import.meta.url));
const args = new Set(process.argv.slice(2));
const out = mkdtempSync(path.join(tmpdir(), "svc-test-"));
const started = Date.now();
let passed = 0;
let failed = 0;
let ok = true;

/** Where the suite's time went: each step with its wall time, printed at the end. */
const timings: { step: string; seconds: number }[] = [];
let cpuUsed: number | null = null;

/**
 * CPU seconds (user + system) of every child process this process has waited for, with their
 * own waited-for children: /proc/self/stat's cutime and cstime (Linux; null elsewhere). The
 * difference across a step is the CPU that step used, which says whether it kept the cores busy.
 */
function childCpuSeconds(): number | null {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 16 and 17 of the file (cutime, cstime), counted after the command name's ")".
    return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** Runs a command with its output on this process's, without blocking what runs beside it. */
function runInherited(cmd: string, argv: string[], env: Record<string, string> = {}): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("close", (code) => resolve(code === 0));
    child.on("error", () => resolve(false));
  });
}

/** Runs a command with its output kept, so that steps running side by side print one after the other. */
function runQuiet(cmd: string, argv: string[], env: Record<string, string> = {}): Promise<{ ok: boolean; output: string; seconds: number }> {
  const began = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd: root, env: { ...process.env, ...env } });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ ok: code === 0, output, seconds: (Date.now() - began) / 1000 }));
    child.on("error", (e) => resolve({ ok: false, output: String(e), seconds: (Date.now() - began) / 1000 }));
  });
}

/**
 * Three stages, each of steps side by side: the static checks (tsc, ESLint, the cycle check,
 * Prettier) with the browser build (the type check runs on into the next stage); then vitest beside the two-node cluster tests and the package
 * check (both mostly wait on child processes and npm); then the browser tests. Running all of it
 * at once was tried: on two cores vitest then took 2.4 times as long, and tests that spawn
 * processes or keep a time budget (git, the model server double, the chat's data set) ran past
 * their time-outs. vitest and Playwright print as they go; the other steps when their stage has ended.
 */
if (!args.has("--unit-only")) ensureChromium();
const cpuBefore = childCpuSeconds();
const stages: (() => Promise<void>)[][] = [[], [], []];
let buildOk = true;
const printed: { title: string; output: string }[] = [];

if (!args.has("--e2e-only")) {
  // The type check is the longest static check by half: it starts with the others, and the
  // next stage begins beside its last half-minute instead of after it (docs/benchmarks.md).
  let typeCheck: Promise<{ ok: boolean; output: string; seconds: number }> | null = null;
  stages[0]!.push(() => {
    typeCheck = runQuiet("npx", ["tsc", "--noEmit", "-p", "."]);
    return Promise.all([
      runQuiet("npx", ["eslint", "--max-warnings", "0", "."]),
      runQuiet("npm", ["run", "--silent", "lint:cycles"]),
      runQuiet("npx", ["prettier", "--check", "--log-level", "warn", "."]),
    ]).then(([eslint, cycles, format]) => {
      // Each is reported, so that a finding of one does not hide another's.
      for (const [title, r] of [
        ["lint: eslint", eslint],
        ["lint: import cycles (dependency-cruiser)", cycles],
        ["lint: prettier --check", format],
      ] as const) {
        printed.push({ title: `${title} (${r.seconds.toFixed(1)} s)`, output: `${r.output}${r.ok ? "ok\n" : ""}` });
        timings.push({ step: title, seconds: r.seconds });
      }
      const lintOk = eslint.ok && cycles.ok && format.ok;
      ok = lintOk && ok;
      if (lintOk) passed += 1;
      else failed += 1;
    });
  });
  stages[1]!.push(async () => {
    const types = await typeCheck!;
    printed.push({ title: `type check (tsc) (${types.seconds.toFixed(1)} s)`, output: `${types.output}${types.ok ? "ok\n" : ""}` });
    timings.push({ step: "type check (tsc)", seconds: types.seconds });
    ok = types.ok && ok;
    if (types.ok) passed += 1;
    else failed += 1;
  });

  stages[1]!.push(async () => {
    const report = path.join(out, "vitest.json");
    const began = Date.now();
    const vitestOk = await runInherited("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`]);
    timings.push({ step: "unit and API tests (vitest)", seconds: (Date.now() - began) / 1000 });
    ok = vitestOk && ok;
    try {
      const r = JSON.parse(readFileSync(report, "utf8"));
      passed += r.numPassedTests;
      failed += r.numFailedTests;
      slowestFiles(r.testResults ?? []);
    } catch {
      ok = false;
      failed += 1;
    }
  });

  if (!args.has("--no-cluster"))
    stages[1]!.push(() =>
      clusterTests().then((cluster) => {
        if (!cluster) return;
        printed.push({
          title: `two-node cluster (node processes on one Postgres database behind haproxy) (${cluster.seconds.toFixed(1)} s)`,
          output: cluster.output,
        });
        timings.push({ step: "two-node cluster", seconds: cluster.seconds });
      }),
    );

  if (!args.has("--no-pack"))
    stages[1]!.push(() =>
      runQuiet("npx", ["tsx", "scripts/pack-check.ts"]).then((pack) => {
        printed.push({
          title: `package check (npm pack, installed and type-checked in a throwaway project) (${pack.seconds.toFixed(1)} s)`,
          output: pack.output,
        });
        timings.push({ step: "package check", seconds: pack.seconds });
        ok = pack.ok && ok;
        if (pack.ok) passed += 1;
        else failed += 1;
      }),
    );
}

if (!args.has("--unit-only")) {
  stages[0]!.push(async () => {
    const build = await runQuiet("npm", ["run", "--silent", "build"]);
    printed.push({ title: `browser build (${build.seconds.toFixed(1)} s)`, output: build.output });
    timings.push({ step: "browser build", seconds: build.seconds });
    ok = build.ok && ok;
    buildOk = build.ok;
  });
  stages[2]!.push(async () => {
    if (!buildOk) return;
    const report = path.join(out, "playwright.json");
    process.stdout.write("\n=== browser tests (Playwright, Debian Chromium) ===\n");
    const began = Date.now();
    const e2eOk = await runInherited("npx", ["playwright", "test"], { PLAYWRIGHT_JSON_OUTPUT_NAME: report });
    timings.push({ step: "browser tests (Playwright, Debian Chromium)", seconds: (Date.now() - began) / 1000 });
    ok = e2eOk && ok;
    try {
      const r = JSON.parse(readFileSync(report, "utf8"));
      passed += r.stats.expected + (r.stats.flaky ?? 0);
      failed += r.stats.unexpected;
      printed.push({ title: "slowest browser spec files", output: slowestSpecs(r.suites ?? []) });
    } catch {
      ok = false;
      failed += 1;
    }
  });
}

for (const stage of stages) {
  await Promise.all(stage.map((step) => step()));
  for (const p of printed.splice(0)) process.stdout.write(`\n=== ${p.title} ===\n${p.output}`);
}
const cpuAfter = childCpuSeconds();
if (cpuBefore !== null && cpuAfter !== null) cpuUsed = cpuAfter - cpuBefore;

/** The test files that took longest (wall time in their worker), for docs/benchmarks.md's table. */
function slowestFiles(files: { name: string; startTime: number; endTime: number }[]) {
  const rows = files.map((f) => ({ file: path.relative(root, f.name), seconds: (f.endTime - f.startTime) / 1000 })).sort((a, b) => b.seconds - a.seconds);
  const total = rows.reduce((sum, f) => sum + f.seconds, 0);
  process.stdout.write(`\nSlowest test files (${rows.length} files, ${total.toFixed(0)} s of worker time in all):\n`);
  for (const f of rows.slice(0, 15)) process.stdout.write(`  ${f.file.padEnd(72)} ${f.seconds.toFixed(1).padStart(7)} s\n`);
}

interface PlaywrightSuite {
  file?: string;
  suites?: PlaywrightSuite[];
  specs?: { file?: string; tests?: { results?: { duration?: number }[] }[] }[];
}

/** The browser spec files that took longest (the sum of their tests' durations, retries included), as text. */
function slowestSpecs(suites: PlaywrightSuite[]): string {
  const byFile = new Map<string, number>();
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? []) {
      const ms = (spec.tests ?? []).flatMap((t) => t.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0);
      const file = spec.file ?? suite.file ?? "?";
      byFile.set(file, (byFile.get(file) ?? 0) + ms / 1000);
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  suites.forEach(walk);
  const rows = [...byFile].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, seconds]) => sum + seconds, 0);
  let text = `${rows.length} files, ${total.toFixed(0)} s of test time in all:\n`;
  for (const [file, seconds] of rows.slice(0, 15)) text += `  ${file.padEnd(72)} ${seconds.toFixed(1).padStart(7)} s\n`;
  return text;
}

/** The two-node cluster tests: needs the Postgres server (DATABASE_URL, or 127.0.0.1:5432 with trust) and haproxy, which the suite installs with apt-get when it runs as root (docs/scaling.md). */
async function clusterTests(): Promise<{ seconds: number; output: string } | null> {
  const base = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
  const probe = spawnSync(
    process.execPath,
    ["-e", `const c=new (require("pg").Client)(${JSON.stringify(base)});c.connect().then(()=>c.end()).then(()=>process.exit(0),()=>process.exit(1))`],
    { cwd: root },
  );
  if (probe.status !== 0) return { seconds: 0, output: "skipped: no Postgres server answers at DATABASE_URL or 127.0.0.1:5432\n" };
  const report = path.join(out, "vitest-cluster.json");
  const r = await runQuiet("npx", ["vitest", "run", "-c", "vitest.cluster.config.ts", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], {
    DATABASE_URL: base,
  });
  ok = r.ok && ok;
  try {
    const json = JSON.parse(readFileSync(report, "utf8"));
    passed += json.numPassedTests;
    failed += json.numFailedTests;
  } catch {
    ok = false;
    failed += 1;
  }
  return r;
}

const seconds = ((Date.now() - started) / 1000).toFixed(1);
process.stdout.write(`\nWhere the time went (wall time of each step; the steps run side by side):\n`);
for (const t of timings) process.stdout.write(`  ${t.step.padEnd(64)} ${t.seconds.toFixed(1).padStart(7)} s\n`);
const cpu =
  cpuUsed === null ? "" : ` (${cpuUsed.toFixed(0)} s of CPU in the suite's processes, ${(cpuUsed / Math.max(Number(seconds), 0.001)).toFixed(2)} cores)`;
process.stdout.write(`\nSuite finished in ${seconds} s${cpu}.\n`);
process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
process.exit(ok && failed === 0 ? 0 : 1);
