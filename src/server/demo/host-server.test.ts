import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../logger";
import { createTestPlatform, type TestPlatform } from "../testing/test-platform";
import { createDemoHostApp } from "./host-server";
import { seedDemo } from "./seed";

describe("demo host backend", () => {
  let t: TestPlatform;
  let dir: string;
  let host: ReturnType<typeof createDemoHostApp>;
  let publicId: string;
  beforeAll(async () => {
    t = await createTestPlatform();
    dir = mkdtempSync(path.join(tmpdir(), "svc-demohost-"));
    const seeded = (await seedDemo({ db: t.database.db, dataDir: dir, rows: 2000, adminUserId: t.adminUserId, demoHostOrigin: null, logger: silentLogger }))!;
    publicId = seeded.dashboardPublicId;
    // The host's backend talks to the platform over HTTP; here the platform is in-process.
    const platformFetch = ((input: RequestInfo | URL, init?: RequestInit) => t.app.fetch(new Request(input, init))) as typeof fetch;
    host = createDemoHostApp({
      platformUrl: "http://localhost:8080",
      adminToken: t.adminToken,
      deploymentId: seeded.deploymentId,
      dashboardPublicId: publicId,
      logger: silentLogger,
      fetch: platformFetch,
    });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("in dev mode serves the page the dev server makes from its source, and no file of the build", async () => {
    const asked: string[] = [];
    const dev = createDemoHostApp({
      platformUrl: "http://localhost:8080",
      adminToken: t.adminToken,
      deploymentId: 1,
      dashboardPublicId: publicId,
      logger: silentLogger,
      devPage: async (url) => {
        asked.push(url);
        return { html: "<!doctype html><title>from the source</title>", nonce: "n" };
      },
    });
    expect(await (await dev.request("/?dashboard=app")).text()).toContain("from the source");
    expect(asked).toEqual(["/?dashboard=app"]);
    // The dev server in front answers the page's files; dist/demo-host is not read.
    expect((await dev.request("/index.html")).status).toBe(404);
    expect(await (await dev.request("/config.json")).json()).toMatchObject({ dashboardPublicId: publicId });
  });

  it("tells the page where the platform and the dashboard are", async () => {
    const res = await host.request("/config.json");
    expect(await res.json()).toMatchObject({ platformOrigin: "http://localhost:8080", dashboardPublicId: publicId });
  });

  it("mints a single-use signed session for the chosen tenant", async () => {
    const res = await host.request("/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tenant: "globex-inc" }),
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    const { sessionId } = body;
    const exchange = await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null);
    expect(exchange.status).toBe(200);
    expect((await exchange.json()).embedTenant).toBe("globex-inc");
    expect((await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null)).status).toBe(401);
  });

  it("refuses an unknown tenant", async () => {
    const res = await host.request("/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tenant: "initech" }),
    });
    expect(res.status).toBe(400);
  });
});
