// @ts-check
/**
 * `npm run build`: the embed app (dist/embed, with its gzip and brotli forms), the demo host
 * page (dist/demo-host) and the server bundle (dist/server/main.mjs), each recorded in
 * dist/build-stamp.json with the hash of its inputs so that `npm start` rebuilds nothing.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildServer } from "./build-server.mjs";
import { staleParts, writeStamp } from "./build-freshness.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { hashes } = staleParts(root);
const vite = path.join(root, "node_modules", "vite", "bin", "vite.js");
for (const argv of [["build"], ["build", "-c", "vite.demo-host.config.ts"]]) {
  const r = spawnSync(process.execPath, [vite, ...argv, ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
writeStamp(root, "browser", hashes.browser);
await buildServer();
writeStamp(root, "server", hashes.server);
