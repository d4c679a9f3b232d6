/**
 * The entry of the server bundle (dist/server/main.mjs, scripts/build-server.mjs) that
 * `npm start` loads: the same process as src/server/main.ts, started by the launcher.
 */
export { runPlatformProcess } from "./run";
