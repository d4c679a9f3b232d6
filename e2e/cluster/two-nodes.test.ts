/**
 * Two platform processes on one Postgres database behind haproxy: what a customer gets when a
 * second node joins the first. Needs the Postgres server of DATABASE_URL (or 127.0.0.1:5432,
 * trust) and haproxy (installed with apt-get when missing, as root).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, startCluster, type RunningCluster } from "../../scripts/cluster/cluster";

const base = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await sleep(100);
  }
  return false;
}

describe("two nodes on one Postgres database behind haproxy", () => {
  const workDir = mkdtempSync(path.join(tmpdir(), "svc-cluster-e2e-"));
  const dbName = `svc_cluster_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const databaseUrl = (() => {
    const u = new URL(base);
    u.pathname = "/" + dbName;
    return u.toString();
  })();
  const adminToken = "svc_" + randomBytes(24).toString("base64url");
  let cluster: RunningCluster;
  let sqlClient: pg.Client;
  let deploymentId: number;

  const call = async (url: string, method: string, p: string, body?: unknown, token: string | null = adminToken) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    return fetch(url + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  };
  const A = (method: string, p: string, body?: unknown, token?: string | null) => call(cluster.nodes[0]!.url, method, p, body, token);
  const B = (method: string, p: string, body?: unknown, token?: string | null) => call(cluster.nodes[1]!.url, method, p, body, token);

  beforeAll(async () => {
    cluster = await startCluster({
      databaseUrl,
      workDir,
      entry: path.join(root, "e2e/cluster/node-with-probe-job.ts"),
      env: { SVC_ADMIN_TOKEN: adminToken, SVC_SECRET_KEY: randomBytes(24).toString("base64url"), SVC_JOB_LEASE_MS: "3000", SVC_HEARTBEAT_MS: "500" },
    });
    sqlClient = new pg.Client({ connectionString: databaseUrl });
    await sqlClient.connect();
    // Workbooks and dashboards only: the data source is never queried here.
    writeFileSync(path.join(workDir, "unused.duckdb"), "");
    const res = await A("POST", "/build/api/v1/deployments/", { name: "cluster", dataSource: { type: "duckdb", path: path.join(workDir, "unused.duckdb") } });
    expect(res.status, await res.clone().text()).toBe(201);
    deploymentId = ((await res.json()) as { id: number }).id;
  });

  afterAll(async () => {
    await sqlClient?.end();
    await cluster?.stop();
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    rmSync(workDir, { recursive: true, force: true });
  });

  it("lists both nodes, each heartbeating into the shared database", async () => {
    const res = await B("GET", "/api/v1/cluster/nodes");
    const items = ((await res.json()) as { items: { pid: number; status: string }[] }).items;
    expect(items.map((n) => n.pid).sort()).toEqual(cluster.nodes.map((n) => n.proc.pid).sort());
    expect(items.every((n) => n.status === "ready")).toBe(true);
  });

  it("refuses on node B, at once, an embed session revoked on node A", async () => {
    const gen = await A("POST", "/api/v1/embed/generate-session", { deploymentId, externalId: "viewer-1" });
    const { sessionId } = (await gen.json()) as { sessionId: string };
    const { token } = (await (await A("POST", "/api/v1/embed/session/token", { sessionId }, null)).json()) as { token: string };
    const probe = `/api/v1/embed/dashboard/NoSuchDash01`;
    // 404: the token is good (a bad one is 401).
    expect((await B("GET", probe, undefined, token)).status).toBe(404);
    expect((await A("POST", "/api/v1/embed/session/revoke", { sessionId })).status).toBe(204);
    expect((await B("GET", probe, undefined, token)).status).toBe(401);
  });

  it("serves on node B a dashboard published through node A, fresh after each publish", async () => {
    const wbBase = `/api/v1/deployments/${deploymentId}/workbooks`;
    const wb = (await (await A("PUT", `${wbBase}/by-slug/across-nodes`, { name: "Across nodes" })).json()) as { id: number };
    await A("PUT", `${wbBase}/${wb.id}/dashboard/draft`, { title: "Version one" });
    const published = (await (await A("POST", `${wbBase}/${wb.id}/dashboard/publish`)).json()) as { publicId: string };
    const titleOnB = async () =>
      ((await (await B("GET", `/api/v1/embed/dashboard/${published.publicId}`)).json()) as { dashboard: { title: string } }).dashboard.title;
    expect(await titleOnB()).toBe("Version one");
    await A("PUT", `${wbBase}/${wb.id}/dashboard/draft`, { title: "Version two" });
    expect((await A("POST", `${wbBase}/${wb.id}/dashboard/publish`)).status).toBe(200);
    expect(await titleOnB()).toBe("Version two");
  });

  it("counts failed logins across both nodes: the limit holds however attempts are spread", async () => {
    const attempt = (n: number) => (n % 2 ? A : B)("POST", "/api/v1/auth/login", { email: "nobody@example.com", password: "wrong-password" }, null);
    for (let i = 0; i < 10; i++) expect((await attempt(i)).status).toBe(401);
    // Each node saw five; together they reached the limit of ten per address and email.
    const limitedA = await attempt(1);
    const limitedB = await attempt(0);
    expect(limitedA.status).toBe(429);
    expect(limitedB.status).toBe(429);
    expect(Number(limitedB.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("runs a job exactly once while the node running it is killed with SIGKILL mid-run", async () => {
    await sqlClient.query("create table e2e_job_effects (job_id bigint not null, node_id text not null, attempt int not null)");
    const { rows } = await sqlClient.query<{ id: string }>(`insert into cluster_jobs (kind, payload) values ('e2e.slow-write', '{"ms": 2500}') returning id`);
    const jobId = rows[0]!.id;
    let holder: { locked_by: string; pid: number } | undefined;
    expect(
      await eventually(async () => {
        const r = await sqlClient.query<{ locked_by: string; pid: number }>(
          "select j.locked_by, n.pid from cluster_jobs j join cluster_nodes n on n.id = j.locked_by where j.id = $1 and j.status = 'running'",
          [jobId],
        );
        holder = r.rows[0];
        return !!holder;
      }),
    ).toBe(true);
    const victim = cluster.nodes.find((n) => n.proc.pid === holder!.pid)!;
    expect(victim).toBeDefined();
    await victim.kill("SIGKILL");
    // The survivor claims it once the 3 s lease has run out, and completes it.
    expect(
      await eventually(async () => (await sqlClient.query("select status from cluster_jobs where id = $1", [jobId])).rows[0]?.status === "done", 30_000),
    ).toBe(true);
    await sleep(500);
    const effects = (await sqlClient.query<{ node_id: string; attempt: number }>("select node_id, attempt from e2e_job_effects where job_id = $1", [jobId]))
      .rows;
    expect(effects).toHaveLength(1);
    expect(effects[0]!.node_id).not.toBe(holder!.locked_by);
    expect(effects[0]!.attempt).toBe(2);
    await victim.restart();
  });

  it("loses no request during a rolling restart of each node behind haproxy", async () => {
    // Wait until haproxy sees both nodes up again (2 checks, 500 ms apart).
    await sleep(2000);
    const wbBase = `/api/v1/deployments/${deploymentId}/workbooks`;
    let stop = false;
    let ok = 0;
    const failures: string[] = [];
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const res =
            i % 2
              ? await call(cluster.url, "GET", `/api/v1/deployments/${deploymentId}`)
              : await call(cluster.url, "PUT", `${wbBase}/by-slug/rolling-${w}`, { name: `Rolling ${w} ${i}` });
          if (res.status >= 200 && res.status < 300) ok += 1;
          else failures.push(`${res.status} ${await res.text()}`);
          await res.arrayBuffer().catch(() => {});
        } catch (err) {
          failures.push(String((err as Error).cause ?? err));
        }
      }
    };
    const workers = [0, 1, 2, 3].map(worker);
    for (const node of cluster.nodes) {
      await sleep(1000);
      const code = await node.kill("SIGTERM");
      expect(code).toBe(0); // a clean, drained exit
      await node.restart();
      await sleep(2000); // haproxy puts it back after two good checks
    }
    stop = true;
    await Promise.all(workers);
    expect(failures).toEqual([]);
    expect(ok).toBeGreaterThan(50);
  });
});
