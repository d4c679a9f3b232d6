import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { and, desc, eq, gt } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { platformNodes } from "../../db/schema";
import type { Logger } from "../../logger";
import { DEFAULT_LOG_RETENTION_DAYS, pruneLogs } from "../deployment-logs/service";

/** The version of this server, from its package.json. */
export const SERVER_VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(new URL("../../../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
})();

export const HEARTBEAT_INTERVAL_MS = 10_000;
/** A node whose last heartbeat is older than this is no longer listed as serving. */
export const NODE_STALE_AFTER_MS = 3 * HEARTBEAT_INTERVAL_MS;

export interface NodeRegistryOptions {
  db: Db;
  logger: Logger;
  intervalMs?: number;
  /** Days a stored log line is kept (SVC_LOG_RETENTION_DAYS); pruned by the heartbeat about once an hour. */
  logRetentionDays?: number;
  now?: () => Date;
}

export interface PlatformNode {
  id: string;
  host: string;
  pid: number;
  version: string;
  startedAt: string;
  lastSeenAt: string;
  status: "running" | "stopped";
}

/**
 * Registers this process as a platform node and heartbeats its row, so every node's pods list
 * shows every live node. The heartbeat also prunes logs past their retention.
 */
export async function startNodeRegistry(opts: NodeRegistryOptions) {
  const now = opts.now ?? (() => new Date());
  const id = `${hostname()}-${process.pid}-${randomBytes(4).toString("hex")}`;
  const startedAt = now();
  await opts.db
    .insert(platformNodes)
    .values({ id, host: hostname(), pid: process.pid, version: SERVER_VERSION, startedAt, lastSeenAt: startedAt, status: "running" });
  let lastPrune = 0;
  const retentionDays = opts.logRetentionDays ?? DEFAULT_LOG_RETENTION_DAYS;

  async function beat() {
    const t = now();
    await opts.db.update(platformNodes).set({ lastSeenAt: t, status: "running" }).where(eq(platformNodes.id, id));
    if (t.getTime() - lastPrune > 3_600_000) {
      lastPrune = t.getTime();
      const pruned = await pruneLogs(opts.db, retentionDays, t);
      if (pruned) opts.logger.info("logs pruned", { pruned, retentionDays });
    }
  }
  const timer = setInterval(() => {
    beat().catch((err: unknown) => opts.logger.warn("heartbeat failed", { error: err instanceof Error ? err.message : String(err) }));
  }, opts.intervalMs ?? HEARTBEAT_INTERVAL_MS);
  timer.unref();

  return {
    id,
    beat,
    /** Marks this node stopped (a clean shutdown). */
    async stop() {
      clearInterval(timer);
      await opts.db
        .update(platformNodes)
        .set({ status: "stopped", lastSeenAt: now() })
        .where(eq(platformNodes.id, id))
        .catch(() => {});
    },
  };
}
export type NodeRegistry = Awaited<ReturnType<typeof startNodeRegistry>>;

/** The nodes heard from within NODE_STALE_AFTER_MS and not stopped, newest first. */
export async function listLiveNodes(db: Db, now = new Date()): Promise<PlatformNode[]> {
  const rows = await db
    .select()
    .from(platformNodes)
    .where(and(eq(platformNodes.status, "running"), gt(platformNodes.lastSeenAt, new Date(now.getTime() - NODE_STALE_AFTER_MS))))
    .orderBy(desc(platformNodes.startedAt));
  return rows.map((r) => ({
    id: r.id,
    host: r.host,
    pid: r.pid,
    version: r.version,
    startedAt: r.startedAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    status: r.status,
  }));
}
