import { hostname } from "node:os";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/connection";
import { clusterJobs, clusterNodes, rateLimitCounters } from "../db/schema";
import type { Logger } from "../logger";
import { invalidationBusFor } from "./invalidation-bus";
import { createJobRunner, enqueueJob, type JobRunner } from "./jobs";
import { DEFAULT_LOG_RETENTION_DAYS, pruneLogs } from "../modules/deployment-logs/service";

/** Options of `startClusterNode`. */
export interface ClusterNodeOptions {
  db: Db;
  /** The Postgres server shared by the nodes; without it (PGlite) invalidations stay in process. */
  databaseUrl?: string;
  logger: Logger;
  version: string;
  /** Where this node listens, for the node list. */
  address?: string;
  /** Heartbeat interval; default 5 s. A node not seen for 3 intervals counts as gone. */
  heartbeatMs?: number;
  /** Job lease (see `createJobRunner`); default 30 s. */
  jobLeaseMs?: number;
  /** Job poll interval; default 1 s. */
  jobPollMs?: number;
  /** Days a stored deployment log line is kept (SVC_LOG_RETENTION_DAYS); older lines go in the sweep. */
  logRetentionDays?: number;
}

/** Housekeeping that must run once across nodes per period: expired counters, finished jobs, gone nodes, old log lines. */
export const SWEEP_JOB = "cluster.sweep";
const SWEEP_PERIOD_MS = 10 * 60 * 1000;

/**
 * This process as one node of the cluster: its row in `cluster_nodes` (heartbeat), the
 * cross-node invalidation listener and the job runner. `status` turns `draining` on
 * shutdown so balancers stop sending requests before the listener closes.
 */
export async function startClusterNode(opts: ClusterNodeOptions) {
  const { db, logger } = opts;
  const bus = invalidationBusFor(db);
  const nodeId = bus.nodeId;
  const heartbeatMs = opts.heartbeatMs ?? 5000;
  if (opts.databaseUrl) await bus.connect(opts.databaseUrl, logger);
  let status: "ready" | "draining" | "stopped" = "ready";

  await db
    .insert(clusterNodes)
    .values({ id: nodeId, host: hostname(), pid: process.pid, version: opts.version, address: opts.address ?? null, status })
    .onConflictDoUpdate({ target: clusterNodes.id, set: { status, lastSeenAt: sql`now()` } });

  const jobs: JobRunner = createJobRunner({ db, nodeId, logger, leaseMs: opts.jobLeaseMs, pollMs: opts.jobPollMs });
  const retentionDays = opts.logRetentionDays ?? DEFAULT_LOG_RETENTION_DAYS;
  jobs.register(SWEEP_JOB, async (_job, ctx) => {
    const pruned = await pruneLogs(db, retentionDays);
    if (pruned) logger.info("logs pruned", { pruned, retentionDays });
    await ctx.complete(async (tx) => {
      await tx.delete(rateLimitCounters).where(lt(rateLimitCounters.expiresAt, sql`now()`));
      await tx.delete(clusterJobs).where(and(sql`${clusterJobs.status} in ('done', 'failed')`, lt(clusterJobs.finishedAt, sql`now() - interval '7 days'`)));
      await tx.delete(clusterNodes).where(lt(clusterNodes.lastSeenAt, sql`now() - interval '1 day'`));
    });
  });

  async function heartbeat() {
    await db
      .update(clusterNodes)
      .set({ lastSeenAt: sql`now()`, status })
      .where(eq(clusterNodes.id, nodeId));
    // One sweep per period across all nodes: the dedupe key names the period.
    await enqueueJob(db, SWEEP_JOB, {}, { dedupeKey: `${SWEEP_JOB}:${Math.floor(Date.now() / SWEEP_PERIOD_MS)}`, maxAttempts: 1 });
  }
  const beat = setInterval(() => {
    heartbeat().catch((err: unknown) => logger.warn("heartbeat failed", { error: err instanceof Error ? err.message : String(err) }));
  }, heartbeatMs);
  beat.unref();
  void heartbeat().catch(() => {});

  return {
    nodeId,
    jobs,
    bus,
    get status() {
      return status;
    },
    /** Stops taking new work: the health check answers 503 from now on. */
    async drain() {
      if (status !== "ready") return;
      status = "draining";
      await db
        .update(clusterNodes)
        .set({ status, lastSeenAt: sql`now()` })
        .where(eq(clusterNodes.id, nodeId))
        .catch(() => {});
    },
    /** Gives back unfinished jobs (after `drainMs` for them to finish), stops the heartbeat and the listener. */
    async stop(stopOpts: { drainMs?: number } = {}) {
      status = "draining";
      clearInterval(beat);
      await jobs.stop(stopOpts);
      status = "stopped";
      await db
        .update(clusterNodes)
        .set({ status, lastSeenAt: sql`now()` })
        .where(eq(clusterNodes.id, nodeId))
        .catch(() => {});
      await bus.close();
    },
  };
}
export type ClusterNode = Awaited<ReturnType<typeof startClusterNode>>;

/** Nodes seen within three heartbeats (or all of them with `includeGone`), newest first. */
export async function listClusterNodes(db: Db, opts: { heartbeatMs?: number; includeGone?: boolean } = {}) {
  const staleMs = 3 * (opts.heartbeatMs ?? 5000);
  const rows = await db
    .select({
      id: clusterNodes.id,
      host: clusterNodes.host,
      pid: clusterNodes.pid,
      version: clusterNodes.version,
      address: clusterNodes.address,
      status: clusterNodes.status,
      startedAt: clusterNodes.startedAt,
      lastSeenAt: clusterNodes.lastSeenAt,
      alive: sql<boolean>`${clusterNodes.lastSeenAt} > now() - ${staleMs} * interval '1 millisecond'`,
    })
    .from(clusterNodes)
    .orderBy(sql`${clusterNodes.startedAt} desc`);
  return rows.filter((r) => opts.includeGone || (r.alive && r.status !== "stopped"));
}
