import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/connection";
import { clusterJobs } from "../db/schema";
import { pgliteFromTemplate } from "../testing/storage-template";
import { createScratchPostgres } from "../testing/test-platform";
import { createJobRunner, enqueueJob, type JobRunner } from "./jobs";

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

const jobRow = async (database: Database, id: number) => (await database.db.select().from(clusterJobs).where(eq(clusterJobs.id, id)))[0]!;

describe("job runner on one node (PGlite)", () => {
  let database: Database;
  let runner: JobRunner;
  const runs: { id: number; attempt: number; payload: unknown }[] = [];
  let failuresLeft = 1;

  beforeAll(async () => {
    database = await pgliteFromTemplate();
    runner = createJobRunner({ db: database.db, nodeId: "solo", pollMs: 50, leaseMs: 2000 });
    runner.register("test.record", async (job) => {
      runs.push({ id: job.id, attempt: job.attempt, payload: job.payload });
    });
    runner.register("test.flaky", async () => {
      if (failuresLeft-- > 0) throw new Error("smtp down");
    });
    runner.start();
  });
  afterAll(async () => {
    await runner?.stop({ drainMs: 100 });
    await database?.close();
  });

  it("runs an enqueued job once with its payload and marks it done", async () => {
    const id = (await enqueueJob(database.db, "test.record", { n: 1 }))!;
    expect(await eventually(async () => (await jobRow(database, id)).status === "done")).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(runs.filter((r) => r.id === id)).toEqual([{ id, attempt: 1, payload: { n: 1 } }]);
  });

  it("enqueues a job with a dedupe key once", async () => {
    const first = await enqueueJob(database.db, "test.record", {}, { dedupeKey: "daily:2026-11-23" });
    const second = await enqueueJob(database.db, "test.record", {}, { dedupeKey: "daily:2026-11-23" });
    expect(first).toBeTypeOf("number");
    expect(second).toBeNull();
  });

  it("does not run a job before its time", async () => {
    const id = (await enqueueJob(database.db, "test.record", {}, { runAt: new Date(Date.now() + 60_000) }))!;
    await new Promise((r) => setTimeout(r, 300));
    expect((await jobRow(database, id)).status).toBe("queued");
    expect(runs.some((r) => r.id === id)).toBe(false);
  });

  it("retries a failed job later with the error kept, and fails it for good after its last attempt", async () => {
    const id = (await enqueueJob(database.db, "test.flaky", {}, { maxAttempts: 3 }))!;
    expect(await eventually(async () => (await jobRow(database, id)).lastError === "smtp down")).toBe(true);
    const row = await jobRow(database, id);
    expect(row).toMatchObject({ status: "queued", attempts: 1, lockedBy: null });
    expect(row.runAt.getTime()).toBeGreaterThan(Date.now());
    failuresLeft = 5;
    const once = (await enqueueJob(database.db, "test.flaky", {}, { maxAttempts: 1 }))!;
    expect(await eventually(async () => (await jobRow(database, once)).status === "failed")).toBe(true);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("job runner across nodes (Postgres, SKIP LOCKED and leases)", () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  const databases: Database[] = [];
  const runners: JobRunner[] = [];

  async function node(name: string, opts: { leaseMs?: number; concurrency?: number } = {}) {
    const database = await openDatabase({ databaseUrl: scratch.url, dataDir: ":memory:", poolSize: 4 });
    databases.push(database);
    const runner = createJobRunner({ db: database.db, nodeId: name, pollMs: 25, leaseMs: opts.leaseMs ?? 5000, concurrency: opts.concurrency ?? 4 });
    runners.push(runner);
    return { database, runner };
  }
  const effects = async (database: Database) =>
    ((await database.db.execute(sql`select job_id, node from job_effects order by job_id`)) as unknown as { rows: { job_id: string; node: string }[] }).rows;

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    const setup = await node("setup");
    await setup.database.db.execute(sql`create table job_effects (job_id bigint not null, node text not null)`);
  });
  afterAll(async () => {
    for (const r of runners) await r.stop({ drainMs: 50 }).catch(() => {});
    for (const d of databases) await d.close().catch(() => {});
    await scratch?.drop();
  });

  it("runs each of many jobs exactly once when two nodes claim at the same time", async () => {
    const a = await node("a");
    const b = await node("b");
    for (const { runner } of [a, b]) {
      const name = runner === a.runner ? "a" : "b";
      runner.register("test.batch", async (job, ctx) => {
        await new Promise((r) => setTimeout(r, 5));
        await ctx.complete(async (tx) => {
          await tx.execute(sql`insert into job_effects (job_id, node) values (${job.id}, ${name})`);
        });
      });
    }
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) ids.push((await enqueueJob(a.database.db, "test.batch", { i }))!);
    a.runner.start();
    b.runner.start();
    expect(await eventually(async () => (await effects(a.database)).length >= 40)).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    const rows = await effects(a.database);
    expect(rows.map((r) => Number(r.job_id)).sort((x, y) => x - y)).toEqual(ids);
    // Both nodes took part (SKIP LOCKED let them claim side by side).
    expect(new Set(rows.map((r) => r.node))).toEqual(new Set(["a", "b"]));
    await a.runner.stop({ drainMs: 50 });
    await b.runner.stop({ drainMs: 50 });
  });

  it("claims again a job whose node died mid-run once its lease runs out, and writes its effects once", async () => {
    await effects(databases[0]!).then(() => databases[0]!.db.execute(sql`delete from job_effects`));
    const dying = await node("dying", { leaseMs: 600 });
    let started!: () => void;
    const startedOnDying = new Promise<void>((r) => (started = r));
    dying.runner.register("test.slow", async () => {
      started();
      await new Promise(() => {}); // hangs: the node dies before it finishes
    });
    const id = (await enqueueJob(dying.database.db, "test.slow", {}))!;
    dying.runner.start();
    await startedOnDying;
    // The node dies: its connections drop, nothing renews the lease any more.
    await dying.database.close();
    const survivor = await node("survivor", { leaseMs: 600 });
    survivor.runner.register("test.slow", async (job, ctx) => {
      await ctx.complete(async (tx) => {
        await tx.execute(sql`insert into job_effects (job_id, node) values (${job.id}, 'survivor')`);
      });
    });
    survivor.runner.start();
    expect(await eventually(async () => (await jobRow(survivor.database, id)).status === "done")).toBe(true);
    expect(await effects(survivor.database)).toEqual([{ job_id: String(id), node: "survivor" }]);
    expect((await jobRow(survivor.database, id)).attempts).toBe(2);
    await survivor.runner.stop({ drainMs: 50 });
  });

  it("refuses the completion of a node that lost its lease: the job's effects are written by the node holding it", async () => {
    await databases[0]!.db.execute(sql`delete from job_effects`);
    const slow = await node("slow", { leaseMs: 60_000, concurrency: 1 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let slowCompleted: boolean | null = null;
    let started!: () => void;
    const startedOnSlow = new Promise<void>((r) => (started = r));
    slow.runner.register("test.fenced", async (job, ctx) => {
      started();
      await gate;
      slowCompleted = await ctx.complete(async (tx) => {
        await tx.execute(sql`insert into job_effects (job_id, node) values (${job.id}, 'slow')`);
      });
    });
    const id = (await enqueueJob(slow.database.db, "test.fenced", {}))!;
    slow.runner.start();
    await startedOnSlow;
    // The slow node hangs past its lease (a long GC pause, a network partition): the lease runs out.
    await slow.database.db.execute(sql`update cluster_jobs set lease_until = now() - interval '1 second' where id = ${id}`);
    const other = await node("other");
    other.runner.register("test.fenced", async (job, ctx) => {
      await ctx.complete(async (tx) => {
        await tx.execute(sql`insert into job_effects (job_id, node) values (${job.id}, 'other')`);
      });
    });
    other.runner.start();
    expect(await eventually(async () => (await jobRow(other.database, id)).status === "done")).toBe(true);
    release();
    expect(await eventually(() => slowCompleted !== null)).toBe(true);
    expect(slowCompleted).toBe(false);
    expect(await effects(other.database)).toEqual([{ job_id: String(id), node: "other" }]);
    await slow.runner.stop({ drainMs: 50 });
    await other.runner.stop({ drainMs: 50 });
  });

  it("gives a running job back on graceful shutdown so another node takes it at once", async () => {
    const leaving = await node("leaving", { leaseMs: 60_000 });
    let started!: () => void;
    const startedOnLeaving = new Promise<void>((r) => (started = r));
    leaving.runner.register("test.handoff", async (_job, ctx) => {
      started();
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
    });
    const id = (await enqueueJob(leaving.database.db, "test.handoff", {}))!;
    leaving.runner.start();
    await startedOnLeaving;
    expect(leaving.runner.running.map((j) => j.id)).toEqual([id]);
    await leaving.runner.stop({ drainMs: 50 });
    expect(await jobRow(leaving.database, id)).toMatchObject({ status: "queued", lockedBy: null, attempts: 1 });
    const taker = await node("taker", { leaseMs: 60_000 });
    const took: number[] = [];
    taker.runner.register("test.handoff", async (job) => void took.push(job.attempt));
    taker.runner.start();
    // Well within the 60 s lease: the job was released, not left to expire.
    expect(await eventually(() => took.length > 0, 3000)).toBe(true);
    expect(took).toEqual([2]);
    await taker.runner.stop({ drainMs: 50 });
  });
});
