/**
 * Playwright's webServer: the browser test rig (serve.ts) bundled as `npm start` runs the
 * platform (scripts/build-server.mjs), then run — about a second of CPU to load where tsx's
 * transform of several hundred modules took five, and Playwright waits on it before any test.
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { processBundle } from "../../scripts/build-server.mjs";

const bundle = await processBundle(path.join(path.dirname(fileURLToPath(import.meta.url)), "serve.ts"));
await import(pathToFileURL(bundle).href);
