// @ts-check
/**
 * `npm run build`: the embed app (dist/embed, with its gzip and brotli forms), the demo host
 * page (dist/demo-host) and the server bundle (dist/server/main.mjs), each recorded in
 * dist/build-stamp.json with the hash of its inputs so that `npm start` rebuilds nothing.
 */
import { fileURLToPath } from "node:url";
import { buildBrowser } from "./build-browser.mjs";
import { buildServer } from "./build-server.mjs";
import { staleParts, writeStamp } from "./build-freshness.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { hashes } = staleParts(root);
try {
  await buildBrowser(root, { args: process.argv.slice(2) });
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
}
writeStamp(root, "browser", hashes.browser);
await buildServer();
writeStamp(root, "server", hashes.server);
