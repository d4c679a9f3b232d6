import { ConfigError, describeListenAddress, loadConfig } from "./config";
import { DatabaseStartError } from "./db/connection";
import { createLogger } from "./logger";
import { startPlatform, type PlatformOptions } from "./platform";

/**
 * config → platform (database, services, demo, app, listen). Prints the URLs and, once, a
 * generated admin key and the admin's one-time private-mode sign-in link; stops cleanly on
 * SIGTERM and SIGINT. `npm start` (main.ts) and `npm run dev` (scripts/dev.ts, with dev
 * servers in front) both run it.
 */
export async function runPlatform(options: PlatformOptions = {}): Promise<void> {
  const startedAt = performance.now();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(err.message + "\n");
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.SVC_LOG_LEVEL);
  let platform;
  try {
    platform = await startPlatform(config, logger, options);
  } catch (err) {
    if (err instanceof DatabaseStartError) {
      process.stderr.write(`svc: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const { urls, adminToken, adminSignIn } = platform;
  const newLink = `curl -X POST -H "Authorization: Bearer ${adminToken ?? "<admin key>"}" ${urls.api}/users/${platform.adminUserId}/sign-in-links`;
  const lines = [
    "",
    `  svc is running (${platform.storageKind} storage, started in ${Math.round(performance.now() - startedAt)} ms)`,
    ...(options.dev ? ['  Dev mode:       the embed and the demo host page from their sources, reloaded on save (README, "Developing svc")'] : []),
    `  Listening on:   ${describeListenAddress(config)}`,
    `  Platform API:   ${urls.api}`,
    `  OpenAPI:        ${urls.api}/openapi.json`,
    ...(urls.demoHost ? [`  Demo host page: ${urls.demoHost}   <- open this`] : []),
    ...(urls.demoDashboard ? [`  Demo dashboard: ${urls.demoDashboard} (private mode: signed-in platform users)`] : []),
    ...(adminSignIn
      ? [
          "",
          `  Admin sign-in link for private mode (one use, valid ${Math.round((adminSignIn.expiresAt.getTime() - Date.now()) / 60_000)} minutes, shown once):`,
          `    ${adminSignIn.url}`,
        ]
      : ["", "  Private-mode sign-in: the admin's password, or a new one-time link (once a dashboard is published):", `    ${newLink}`]),
    ...(adminToken
      ? ["", `  Admin API key (shown once, store it now): ${adminToken}`, `  Try it: curl -H "Authorization: Bearer ${adminToken}" ${urls.api}/deployments`]
      : ["", "  Admin API key: the one created on first start (or SVC_ADMIN_TOKEN)."]),
    "",
  ];
  // The handlers before the banner: whoever reads the banner may stop the process at once.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal });
    const force = setTimeout(() => process.exit(1), 15_000 + config.SVC_DRAIN_DELAY_MS + config.SVC_JOB_DRAIN_MS);
    force.unref();
    await platform.stop();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  process.stdout.write(lines.join("\n") + "\n");
}

/** Runs the platform as the process's one job: a failure to start is one line on stderr and exit status 1. */
export function runPlatformProcess(options: PlatformOptions = {}): void {
  void runPlatform(options).catch((err) => {
    process.stderr.write(`svc: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
