/**
 * The browser test rig: the real platform (fresh PGlite storage, small demo data set, demo
 * host) plus fixture origins. The host and attacker origins serve e2e/fixtures/*.html with
 * __PLATFORM_URL__, __ATTACKER_URL__, __ECHO_URL__ and __ROLE__ filled in, and /host-kit.js,
 * the host kit bundled for the browser at start-up; /__session mints a signed demo session; /__requests lists the paths each was asked for. The echo origin serves echo.html (a
 * blank page that sends every message back), the baseline of the bridge benchmark.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { build } from "vite";
import { loadConfig } from "../../src/server/config";
import { createLogger } from "../../src/server/logger";
import { startPlatform } from "../../src/server/platform";
import type { RigAddresses } from "./env";

const here = path.dirname(fileURLToPath(import.meta.url));
const fixturesDir = path.join(here, "..", "fixtures");

/** Options of `startRig`. */
export interface RigOptions {
  /** Where everything listens. */
  addresses: RigAddresses;
  /** Orders in the demo data set; default 20000 (enough for real numbers, fast to generate). */
  demoRows?: number;
  /** Platform log level; default "warn". */
  logLevel?: "debug" | "info" | "warn" | "error";
}

export interface RunningRig {
  addresses: RigAddresses;
  stop(): Promise<void>;
}

/** Bundles e2e/fixtures/host-kit-entry.ts (the host kit and a tiny recorder) into one classic script. */
async function bundleHostKit(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: "silent",
    publicDir: false,
    build: {
      write: false,
      emptyOutDir: false,
      minify: false,
      target: "es2022",
      lib: { entry: path.join(fixturesDir, "host-kit-entry.ts"), formats: ["iife"], name: "svcHostKitFixture", fileName: () => "host-kit.js" },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const output of outputs) {
    if (!("output" in output)) continue;
    const chunk = output.output.find((o) => o.type === "chunk");
    if (chunk && chunk.type === "chunk") return chunk.code;
  }
  throw new Error("host kit bundle produced no script");
}

function fixtureApp(role: "host" | "attacker" | "echo", addresses: RigAddresses, hostKit: string) {
  const app = new Hono();
  // Every path asked of this origin, in order, for a test to read back at /__requests (whether
  // the embed fetched anything from the attacker, say).
  const requests: string[] = [];
  app.use(async (c, next) => {
    if (c.req.path !== "/__requests") requests.push(c.req.path);
    await next();
  });
  app.get("/__requests", (c) => c.json(requests));
  app.get("/host-kit.js", (c) => c.body(hostKit, 200, { "content-type": "text/javascript; charset=utf-8" }));
  // A host's backend in miniature: a fresh signed session of the demo deployment for each call
  // (fixture pages that renew their session, as host-check.html does).
  app.get("/__session", async (c) => {
    const config = (await (await fetch(`${addresses.demoHostUrl}/config.json`)).json()) as { deploymentId: number; dashboardPublicId: string };
    const response = await fetch(`${addresses.platformUrl}/api/v1/embed/generate-session`, {
      method: "POST",
      headers: { authorization: `Bearer ${addresses.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ deploymentId: config.deploymentId, externalId: "ada@acme.example", embedTenantName: "acme-corp" }),
    });
    const { sessionId } = (await response.json()) as { sessionId: string };
    return c.json({ sessionId, dashboardPublicId: config.dashboardPublicId, platformUrl: addresses.platformUrl });
  });
  app.get("/:page{[a-z-]+\\.html}", (c) => {
    const page = c.req.param("page");
    // The echo origin serves the echo page only: it stands in for "some other site".
    if (role === "echo" && page !== "echo.html") return c.text("no such fixture", 404);
    try {
      const html = readFileSync(path.join(fixturesDir, page), "utf8")
        .replaceAll("__PLATFORM_URL__", addresses.platformUrl)
        .replaceAll("__ATTACKER_URL__", addresses.attackerUrl)
        .replaceAll("__HOST_URL__", addresses.hostUrl)
        .replaceAll("__ECHO_URL__", addresses.echoUrl)
        .replaceAll("__ROLE__", role);
      return c.html(html);
    } catch {
      return c.text("no such fixture", 404);
    }
  });
  return app;
}

function listen(fetch: (req: Request) => Response | Promise<Response>, url: string): Promise<Server> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: Number(port), hostname: hostname === "localhost" ? undefined : hostname }, () => resolve(server as Server));
    (server as Server).once("error", reject);
  });
}

/** Starts the platform and the fixture origins; `stop()` ends all of them and removes the storage. */
export async function startRig(options: RigOptions): Promise<RunningRig> {
  const { addresses } = options;
  const logLevel = options.logLevel ?? "warn";
  const dataDir = mkdtempSync(path.join(tmpdir(), "svc-e2e-"));
  const config = loadConfig({
    PORT: new URL(addresses.platformUrl).port,
    SVC_PUBLIC_URL: addresses.platformUrl,
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_TOKEN: addresses.adminToken,
    SVC_EMBED_ALLOWED_ORIGINS: [addresses.demoHostUrl, addresses.hostUrl].join(","),
    SVC_DEMO_HOST_PORT: new URL(addresses.demoHostUrl).port,
    SVC_DEMO_ROWS: String(options.demoRows ?? 20_000),
    SVC_LOG_LEVEL: logLevel,
  });
  const [platform, hostKit] = await Promise.all([
    startPlatform(
      config,
      createLogger(logLevel, (l) => process.stderr.write(l + "\n")),
    ),
    bundleHostKit(),
  ]);
  const servers = await Promise.all([
    listen(fixtureApp("host", addresses, hostKit).fetch, addresses.hostUrl),
    listen(fixtureApp("attacker", addresses, hostKit).fetch, addresses.attackerUrl),
    listen(fixtureApp("echo", addresses, hostKit).fetch, addresses.echoUrl),
  ]);
  return {
    addresses,
    async stop() {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
      await platform.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
