/**
 * Data models as code (build API), two figures:
 * 1. merge-to-default of a 200-file model → the first production query that uses the change,
 *    against a cold production query of the same model (engine built from storage) in the same run;
 * 2. `svc model push` of 200 files with 1 changed, against a push of all 200 (goal ≤ 0.1×).
 * In process (the app's fetch, no sockets), on PGlite by default or the Postgres server with --server.
 *
 *   npx tsx bench/model-build.ts [--files 200] [--runs 5] [--server <url>] [--json]
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { runCli } from "../src/cli/main";
import { generateDemoDataset } from "../src/server/demo/dataset";
import { createTestPlatform } from "../src/server/testing/test-platform";
import { figure, printFigures, ratioAtMost, say, type Figure } from "./figures";

const { values: args } = parseArgs({
  options: {
    files: { type: "string", default: "200" },
    runs: { type: "string", default: "5" },
    server: { type: "string" },
    json: { type: "boolean", default: false },
  },
});
const FILES = Number(args.files);
const RUNS = Number(args.runs);
if (args.server) process.env.DATABASE_URL = args.server;

const cube = (i: number, extra = "") =>
  `cubes:\n  - name: c${i}\n    sql_table: orders\n    dimensions:\n      - { name: status, sql: status, type: string }\n    measures:\n      - { name: count, type: count }\n${extra}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = await mkdtemp(path.join(os.tmpdir(), "svc-bench-model-"));
const t = await createTestPlatform({ storage: args.server ? "postgres" : "pglite" });
const figures: Figure[] = [];
try {
  const duckdbPath = path.join(dir, "shop.duckdb");
  await generateDemoDataset({ path: duckdbPath, rows: 10_000 });
  const files = Array.from({ length: FILES }, (_, i) => ({ path: `cubes/c${i}.yml`, content: cube(i) }));
  const created = await t.api("POST", "/build/api/v1/deployments/", { name: "bench", dataSource: { type: "duckdb", path: duckdbPath }, dataModelFiles: files });
  const id = (await created.json()).id as number;
  const base = `/build/api/v1/deployments/${id}`;
  const prodQuery = (measure: string) => t.api("POST", `/api/v1/deployments/${id}/query`, { query: { measures: [measure] }, cache: "bypass" });

  // 1. merge-to-default → first production query using the change.
  const mergeTimes: number[] = [];
  const coldTimes: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const branch = (await (await t.api("POST", `${base}/dev-mode`, {})).json()).name as string;
    const measure = `m${run}`;
    const w = await t.api("PUT", `${base}/data-model/files`, {
      path: "cubes/c7.yml",
      content: cube(7, `      - { name: ${measure}, sql: quantity, type: sum }\n`),
    });
    if (!(await w.json()).valid) throw new Error("bench model invalid");
    await t.api("POST", `${base}/commit`, { message: `measure ${measure}` });
    const t0 = performance.now();
    const merged = await t.api("POST", `${base}/merge-to-default`, { branch });
    if (merged.status !== 200) throw new Error(`merge failed: ${merged.status} ${await merged.text()}`);
    const q = await prodQuery(`c7.${measure}`);
    if (q.status !== 200) throw new Error(`query failed: ${q.status}`);
    mergeTimes.push(performance.now() - t0);
    // Baseline: the same production query on an engine rebuilt from storage (what every other node does after the merge).
    await t.deps.queryEngines.invalidate(id);
    const c0 = performance.now();
    if ((await prodQuery(`c7.${measure}`)).status !== 200) throw new Error("cold query failed");
    coldTimes.push(performance.now() - c0);
  }
  const merge = median(mergeTimes);
  const cold = median(coldTimes);
  say(
    `merge-to-default (${FILES} files) → first production query: ${merge.toFixed(1)} ms (median of ${RUNS}); production query on an engine rebuilt from storage: ${cold.toFixed(1)} ms`,
  );
  figures.push(
    figure(
      `merge-to-default of a ${FILES}-file model → first production query using the change vs the same query on an engine rebuilt from storage`,
      merge,
      "ms",
      { baseline: cold },
    ),
  );

  // 2. svc model push: 1 changed of 200 vs all 200.
  const src = path.join(dir, "model");
  await mkdir(path.join(src, "cubes"), { recursive: true });
  for (const f of files) await writeFile(path.join(src, f.path), f.content);
  const svc = async (argv: string[]) => {
    let out = "";
    const code = await runCli(argv, {
      stdout: (s) => void (out += s),
      stderr: () => {},
      env: { SVC_BASE_URL: "http://svc.bench", SVC_API_KEY: t.adminToken, HOME: dir },
      fetch: (r) => Promise.resolve(t.app.fetch(r)),
    });
    if (code !== 0) throw new Error(`svc ${argv.join(" ")} failed: ${out}`);
    return out;
  };
  const allTimes: number[] = [];
  const oneTimes: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const branch = `push-${run}`;
    // A branch without the files: the full push uploads all of them.
    await t.api("POST", `${base}/branches`, { name: branch, from: "main" });
    const empty = await (await t.api("POST", `${base}/data-model/upload/start`, { branch, mode: "replace" })).json();
    await t.api("POST", `${base}/data-model/upload/finish`, { uploadId: empty.uploadId, message: "empty" });
    const a0 = performance.now();
    await svc(["model", "push", "--deployment", String(id), "--branch", branch, "--dir", src, "--json"]);
    allTimes.push(performance.now() - a0);
    await writeFile(path.join(src, "cubes/c3.yml"), cube(3, `      - { name: r${run}, sql: quantity, type: sum }\n`));
    const o0 = performance.now();
    const out = JSON.parse(await svc(["model", "push", "--deployment", String(id), "--branch", branch, "--dir", src, "--json"]));
    oneTimes.push(performance.now() - o0);
    if (out.uploaded.length !== 1) throw new Error(`expected 1 upload, got ${out.uploaded.length}`);
  }
  const all = median(allTimes);
  const one = median(oneTimes);
  say(`svc model push: ${FILES} files, 1 changed ${one.toFixed(1)} ms vs all ${FILES} ${all.toFixed(1)} ms (median of ${RUNS}) = ${(one / all).toFixed(3)}×`);
  figures.push(figure(`svc model push of ${FILES} files with 1 changed vs all ${FILES}`, one, "ms", { baseline: all, goal: ratioAtMost(0.1) }));
} finally {
  await t.close();
  await rm(dir, { recursive: true, force: true });
}
printFigures("model-build", figures);
