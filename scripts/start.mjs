// @ts-check
/**
 * `npm start`: the platform with its embedded defaults (PGlite, DuckDB) and the demo.
 *
 * Plain JavaScript that loads the server bundle (dist/server/main.mjs): a warm start runs no
 * TypeScript transform. What changed since the last build (a content hash of each part's
 * inputs, scripts/build-freshness.mjs) is built first: the server bundle in a fraction of a
 * second, the browser apps in a child process while the platform prepares its storage and the
 * demo, their brotli forms once the platform is up (at the lowest priority; gzip until then).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildBrowser } from "./build-browser.mjs";
import { staleParts, writeStamp } from "./build-freshness.mjs";
import { missingBrotli } from "./compress-assets.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { stale, hashes } = staleParts(root);

/** @type {Promise<void> | undefined} */
let browserBuild;
if (stale.includes("browser")) {
  process.stdout.write("Building the embed app and the demo host page (first start, or their sources changed)…\n");
  const started = Date.now();
  browserBuild = (async () => {
    await buildBrowser(root, { args: ["--logLevel", "warn"], embedEnv: { SVC_BROTLI: "later" } });
    // Recorded only once built: a failed build is tried again on the next start.
    writeStamp(root, "browser", hashes.browser);
    process.stdout.write(`Built the browser apps in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
  })();
  // Handled here, and again where the platform awaits it: a failure is reported once, by the platform.
  browserBuild.catch(() => {});
}
if (stale.includes("server")) {
  const { buildServer } = await import("./build-server.mjs");
  await buildServer();
  writeStamp(root, "server", hashes.server);
}

/** @type {{ runPlatformProcess(options?: { browserBuild?: Promise<void> }): void }} */
const server = await import(pathToFileURL(path.join(root, "dist", "server", "main.mjs")).href);
server.runPlatformProcess({ browserBuild });

// The brotli forms the last build left for later (or a stop interrupted), at the lowest
// priority, while the platform serves gzip; in a process group of its own, so that stopping the
// platform with Ctrl-C does not stop it half-way (each file is renamed into place when done).
void (browserBuild ?? Promise.resolve()).then(
  () => {
    if (!missingBrotli(path.join(root, "dist", "embed", "assets"))) return;
    const compress = spawn("nice", ["-n", "19", process.execPath, "scripts/compress-assets.mjs", "dist/embed/assets", "--brotli-only"], {
      cwd: root,
      stdio: "ignore",
      detached: true,
    });
    compress.on("error", () => {});
    compress.unref();
  },
  () => {},
);
