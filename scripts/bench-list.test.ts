import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { benchesAt, HELPERS, unlistedScripts } from "../bench/benches";

const BENCH_DIR = fileURLToPath(new URL("../bench/", import.meta.url));

describe("npm run bench's list of benches", () => {
  const benches = benchesAt({ rows: "1000", postgres: "postgresql://postgres@127.0.0.1:5432/test" });

  it("has an entry for every script of bench/ that is not a helper (npm run bench refuses to start otherwise)", () => {
    expect(unlistedScripts(readdirSync(BENCH_DIR), benches)).toEqual([]);
  });

  it("names only scripts that exist, and helpers that exist", () => {
    for (const name of Object.keys(benches)) expect(existsSync(path.join(BENCH_DIR, `${name}.ts`)), name).toBe(true);
    for (const helper of HELPERS) expect(existsSync(path.join(BENCH_DIR, helper)), helper).toBe(true);
  });

  it("finds a script without an entry", () => {
    expect(unlistedScripts(["run.ts", "figures.ts", "new-figure.ts", "notes.md"], benches)).toEqual(["new-figure"]);
  });
});
