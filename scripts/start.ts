/**
 * `npm start`: builds the browser apps when their sources changed, then runs the platform
 * with its embedded defaults (PGlite, DuckDB) and the demo.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { buildIsStale } from "./build-freshness";

const root = fileURLToPath(new URL("..", import.meta.url));

if (buildIsStale(root)) {
  process.stdout.write("Building the embed app and the demo host page (first start, or sources changed)…\n");
  const started = Date.now();
  const r = spawnSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) {
    process.stderr.write("svc: the build failed; see the output above.\n");
    process.exit(r.status ?? 1);
  }
  process.stdout.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
}

await import("../src/server/main");
