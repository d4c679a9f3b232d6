import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { dataModelFiles, deployments, type DataSourceConfig } from "../../db/schema";
import { createDuckDbDataSource, createPostgresDataSource, type DataSource } from "../../datasources";
import { notFound } from "../../domain/errors";
import type { Logger } from "../../logger";
import { createQueryEngine, loadDataModel, type QueryEngine } from "../../semantic";
import type { SecretBox } from "../../crypto/secret-box";
import { onInvalidation } from "../../cluster/invalidation-bus";

/** Default limit for one query's time in the database. */
export const QUERY_TIMEOUT_MS = 30_000;

function openDataSource(config: DataSourceConfig, box: SecretBox, queryTimeoutMs: number): DataSource {
  if (config.type === "duckdb") return createDuckDbDataSource({ path: config.path, readOnly: true });
  return createPostgresDataSource({
    host: config.host,
    port: config.port,
    database: config.database,
    user: config.user,
    password: config.passwordEncrypted ? box.open(config.passwordEncrypted) : undefined,
    ssl: config.ssl,
    // A backstop only: the per-query timer cancels first; this bounds a query whose cancel got lost.
    statementTimeoutMs: queryTimeoutMs * 2,
  });
}

interface Entry {
  engine: QueryEngine;
  dataSource: DataSource;
}

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
  const queryTimeoutMs = opts.queryTimeoutMs ?? QUERY_TIMEOUT_MS;

  async function build(deploymentId: number): Promise<Entry> {
    const [dep] = await opts.db.select().from(deployments).where(eq(deployments.id, deploymentId));
    if (!dep) throw notFound("Deployment");
    const files = await opts.db
      .select({ path: dataModelFiles.path, content: dataModelFiles.content })
      .from(dataModelFiles)
      .where(and(eq(dataModelFiles.deploymentId, deploymentId), eq(dataModelFiles.branch, "main")));
    const model = loadDataModel(files);
    const dataSource = openDataSource(dep.dataSource, opts.secretBox, queryTimeoutMs);
    opts.logger.info("query engine ready", { deploymentId, dataSource: dep.dataSource.type, modelFiles: files.length });
    return { engine: createQueryEngine({ model, dataSource, cacheTtlMs: opts.cacheTtlMs }), dataSource };
  }

  async function get(deploymentId: number): Promise<QueryEngine> {
    let entry = entries.get(deploymentId);
    if (!entry) {
      entry = build(deploymentId);
      entries.set(deploymentId, entry);
      // A failed build (bad model, missing deployment) is not cached: the next call retries.
      entry.catch((err: unknown) => {
        entries.delete(deploymentId);
        opts.logger.warn("query engine could not be built", { deploymentId, error: err instanceof Error ? err.message : String(err) });
      });
    }
    return (await entry).engine;
  }

  /** Drops a deployment's engine (its model or data source changed). */
  async function invalidate(deploymentId: number) {
    const entry = entries.get(deploymentId);
    entries.delete(deploymentId);
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
  const unsubscribe = [onInvalidation(opts.db, "deployment", onChange), onInvalidation(opts.db, "data-model", onChange)];

  return { get, invalidate, close, queryTimeoutMs };
}
export type QueryEngineRegistry = ReturnType<typeof createQueryEngineRegistry>;
