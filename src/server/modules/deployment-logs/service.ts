import { and, desc, eq, gte, inArray, isNull, lt, lte, type SQL } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { deploymentLogs } from "../../db/schema";

export const LOG_SOURCES = ["production", "dev"] as const;
/** decisions.md: `MAIN` the API, `cubejs-server` the semantic engine, `INIT` builds, `api-proxy` HTTP access, `vector` delivery. */
export const LOG_CONTAINERS = ["INIT", "MAIN", "cubejs-server", "vector", "api-proxy"] as const;
export type LogSource = (typeof LOG_SOURCES)[number];
export type LogContainer = (typeof LOG_CONTAINERS)[number];

/** Days a log line is kept unless SVC_LOG_RETENTION_DAYS says otherwise. */
export const DEFAULT_LOG_RETENTION_DAYS = 14;

export interface LogEntry {
  deploymentId: number | null;
  container: LogContainer;
  message: string;
  source?: LogSource;
  level?: "info" | "warn" | "error";
  /** Ids, counts, names of fields: never a secret, a token or a filter value. */
  details?: Record<string, unknown>;
}

/** Stores one line (in the caller's transaction when `db` is one). */
export async function writeLog(db: Db, entry: LogEntry): Promise<void> {
  await db.insert(deploymentLogs).values({
    deploymentId: entry.deploymentId,
    container: entry.container,
    message: entry.message.slice(0, 2000),
    source: entry.source ?? "production",
    level: entry.level ?? "info",
    details: entry.details ?? {},
  });
}

export interface LogLine {
  id: number;
  time: string;
  source: LogSource;
  container: LogContainer;
  level: "info" | "warn" | "error";
  message: string;
  details: Record<string, unknown>;
}

/** Lines of a deployment (null: the tenant-wide lines), newest first. */
export async function listLogs(
  db: Db,
  deploymentId: number | null,
  filter: { source?: LogSource; containers?: LogContainer[]; since?: Date; until?: Date; limit: number },
): Promise<LogLine[]> {
  const where: SQL[] = [deploymentId === null ? isNull(deploymentLogs.deploymentId) : eq(deploymentLogs.deploymentId, deploymentId)];
  if (filter.source) where.push(eq(deploymentLogs.source, filter.source));
  if (filter.containers?.length) where.push(inArray(deploymentLogs.container, filter.containers));
  if (filter.since) where.push(gte(deploymentLogs.createdAt, filter.since));
  if (filter.until) where.push(lte(deploymentLogs.createdAt, filter.until));
  const rows = await db
    .select()
    .from(deploymentLogs)
    .where(and(...where))
    .orderBy(desc(deploymentLogs.createdAt), desc(deploymentLogs.id))
    .limit(filter.limit);
  return rows.map((r) => ({
    id: r.id,
    time: r.createdAt.toISOString(),
    source: r.source,
    container: r.container,
    level: r.level,
    message: r.message,
    details: r.details,
  }));
}

/** Deletes lines older than the retention; returns how many went. */
export async function pruneLogs(db: Db, retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const rows = await db.delete(deploymentLogs).where(lt(deploymentLogs.createdAt, cutoff)).returning({ id: deploymentLogs.id });
  return rows.length;
}
