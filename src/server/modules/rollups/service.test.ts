import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/connection";
import { clusterJobs, rollupBuilds } from "../../db/schema";
import { createDuckDbDataSource, type DataSource } from "../../datasources";
import { createJobRunner, type JobRunner } from "../../cluster/jobs";
import { generateDemoDataset } from "../../demo/dataset";
import { loadDataModel } from "../../semantic";
import { demoModelFiles } from "../../demo/seed";
import { demoRollupsYaml } from "../../semantic/test-support/demo-rollups";
import type { Logger } from "../../logger";
import { pgliteFromTemplate } from "../../testing/storage-template";
import { builtRollups, enqueueDueRollups, listRollups, requestRollupBuild, startRollupBuilds, syncRollupRows, ROLLUP_BUILD_JOB } from "./service";

async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

const brokenYaml = `rollups:
  - name: broken
    cube: orders
    measures: [count]
    time_dimension: created_at
    granularity: month
    refresh: { every: "0 * * * *", sql: "SELECT no_such_column FROM orders" }
`;

describe("rollup builds across two nodes", () => {
  let database: Database;
  let dir: string;
  let dataSource: DataSource;
  const runners: JobRunner[] = [];
  const schedulers: { stop(): void }[] = [];
  const model = loadDataModel([...demoModelFiles(), { path: "rollups.yml", content: demoRollupsYaml }, { path: "broken.yml", content: brokenYaml }]);
  const DEPLOYMENT = 41;
  /** What the nodes logged at info level (the deployment's own logs need a deployment row this test does not make). */
  const logged: Record<string, unknown>[] = [];

  beforeAll(async () => {
    database = await pgliteFromTemplate();
    dir = mkdtempSync(path.join(tmpdir(), "svc-rollup-jobs-"));
    await generateDemoDataset({ path: path.join(dir, "demo.duckdb"), rows: 500 });
    dataSource = createDuckDbDataSource({ path: path.join(dir, "demo.duckdb") });
    for (const nodeId of ["node-a", "node-b"]) {
      const jobs = createJobRunner({ db: database.db, nodeId, pollMs: 50, leaseMs: 5000 });
      schedulers.push(
        startRollupBuilds(
          {
            db: database.db,
            logger: { debug() {}, info: (msg, fields) => void logged.push({ msg, ...fields }), warn() {}, error() {} } satisfies Logger,
            jobs,
            source: async () => ({ model, dataSource }),
          },
          60_000,
        ),
      );
      jobs.start();
      runners.push(jobs);
    }
  }, 60_000);
  afterAll(async () => {
    schedulers.forEach((s) => s.stop());
    for (const r of runners) await r.stop({ drainMs: 100 });
    await dataSource?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("builds each due rollup once, keeps its state, and keeps a failure with its error", async () => {
    await syncRollupRows(database.db, DEPLOYMENT, model);
    expect((await listRollups(database.db, DEPLOYMENT, model, "duckdb")).map((r) => [r.name, r.state])).toEqual([
      ["orders_daily", "pending"],
      ["orders_customers_monthly", "pending"],
      ["broken", "pending"],
    ]);
    // Both nodes' schedulers see the same due rollups: each is queued once.
    await Promise.all([enqueueDueRollups(database.db), enqueueDueRollups(database.db)]);
    const jobs = () => database.db.select().from(clusterJobs).where(eq(clusterJobs.kind, ROLLUP_BUILD_JOB));
    expect(await jobs()).toHaveLength(3);
    expect(await eventually(async () => (await jobs()).every((j) => j.status === "done"))).toBe(true);

    const states = await listRollups(database.db, DEPLOYMENT, model, "duckdb");
    const daily = states.find((s) => s.name === "orders_daily")!;
    expect(daily).toMatchObject({ state: "built", error: null });
    expect(daily.rowCount).toBeGreaterThan(0);
    expect(daily.table).toMatch(/^svc_rollups\.orders_daily_[0-9a-f]{10}$/);
    expect(new Date(daily.nextBuildAt!).getUTCHours()).toBe(3);
    const broken = states.find((s) => s.name === "broken")!;
    expect(broken.state).toBe("failed");
    expect(broken.error).toMatch(/no_such_column/);

    // What the query engine reads: the two built ones.
    expect((await builtRollups(database.db, DEPLOYMENT, model, "duckdb")).map((b) => b.rollup.name)).toEqual(["orders_daily", "orders_customers_monthly"]);
    // A changed model drops the rows of rollups it no longer has.
    await syncRollupRows(database.db, DEPLOYMENT, loadDataModel([...demoModelFiles(), { path: "rollups.yml", content: demoRollupsYaml }]));
    expect((await database.db.select().from(rollupBuilds).where(eq(rollupBuilds.deploymentId, DEPLOYMENT))).map((r) => r.name).sort()).toEqual([
      "orders_customers_monthly",
      "orders_daily",
    ]);
  }, 60_000);

  it("builds one now on request, and refuses an unknown rollup", async () => {
    const before = (await listRollups(database.db, DEPLOYMENT, model, "duckdb")).find((s) => s.name === "orders_daily")!.lastBuildAt;
    const id = await requestRollupBuild(database.db, DEPLOYMENT, model, "orders_daily");
    expect(await eventually(async () => (await database.db.select().from(clusterJobs).where(eq(clusterJobs.id, id!)))[0]!.status === "done")).toBe(true);
    const after = (await listRollups(database.db, DEPLOYMENT, model, "duckdb")).find((s) => s.name === "orders_daily")!.lastBuildAt;
    expect(after! > before!).toBe(true);
    await expect(requestRollupBuild(database.db, DEPLOYMENT, model, "nope")).rejects.toThrow(/Rollup/);
  }, 30_000);

  it("builds a partitioned rollup incrementally by its schedule, in full on request, and says which it did", async () => {
    // The schedule's next build made due now (orders_daily has monthly partitions and a built table).
    await database.db
      .update(rollupBuilds)
      .set({ nextBuildAt: new Date(Date.now() - 1000), refreshKey: null })
      .where(and(eq(rollupBuilds.deploymentId, DEPLOYMENT), eq(rollupBuilds.name, "orders_daily")));
    await enqueueDueRollups(database.db);
    const modes = () => logged.filter((l) => l.msg === "rollup built" && l.rollup === "orders_daily").map((l) => l.mode);
    expect(await eventually(async () => modes().length === 3)).toBe(true);
    // The first scheduled build and the one on request: full; the schedule's next: incremental.
    expect(modes()).toEqual(["full", "full", "incremental"]);
  }, 30_000);
});
