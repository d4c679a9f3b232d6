// @ts-check
/**
 * Whether the builds under dist/ are those of the sources: a hash of the inputs' contents per
 * part (the browser apps, the server bundle), kept in dist/build-stamp.json by scripts/build.mjs.
 * A content hash, not modification times: a checkout, a `touch` or a copy rebuilds nothing, and
 * an edit undone is no change. Plain JavaScript, so that `npm start` needs no TypeScript loader.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** What each part of the build is made from (files or folders, tests left out). */
export const BUILD_INPUTS = {
  browser: [
    "index.html",
    "vite.config.ts",
    "vite.demo-host.config.ts",
    "scripts/build-browser.mjs",
    "scripts/compress-assets.mjs",
    "public",
    "src/embed",
    "src/protocol",
    "src/host",
    "src/schema",
    "src/client",
    "src/server/demo/host-page",
    "package-lock.json",
  ],
  server: ["src", "package-lock.json", "scripts/build-server.mjs"],
};

/** The outputs each part must have. */
export const BUILD_OUTPUTS = {
  browser: ["dist/embed/index.html", "dist/demo-host/index.html"],
  server: ["dist/server/main.mjs"],
};

export const STAMP_FILE = "dist/build-stamp.json";

/**
 * The hash of the inputs' paths and contents, in a stable order.
 * @param {string} root
 * @param {string[]} inputs
 */
export function hashInputs(root, inputs) {
  const hash = createHash("sha256");
  /** @param {string} rel */
  const visit = (rel) => {
    const abs = path.join(root, rel);
    if (!existsSync(abs)) return;
    if (statSync(abs).isDirectory()) {
      for (const entry of readdirSync(abs).sort()) visit(path.join(rel, entry));
    } else if (!/\.test\.tsx?$/.test(rel)) {
      hash.update(`${rel}\0`).update(readFileSync(abs)).update("\0");
    }
  };
  inputs.forEach(visit);
  return hash.digest("hex");
}

/**
 * The hashes the outputs under dist/ were built from (none when nothing was built).
 * @param {string} root
 * @returns {Record<string, string>}
 */
export function readStamp(root) {
  try {
    return JSON.parse(readFileSync(path.join(root, STAMP_FILE), "utf8"));
  } catch {
    return {};
  }
}

/**
 * Records that `part` was built from inputs of this hash.
 * @param {string} root
 * @param {"browser" | "server"} part
 * @param {string} hash
 */
export function writeStamp(root, part, hash) {
  const stamp = { ...readStamp(root), [part]: hash };
  mkdirSync(path.join(root, "dist"), { recursive: true });
  writeFileSync(path.join(root, STAMP_FILE), JSON.stringify(stamp, null, 2) + "\n");
}

/**
 * The parts whose outputs are missing or were built from other inputs, with each part's hash.
 * @param {string} root
 * @returns {{ stale: ("browser" | "server")[], hashes: Record<"browser" | "server", string> }}
 */
export function staleParts(root) {
  const stamp = readStamp(root);
  const hashes = { browser: hashInputs(root, BUILD_INPUTS.browser), server: hashInputs(root, BUILD_INPUTS.server) };
  /** @type {("browser" | "server")[]} */
  const parts = ["browser", "server"];
  const stale = parts.filter((part) => stamp[part] !== hashes[part] || BUILD_OUTPUTS[part].some((p) => !existsSync(path.join(root, p))));
  return { stale, hashes };
}

/**
 * True when the browser apps need building (benches and the cluster script build them alone).
 * @param {string} root
 */
export function buildIsStale(root) {
  return staleParts(root).stale.includes("browser");
}
