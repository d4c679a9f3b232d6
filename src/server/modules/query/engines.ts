import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { dataModelFiles, deployments, modelBranches, type DataSourceConfig } from "../../db/schema";
import { createDuckDbDataSource, createMySqlDataSource, createPostgresDataSource, type DataSource } from "../../datasources";
import { DomainError, notFound } from "../../domain/errors";
import type { Logger } from "../../logger";
import { createQueryEngine, type DataModel, type QueryEngine } from "../../semantic";
import { compileModel } from "../data-model/compiled-models";
import type { SecretBox } from "../../crypto/secret-box";
import { onInvalidation, publishInvalidation } from "../../cluster/invalidation-bus";
import { writeLog } from "../deployment-logs/service";
import { envVarValues, resolveDataSourceRefs, substituteEnvRefs } from "../env-vars/service";
import { builtRollups, ROLLUPS_INVALIDATION, syncRollupRows } from "../rollups/service";
import type { BuiltRollup } from "../../semantic";

/** Default limit for one query's time in the database. */
export const QUERY_TIMEOUT_MS = 30_000;

function openDataSource(stored: DataSourceConfig, box: SecretBox, queryTimeoutMs: number, vars: Map<string, string>, writable: boolean): DataSource {
  // Settings may name the deployment's environment variables as ${NAME}.
  const config = resolveDataSourceRefs(stored, vars);
  // Rollups are built into the DuckDB file by this process: a model with rollups opens it for writing (docs/decisions.md).
  if (config.type === "duckdb") return createDuckDbDataSource({ path: config.path, readOnly: !writable });
  const server = {
    host: config.host,
    port: config.port,
    database: config.database,
    user: config.user,
    password: config.passwordEncrypted ? substituteEnvRefs(box.open(config.passwordEncrypted), vars, "password") : undefined,
    ssl: config.ssl,
    // A backstop only: the per-query timer cancels first; this bounds a query whose cancel got lost.
    statementTimeoutMs: queryTimeoutMs * 2,
  };
  return config.type === "mysql" ? createMySqlDataSource(server) : createPostgresDataSource(server);
}

interface Entry {
  engine: QueryEngine;
  dataSource: DataSource;
  model: DataModel;
  /** The head commit of branch `main` the model was read at (null before the model is versioned). */
  headCommitId: number | null;
}

/** How often a node compares the engine's model with the head of `main` in storage (at most once per this many ms per deployment). */
export const MODEL_HEAD_CHECK_MS = 1000;
/** Engines of non-default branches (queries with `branch=`) kept per node, least recently used dropped first. */
const BRANCH_ENGINES_MAX = 32;

/** Options of `createQueryEngineRegistry`. */
export interface QueryEngineRegistryOptions {
  db: Db;
  secretBox: SecretBox;
  logger: Logger;
  /** How long a result stays cached (see `createQueryEngine`). */
  cacheTtlMs?: number;
  /** Limit for one query's time in the database; past it the query is cancelled (504). Default 30 s. */
  queryTimeoutMs?: number;
}

/**
 * One query engine per deployment (its data model on the default branch and its data
 * source, with its own connection pool), built on first use and kept until the model or the
 * data source changes.
 */
export function createQueryEngineRegistry(opts: QueryEngineRegistryOptions) {
  const entries = new Map<number, Promise<Entry>>();
  const rollupsBuilt = new Map<number, BuiltRollup[]>();
  const queryTimeoutMs = opts.queryTimeoutMs ?? QUERY_TIMEOUT_MS;

  async function build(deploymentId: number): Promise<Entry> {
    const [dep] = await opts.db.select().from(deployments).where(eq(deployments.id, deploymentId));
    if (!dep) throw notFound("Deployment");
    if (!dep.dataSource)
      throw new DomainError(
        "data_source_not_configured",
        "No data source configured for this deployment: give one in the set-up wizard's data-source step (POST …/creation-step/advance) or with PUT /api/v1/deployments/{id}",
      );
    const stored = dep.dataSource;
    // Read before the files: a merge in between only makes the next check rebuild once more.
    const headCommitId = await mainHeadOf(deploymentId);
    headCheckedAt.set(deploymentId, Date.now());
    const files = await opts.db
      .select({ path: dataModelFiles.path, content: dataModelFiles.content })
      .from(dataModelFiles)
      .where(and(eq(dataModelFiles.deploymentId, deploymentId), eq(dataModelFiles.branch, "main")));
    // In path order, as the model's versions are compiled everywhere (a merge's model is reused).
    const model = compileModel(files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)));
    const dataSource = openDataSource(
      stored,
      opts.secretBox,
      queryTimeoutMs,
      await envVarValues(opts.db, opts.secretBox, deploymentId),
      model.rollups.size > 0,
    );
    // Built rollups are read from storage (they survive restarts) and again whenever a node announces a build.
    await syncRollupRows(opts.db, deploymentId, model);
    rollupsBuilt.set(deploymentId, await builtRollups(opts.db, deploymentId, model, dataSource.dialect));
    opts.logger.info("query engine ready", { deploymentId, dataSource: stored.type, modelFiles: files.length });
    await writeLog(opts.db, {
      deploymentId,
      container: "cubejs-server",
      message: "query engine ready",
      details: { dataSource: stored.type, modelFiles: files.length },
    });
    const engine = createQueryEngine({ model, dataSource, cacheTtlMs: opts.cacheTtlMs, rollups: () => rollupsBuilt.get(deploymentId) ?? [] });
    return { engine, dataSource, model, headCommitId };
  }

  // Production reload without a restart, on every node: the model of `main` is versioned
  // (modules/data-model); a node that did not make a merge sees the new head here, at most
  // MODEL_HEAD_CHECK_MS later, and rebuilds the engine.
  const headCheckedAt = new Map<number, number>();
  const branchEngines = new Map<string, { deploymentId: number; engine: QueryEngine }>();

  async function mainHeadOf(deploymentId: number): Promise<number | null> {
    const [row] = await opts.db
      .select({ head: modelBranches.headCommitId })
      .from(modelBranches)
      .where(and(eq(modelBranches.deploymentId, deploymentId), eq(modelBranches.name, "main")));
    return row?.head ?? null;
  }

  /** Compares the engine's model with the head of `main` in storage (cached ≤ MODEL_HEAD_CHECK_MS) and drops the engine when it changed. */
  async function checkDeploymentModel(deploymentId: number) {
    const entry = entries.get(deploymentId);
    if (!entry) return;
    const checkedAt = headCheckedAt.get(deploymentId) ?? 0;
    if (Date.now() - checkedAt < MODEL_HEAD_CHECK_MS) return;
    headCheckedAt.set(deploymentId, Date.now());
    const built = await entry.then((e) => e.headCommitId).catch(() => undefined);
    if (built === undefined) return;
    const head = await mainHeadOf(deploymentId);
    if (head !== built && entries.get(deploymentId) === entry) await invalidateDeploymentModel(deploymentId, { announce: false });
  }

  /**
   * The model of `main` changed: the next query rebuilds the engine. A change made here is
   * announced to every node (the invalidation bus, docs/scaling.md), which drops its engine at
   * once instead of at its next head check; a change found by the head check is not announced again.
   */
  async function invalidateDeploymentModel(deploymentId: number, how: { announce?: boolean } = {}) {
    headCheckedAt.delete(deploymentId);
    await invalidate(deploymentId);
    if (how.announce !== false) await publishInvalidation(opts.db, "data-model", deploymentId);
  }

  /**
   * An engine for another version of the model (a branch), on the deployment's data source.
   * `key` names the version (e.g. the branch and its tree's hash): the same key reuses the engine.
   */
  async function getWithModel(deploymentId: number, key: string, loadModel: () => Promise<DataModel>): Promise<QueryEngine> {
    const mapKey = `${deploymentId}:${key}`;
    const cached = branchEngines.get(mapKey);
    await get(deploymentId);
    const entry = await entries.get(deploymentId);
    if (!entry) throw notFound("Deployment");
    if (cached) {
      branchEngines.delete(mapKey);
      branchEngines.set(mapKey, cached);
      return cached.engine;
    }
    const engine = createQueryEngine({ model: await loadModel(), dataSource: entry.dataSource, cacheTtlMs: opts.cacheTtlMs });
    branchEngines.set(mapKey, { deploymentId, engine });
    if (branchEngines.size > BRANCH_ENGINES_MAX) branchEngines.delete(branchEngines.keys().next().value!);
    return engine;
  }

  async function get(deploymentId: number): Promise<QueryEngine> {
    await checkDeploymentModel(deploymentId);
    let entry = entries.get(deploymentId);
    if (!entry) {
      entry = build(deploymentId);
      entries.set(deploymentId, entry);
      // A failed build (bad model, missing deployment) is not cached: the next call retries.
      entry.catch((err: unknown) => {
        entries.delete(deploymentId);
        const error = err instanceof Error ? err.message : String(err);
        opts.logger.warn("query engine could not be built", { deploymentId, error });
        void writeLog(opts.db, {
          deploymentId,
          container: "cubejs-server",
          level: "error",
          message: "query engine could not be built",
          details: { error },
        }).catch(() => {});
      });
    }
    return (await entry).engine;
  }

  /** Drops a deployment's engine (its model or data source changed). */
  async function invalidate(deploymentId: number) {
    const entry = entries.get(deploymentId);
    entries.delete(deploymentId);
    for (const [k, v] of branchEngines) if (v.deploymentId === deploymentId) branchEngines.delete(k);
    if (entry) await entry.then((e) => e.dataSource.close()).catch(() => {});
  }

  async function close() {
    unsubscribe.forEach((stop) => stop());
    await Promise.all([...entries.keys()].map(invalidate));
  }

  // A data source changed, a model was merged into main, or the listener reconnected (null: all),
  // on this node or another: the next query here builds the engine again, with an empty cache.
  const onChange = async (key: string | null) => {
    if (key === null) await Promise.all([...entries.keys()].map(invalidate));
    else if (/^\d+$/.test(key)) await invalidate(Number(key));
  };
  const onRollups = async (key: string | null) => {
    for (const [deploymentId, entry] of entries) {
      if (key !== null && key !== String(deploymentId)) continue;
      const e = await entry.catch(() => undefined);
      if (e) rollupsBuilt.set(deploymentId, await builtRollups(opts.db, deploymentId, e.model, e.dataSource.dialect));
    }
  };
  const unsubscribe = [
    onInvalidation(opts.db, "deployment", onChange),
    onInvalidation(opts.db, "data-model", onChange),
    onInvalidation(opts.db, ROLLUPS_INVALIDATION, (key) =>
      onRollups(key).catch((err: unknown) => opts.logger.warn("rollups reload failed", { error: String(err) })),
    ),
  ];

  /** The deployment's production model and data source (rollup builds run on them). */
  async function source(deploymentId: number): Promise<{ model: DataModel; dataSource: DataSource }> {
    await get(deploymentId);
    const entry = await entries.get(deploymentId)!;
    return { model: entry.model, dataSource: entry.dataSource };
  }

  return { get, source, invalidate, close, queryTimeoutMs, invalidateDeploymentModel, checkDeploymentModel, getWithModel };
}
export type QueryEngineRegistry = ReturnType<typeof createQueryEngineRegistry>;
