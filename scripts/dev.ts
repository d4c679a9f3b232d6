/**
 * `npm run dev`: the platform as `npm start` runs it (API, demo deployment, demo host page,
 * the same data directory), with the embed and the demo host page served from their sources by
 * Vite in front of the platform's two servers: a saved component shows in the open frame
 * without a reload (README, "Developing svc"; docs/development.md). Run under `tsx watch`, the
 * process restarts when a server file changes; the embed's files are not the server's.
 */
import { prepareTemplateEarly } from "../src/server/db/pglite-template";

// A new data directory's template is made on another core while the modules below load.
prepareTemplateEarly();
const { runPlatformProcess } = await import("../src/server/run");
const { createViteDevServers } = await import("./dev-vite");
runPlatformProcess({ dev: createViteDevServers() });
