/**
 * The API fuzzer as a long run: `npx tsx scripts/fuzz-api.ts --runs 5000 --seed 42`.
 * Options: --runs N (default 2000) or --per-operation N (N requests to each operation in turn), --seed N (default: random, printed), --storage pglite|postgres
 * (postgres needs DATABASE_URL), --principal admin|viewer|embed|anonymous (repeatable; default all).
 * Prints every finding with an example request and exits 1 when there is one.
 * The suite runs the same fuzzer briefly (src/server/api-fuzz.test.ts).
 */
import { parseArgs } from "node:util";
import { fuzzApi, formatFindings, recordingLogger } from "../src/server/testing/fuzz/api-fuzzer";
import { PRINCIPALS, type FuzzPrincipal } from "../src/server/testing/fuzz/fuzz-world";
import { createTestPlatform } from "../src/server/testing/test-platform";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "2000" },
    "per-operation": { type: "string" },
    seed: { type: "string" },
    storage: { type: "string", default: "pglite" },
    principal: { type: "string", multiple: true },
    coverage: { type: "boolean", default: false },
    trace: { type: "boolean", default: false },
  },
});

const runs = Number(values.runs);
const perOperation = values["per-operation"] !== undefined ? Number(values["per-operation"]) : undefined;
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const storage = values.storage === "postgres" ? "postgres" : "pglite";
const principals = (values.principal ?? [...PRINCIPALS]) as FuzzPrincipal[];
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed) || principals.some((p) => !PRINCIPALS.includes(p))) {
  console.error("usage: npx tsx scripts/fuzz-api.ts [--runs N] [--seed N] [--storage pglite|postgres] [--principal admin|viewer|embed|anonymous]...");
  process.exit(2);
}
if (storage === "postgres" && !process.env.DATABASE_URL) {
  console.error("--storage postgres needs DATABASE_URL");
  process.exit(2);
}

console.log(`fuzzing the API: ${runs} requests, seed ${seed}, ${storage} storage, as ${principals.join(", ")}`);
const logger = recordingLogger();
const platform = await createTestPlatform({ storage, mutateDeps: (deps) => ({ ...deps, logger }) });
try {
  const report = await fuzzApi(platform, logger, {
    runs,
    perOperation,
    seed,
    principals,
    onAnswer: values.trace ? (line) => console.log(JSON.stringify(line).slice(1, -1)) : undefined,
    onRequest: (n) => {
      if (n % 250 === 0) process.stdout.write(`  ${n} requests\n`);
    },
  });
  console.log(`\n${report.requests} requests to ${report.operations} operations in ${(report.durationMs / 1000).toFixed(1)} s`);
  console.log(
    `time (ms): ${Object.entries(report.harnessMs)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  console.log(
    `statuses: ${Object.entries(report.statuses)
      .map(([s, n]) => `${s}×${n}`)
      .join(" ")}`,
  );
  if (values.coverage) {
    for (const [op, counts] of Object.entries(report.coverage).sort()) {
      console.log(
        `  ${op}: ${Object.entries(counts)
          .sort()
          .map(([k, n]) => `${k}×${n}`)
          .join(" ")}`,
      );
    }
  }
  if (report.findings.length) {
    console.log(`\n${report.findings.length} findings (reproduce with --seed ${seed} --runs ${runs}):\n\n${formatFindings(report.findings)}`);
    process.exitCode = 1;
  } else {
    console.log("no findings");
  }
} finally {
  await platform.close();
}
