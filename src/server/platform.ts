import { existsSync, readFileSync } from "node:fs";
import type { RequestListener, Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getRequestListener } from "@hono/node-server";
import { createApp } from "./app";
import type { AppDeps } from "./context";
import { aiSettingsOf, type Config } from "./config";
import { loadDuckDb } from "./datasources/duckdb-data-source";
import { openDatabase } from "./db/connection";
import type { Logger } from "./logger";
import { configurePythonSandbox } from "./modules/apps/python-sandbox";
import { bootstrapAccount } from "./bootstrap";
import { createSecretBox, loadMasterKey } from "./crypto/secret-box";
import { issueDemoHostKey, prepareDemoDataset, seedDemo } from "./demo/seed";
import { startDemoHost } from "./demo/host-server";
import { createPlatformServices } from "./platform-services";
import { createLingeringServer } from "./http/lingering-close";
import { behindFront, type DevFront, type DevServers } from "./dev-front";
import { startClusterNode, type ClusterNode } from "./cluster/node";
import { createRedisRateLimitStore, setRateLimitStore } from "./cluster/rate-limit-store";
import { createSignInLink, signInUrl } from "./modules/auth/service";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
/** How long after listening the platform waits before its background warm-ups (DuckDB, the Python wall). */
const WARM_UP_DELAY_MS = 1500;

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version?: string }).version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

export interface RunningPlatform {
  storageKind: "pglite" | "postgres";
  /** The port the platform listens on (the one asked for, or the one the system chose for 0). */
  port: number;
  urls: { api: string; demoHost: string | null; demoDashboard: string | null };
  adminToken: string | null;
  /** The admin user (created on first start). */
  adminUserId: number;
  /**
   * First start with the demo: a one-time link signing the admin in to the demo dashboard in
   * private mode (to be printed once, like the admin key; only its hash is stored).
   */
  adminSignIn: { url: string; expiresAt: Date } | null;
  /** This process as a node of the cluster: its id, job runner and invalidation bus. */
  node: ClusterNode;
  stop(): Promise<void>;
}

/**
 * The platform's HTTP server, its listener set once the app exists: a dev server in front
 * (`npm run dev`) needs the server first, for its WebSocket, and the app needs the dev server.
 */
function createPlatformServer(): { server: Server; setListener(listener: RequestListener): void } {
  let listener: RequestListener = (_req, res) => res.writeHead(503).end();
  // A body refused unread closes its connection without losing the answer (http/lingering-close.ts).
  const server = createLingeringServer({}, (req, res) => listener(req, res));
  return { server, setListener: (l) => (listener = l) };
}

function listen(server: Server, port: number, hostname?: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => resolve(server));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // In-flight requests finish; idle keep-alive sockets are closed now.
    server.closeIdleConnections?.();
  });
}

export interface PlatformOptions {
  /**
   * Development (`npm run dev`, scripts/dev.ts): dev servers in front of the platform's and the
   * demo host's HTTP servers serve the embed and the demo host page from their sources with hot
   * reload, instead of the build in dist/.
   */
  dev?: DevServers;
  /**
   * The browser build under way (`npm start` on a first start or after a change builds the
   * browser apps while storage and the demo are prepared): awaited before the platform looks
   * for dist/embed. A failed build stops the start.
   */
  browserBuild?: Promise<void>;
}

/** Milliseconds of each step of the start, for the debug log (docs/benchmarks.md "Start-up"). */
function stepClock() {
  let last = performance.now();
  const laps: Record<string, number> = {};
  return {
    laps,
    lap(step: string) {
      const now = performance.now();
      laps[step] = Math.round(now - last);
      last = now;
    },
  };
}

/** Starts everything `npm start` runs: storage, the demo, the platform server, the demo host. */
export async function startPlatform(config: Config, logger: Logger, options: PlatformOptions = {}): Promise<RunningPlatform> {
  // The demo's data file needs no platform storage: it is prepared while the database opens.
  const steps = stepClock();
  const dataset = config.SVC_DEMO === "on" ? prepareDemoDataset({ dataDir: config.SVC_DATA_DIR, rows: config.SVC_DEMO_ROWS, logger }) : null;
  dataset?.catch(() => {});
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.SVC_DATA_DIR });
  steps.lap("storage");
  const rateLimits = config.REDIS_URL ? createRedisRateLimitStore(config.REDIS_URL) : null;
  if (rateLimits) setRateLimitStore(database.db, rateLimits);
  const secretBox = createSecretBox(loadMasterKey({ secret: config.SVC_SECRET_KEY, dataDir: config.SVC_DATA_DIR }));
  const boot = await bootstrapAccount(database.db, {
    adminEmail: config.SVC_ADMIN_EMAIL,
    adminToken: config.SVC_ADMIN_TOKEN,
    allowedOrigins: config.SVC_EMBED_ALLOWED_ORIGINS,
    initialAllowedOrigins: config.demoHostOrigin ? [config.demoHostOrigin] : [],
  });
  steps.lap("account");

  // The node joins the cluster before it listens: other nodes' invalidations reach it from its
  // first request. Its row in cluster_nodes is this process's one heartbeat (pods, node list).
  const node = await startClusterNode({
    db: database.db,
    databaseUrl: config.DATABASE_URL,
    logger,
    version: packageVersion(),
    address: `${config.HOST ?? "0.0.0.0"}:${config.PORT}`,
    heartbeatMs: config.SVC_HEARTBEAT_MS,
    jobLeaseMs: config.SVC_JOB_LEASE_MS,
    logRetentionDays: config.SVC_LOG_RETENTION_DAYS,
  });
  steps.lap("cluster node");
  const services = await createPlatformServices({
    db: database.db,
    secretBox,
    logger,
    regions: config.SVC_REGIONS,
    clusterNode: node,
    jobs: node.jobs,
    smtp: config.SVC_SMTP_URL ? { url: config.SVC_SMTP_URL, from: config.SVC_SMTP_FROM } : undefined,
  });
  steps.lap("services");
  let demo: Awaited<ReturnType<typeof seedDemo>> | null = null;
  if (config.SVC_DEMO === "on") {
    demo = await seedDemo({
      db: database.db,
      dataDir: config.SVC_DATA_DIR,
      rows: config.SVC_DEMO_ROWS,
      adminUserId: boot.adminUserId,
      demoHostOrigin: config.demoHostOrigin,
      logger,
      dataset: dataset!,
    });
    steps.lap("demo");
  }

  // Private mode needs a platform login, and the admin created just now has no password: a
  // one-time link (docs/decisions.md "First sign-in").
  let adminSignIn: RunningPlatform["adminSignIn"] = null;
  if (boot.created && demo) {
    const link = await createSignInLink(database.db, boot.adminUserId);
    adminSignIn = { url: signInUrl(`${config.publicUrl}/embed/dashboard/${demo.dashboardPublicId}`, link.token), expiresAt: link.expiresAt };
  }

  await options.browserBuild;
  if (options.browserBuild) steps.lap("browser build (rest)");
  const embedDir = path.join(repoRoot, "dist", "embed");
  const http = createPlatformServer();
  const devPlatform = { dataDir: path.resolve(config.SVC_DATA_DIR), publicUrl: config.publicUrl };
  const embedDev: DevFront | null = options.dev ? await options.dev.embed(http.server, devPlatform) : null;
  const deps: AppDeps = {
    db: database.db,
    logger,
    secretBox,
    publicUrl: config.publicUrl,
    accessLog: { slowRequestMs: config.SVC_SLOW_REQUEST_MS },
    ai: aiSettingsOf(config),
    embedAssets: embedDev ? { dev: embedDev } : existsSync(path.join(embedDir, "index.html")) ? { dir: embedDir } : undefined,
    ...services.deps,
  };
  if (!deps.embedAssets) logger.warn("embed app not built; /embed/* answers 503 until `npm run build`");
  const python = configurePythonSandbox({ reports: config.SVC_PYTHON_REPORTS, workers: config.SVC_PYTHON_WORKERS, perTenant: config.SVC_PYTHON_TENANT_RUNS });
  const app = createApp(deps);
  http.setListener(behindFront(embedDev, getRequestListener(app.fetch, { hostname: config.HOST })));
  const server = await listen(http.server, config.PORT, config.HOST);
  node.jobs.start();
  steps.lap("app and listen");
  // Off the start path and out of the way of the first requests: DuckDB's package (~0.3 s of
  // native loading that holds the event loop) and the Python sandbox's wall (its probes are
  // processes forked from this one). Whatever needs either first loads or verifies it itself.
  setTimeout(() => {
    void loadDuckDb().catch(() => {});
    void python.verifyWall().then((wall) => {
      const fields = { network: wall.network, memory: wall.memory };
      if (wall.enabled && wall.network === "namespace") logger.info(wall.message, fields);
      else logger.warn(wall.message, fields);
    });
  }, WARM_UP_DELAY_MS).unref();

  let demoHost: { stop(): Promise<void>; url: string } | null = null;
  if (config.demoHostOrigin && demo) {
    // The demo host's backend gets a key of its own, replaced on every start.
    const adminToken = await issueDemoHostKey(database.db, boot.adminUserId);
    demoHost = await startDemoHost({
      port: config.SVC_DEMO_HOST_PORT,
      platformUrl: config.publicUrl,
      adminToken,
      deploymentId: demo.deploymentId,
      dashboardPublicId: demo.dashboardPublicId,
      appDashboardPublicId: demo.appDashboardPublicId ?? null,
      logger,
      dev: options.dev ? (server) => options.dev!.demoHost(server, devPlatform) : undefined,
    });
    steps.lap("demo host");
  }
  logger.debug("start-up steps (ms)", steps.laps);

  return {
    storageKind: database.kind,
    port: (server.address() as AddressInfo).port,
    adminToken: boot.generatedToken,
    adminUserId: boot.adminUserId,
    adminSignIn,
    urls: {
      api: `${config.publicUrl}/api/v1`,
      demoHost: demoHost?.url ?? null,
      demoDashboard: demo ? `${config.publicUrl}/embed/dashboard/${demo.dashboardPublicId}` : null,
    },
    node,
    async stop() {
      // Draining: the health check answers 503 while requests are still served, so a balancer
      // moves new requests to the other nodes before this one stops listening.
      await node.drain();
      if (config.SVC_DRAIN_DELAY_MS > 0) await new Promise((resolve) => setTimeout(resolve, config.SVC_DRAIN_DELAY_MS));
      // The dev server's WebSocket clients would keep the server open.
      await embedDev?.close();
      // In-flight requests finish; then running jobs finish or go back to the queue.
      await Promise.all([closeServer(server), demoHost?.stop()]);
      await node.stop({ drainMs: config.SVC_JOB_DRAIN_MS });
      await services.close();
      await rateLimits?.close?.();
      await database.close();
    },
  };
}
