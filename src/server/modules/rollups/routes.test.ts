import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clusterJobs } from "../../db/schema";
import { generateDemoDataset } from "../../demo/dataset";
import { demoRollupsYaml } from "../../semantic/test-support/demo-rollups";
import { demoModelFiles } from "../../demo/seed";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";
import { buildRollupTable } from "../../semantic/rollup-build";
import { rollupBuilds } from "../../db/schema";
import { ROLLUPS_INVALIDATION } from "./service";
import { publishInvalidation } from "../../cluster/invalidation-bus";
import { runCli } from "../../../cli/main";

describe("rollups API", () => {
  let t: TestPlatform;
  let dir: string;
  let deploymentId: number;
  let developer: { token: string };
  let viewer: { token: string };

  beforeAll(async () => {
    t = await createTestPlatform();
    dir = mkdtempSync(path.join(tmpdir(), "svc-rollup-api-"));
    const duck = path.join(dir, "demo.duckdb");
    await generateDemoDataset({ path: duck, rows: 500 });
    const res = await t.api("POST", "/build/api/v1/deployments/", {
      name: "rollups",
      dataSource: { type: "duckdb", path: duck },
      dataModelFiles: [...demoModelFiles(), { path: "rollups.yml", content: demoRollupsYaml }],
    });
    expect(res.status).toBe(201);
    deploymentId = ((await res.json()) as { id: number }).id;
    developer = await t.addUser("dev@rollups.test", "developer");
    viewer = await t.addUser("viewer@rollups.test", "viewer");
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const api = (p: string) => `/api/v1/deployments/${deploymentId}/rollups${p}`;

  async function svc(args: string[], token: string) {
    let stdout = "";
    let stderr = "";
    const code = await runCli(args, {
      stdout: (x) => void (stdout += x),
      stderr: (x) => void (stderr += x),
      env: { XDG_CONFIG_HOME: path.join(dir, "config"), HOME: dir, SVC_BASE_URL: "http://svc.test", SVC_API_KEY: token },
      fetch: async (request: Request) => t.app.fetch(request),
    });
    return { code, stdout, stderr };
  }

  it("svc model rollups lists them and builds one now; a viewer is refused", async () => {
    const listed = await svc(["model", "rollups", "--deployment", String(deploymentId)], developer.token);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^orders_daily\t(pending|built)\torders by day\trows /m);
    expect(listed.stdout).toMatch(/^orders_customers_monthly\t\w+\torders by month/m);
    const queued = await svc(["model", "rollups", "--deployment", String(deploymentId), "--build", "orders_customers_monthly"], developer.token);
    expect([queued.code, queued.stdout]).toEqual([0, expect.stringMatching(/^build of orders_customers_monthly queued \(job \d+\)/)]);
    const refused = await svc(["model", "rollups", "--deployment", String(deploymentId)], viewer.token);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/developer/);
  });

  it("lists the model's rollups with their state, for developers and admins only", async () => {
    const res = await t.api("GET", api(""), undefined, developer.token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { rollups: { name: string; state: string; nextBuildAt: string | null }[] };
    expect(body.rollups.map((r) => [r.name, r.state])).toEqual([
      ["orders_daily", "pending"],
      ["orders_customers_monthly", "pending"],
    ]);
    expect(body.rollups[0]!.nextBuildAt).not.toBeNull();
    expect((await t.api("GET", api(""), undefined, viewer.token)).status).toBe(403);
    expect((await t.api("GET", api(""), undefined, null)).status).toBe(401);
    expect((await t.api("GET", `/api/v1/deployments/999999/rollups`)).status).toBe(404);
  });

  it("queues a build now for developers, refuses viewers and unknown rollups", async () => {
    expect((await t.api("POST", api("/orders_daily/build"), undefined, viewer.token)).status).toBe(403);
    expect((await t.api("POST", api("/nope/build"), undefined, developer.token)).status).toBe(404);
    expect((await t.api("POST", api("/bad-name!/build"), undefined, developer.token)).status).toBe(400);
    const res = await t.api("POST", api("/orders_daily/build"), undefined, developer.token);
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as { jobId: number };
    const [job] = await t.database.db.select().from(clusterJobs).where(eq(clusterJobs.id, jobId));
    expect(job).toMatchObject({ kind: "rollup.build", payload: { deploymentId, name: "orders_daily", force: true } });
  });

  it("answers from a built rollup, says which, and bypasses it when asked", async () => {
    // Build as the job would, on the engine's own data source, and record it.
    const { model, dataSource } = await t.deps.queryEngines.source(deploymentId);
    const built = await buildRollupTable(dataSource, model, model.rollups.get("orders_daily")!);
    await t.database.db
      .update(rollupBuilds)
      .set({ state: "built", tableName: built.table, rowCount: built.rowCount })
      .where(eq(rollupBuilds.name, "orders_daily"));
    await publishInvalidation(t.database.db, ROLLUPS_INVALIDATION, String(deploymentId));
    const query = { query: { measures: ["sales.revenue", "sales.count"], timeDimensions: [{ dimension: "sales.created_at", granularity: "month" }] } };
    let rolled: { annotation: { rollup?: string }; data: unknown[] } | undefined;
    for (let i = 0; i < 50 && !rolled?.annotation.rollup; i++) {
      rolled = (await (await t.api("POST", `/api/v1/deployments/${deploymentId}/query`, query)).json()) as typeof rolled;
      if (!rolled?.annotation.rollup) await new Promise((r) => setTimeout(r, 50));
    }
    expect(rolled!.annotation.rollup).toBe("orders_daily");
    const direct = (await (await t.api("POST", `/api/v1/deployments/${deploymentId}/query?rollups=bypass`, query)).json()) as typeof rolled;
    expect(direct!.annotation.rollup).toBeUndefined();
    expect(JSON.stringify(rolled!.data)).toBe(JSON.stringify(direct!.data));
    expect((await t.api("POST", `/api/v1/deployments/${deploymentId}/query?rollups=sometimes`, query)).status).toBe(400);
    const list = (await (await t.api("GET", api(""))).json()) as { rollups: { name: string; state: string; rowCount: number }[] };
    expect(list.rollups[0]).toMatchObject({ name: "orders_daily", state: "built", rowCount: built.rowCount });
  });
});
