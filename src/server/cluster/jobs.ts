import { and, eq, sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/connection";
import { clusterJobs } from "../db/schema";
import type { Logger } from "../logger";
import { silentLogger } from "../logger";
import { invalidationBusFor, publishInvalidation } from "./invalidation-bus";

/** A claimed job as its handler sees it. */
export interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  /** 1 on the first run; more when an earlier run failed or its node died. */
  attempt: number;
}

/** What a handler is given besides its job. */
export interface JobContext {
  /** Aborted when this node lost the job's lease (another node may run it now) or is stopping hard. */
  signal: AbortSignal;
  /**
   * Writes the job's effects and marks it done in one transaction, only while this node still
   * holds the lease: effects written here happen exactly once across nodes, even when a node
   * died mid-run or outlived its lease. Returns false (and writes nothing) when the lease was lost.
   */
  complete(effects?: (tx: Db) => Promise<void>): Promise<boolean>;
}

/** Runs one job. Throwing retries it later (up to its `maxAttempts`); returning completes it. */
export type JobHandler = (job: ClaimedJob, ctx: JobContext) => Promise<void>;

/** Options of `enqueueJob`. */
export interface EnqueueOptions {
  /** Earliest start; default now. */
  runAt?: Date;
  /** A job with the same key is enqueued once (the later calls return null). */
  dedupeKey?: string;
  /** Runs tried at most; default 5. */
  maxAttempts?: number;
}

/**
 * Puts a job in the shared queue; any node with a handler for `kind` runs it, once. Returns its
 * id, or null when `dedupeKey` was taken already.
 */
export async function enqueueJob(db: Db, kind: string, payload: Record<string, unknown> = {}, opts: EnqueueOptions = {}): Promise<number | null> {
  const rows = await db
    .insert(clusterJobs)
    .values({ kind, payload, runAt: opts.runAt ?? new Date(), dedupeKey: opts.dedupeKey ?? null, maxAttempts: opts.maxAttempts ?? 5 })
    .onConflictDoNothing({ target: clusterJobs.dedupeKey })
    .returning({ id: clusterJobs.id });
  if (!rows[0]) return null;
  // Idle runners on every node poll at once instead of at their next tick.
  await publishInvalidation(db, "job", kind);
  return rows[0].id;
}

/** Options of `createJobRunner`. */
export interface JobRunnerOptions {
  db: Db;
  /** This node's id (written as the job's holder). */
  nodeId: string;
  logger?: Logger;
  /** How long a claim holds without renewal; a node dead this long loses its jobs. Default 30 s. */
  leaseMs?: number;
  /** Poll interval when nothing woke the runner; default 1 s. */
  pollMs?: number;
  /** Jobs run at once on this node; default 2. */
  concurrency?: number;
}

interface Running {
  job: ClaimedJob;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Claims and runs jobs from the shared queue. A claim takes the oldest due job with
 * `FOR UPDATE SKIP LOCKED` (nodes never wait on each other nor take the same row) and holds
 * it for a lease the runner renews while the handler runs; a job whose lease ran out (its node
 * died or hung) is due again. Completion is fenced by holder and attempt, so a node that lost
 * its lease cannot mark a job done that another node has taken.
 */
export function createJobRunner(opts: JobRunnerOptions) {
  const { db, nodeId } = opts;
  const logger = opts.logger ?? silentLogger;
  const leaseMs = opts.leaseMs ?? 30_000;
  const pollMs = opts.pollMs ?? 1000;
  const concurrency = opts.concurrency ?? 2;
  const handlers = new Map<string, JobHandler>();
  const running = new Map<number, Running>();
  let timer: NodeJS.Timeout | null = null;
  let stopping = false;
  let started = false;
  let polling: Promise<void> | null = null;
  let unsubscribe: (() => void) | null = null;

  const leaseInterval = sql`(${leaseMs} * interval '1 millisecond')`;

  async function claim(): Promise<ClaimedJob | null> {
    const kinds = [...handlers.keys()];
    if (!kinds.length) return null;
    const kindList = sql.join(
      kinds.map((k) => sql`${k}`),
      sql`, `,
    );
    const [row] = await rowsOf<{ id: number | string; kind: string; payload: Record<string, unknown>; attempts: number }>(
      db,
      sql`
      update ${clusterJobs} set status = 'running', locked_by = ${nodeId}, lease_until = now() + ${leaseInterval},
        attempts = attempts + 1, started_at = now(), last_error = null
      where id = (
        select id from ${clusterJobs}
        where kind in (${kindList})
          and ((status = 'queued' and run_at <= now()) or (status = 'running' and lease_until < now()))
        order by run_at, id
        limit 1
        for update skip locked
      )
      returning id, kind, payload, attempts`,
    );
    return row ? { id: Number(row.id), kind: row.kind, payload: row.payload ?? {}, attempt: row.attempts } : null;
  }

  const held = (job: ClaimedJob) =>
    and(eq(clusterJobs.id, job.id), eq(clusterJobs.lockedBy, nodeId), eq(clusterJobs.attempts, job.attempt), eq(clusterJobs.status, "running"));

  async function renew(job: ClaimedJob): Promise<boolean> {
    const rows = await db
      .update(clusterJobs)
      .set({ leaseUntil: sql`now() + ${leaseInterval}` })
      .where(held(job))
      .returning({ id: clusterJobs.id });
    return rows.length > 0;
  }

  async function complete(job: ClaimedJob, effects?: (tx: Db) => Promise<void>): Promise<boolean> {
    class LeaseLost extends Error {}
    try {
      await db.transaction(async (tx) => {
        // Lock the row first: a node whose lease ran out must not write effects another node also writes.
        const rows = await tx
          .update(clusterJobs)
          .set({ status: "done", finishedAt: sql`now()`, lockedBy: null, leaseUntil: null })
          .where(held(job))
          .returning({ id: clusterJobs.id });
        if (!rows.length) throw new LeaseLost();
        if (effects) await effects(tx);
      });
      return true;
    } catch (err) {
      if (err instanceof LeaseLost) return false;
      throw err;
    }
  }

  async function fail(job: ClaimedJob, error: unknown) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
    // Backoff: 2^attempt seconds, at most 10 minutes; the last attempt fails for good.
    await db
      .update(clusterJobs)
      .set({
        status: sql`case when attempts >= max_attempts then 'failed' else 'queued' end`,
        runAt: sql`now() + least(power(2, attempts), 600) * interval '1 second'`,
        finishedAt: sql`case when attempts >= max_attempts then now() else null end`,
        lockedBy: null,
        leaseUntil: null,
        lastError: message,
      })
      .where(held(job));
  }

  function run(job: ClaimedJob) {
    const handler = handlers.get(job.kind)!;
    const controller = new AbortController();
    let completed = false;
    const renewal = setInterval(
      () => {
        renew(job)
          .then((ok) => {
            if (!ok) controller.abort(new Error("lease lost"));
          })
          .catch(() => {});
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    const ctx: JobContext = {
      signal: controller.signal,
      async complete(effects) {
        const ok = await complete(job, effects);
        completed = ok;
        if (!ok) controller.abort(new Error("lease lost"));
        return ok;
      },
    };
    const done = (async () => {
      try {
        await handler(job, ctx);
        if (!completed && !controller.signal.aborted) await complete(job);
        logger.info("job done", { jobId: job.id, kind: job.kind, attempt: job.attempt });
      } catch (err) {
        if (controller.signal.aborted && !stopping) {
          logger.warn("job lost its lease", { jobId: job.id, kind: job.kind });
        } else {
          logger.warn("job failed", { jobId: job.id, kind: job.kind, attempt: job.attempt, error: err instanceof Error ? err.message : String(err) });
          await fail(job, err).catch(() => {});
        }
      } finally {
        clearInterval(renewal);
        running.delete(job.id);
        if (!stopping) wake();
      }
    })();
    running.set(job.id, { job, controller, done });
  }

  async function poll() {
    while (!stopping && running.size < concurrency) {
      const job = await claim();
      if (!job) break;
      run(job);
    }
  }

  function wake() {
    if (!started || stopping) return;
    if (polling) return;
    polling = poll()
      .catch((err: unknown) => logger.warn("job poll failed", { error: err instanceof Error ? err.message : String(err) }))
      .finally(() => {
        polling = null;
      });
  }

  return {
    /** Handles jobs of `kind` on this node. Register before `start`. */
    register(kind: string, handler: JobHandler) {
      handlers.set(kind, handler);
    },
    start() {
      if (started) return;
      started = true;
      unsubscribe = invalidationBusFor(db).subscribe("job", (kind) => {
        if (kind === null || handlers.has(kind)) wake();
      });
      timer = setInterval(wake, pollMs);
      timer.unref();
      wake();
    },
    /** Jobs running on this node now. */
    get running(): ClaimedJob[] {
      return [...running.values()].map((r) => r.job);
    },
    /**
     * Stops claiming, waits up to `drainMs` for running jobs, then gives the rest back to the
     * queue (another node claims them at once; they keep their attempt count).
     */
    async stop(stopOpts: { drainMs?: number } = {}) {
      stopping = true;
      if (timer) clearInterval(timer);
      unsubscribe?.();
      await polling;
      const drainMs = stopOpts.drainMs ?? 10_000;
      const all = Promise.all([...running.values()].map((r) => r.done));
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, drainMs).unref())]);
      for (const r of running.values()) {
        r.controller.abort(new Error("node stopping"));
        await db
          .update(clusterJobs)
          .set({ status: "queued", lockedBy: null, leaseUntil: null, runAt: sql`now()` })
          .where(held(r.job))
          .catch(() => {});
        logger.info("job released", { jobId: r.job.id, kind: r.job.kind });
      }
      await Promise.race([Promise.all([...running.values()].map((r) => r.done)), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    },
  };
}
export type JobRunner = ReturnType<typeof createJobRunner>;
