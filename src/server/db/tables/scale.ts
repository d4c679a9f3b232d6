/** Tables of the scale feature; re-exported by ../schema.ts so drizzle and the migrations see them. */
import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * The API nodes serving this database: each node writes its row on start and heartbeats it;
 * a row not seen for a few heartbeats is a node that died.
 */
export const clusterNodes = pgTable("cluster_nodes", {
  id: text("id").primaryKey(),
  host: text("host").notNull(),
  pid: integer("pid").notNull(),
  version: text("version").notNull(),
  /** Address the node listens on, as it sees it (for operators; balancers have their own list). */
  address: text("address"),
  status: text("status").$type<"starting" | "ready" | "draining" | "stopped">().notNull().default("starting"),
  startedAt: ts("started_at").notNull().defaultNow(),
  lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
});

/**
 * Background jobs, claimed with `FOR UPDATE SKIP LOCKED` under a lease: a job runs on one node
 * at a time, and a job whose node died is claimed again once its lease has run out.
 */
export const clusterJobs = pgTable(
  "cluster_jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    status: text("status").$type<"queued" | "running" | "done" | "failed">().notNull().default("queued"),
    /** Set for jobs that must be enqueued once (a schedule's period, say); unique while set. */
    dedupeKey: text("dedupe_key"),
    runAt: ts("run_at").notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    lockedBy: text("locked_by"),
    leaseUntil: ts("lease_until"),
    lastError: text("last_error"),
    createdAt: ts("created_at").notNull().defaultNow(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    uniqueIndex("cluster_jobs_dedupe_key_idx").on(t.dedupeKey),
    index("cluster_jobs_claim_idx")
      .on(t.runAt, t.id)
      .where(sql`status = 'queued'`),
    index("cluster_jobs_lease_idx")
      .on(t.leaseUntil)
      .where(sql`status = 'running'`),
  ],
);

/** Fixed-window counters of the rate limits (when no Redis is configured); keys are hashed. */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    key: text("key").notNull(),
    windowStart: ts("window_start").notNull(),
    count: integer("count").notNull().default(0),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index("rate_limit_counters_expires_idx").on(t.expiresAt)],
);
