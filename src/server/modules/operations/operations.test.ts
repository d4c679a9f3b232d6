import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clusterJobs, clusterNodes, deploymentEnvVars, deploymentLogs } from "../../db/schema";
import { enqueueJob } from "../../cluster/jobs";
import { SWEEP_JOB } from "../../cluster/node";
import { postgresReachable } from "../../semantic/test-support/shop-fixture";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";
import { prepareQueryTestData, type QueryTestData } from "../query/query-test-data";
import { writeLog } from "../deployment-logs/service";
import { listLiveNodes } from "./node-registry";

const pgUp = await postgresReachable();
let data: QueryTestData | null = null;
beforeAll(async () => {
  if (pgUp) data = await prepareQueryTestData({ rows: 500, postgres: true });
}, 60_000);
afterAll(() => data?.cleanup());

describe.each(storageKinds)("deployment operations (%s)", (storage) => {
  let t: TestPlatform;
  let dep: number;
  let dev: { id: number; token: string };
  const SECRET = "pg-pass-9c1e77-never-returned";

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    [dep] = (await t.addDeployments("ops")) as [number];
    dev = await t.addUser("ops-dev@example.com", "developer");
  });
  afterAll(() => t?.close());

  it("lists the regions, the default first", async () => {
    const res = await t.api("GET", "/api/v1/regions/");
    expect(await res.json()).toEqual({ items: [{ id: "local", name: null, default: true }] });
    expect((await t.api("GET", "/api/v1/regions/", undefined, dev.token)).status).toBe(403);
  });

  it("lists every node heartbeating into cluster_nodes, and drops stopped and silent ones", async () => {
    const self = t.deps.clusterNode!.nodeId;
    const first = await (await t.api("GET", `/api/v1/deployments/${dep}/pods`)).json();
    expect(first.items.map((p: { id: string }) => p.id)).toEqual([self]);
    expect(first.items[0]).toMatchObject({ pid: process.pid, status: "running", version: "test" });
    expect(Object.keys(first.items[0]).sort()).toEqual(["host", "id", "lastSeenAt", "pid", "startedAt", "status", "version"]);
    // A second node on the same storage (another process in production writes this row and heartbeats it).
    const other = "other-node";
    await t.database.db.insert(clusterNodes).values({ id: other, host: "elsewhere", pid: 4242, version: "test", status: "ready" });
    const both = await (await t.api("GET", `/api/v1/deployments/${dep}/pods`)).json();
    expect(both.items.map((p: { id: string }) => p.id).sort()).toEqual([self, other].sort());
    // Draining still serves its last requests: listed as running, the same as the cluster node list.
    await t.database.db.update(clusterNodes).set({ status: "draining" }).where(eq(clusterNodes.id, other));
    const draining = await (await t.api("GET", `/api/v1/deployments/${dep}/pods`)).json();
    expect(draining.items.find((p: { id: string }) => p.id === other)).toMatchObject({ host: "elsewhere", pid: 4242, status: "running" });
    const cluster = await (await t.api("GET", "/api/v1/cluster/nodes")).json();
    expect(cluster.items.map((n: { id: string }) => n.id).sort()).toEqual([self, other].sort());
    await t.database.db.update(clusterNodes).set({ status: "stopped" }).where(eq(clusterNodes.id, other));
    expect((await (await t.api("GET", `/api/v1/deployments/${dep}/pods`)).json()).items).toHaveLength(1);
    // A node that stopped heartbeating (crashed) is no longer listed once stale; a beat brings it back.
    await t.database.db
      .update(clusterNodes)
      .set({ status: "ready", lastSeenAt: new Date(Date.now() - 120_000) })
      .where(eq(clusterNodes.id, other));
    expect((await listLiveNodes(t.database.db)).map((n) => n.id)).not.toContain(other);
    await t.database.db.update(clusterNodes).set({ lastSeenAt: new Date() }).where(eq(clusterNodes.id, other));
    expect((await listLiveNodes(t.database.db)).map((n) => n.id)).toContain(other);
    await t.database.db.delete(clusterNodes).where(eq(clusterNodes.id, other));
    expect((await t.api("GET", "/api/v1/deployments/99999/pods")).status).toBe(404);
    expect((await t.api("GET", `/api/v1/deployments/${dep}/pods`, undefined, dev.token)).status).toBe(403);
  });

  it("keeps env vars, secrets sealed and never returned, replacing the whole set", async () => {
    const put = await t.api("PUT", `/api/v1/deployments/${dep}/env-vars`, [
      { name: "DB_HOST", value: "127.0.0.1" },
      { name: "DB_PASSWORD", value: SECRET, secret: true },
    ]);
    const text = await put.text();
    expect(put.status, text).toBe(200);
    expect(text).not.toContain(SECRET);
    expect(JSON.parse(text)).toEqual([
      { name: "DB_HOST", value: "127.0.0.1", secret: false, updatedAt: expect.any(String) },
      { name: "DB_PASSWORD", value: null, secret: true, updatedAt: expect.any(String) },
    ]);
    const rows = await t.database.db.select().from(deploymentEnvVars);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    expect(rows.find((r) => r.name === "DB_PASSWORD")!.valueEncrypted).toMatch(/^v1\./);
    // A stored secret sent without a value keeps it; a variable left out is removed.
    await t.api("PUT", `/api/v1/deployments/${dep}/env-vars`, [{ name: "DB_PASSWORD", secret: true }]);
    const after = await t.database.db.select().from(deploymentEnvVars);
    expect(after.map((r) => r.name)).toEqual(["DB_PASSWORD"]);
    expect(t.deps.secretBox.open(after[0]!.valueEncrypted!)).toBe(SECRET);
    const logs = await t.database.db.select().from(deploymentLogs).where(eq(deploymentLogs.deploymentId, dep));
    expect(logs.filter((l) => l.container === "INIT").map((l) => l.details.changed)).toEqual([["DB_HOST", "DB_PASSWORD"], ["DB_HOST"]]);
    expect(JSON.stringify(logs)).not.toContain(SECRET);
  });

  it("refuses bad env vars whole", async () => {
    const before = await (await t.api("GET", `/api/v1/deployments/${dep}/env-vars`)).json();
    const cases: [unknown, (string | number)[]][] = [
      [[{ name: "1BAD", value: "x" }], [0, "name"]],
      [[{ name: "NEW", secret: true }], [0, "value"]],
      [
        [
          { name: "A", value: "1" },
          { name: "A", value: "2" },
        ],
        [1, "name"],
      ],
      [[{ name: "A", value: "x", extra: 1 }], [0]],
      [{ name: "A", value: "x" }, []],
    ];
    for (const [body, path] of cases) {
      const res = await t.api("PUT", `/api/v1/deployments/${dep}/env-vars`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).details[0].path, JSON.stringify(body)).toEqual(path);
    }
    expect(await (await t.api("GET", `/api/v1/deployments/${dep}/env-vars`)).json()).toEqual(before);
    expect((await t.api("PUT", `/api/v1/deployments/${dep}/env-vars`, [], dev.token)).status).toBe(403);
    expect((await t.api("GET", `/api/v1/deployments/${dep}/env-vars`, undefined, dev.token)).status).toBe(403);
    expect((await t.api("PUT", "/api/v1/deployments/99999/env-vars", [])).status).toBe(404);
  });

  it("serves the deployment's logs, filtered by source, container and time, newest first", async () => {
    await writeLog(t.database.db, { deploymentId: dep, container: "cubejs-server", message: "engine line" });
    await writeLog(t.database.db, { deploymentId: dep, container: "MAIN", source: "dev", message: "dev line" });
    const all = await (await t.api("GET", `/api/v1/deployments/${dep}/logs`)).json();
    expect(all.items[0].message).toBe("dev line");
    const engine = await (await t.api("GET", `/api/v1/deployments/${dep}/logs?container=cubejs-server`)).json();
    expect(engine.items.map((l: { message: string }) => l.message)).toEqual(["engine line"]);
    const dev_ = await (await t.api("GET", `/api/v1/deployments/${dep}/logs?source=dev`)).json();
    expect(dev_.items.map((l: { message: string }) => l.message)).toEqual(["dev line"]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await (await t.api("GET", `/api/v1/deployments/${dep}/logs?since=${encodeURIComponent(future)}`)).json()).items).toEqual([]);
    expect((await (await t.api("GET", `/api/v1/deployments/${dep}/logs?limit=1`)).json()).items).toHaveLength(1);
    for (const q of ["container=nginx", "source=staging", "since=yesterday", "limit=0", "limit=5000"]) {
      expect((await t.api("GET", `/api/v1/deployments/${dep}/logs?${q}`)).status, q).toBe(400);
    }
    // Tenant-wide audit lines are not a deployment's.
    await t.api("PUT", "/api/v1/tenant/settings", { defaultLocale: "en" });
    const lines = (await (await t.api("GET", `/api/v1/deployments/${dep}/logs`)).json()).items;
    expect(lines.map((l: { message: string }) => l.message)).not.toContain("tenant settings changed");
    expect((await t.api("GET", `/api/v1/deployments/${dep}/logs`, undefined, dev.token)).status).toBe(403);
  });

  it("prunes log lines past their retention", async () => {
    const { pruneLogs } = await import("../deployment-logs/service");
    const [old] = await t.database.db
      .insert(deploymentLogs)
      .values({ deploymentId: dep, container: "MAIN", message: "ancient", createdAt: new Date(Date.now() - 30 * 86_400_000) })
      .returning();
    expect(await pruneLogs(t.database.db, 14)).toBe(1);
    expect(await t.database.db.select().from(deploymentLogs).where(eq(deploymentLogs.id, old!.id))).toEqual([]);
  });

  it("prunes old log lines in the cluster sweep job, keeping the recent ones", async () => {
    const [old] = await t.database.db
      .insert(deploymentLogs)
      .values({ deploymentId: dep, container: "MAIN", message: "ancient for the sweep", createdAt: new Date(Date.now() - 30 * 86_400_000) })
      .returning();
    const [recent] = await t.database.db
      .insert(deploymentLogs)
      .values({ deploymentId: dep, container: "MAIN", message: "recent", createdAt: new Date(Date.now() - 86_400_000) })
      .returning();
    const jobId = (await enqueueJob(t.database.db, SWEEP_JOB))!;
    t.node.jobs.start();
    try {
      const until = Date.now() + 10_000;
      let status: string | undefined;
      while (Date.now() < until && status !== "done") {
        [{ status } = { status: undefined }] = await t.database.db.select({ status: clusterJobs.status }).from(clusterJobs).where(eq(clusterJobs.id, jobId));
        if (status !== "done") await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe("done");
    } finally {
      await t.node.jobs.stop({ drainMs: 1000 });
    }
    expect(await t.database.db.select().from(deploymentLogs).where(eq(deploymentLogs.id, old!.id))).toEqual([]);
    expect(await t.database.db.select().from(deploymentLogs).where(eq(deploymentLogs.id, recent!.id))).toHaveLength(1);
  });

  it.runIf(pgUp)("resolves ${NAME} in data-source settings and rebuilds the engine when a variable changes", async () => {
    const { port, database, user, password } = data!.pgConnection;
    const created = await t.api("POST", "/build/api/v1/deployments/", {
      name: "shop via env",
      dataSource: { type: "postgres", host: "${SHOP_HOST}", port, database: "${SHOP_DB}", user, ...(password ? { password } : {}) },
      dataModelFiles: data!.pgModelFiles,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const id = ((await created.json()) as { id: number }).id;
    const gen = await (
      await t.api("POST", "/api/v1/embed/generate-session", { deploymentId: id, externalId: "env-acme", embedTenantName: "acme-corp" })
    ).json();
    const { token } = await (await t.api("POST", "/api/v1/embed/session/token", { sessionId: gen.sessionId }, null)).json();
    const count = () => t.api("POST", `/api/v1/deployments/${id}/query`, { query: { measures: ["sales.count"] } }, token);

    const missing = await count();
    expect(missing.status).toBe(503);
    expect((await missing.json()).message).toContain("${SHOP_HOST}");
    await t.api("PUT", `/api/v1/deployments/${id}/env-vars`, [
      { name: "SHOP_HOST", value: "127.0.0.1" },
      { name: "SHOP_DB", value: database, secret: true },
    ]);
    const ok = await count();
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(Number((await ok.json()).data[0]["sales.count"])).toBe(data!.facts["acme-corp"].orders);
    // Pointing the variable elsewhere takes effect on the next query: the engine was rebuilt.
    await t.api("PUT", `/api/v1/deployments/${id}/env-vars`, [
      { name: "SHOP_HOST", value: "127.0.0.1" },
      { name: "SHOP_DB", value: "no_such_database_here", secret: true },
    ]);
    expect((await count()).status).toBeGreaterThanOrEqual(500);
    const logs = (await (await t.api("GET", `/api/v1/deployments/${id}/logs?container=cubejs-server`)).json()).items;
    expect(logs.map((l: { message: string }) => l.message)).toContain("query engine ready");
  });
});
