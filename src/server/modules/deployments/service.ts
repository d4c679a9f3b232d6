import { statSync } from "node:fs";
import path from "node:path";
import { asc, count, eq, gt } from "drizzle-orm";
import type { CreateDeploymentInput, DataSourceInput, Deployment, UpdateDeploymentInput } from "../../../schema/deployment";
import type { Db } from "../../db/connection";
import { dataModelFiles, deployments, deploymentSetups, type DataSourceConfig } from "../../db/schema";
import { ensureDefaultBranch } from "../data-model/store";
import { badRequest, forbidden } from "../../domain/errors";
import { hasRole, type Principal } from "../../domain/actor";
import { DataModelError, loadDataModel } from "../../semantic";
import type { SecretBox } from "../../crypto/secret-box";
import { createRequestCache, invalidateEmbedSessionStates } from "../../domain/request-caches";

type DeploymentRow = typeof deployments.$inferSelect;

/**
 * The API view of a deployment. Embed viewers see only the data source's type; platform users
 * its connection details (never the password, only whether one is stored); the DuckDB file path
 * only admins, since it tells where things live on the server.
 */
export function deploymentView(row: DeploymentRow, viewer?: Principal): Deployment {
  const ds = row.dataSource;
  if (!ds) return { id: row.id, name: row.name, dataSource: null, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
  let dataSource: NonNullable<Deployment["dataSource"]> = { type: ds.type };
  if (viewer?.kind === "user") {
    if (ds.type !== "duckdb") {
      dataSource = {
        type: ds.type,
        host: ds.host,
        port: ds.port,
        database: ds.database,
        user: ds.user,
        ssl: ds.ssl ?? false,
        hasPassword: !!ds.passwordEncrypted,
      };
    } else if (hasRole(viewer, "admin")) {
      dataSource = { type: "duckdb", path: ds.path };
    }
  }
  return {
    id: row.id,
    name: row.name,
    dataSource,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Deployment rows by id, for a short while: nearly every request names its deployment. Dropped
 * on every node by each change (`deployment` on the invalidation bus: the routes publish it
 * after an update or a delete, platform-services.ts drops this cache on it) and on this node at
 * once by the writes below.
 */
export const deploymentRowCache = createRequestCache<DeploymentRow>(30_000);

/** The deployment, or null; read through this node's cache (a change is seen at once on this node, within milliseconds on others). */
export async function getDeployment(db: Db, id: number): Promise<DeploymentRow | null> {
  const known = deploymentRowCache.get(db, id);
  if (known) return known;
  const readAt = deploymentRowCache.generation();
  const row = await readDeployment(db, id);
  if (row) deploymentRowCache.set(db, id, row, readAt);
  return row;
}

/** The deployment as stored now, bypassing the cache (for a write that builds on it). */
async function readDeployment(db: Db, id: number): Promise<DeploymentRow | null> {
  const [row] = await db.select().from(deployments).where(eq(deployments.id, id));
  return row ?? null;
}

export async function listDeployments(db: Db, opts: { afterId: number | null; limit: number; onlyId?: number }) {
  const where = opts.onlyId !== undefined ? eq(deployments.id, opts.onlyId) : opts.afterId !== null ? gt(deployments.id, opts.afterId) : undefined;
  const rows = await db.select().from(deployments).where(where).orderBy(asc(deployments.id)).limit(opts.limit);
  const [total] = await db
    .select({ n: count() })
    .from(deployments)
    .where(opts.onlyId !== undefined ? eq(deployments.id, opts.onlyId) : undefined);
  return { rows, total: Number(total?.n ?? 0) };
}

const problem = (pathInBody: (string | number)[], code: string, message: string) =>
  badRequest(`Invalid request body: ${pathInBody.join(".")}: ${message}`, [{ path: pathInBody, code, message }]);

/**
 * Turns a data source input into the stored form: a DuckDB path is checked (absolute, an
 * existing file; admins only, as it opens a file on the server), a Postgres or MySQL password sealed.
 * `previous` is the stored config on update: an omitted password keeps the stored one, but only
 * while the kind of server, host, port, database and user stay the same — otherwise a changed target could be sent
 * a password meant for another server.
 */
export function dataSourceConfigOf(
  input: DataSourceInput,
  opts: { principal: Principal; secretBox: SecretBox; previous?: DataSourceConfig },
): DataSourceConfig {
  if (input.type === "duckdb") {
    if (!hasRole(opts.principal, "admin")) throw forbidden("Only admins can point a deployment at a DuckDB file on the server");
    if (!path.isAbsolute(input.path)) throw problem(["dataSource", "path"], "not_absolute", "must be an absolute path");
    const normalized = path.normalize(input.path);
    let isFile: boolean;
    try {
      isFile = statSync(normalized).isFile();
    } catch {
      isFile = false;
    }
    if (!isFile) throw problem(["dataSource", "path"], "not_found", "no such file on the server");
    return { type: "duckdb", path: normalized };
  }
  const prev = opts.previous?.type === "duckdb" ? undefined : opts.previous;
  let passwordEncrypted: string | null = null;
  if (typeof input.password === "string") passwordEncrypted = opts.secretBox.seal(input.password);
  else if (input.password === undefined && prev?.passwordEncrypted) {
    const sameTarget =
      prev.type === input.type && prev.host === input.host && prev.port === input.port && prev.database === input.database && prev.user === input.user;
    if (!sameTarget)
      throw problem(
        ["dataSource", "password"],
        "password_required",
        "send the password again (or null for none) when the kind of server, host, port, database or user change",
      );
    passwordEncrypted = prev.passwordEncrypted;
  }
  return {
    type: input.type,
    host: input.host,
    port: input.port,
    database: input.database,
    user: input.user,
    passwordEncrypted,
    ...(input.ssl !== undefined ? { ssl: input.ssl } : {}),
  };
}

/** Checks model files as a whole; the problems become `details` with paths into the body. */
function checkDataModel(files: { path: string; content: string }[]) {
  const seen = new Set<string>();
  files.forEach((f, i) => {
    if (seen.has(f.path)) throw problem(["dataModelFiles", i, "path"], "duplicate_path", `"${f.path}" appears twice`);
    seen.add(f.path);
  });
  try {
    loadDataModel(files);
  } catch (e) {
    if (!(e instanceof DataModelError)) throw e;
    const index = new Map(files.map((f, i) => [f.path, i]));
    throw badRequest(
      e.message,
      e.problems.map((p) => ({
        path: ["dataModelFiles", index.get(p.file) ?? 0, "content", ...p.path],
        code: "data_model_invalid",
        message: p.message,
        file: p.file,
        ...(p.line ? { line: p.line } : {}),
      })),
    );
  }
}

/** Creates a deployment with its data source and (validated) data model on branch `main`. */
export async function createDeployment(db: Db, input: CreateDeploymentInput, opts: { principal: Principal; secretBox: SecretBox }): Promise<DeploymentRow> {
  const files = input.dataModelFiles ?? [];
  checkDataModel(files);
  const dataSource = input.dataSource ? dataSourceConfigOf(input.dataSource, opts) : null;
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(deployments).values({ name: input.name, dataSource }).returning();
    // How it was created (spec 2.9 enums) and the first step of its set-up wizard (modules/deployment-setup).
    await tx.insert(deploymentSetups).values({
      deploymentId: row!.id,
      cloudProvider: input.cloudProvider ?? "svccloud",
      creationMethod: input.creationMethod ?? "upload",
      deployMode: input.deployMode ?? "cli",
      region: input.region ?? null,
      step: "data-source",
    });
    if (files.length) {
      await tx.insert(dataModelFiles).values(files.map((f) => ({ deploymentId: row!.id, branch: "main", path: f.path, content: f.content })));
    }
    // Versioned from the start: its model is the first commit of `main` (modules/data-model), so
    // no later request, refused or not, has to write history first.
    await ensureDefaultBranch(tx, row!.id);
    return row!;
  });
}

/** Updates name and/or data source; null when the deployment does not exist. */
export async function updateDeployment(
  db: Db,
  id: number,
  input: UpdateDeploymentInput,
  opts: { principal: Principal; secretBox: SecretBox },
): Promise<DeploymentRow | null> {
  const current = await readDeployment(db, id);
  if (!current) return null;
  const set: Partial<typeof deployments.$inferInsert> = { updatedAt: new Date() };
  if (input.name !== undefined) set.name = input.name;
  // null is what GET shows while none is set: sent back, it changes nothing.
  if (input.dataSource) set.dataSource = dataSourceConfigOf(input.dataSource, { ...opts, previous: current.dataSource ?? undefined });
  const [row] = await db.update(deployments).set(set).where(eq(deployments.id, id)).returning();
  deploymentRowCache.invalidate();
  return row ?? null;
}

/** Deletes a deployment and everything scoped to it (by cascade); false when it did not exist. */
export async function deleteDeployment(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(deployments).where(eq(deployments.id, id)).returning({ id: deployments.id });
  deploymentRowCache.invalidate();
  invalidateEmbedSessionStates();
  return rows.length > 0;
}
