/**
 * `npm test`: the whole suite. The type check, the lint (ESLint and Prettier's check, as
 * `npm run lint`), unit and in-process API tests (vitest), the two-node cluster tests (real
 * processes behind haproxy, `npm run test:cluster`), the package check, then the
 * browser tests (Playwright in Debian's Chromium against the real server on two origins).
 * Ends with one line `tests: N passed, N failed`.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureChromium } from "./ensure-chromium";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = new Set(process.argv.slice(2));
const out = mkdtempSync(path.join(tmpdir(), "svc-test-"));
const started = Date.now();
let passed = 0;
let failed = 0;
let ok = true;

/** Where the suite's time went: each step with its wall time, printed at the end. */
const timings: { step: string; seconds: number }[] = [];
let sectionTitle = "";
let sectionStarted = Date.now();

function endSection() {
  if (sectionTitle) timings.push({ step: sectionTitle, seconds: (Date.now() - sectionStarted) / 1000 });
  sectionTitle = "";
}

function run(cmd: string, argv: string[], env: Record<string, string> = {}) {
  const r = spawnSync(cmd, argv, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return r.status === 0;
}

/** Runs a command with its output kept, so that steps running side by side print one after the other. */
function runQuiet(cmd: string, argv: string[]): Promise<{ ok: boolean; output: string; seconds: number }> {
  const began = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd: root, env: process.env });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ ok: code === 0, output, seconds: (Date.now() - began) / 1000 }));
    child.on("error", (e) => resolve({ ok: false, output: String(e), seconds: (Date.now() - began) / 1000 }));
  });
}

function section(title: string) {
  endSection();
  sectionTitle = title;
  sectionStarted = Date.now();
  process.stdout.write(`\n=== ${title} ===\n`);
}

if (!args.has("--e2e-only")) {
  // The type check and the two halves of `npm run lint` are single-threaded: they run side by
  // side, and each is reported, so that a finding of one does not hide another's.
  const [types, eslint, format] = await Promise.all([
    runQuiet("npx", ["tsc", "--noEmit", "-p", "."]),
    runQuiet("npx", ["eslint", "--max-warnings", "0", "."]),
    runQuiet("npx", ["prettier", "--check", "--log-level", "warn", "."]),
  ]);
  for (const [title, r] of [
    ["type check (tsc)", types],
    ["lint: eslint", eslint],
    ["lint: prettier --check", format],
  ] as const) {
    process.stdout.write(`\n=== ${title} (${r.seconds.toFixed(1)} s) ===\n${r.output}${r.ok ? "ok\n" : ""}`);
    timings.push({ step: title, seconds: r.seconds });
  }
  ok = types.ok && ok;
  if (types.ok) passed += 1;
  else failed += 1;
  const lintOk = eslint.ok && format.ok;
  ok = lintOk && ok;
  if (lintOk) passed += 1;
  else failed += 1;

  section("unit and API tests (vitest)");
  const report = path.join(out, "vitest.json");
  ok = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`]) && ok;
  try {
    const r = JSON.parse(readFileSync(report, "utf8"));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    slowestFiles(r.testResults ?? []);
  } catch {
    ok = false;
    failed += 1;
  }
}

/** The test files that took longest (wall time in their worker), for docs/benchmarks.md's table. */
function slowestFiles(files: { name: string; startTime: number; endTime: number }[]) {
  const rows = files.map((f) => ({ file: path.relative(root, f.name), seconds: (f.endTime - f.startTime) / 1000 })).sort((a, b) => b.seconds - a.seconds);
  const total = rows.reduce((sum, f) => sum + f.seconds, 0);
  process.stdout.write(`\nSlowest test files (${rows.length} files, ${total.toFixed(0)} s of worker time in all):\n`);
  for (const f of rows.slice(0, 15)) process.stdout.write(`  ${f.file.padEnd(72)} ${f.seconds.toFixed(1).padStart(7)} s\n`);
}

if (!args.has("--e2e-only") && !args.has("--no-cluster")) {
  section("two-node cluster (node processes on one Postgres database behind haproxy)");
  // Needs the Postgres server (DATABASE_URL, or 127.0.0.1:5432 with trust) and haproxy, which
  // the suite installs with apt-get when it runs as root; docs/scaling.md describes the suite.
  const base = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
  const probe = spawnSync(
    process.execPath,
    ["-e", `const c=new (require("pg").Client)(${JSON.stringify(base)});c.connect().then(()=>c.end()).then(()=>process.exit(0),()=>process.exit(1))`],
    {
      cwd: root,
    },
  );
  if (probe.status !== 0) {
    process.stdout.write("skipped: no Postgres server answers at DATABASE_URL or 127.0.0.1:5432\n");
  } else {
    const report = path.join(out, "vitest-cluster.json");
    ok =
      run("npx", ["vitest", "run", "-c", "vitest.cluster.config.ts", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], {
        DATABASE_URL: base,
      }) && ok;
    try {
      const r = JSON.parse(readFileSync(report, "utf8"));
      passed += r.numPassedTests;
      failed += r.numFailedTests;
    } catch {
      ok = false;
      failed += 1;
    }
  }
}

if (!args.has("--e2e-only") && !args.has("--no-pack")) {
  section("package check (npm pack, installed and type-checked in a throwaway project)");
  const packOk = run("npx", ["tsx", "scripts/pack-check.ts"]);
  ok = packOk && ok;
  if (packOk) passed += 1;
  else failed += 1;
}

if (!args.has("--unit-only")) {
  section("browser build");
  ok = run("npm", ["run", "--silent", "build"]) && ok;
  section("browser tests (Playwright, Debian Chromium)");
  ensureChromium();
  const report = path.join(out, "playwright.json");
  const e2eOk = run("npx", ["playwright", "test"], { PLAYWRIGHT_JSON_OUTPUT_NAME: report });
  ok = e2eOk && ok;
  try {
    const r = JSON.parse(readFileSync(report, "utf8"));
    passed += r.stats.expected + (r.stats.flaky ?? 0);
    failed += r.stats.unexpected;
  } catch {
    ok = false;
    failed += 1;
  }
}

endSection();
const seconds = ((Date.now() - started) / 1000).toFixed(1);
process.stdout.write(`\nWhere the time went (wall time; the first three ran side by side):\n`);
for (const t of timings) process.stdout.write(`  ${t.step.padEnd(72)} ${t.seconds.toFixed(1).padStart(7)} s\n`);
process.stdout.write(`\nSuite finished in ${seconds} s.\n`);
process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
process.exit(ok && failed === 0 ? 0 : 1);
