/**
 * `npm test`: the whole suite. The type check, the lint (ESLint and Prettier's check, as
 * `npm run lint`), unit and in-process API tests (vitest), the two-node cluster tests (real
 * processes behind haproxy, `npm run test:cluster`), the package check, then the
 * browser tests (Playwright in Debian's Chromium against the real server on two origins).
 * Ends with one line `tests: N passed, N failed`.
 */
import { spawnSync } from "node:child_process";
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

function run(cmd: string, argv: string[], env: Record<string, string> = {}) {
  const r = spawnSync(cmd, argv, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return r.status === 0;
}

function section(title: string) {
  process.stdout.write(`\n=== ${title} ===\n`);
}

if (!args.has("--e2e-only")) {
  section("type check (tsc)");
  const typesOk = run("npx", ["tsc", "--noEmit", "-p", "."]);
  ok = typesOk && ok;
  if (typesOk) passed += 1;
  else failed += 1;

  section("lint (eslint, prettier --check)");
  // The two halves of `npm run lint`, both run so that a finding of one does not hide the other's.
  const eslintOk = run("npx", ["eslint", "--max-warnings", "0", "."]);
  const formatOk = run("npx", ["prettier", "--check", "."]);
  const lintOk = eslintOk && formatOk;
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
  } catch {
    ok = false;
    failed += 1;
  }
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

const seconds = ((Date.now() - started) / 1000).toFixed(1);
process.stdout.write(`\nSuite finished in ${seconds} s.\n`);
process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
process.exit(ok && failed === 0 ? 0 : 1);
