import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { dataModelFiles, deployments, type DataSourceConfig } from "../../db/schema";
import { createDuckDbDataSource, createPostgresDataSource, type DataSource } from "../../datasources";
import { notFound } from "../../domain/errors";
import type { Logger } from "../../logger";
import { createQueryEngine, loadDataModel, type QueryEngine } from "../../semantic";
import type { SecretBox } from "../../crypto/secret-box";
import { writeLog } from "../deployment-logs/service";
import { envVarValues, resolveDataSourceRefs, substituteEnvRefs } from "../env-vars/service";

/** Default limit for one query's time in the database. */
export const QUERY_TIMEOUT_MS = 30_000;

function openDataSource(stored: DataSourceConfig, box: SecretBox, queryTimeoutMs: number, vars: Map<string, string>): DataSource {
  // Settings may name the deployment's environment variables as ${NAME}.
  const config = resolveDataSourceRefs(stored, vars);
  if (config.type === "duckdb") return createDuckDbDataSource({ path: config.path, readOnly: true });
  return createPostgresDataSource({
    host: config.host,
    port: config.port,
    database: config.database,
    user: config.user,
    password: config.passwordEncrypted ? substituteEnvRefs(box.open(config.passwordEncrypted), vars, "password") : undefined,
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
    const dataSource = openDataSource(dep.dataSource, opts.secretBox, queryTimeoutMs, await envVarValues(opts.db, opts.secretBox, deploymentId));
    opts.logger.info("query engine ready", { deploymentId, dataSource: dep.dataSource.type, modelFiles: files.length });
    await writeLog(opts.db, {
      deploymentId,
      container: "cubejs-server",
      message: "query engine ready",
      details: { dataSource: dep.dataSource.type, modelFiles: files.length },
    });
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
    if (entry) await entry.then((e) => e.dataSource.close()).catch(() => {});
  }

  async function close() {
    await Promise.all([...entries.keys()].map(invalidate));
  }

  return { get, invalidate, close, queryTimeoutMs };
}
export type QueryEngineRegistry = ReturnType<typeof createQueryEngineRegistry>;
