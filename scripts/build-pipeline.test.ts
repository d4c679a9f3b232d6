import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { hashInputs, staleParts, writeStamp } from "./build-freshness.mjs";
import { compressAssets, missingBrotli } from "./compress-assets.mjs";

/**
 * What `npm start` and `npm run build` stand on: build freshness by content (not by time), the
 * compressed forms of the assets, and the server bundle that finds its files where the sources
 * are (migrations, the demo's data model) however far it is from them.
 */
const root = fileURLToPath(new URL("..", import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), "svc-build-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("build freshness", () => {
  const project = path.join(scratch, "project");
  mkdirSync(path.join(project, "src", "embed"), { recursive: true });
  mkdirSync(path.join(project, "dist", "embed"), { recursive: true });
  mkdirSync(path.join(project, "dist", "demo-host"), { recursive: true });
  mkdirSync(path.join(project, "dist", "server"), { recursive: true });
  for (const out of ["dist/embed/index.html", "dist/demo-host/index.html", "dist/server/main.mjs"]) writeFileSync(path.join(project, out), "built");
  const source = path.join(project, "src", "embed", "app.tsx");
  writeFileSync(source, "export const a = 1;\n");
  writeFileSync(path.join(project, "src", "embed", "app.test.tsx"), "test 1");

  it("is stale without a stamp, fresh once stamped, and ignores times and tests", () => {
    expect(staleParts(project).stale).toEqual(["browser", "server"]);
    const { hashes } = staleParts(project);
    writeStamp(project, "browser", hashes.browser);
    writeStamp(project, "server", hashes.server);
    expect(staleParts(project).stale).toEqual([]);
    // A touch, a checkout: the same content, nothing to build.
    utimesSync(source, new Date(), new Date(Date.now() + 60_000));
    writeFileSync(path.join(project, "src", "embed", "app.test.tsx"), "test 2");
    expect(staleParts(project).stale).toEqual([]);
  });

  it("is stale after an edit, fresh again once the edit is undone, and stale when an output is gone", () => {
    writeFileSync(source, "export const a = 2;\n");
    expect(staleParts(project).stale).toEqual(["browser", "server"]);
    writeFileSync(source, "export const a = 1;\n");
    expect(staleParts(project).stale).toEqual([]);
    rmSync(path.join(project, "dist", "server", "main.mjs"));
    expect(staleParts(project).stale).toEqual(["server"]);
  });

  it("hashes paths as well as contents", () => {
    const other = path.join(scratch, "renamed");
    mkdirSync(path.join(other, "src", "embed"), { recursive: true });
    writeFileSync(path.join(other, "src", "embed", "app2.tsx"), "export const a = 1;\n");
    expect(hashInputs(other, ["src"])).not.toBe(hashInputs(project, ["src"]));
  });
});

describe("compressed assets", () => {
  it("writes gzip and brotli forms that decompress to the file, and leaves small files alone", async () => {
    const dir = path.join(scratch, "assets");
    mkdirSync(dir);
    const big = "export const rows = [" + Array.from({ length: 400 }, (_, i) => `{ id: ${i}, name: "row ${i}" }`).join(",") + "];\n";
    writeFileSync(path.join(dir, "big.js"), big);
    writeFileSync(path.join(dir, "small.js"), "export {};\n");
    writeFileSync(path.join(dir, "image.png"), Buffer.alloc(4096));
    expect(missingBrotli(dir)).toBe(true);
    await compressAssets(dir, { gzip: true, brotli: false });
    expect(missingBrotli(dir)).toBe(true);
    expect(gunzipSync(readFileSync(path.join(dir, "big.js.gz"))).toString()).toBe(big);
    expect(() => readFileSync(path.join(dir, "big.js.br"))).toThrow();
    await compressAssets(dir, { gzip: false, brotli: true });
    expect(missingBrotli(dir)).toBe(false);
    expect(missingBrotli(path.join(dir, "missing"))).toBe(false);
    const br = readFileSync(path.join(dir, "big.js.br"));
    expect(brotliDecompressSync(br).toString()).toBe(big);
    expect(br.length).toBeLessThan(big.length / 4);
    expect(() => readFileSync(path.join(dir, "small.js.gz"))).toThrow();
    expect(() => readFileSync(path.join(dir, "image.png.gz"))).toThrow();
  });
});

describe("server bundle", () => {
  it("points each source file's import.meta.url at that file, relative to the bundle, with no absolute path baked in", () => {
    const out = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { buildServer } from ${JSON.stringify(path.join(root, "scripts", "build-server.mjs"))};
         const bundle = await buildServer(${JSON.stringify(path.join(scratch, "bundle", "dist", "server", "main.mjs"))});
         process.stdout.write(bundle);`,
      ],
      { cwd: root, encoding: "utf8" },
    );
    const bundle = readFileSync(out, "utf8");
    // Built four folders below the checkout: the migrations are found through the template module's own URL.
    expect(bundle).toContain(`new URL("${path.relative(path.dirname(out), path.join(root, "src/server/db/pglite-template.ts"))}", import.meta.url).href`);
    expect(bundle).not.toMatch(/file:\/\/\//);
    expect(bundle).not.toContain(`"${root}`);
  });
});
