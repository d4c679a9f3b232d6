import { and, eq, lte, notInArray } from "drizzle-orm";
import { Cron } from "croner";
import type { Db } from "../../db/connection";
import { rollupBuilds } from "../../db/schema";
import type { DataSource } from "../../datasources";
import { enqueueJob, type JobRunner } from "../../cluster/jobs";
import { publishInvalidation } from "../../cluster/invalidation-bus";
import type { Logger } from "../../logger";
import type { BuiltRollup, DataModel } from "../../semantic";
import { buildRollupTable, rollupRefreshKey, rollupTable, ROLLUP_DIALECTS } from "../../semantic/rollup-build";
import { notFound } from "../../domain/errors";
import { writeLog } from "../deployment-logs/service";

/** The job that builds one rollup of one deployment; the queue's lease makes it run on one node at a time. */
export const ROLLUP_BUILD_JOB = "rollup.build";
/** What nodes announce when a build finished: the others read the built rollups again. */
export const ROLLUPS_INVALIDATION = "rollups";

/** A rollup of the model with its build state. */
export interface RollupState {
  name: string;
  cube: string;
  granularity: string;
  refreshEvery: string;
  /** `stale`: built for an earlier definition (the current one is not built yet). */
  state: "pending" | "building" | "built" | "failed" | "stale";
  table: string | null;
  rowCount: number | null;
  sizeBytes: number | null;
  lastBuildAt: string | null;
  nextBuildAt: string | null;
  error: string | null;
}

const nextRun = (cron: string, from: Date) => new Cron(cron, { paused: true }).nextRun(from) ?? null;

/**
 * Keeps one state row per rollup of the model: new rollups are due now, rows of rollups the
 * model no longer has go. Called when a node compiles the deployment's model.
 */
export async function syncRollupRows(db: Db, deploymentId: number, model: DataModel): Promise<void> {
  const names = [...model.rollups.keys()];
  await db
    .delete(rollupBuilds)
    .where(names.length ? and(eq(rollupBuilds.deploymentId, deploymentId), notInArray(rollupBuilds.name, names)) : eq(rollupBuilds.deploymentId, deploymentId));
  if (!names.length) return;
  await db
    .insert(rollupBuilds)
    .values(names.map((name) => ({ deploymentId, name, nextBuildAt: new Date() })))
    .onConflictDoNothing();
}

/** The rollups whose current definition is built, for the query engine. */
export async function builtRollups(db: Db, deploymentId: number, model: DataModel, dialect: DataSource["dialect"]): Promise<BuiltRollup[]> {
  if (!model.rollups.size || !(ROLLUP_DIALECTS as readonly string[]).includes(dialect)) return [];
  const rows = await db.select().from(rollupBuilds).where(eq(rollupBuilds.deploymentId, deploymentId));
  const out: BuiltRollup[] = [];
  for (const rollup of model.rollups.values()) {
    const row = rows.find((r) => r.name === rollup.name);
    const table = rollupTable(model, rollup, dialect);
    if (row?.tableName === table) out.push({ rollup, table });
  }
  return out;
}

/** The model's rollups with their state, size, last and next build. */
export async function listRollups(db: Db, deploymentId: number, model: DataModel, dialect: DataSource["dialect"]): Promise<RollupState[]> {
  const rows = await db.select().from(rollupBuilds).where(eq(rollupBuilds.deploymentId, deploymentId));
  return [...model.rollups.values()].map((rollup) => {
    const row = rows.find((r) => r.name === rollup.name);
    const current = (ROLLUP_DIALECTS as readonly string[]).includes(dialect) ? rollupTable(model, rollup, dialect) : null;
    const stale = row?.state === "built" && row.tableName !== current;
    return {
      name: rollup.name,
      cube: rollup.cube,
      granularity: rollup.timeDimension.granularity,
      refreshEvery: rollup.refreshEvery,
      state: stale ? "stale" : (row?.state ?? "pending"),
      table: row?.tableName ?? null,
      rowCount: row?.rowCount ?? null,
      sizeBytes: row?.sizeBytes ?? null,
      lastBuildAt: row?.builtAt?.toISOString() ?? null,
      nextBuildAt: row?.nextBuildAt?.toISOString() ?? null,
      error: row?.error ?? null,
    };
  });
}

/** Queues a build of the rollup now (a developer's "build now"); returns the job id. */
export async function requestRollupBuild(db: Db, deploymentId: number, model: DataModel, name: string): Promise<number | null> {
  if (!model.rollups.has(name)) throw notFound("Rollup");
  return enqueueJob(db, ROLLUP_BUILD_JOB, { deploymentId, name, force: true }, { maxAttempts: 1 });
}

/** Queues each rollup whose next build is due, once across nodes (the dedupe key names the due time). */
export async function enqueueDueRollups(db: Db): Promise<void> {
  const due = await db
    .select()
    .from(rollupBuilds)
    // A row left `building` by a node that died is due again like any other: the dedupe key still queues it once.
    .where(lte(rollupBuilds.nextBuildAt, new Date()));
  for (const row of due) {
    await enqueueJob(
      db,
      ROLLUP_BUILD_JOB,
      { deploymentId: row.deploymentId, name: row.name, force: false },
      { dedupeKey: `${ROLLUP_BUILD_JOB}:${row.deploymentId}:${row.name}:${row.nextBuildAt!.toISOString()}`, maxAttempts: 1 },
    );
  }
}

/** What a build job needs of the deployment: its compiled model and its data source. */
export type RollupSource = (deploymentId: number) => Promise<{ model: DataModel; dataSource: DataSource }>;

/**
 * Runs builds on this node: registers the job handler and, every `intervalMs`, queues the due
 * rollups. A scheduled build whose refresh key has not changed since the last one is skipped.
 * Failures are kept in the rollup's state and written to the deployment's logs.
 */
export function startRollupBuilds(deps: { db: Db; logger: Logger; jobs: JobRunner; source: RollupSource }, intervalMs = 30_000) {
  const { db, logger } = deps;
  deps.jobs.register(ROLLUP_BUILD_JOB, async (job, ctx) => {
    const { deploymentId, name, force } = job.payload as { deploymentId: number; name: string; force: boolean };
    const { model, dataSource } = await deps.source(deploymentId);
    const rollup = model.rollups.get(name);
    const where = and(eq(rollupBuilds.deploymentId, deploymentId), eq(rollupBuilds.name, name));
    if (!rollup) return void (await ctx.complete());
    const [row] = await db.select().from(rollupBuilds).where(where);
    const next = nextRun(rollup.refreshEvery, new Date());
    try {
      const key = await rollupRefreshKey(dataSource, rollup, ctx.signal);
      const current = rollupTable(model, rollup, dataSource.dialect);
      if (!force && key !== null && row?.refreshKey === key && row.tableName === current) {
        await ctx.complete(async (tx) => void (await tx.update(rollupBuilds).set({ nextBuildAt: next, updatedAt: new Date() }).where(where)));
        return;
      }
      await db.update(rollupBuilds).set({ state: "building", updatedAt: new Date() }).where(where);
      const started = Date.now();
      // A scheduled build keeps the partitions before the rollup's update window; "build now" aggregates everything again.
      const built = await buildRollupTable(dataSource, model, rollup, ctx.signal, force ? "full" : "auto");
      await ctx.complete(async (tx) => {
        await tx
          .update(rollupBuilds)
          .set({
            state: "built",
            tableName: built.table,
            rowCount: built.rowCount,
            sizeBytes: built.sizeBytes,
            refreshKey: key,
            builtAt: new Date(),
            nextBuildAt: next,
            error: null,
            updatedAt: new Date(),
          })
          .where(where);
      });
      const how = { mode: built.mode, ...(built.from ? { from: built.from } : {}) };
      logger.info("rollup built", { deploymentId, rollup: name, rows: built.rowCount, ms: Date.now() - started, ...how });
      await writeLog(db, {
        deploymentId,
        container: "cubejs-server",
        message: "rollup built",
        details: { rollup: name, rows: built.rowCount, ms: Date.now() - started, ...how },
      }).catch((e: unknown) => logger.warn("rollup build not logged", { deploymentId, error: String(e) }));
      await publishInvalidation(db, ROLLUPS_INVALIDATION, String(deploymentId));
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      logger.warn("rollup build failed", { deploymentId, rollup: name, error });
      await ctx.complete(
        async (tx) => void (await tx.update(rollupBuilds).set({ state: "failed", error, nextBuildAt: next, updatedAt: new Date() }).where(where)),
      );
      await writeLog(db, { deploymentId, container: "cubejs-server", level: "error", message: "rollup build failed", details: { rollup: name, error } }).catch(
        (e: unknown) => logger.warn("rollup failure not logged", { deploymentId, error: String(e) }),
      );
    }
  });
  const timer = setInterval(() => {
    enqueueDueRollups(db).catch((err: unknown) => logger.warn("rollup schedule failed", { error: err instanceof Error ? err.message : String(err) }));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
