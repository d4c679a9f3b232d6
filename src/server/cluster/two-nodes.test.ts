import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app";
import { bootstrapAccount } from "../bootstrap";
import type { AppDeps } from "../context";
import { createSecretBox } from "../crypto/secret-box";
import { openDatabase, type Database } from "../db/connection";
import { dataModelFiles } from "../db/schema";
import { generateDemoDataset } from "../demo/dataset";
import { demoModelFiles } from "../demo/seed";
import { silentLogger } from "../logger";
import { createPlatformServices } from "../platform-services";
import { createScratchPostgres } from "../testing/test-platform";
import { publishInvalidation } from "./invalidation-bus";
import { startClusterNode, type ClusterNode } from "./node";

interface Node {
  name: string;
  database: Database;
  node: ClusterNode;
  app: ReturnType<typeof createApp>;
  close(): Promise<void>;
  api(method: string, path: string, body?: unknown, token?: string | null): Promise<Response>;
}

/** Waits until `check` holds (invalidations cross nodes asynchronously, within milliseconds). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

// Two API nodes in one process, each with its own pool, services, caches and listener, on one
// Postgres database: what two processes behind a balancer share is exactly what they share here.
describe.skipIf(!process.env.DATABASE_URL)("two nodes on one Postgres database", () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let a: Node;
  let b: Node;
  const adminToken = "svc_" + randomBytes(24).toString("base64url");
  const secretBox = createSecretBox(randomBytes(32));
  const dir = mkdtempSync(path.join(tmpdir(), "svc-two-nodes-"));
  let deploymentId: number;

  async function startNode(name: string, url: string): Promise<Node> {
    const database = await openDatabase({ databaseUrl: url, dataDir: ":memory:", poolSize: 5 });
    if (name === "A") await bootstrapAccount(database.db, { adminEmail: "admin@example.com", adminToken });
    const node = await startClusterNode({ db: database.db, databaseUrl: url, logger: silentLogger, version: "test", heartbeatMs: 200 });
    const services = await createPlatformServices({ db: database.db, secretBox, logger: silentLogger, clusterNode: node });
    const deps: AppDeps = { db: database.db, logger: silentLogger, secretBox, publicUrl: "http://localhost", ...services.deps };
    const app = createApp(deps);
    return {
      name,
      database,
      node,
      app,
      api(method, p, body, token = adminToken) {
        const headers: Record<string, string> = {};
        if (token) headers.authorization = `Bearer ${token}`;
        if (body !== undefined) headers["content-type"] = "application/json";
        return Promise.resolve(app.request(p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
      },
      async close() {
        await node.stop({ drainMs: 100 });
        await services.close();
        await database.close();
      },
    };
  }

  async function embedToken(via: Node) {
    const gen = await via.api("POST", "/api/v1/embed/generate-session", { deploymentId, externalId: "viewer-1", embedTenantName: "acme-corp" });
    expect(gen.status, await gen.clone().text()).toBe(200);
    const { sessionId } = (await gen.json()) as { sessionId: string };
    const ex = await via.api("POST", "/api/v1/embed/session/token", { sessionId }, null);
    expect(ex.status).toBe(200);
    return { sessionId, token: ((await ex.json()) as { token: string }).token };
  }

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    a = await startNode("A", scratch.url);
    b = await startNode("B", scratch.url);
    const duckdbPath = path.join(dir, "shop.duckdb");
    await generateDemoDataset({ path: duckdbPath, rows: 2000 });
    const res = await a.api("POST", "/build/api/v1/deployments/", {
      name: "shop",
      dataSource: { type: "duckdb", path: duckdbPath },
      dataModelFiles: demoModelFiles(),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    deploymentId = ((await res.json()) as { id: number }).id;
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("registers both nodes, each listening for the other's invalidations", async () => {
    expect(a.node.bus.crossNode && b.node.bus.crossNode).toBe(true);
    const res = await b.api("GET", "/api/v1/cluster/nodes");
    expect(res.status).toBe(200);
    const ids = ((await res.json()) as { items: { id: string; status: string }[] }).items.map((n) => n.id);
    expect(ids).toEqual(expect.arrayContaining([a.node.nodeId, b.node.nodeId]));
    expect((await a.api("GET", "/api/v1/cluster/nodes", undefined, null)).status).toBe(401);
    const health = await b.api("GET", "/api/v1/health", undefined, null);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ready" });
  });

  it("refuses on node B, at once, an embed session revoked on node A", async () => {
    const { sessionId, token } = await embedToken(a);
    const meta = `/api/v1/deployments/${deploymentId}/meta`;
    expect((await b.api("GET", meta, undefined, token)).status).toBe(200);
    expect((await a.api("POST", "/api/v1/embed/session/revoke", { sessionId })).status).toBe(204);
    // No waiting: the very next request on B is refused.
    expect((await b.api("GET", meta, undefined, token)).status).toBe(401);
  });

  it("stops verifying on node B a signing key retired on node A, although B had it cached", async () => {
    const before = await embedToken(a);
    const meta = `/api/v1/deployments/${deploymentId}/meta`;
    // B verifies (and caches) the key that signed this token.
    expect((await b.api("GET", meta, undefined, before.token)).status).toBe(200);
    const rotated = await a.api("POST", "/api/v1/embed/signing-keys/rotate");
    expect(rotated.status).toBe(201);
    const kid = JSON.parse(Buffer.from(before.token.split(".")[0]!, "base64url").toString()).kid as string;
    expect((await a.api("DELETE", `/api/v1/embed/signing-keys/${kid}`)).status).toBe(204);
    expect(await eventually(async () => (await b.api("GET", meta, undefined, before.token)).status === 401)).toBe(true);
    // B signs with the key A rotated in, not with its stale one.
    const after = await embedToken(b);
    const newKid = JSON.parse(Buffer.from(after.token.split(".")[0]!, "base64url").toString()).kid as string;
    expect(newKid).toBe(((await rotated.json()) as { id: string }).id);
    expect((await a.api("GET", meta, undefined, after.token)).status).toBe(200);
  });

  it("serves on node B a dashboard published through node A, fresh after every publish", async () => {
    const base = `/api/v1/deployments/${deploymentId}/workbooks`;
    const wb = (await (await a.api("PUT", `${base}/by-slug/two-nodes`, { name: "Two nodes" })).json()) as { id: number };
    expect((await a.api("PUT", `${base}/${wb.id}/dashboard/draft`, { title: "First" })).status).toBe(200);
    const published = await a.api("POST", `${base}/${wb.id}/dashboard/publish`);
    expect(published.status).toBe(200);
    const { publicId } = (await published.json()) as { publicId: string };
    const title = async () => {
      const res = await b.api("GET", `/api/v1/embed/dashboard/${publicId}`);
      expect(res.status, await res.clone().text()).toBe(200);
      return ((await res.json()) as { dashboard: { title: string } }).dashboard.title;
    };
    expect(await title()).toBe("First");
    await a.api("PUT", `${base}/${wb.id}/dashboard/draft`, { title: "Second" });
    expect((await a.api("POST", `${base}/${wb.id}/dashboard/publish`)).status).toBe(200);
    expect(await title()).toBe("Second");
  });

  it("rebuilds node B's query engine (model and result cache) when node A announces a data-model change", async () => {
    const q = { measures: ["sales.count"] };
    const titleOf = async (n: Node) => {
      const res = await n.api("POST", `/api/v1/deployments/${deploymentId}/query`, { query: q });
      expect(res.status, await res.clone().text()).toBe(200);
      const body = (await res.json()) as { annotation: { measures: Record<string, { title: string }> } };
      return body.annotation.measures["sales.count"]!.title;
    };
    const original = await titleOf(b);
    // A merge into main, as the build API writes it: new file contents, then one call.
    const [file] = await a.database.db
      .select()
      .from(dataModelFiles)
      .where(and(eq(dataModelFiles.deploymentId, deploymentId), eq(dataModelFiles.branch, "main")));
    await a.database.db
      .update(dataModelFiles)
      .set({ content: file!.content.replace("{ name: count, type: count, title: Orders }", "{ name: count, type: count, title: Orders placed }") })
      .where(and(eq(dataModelFiles.deploymentId, deploymentId), eq(dataModelFiles.branch, "main"), eq(dataModelFiles.path, file!.path)));
    expect(await titleOf(b)).toBe(original); // B still serves its compiled model: nothing told it yet
    await publishInvalidation(a.database.db, "data-model", deploymentId);
    await eventually(async () => (await titleOf(b)).endsWith("Orders placed"));
    expect(await titleOf(b)).toBe(original.replace(/Orders$/, "Orders placed"));
  });

  it("answers 503 on the health check of a draining node, so balancers move away", async () => {
    await b.node.drain();
    const res = await b.api("GET", "/api/v1/health", undefined, null);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { status: string }).status).toBe("draining");
  });
});
