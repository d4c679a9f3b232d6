/**
 * Starts the real platform (fresh PGlite storage, small demo data set) and the fixture
 * origins for the browser tests. Run by Playwright's webServer.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { loadConfig } from "../../src/server/config";
import { createLogger } from "../../src/server/logger";
import { startPlatform } from "../../src/server/platform";
import { E2E } from "./env";

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), "svc-e2e-"));
const config = loadConfig({
  PORT: new URL(E2E.platformUrl).port,
  SVC_PUBLIC_URL: E2E.platformUrl,
  SVC_DATA_DIR: dataDir,
  SVC_ADMIN_TOKEN: E2E.adminToken,
  SVC_EMBED_ALLOWED_ORIGINS: [E2E.demoHostUrl, E2E.hostUrl].join(","),
  SVC_DEMO_HOST_PORT: new URL(E2E.demoHostUrl).port,
  SVC_DEMO_ROWS: "20000",
  SVC_LOG_LEVEL: "warn",
});
const platform = await startPlatform(config, createLogger("warn", (l) => process.stderr.write(l + "\n")));

function fixtureApp(kind: "host" | "attacker") {
  const app = new Hono();
  app.get("/:page{[a-z-]+\\.html}", (c) => {
    const file = path.join(here, "..", "fixtures", c.req.param("page"));
    try {
      const html = readFileSync(file, "utf8")
        .replaceAll("__PLATFORM_URL__", E2E.platformUrl)
        .replaceAll("__ATTACKER_URL__", E2E.attackerUrl)
        .replaceAll("__ROLE__", kind);
      return c.html(html);
    } catch {
      return c.text("no such fixture", 404);
    }
  });
  return app;
}
serve({ fetch: fixtureApp("host").fetch, port: Number(new URL(E2E.hostUrl).port), hostname: "127.0.0.1" });
serve({ fetch: fixtureApp("attacker").fetch, port: Number(new URL(E2E.attackerUrl).port), hostname: "127.0.0.1" });

process.stderr.write(`e2e platform ready at ${E2E.platformUrl}\n`);
const stop = async () => {
  await platform.stop();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
