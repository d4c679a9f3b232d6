import { createHash } from "node:crypto";
import pg from "pg";
import { and, asc, count, eq, gt, ilike, isNull, sql, type SQL } from "drizzle-orm";
import type { DashboardConfig } from "../../schema/dashboard";
import type { CreateWorkbookInput, Workbook } from "../../schema/workbook";
import { normalizeSlug, SLUG_PATTERN, SLUG_RULE, type DuplicateWorkbookInput, type UpdateWorkbookInput } from "../../schema/workspace";
import type { Db } from "../db/connection";
import { deployments, favorites, users, workbooks } from "../db/schema";
import { badRequest, conflict, forbidden, HttpError, notFound } from "../http/errors";
import { hasRole, type UserPrincipal } from "../http/principal";
import { accessLevel, atLeast, deleteGrantsOf, findFolder, folderPaths, readableCondition, readableSet, requireAccess, rowsOf } from "./access";
import { dashboardView, ensureDashboard, getPublishedDashboard, parseDashboardConfig } from "./dashboards";

/** A platform user acting without a request (the demo seed, scripts): an admin by default. */
export function systemActor(userId: number, role: UserPrincipal["role"] = "admin"): UserPrincipal {
  return { kind: "user", userId, email: "", role, via: "api_key" };
}

/** Postgres error code and constraint, whether the driver error is wrapped or not. */
export function pgError(err: unknown): { code?: string; constraint?: string } {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const o = e as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof o.code === "string" && /^[0-9A-Z]{5}$/.test(o.code)) return { code: o.code, constraint: typeof o.constraint === "string" ? o.constraint : undefined };
    e = o.cause;
  }
  return {};
}

export const branchChanged = () =>
  conflict("Another writer created or deleted the workbook holding this slug meanwhile; retry the request", "upsert_branch_changed");

/** Spec 4.1 rule 1 plus the slug rule; 400 with the path of the problem. */
export function parseSlug(raw: string, path: (string | number)[] = ["slug"]): string {
  const slug = normalizeSlug(raw);
  if (!SLUG_PATTERN.test(slug)) throw badRequest(`Invalid slug: must be ${SLUG_RULE}`, [{ path, message: `must be ${SLUG_RULE}` }]);
  return slug;
}

interface ViewRow {
  id: number;
  deployment_id: number;
  folder_id: number | null;
  name: string;
  slug: string | null;
  meta: Record<string, unknown>;
  calculated_fields: Record<string, unknown>;
  created_by: number | null;
  user_id: number | null;
  shared: boolean;
  created_at: Date | string;
  updated_at: Date | string;
  owner_email: string | null;
  owner_first_name: string | null;
  owner_picture: string | null;
  is_favorite: boolean;
  folder_path?: { id: number; name: string }[];
  d_id?: number | null;
  d_public_id?: string | null;
  d_status?: "draft" | "published" | "archived" | null;
  d_allow_embed?: boolean | null;
  d_version_id?: number | null;
  d_version_number?: number | null;
  d_title?: string | null;
  d_description?: string | null;
  d_restrict_data_download?: boolean | null;
  d_created_by?: number | null;
  published_config: Record<string, unknown> | null;
  published_snapshots: Record<string, unknown>[] | null;
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

/**
 * The full Workbook of spec 2.2 for each row of `source` (a SELECT, or an INSERT/UPDATE …
 * RETURNING *), in one statement: owner, favorite, folder path, draft and published dashboard.
 */
function viewQuery(source: SQL, viewerId: number, tail: SQL = sql``, prelude?: SQL): SQL {
  // Plain joins only: a recursive folder walk here would be planned on every call, so the
  // folder path is read separately, and only for workbooks that are in a folder.
  return sql`WITH ${prelude ? sql`${prelude}, ` : sql``}w AS (${source})
    SELECT w.id, w.deployment_id, w.folder_id, w.name, w.slug, w.meta, w.calculated_fields, w.created_by, w.user_id, w.shared,
      w.created_at, w.updated_at, u.email AS owner_email, u.first_name AS owner_first_name, u.picture AS owner_picture,
      fv.user_id IS NOT NULL AS is_favorite,
      d.id AS d_id, d.public_id AS d_public_id, d.status AS d_status, d.allow_embed AS d_allow_embed, d.version_id AS d_version_id,
      d.version_number AS d_version_number, d.title AS d_title, d.description AS d_description,
      d.restrict_data_download AS d_restrict_data_download, d.created_by AS d_created_by,
      v.config AS published_config, v.report_snapshots AS published_snapshots
    FROM w
    LEFT JOIN users u ON u.id = w.user_id
    LEFT JOIN favorites fv ON fv.workbook_id = w.id AND fv.user_id = ${viewerId}
    LEFT JOIN dashboards d ON d.workbook_id = w.id
    LEFT JOIN dashboard_versions v ON v.id = d.version_id ${tail}`;
}

function workbookView(r: ViewRow): Workbook {
  const draft = r.meta?.dashboardDraft;
  const d =
    r.d_id !== null && r.d_id !== undefined
      ? {
          id: r.d_id,
          publicId: r.d_public_id!,
          deploymentId: r.deployment_id,
          workbookId: r.id,
          status: r.d_status!,
          allowEmbed: r.d_allow_embed!,
          versionId: r.d_version_id ?? null,
          versionNumber: r.d_version_number ?? 0,
          title: r.d_title ?? null,
          description: r.d_description ?? null,
          restrictDataDownload: r.d_restrict_data_download ?? null,
          createdBy: r.d_created_by ?? null,
        }
      : null;
  const published = d && d.versionId !== null && r.published_config;
  return {
    id: r.id,
    deploymentId: r.deployment_id,
    name: r.name,
    meta: r.meta ?? {},
    calculatedFields: r.calculated_fields ?? {},
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    type: "WORKBOOK",
    slug: r.slug,
    ...(r.created_by !== null ? { createdBy: r.created_by } : {}),
    userId: r.user_id,
    user: r.user_id !== null && r.owner_email !== null ? { id: r.user_id, email: r.owner_email, firstName: r.owner_first_name, picture: r.owner_picture } : null,
    folderId: r.folder_id,
    folderPath: r.folder_path ?? [],
    isFavorite: r.is_favorite,
    dashboardDraft: draft === undefined || draft === null ? null : (draft as DashboardConfig),
    dashboardPublished: published ? (r.published_config as DashboardConfig) : null,
    publishedDashboard: published
      ? dashboardView(
          { ...d, createdAt: new Date(0), updatedAt: new Date(0) },
          { config: r.published_config!, reportSnapshots: r.published_snapshots ?? [] },
          r.shared,
        )
      : null,
  };
}

/**
 * Runs a statement as a named prepared statement on a Postgres server pool (parsed and planned
 * once per connection: the upsert's statements vary only by which fields are sent), or plainly
 * on PGlite.
 */
async function rowsPrepared<T>(db: Db, query: SQL): Promise<T[]> {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) {
    const { sql: text, params } = (db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } } }).dialect.sqlToQuery(query);
    const name = "svc_" + createHash("sha1").update(text).digest("hex").slice(0, 20);
    return (await client.query({ name, text, values: params })).rows as T[];
  }
  return rowsOf<T>(db, query);
}

async function withFolderPaths(db: Db, rows: ViewRow[]): Promise<ViewRow[]> {
  const folderIds = rows.flatMap((r) => (r.folder_id !== null ? [Number(r.folder_id)] : []));
  if (!folderIds.length) return rows;
  const paths = await folderPaths(db, folderIds);
  return rows.map((r) => (r.folder_id !== null ? { ...r, folder_path: paths.get(Number(r.folder_id)) ?? [] } : r));
}

async function viewRows(db: Db, source: SQL, viewerId: number, tail?: SQL, prelude?: SQL): Promise<Workbook[]> {
  const rows = await rowsPrepared<ViewRow>(db, viewQuery(source, viewerId, tail, prelude));
  return (await withFolderPaths(db, rows)).map(workbookView);
}

/** One workbook as spec 2.2, or null. */
export async function getWorkbookView(db: Db, workbookId: number, viewerId: number): Promise<Workbook | null> {
  const [wb] = await viewRows(db, sql`SELECT * FROM workbooks WHERE id = ${workbookId}`, viewerId);
  return wb ?? null;
}

/** `meta.dashboardDraft`, when present and not null, must be a DashboardConfig (spec 4.1 rule 2). */
function checkMeta(meta: unknown, path: (string | number)[] = ["meta"]): Record<string, unknown> | null {
  if (meta === undefined || meta === null) return null;
  if (typeof meta !== "object" || Array.isArray(meta)) throw badRequest("meta must be an object", [{ path, message: "expected an object" }]);
  const m = meta as Record<string, unknown>;
  if (m.dashboardDraft !== undefined && m.dashboardDraft !== null) parseDashboardConfig(m.dashboardDraft, [...path, "dashboardDraft"]);
  return m;
}

function checkFolderIdValue(folderId: unknown): number | null | undefined {
  if (folderId === undefined || folderId === null) return folderId as null | undefined;
  if (!Number.isInteger(folderId) || (folderId as number) <= 0 || (folderId as number) > 2_147_483_647) {
    throw badRequest("folderId must be a positive integer", [{ path: ["folderId"], message: "expected a positive integer" }]);
  }
  return folderId as number;
}

async function requireDeployment(db: Db, deploymentId: number) {
  const [d] = await db.select({ id: deployments.id }).from(deployments).where(eq(deployments.id, deploymentId));
  if (!d) throw notFound("Deployment");
}

/** Access to place something in a folder: it exists in the deployment and the actor can edit it. */
async function requireFolderEdit(db: Db, deploymentId: number, folderId: number, actor: UserPrincipal) {
  const folder = await findFolder(db, deploymentId, folderId);
  if (!folder) throw notFound(`Folder ${folderId}`);
  await requireAccess(db, actor, "folder", folderId, "edit", "the destination folder");
}

/** Access for creating a workbook (POST /workbooks): role ai_bi_user or higher, edit on the folder. */
async function requireCreateAccess(db: Db, deploymentId: number, folderId: number | null | undefined, actor: UserPrincipal) {
  if (!hasRole(actor, "ai_bi_user")) throw forbidden("Creating a workbook needs the role ai_bi_user or higher");
  if (folderId !== undefined && folderId !== null) await requireFolderEdit(db, deploymentId, folderId, actor);
}

/** Maps a failed write to the answer the caller should see. */
function mapWriteError(err: unknown, onSlugTaken: () => HttpError): never {
  const { code, constraint } = pgError(err);
  if (code === "23505" && (constraint === undefined || constraint === "workbooks_deployment_slug_key")) throw onSlugTaken();
  if (code === "23503") {
    // The folder or the deployment was deleted between the check and the write.
    throw notFound(constraint?.includes("folder") ? "Folder" : "Deployment");
  }
  throw err;
}

/**
 * The branch decision of 4.1 as a prepared statement (planned once per connection): the
 * deployment, the workbook holding the slug, and the actor's own row (a created workbook's
 * owner is the actor, so the create answer needs no further read).
 */
function prepareDecide(db: Db) {
  return db
    .select({ deploymentId: deployments.id, workbookId: workbooks.id, actorEmail: users.email, actorFirstName: users.firstName, actorPicture: users.picture })
    .from(deployments)
    .leftJoin(workbooks, and(eq(workbooks.deploymentId, deployments.id), eq(workbooks.slug, sql.placeholder("slug"))))
    .leftJoin(users, eq(users.id, sql.placeholder("actorId")))
    .where(eq(deployments.id, sql.placeholder("deploymentId")))
    .prepare("upsert_workbook_by_slug_decide");
}
const decideStatements = new WeakMap<Db, ReturnType<typeof prepareDecide>>();
function decideStatement(db: Db) {
  let stmt = decideStatements.get(db);
  if (!stmt) {
    stmt = prepareDecide(db);
    decideStatements.set(db, stmt);
  }
  return stmt;
}

/**
 * Spec 4.1, `PUT …/workbooks/by-slug/{slug}`. The branch is decided by one read and checked
 * for access first; then it is applied with a single statement that can only do what was
 * decided: the create branch INSERTs (a unique violation means someone created the slug
 * meanwhile → 409 `upsert_branch_changed`), the update branch UPDATEs the decided id while it
 * still holds the slug (no row means it was deleted or lost the slug meanwhile → 409; it is
 * never re-created). The update merges `meta` in SQL (`meta || patch`), so concurrent writers
 * of different keys lose nothing, and writes nothing at all when the result equals the stored
 * row (the same request twice leaves `updatedAt` alone).
 */
export async function upsertWorkbookBySlug(db: Db, deploymentId: number, rawSlug: string, input: CreateWorkbookInput | null | undefined, actor: UserPrincipal): Promise<Workbook> {
  const slug = parseSlug(rawSlug);
  const body = input ?? {};
  const meta = checkMeta(body.meta);
  const folderId = checkFolderIdValue(body.folderId);
  const sendsFolder = "folderId" in body && body.folderId !== undefined;

  // Decide: the deployment and the workbook holding the slug, in one read.
  const [decided] = await decideStatement(db).execute({ deploymentId, slug, actorId: actor.userId });
  if (!decided) throw notFound("Deployment");

  if (decided.workbookId === null) {
    await requireCreateAccess(db, deploymentId, folderId, actor);
    const insert = sql`INSERT INTO workbooks (deployment_id, folder_id, name, slug, meta, created_by, user_id)
      VALUES (${deploymentId}, ${folderId ?? null}, ${body.name ?? slug}, ${slug}, ${JSON.stringify(meta ?? {})}::jsonb, ${actor.userId}, ${actor.userId})
      RETURNING *`;
    let inserted: ViewRow;
    try {
      [inserted] = (await rowsPrepared<ViewRow>(db, insert)) as [ViewRow];
    } catch (err) {
      mapWriteError(err, branchChanged);
    }
    // A new workbook has no dashboard and is nobody's favorite yet: the view needs no further read.
    const row: ViewRow = {
      ...inserted,
      owner_email: decided.actorEmail,
      owner_first_name: decided.actorFirstName,
      owner_picture: decided.actorPicture,
      is_favorite: false,
      published_config: null,
      published_snapshots: null,
    };
    return workbookView((await withFolderPaths(db, [row]))[0]!);
  }

  const id = decided.workbookId;
  const level = await accessLevel(db, actor, "workbook", id);
  if (!atLeast(level, "edit")) throw forbidden("Updating this workbook needs edit access to it");
  if (sendsFolder) {
    if (!atLeast(level, "manage")) throw forbidden("Moving this workbook (folderId) needs manage access to it");
    if (folderId !== null && folderId !== undefined) await requireFolderEdit(db, deploymentId, folderId, actor);
  }

  const columns: SQL[] = [];
  const values: SQL[] = [];
  // A null name cannot be stored (every workbook has a name): it leaves the name unchanged.
  if (body.name !== undefined && body.name !== null) {
    columns.push(sql`name`);
    values.push(sql`${body.name}::text`);
  }
  if (sendsFolder) {
    columns.push(sql`folder_id`);
    values.push(sql`${folderId ?? null}::integer`);
  }
  if (meta !== null) {
    columns.push(sql`meta`);
    values.push(sql`meta || ${JSON.stringify(meta)}::jsonb`);
  }
  const stillHolds = sql`id = ${id} AND slug = ${slug}`;
  if (columns.length) {
    const sets = sql.join(
      columns.map((c, i) => sql`${c} = ${values[i]}`),
      sql`, `,
    );
    const current = sql`(${sql.join(columns, sql`, `)}, true)`;
    const wanted = sql`(${sql.join(values, sql`, `)}, true)`;
    // One round trip for both outcomes: the updated row, or — when the stored row already
    // equals the result — that row, untouched. Anything else (the row changed or vanished
    // under us) returns nothing and is settled by the read below.
    const update = sql`u AS (
        UPDATE workbooks SET ${sets}, updated_at = now() WHERE ${stillHolds} AND ${current} IS DISTINCT FROM ${wanted} RETURNING *)`;
    const result = sql`SELECT * FROM u
      UNION ALL
      SELECT * FROM workbooks WHERE ${stillHolds} AND ${current} IS NOT DISTINCT FROM ${wanted} AND NOT EXISTS (SELECT 1 FROM u)`;
    try {
      const [updated] = await viewRows(db, result, actor.userId, undefined, update);
      if (updated) return updated;
    } catch (err) {
      mapWriteError(err, branchChanged);
    }
  }
  // Nothing to change (or the same request again): answer with the row as stored, if it still holds the slug.
  const [current] = await viewRows(db, sql`SELECT * FROM workbooks WHERE ${stillHolds}`, actor.userId);
  if (!current) throw branchChanged();
  return current;
}

/** `POST …/workbooks`: role ai_bi_user or higher (and edit on the folder); an optional slug must be free. */
export async function createWorkbook(db: Db, deploymentId: number, input: CreateWorkbookInput & { slug?: string | null }, actor: UserPrincipal): Promise<Workbook> {
  const meta = checkMeta(input.meta);
  const folderId = checkFolderIdValue(input.folderId);
  const slug = input.slug === undefined || input.slug === null ? null : parseSlug(input.slug);
  await requireDeployment(db, deploymentId);
  await requireCreateAccess(db, deploymentId, folderId, actor);
  const insert = sql`INSERT INTO workbooks (deployment_id, folder_id, name, slug, meta, created_by, user_id)
    VALUES (${deploymentId}, ${folderId ?? null}, ${input.name ?? slug ?? "Untitled workbook"}, ${slug}, ${JSON.stringify(meta ?? {})}::jsonb, ${actor.userId}, ${actor.userId})
    RETURNING *`;
  try {
    const [created] = await viewRows(db, insert, actor.userId);
    return created!;
  } catch (err) {
    mapWriteError(err, () => conflict(`The slug ${slug} is taken in this deployment`, "slug_taken"));
  }
}

/** The workbook when it exists in the deployment and the actor has `needed` on it; 404 / 403 otherwise. */
export async function requireWorkbook(db: Db, deploymentId: number, workbookId: number, actor: UserPrincipal, needed: "read" | "edit" | "manage") {
  const [row] = await db.select().from(workbooks).where(and(eq(workbooks.id, workbookId), eq(workbooks.deploymentId, deploymentId)));
  if (!row) throw notFound("Workbook");
  const level = await accessLevel(db, actor, "workbook", row.id);
  if (level === "none") throw notFound("Workbook");
  if (!atLeast(level, needed)) throw forbidden(`This needs ${needed} access to the workbook`);
  return { row, level };
}

export async function getWorkbook(db: Db, deploymentId: number, workbookId: number, actor: UserPrincipal): Promise<Workbook> {
  await requireWorkbook(db, deploymentId, workbookId, actor, "read");
  const view = await getWorkbookView(db, workbookId, actor.userId);
  if (!view) throw notFound("Workbook");
  return view;
}

/** A page of workbooks the actor can read, by id; `folderId` filters (null: the root), `search` matches the name. */
export async function listWorkbooks(
  db: Db,
  deploymentId: number,
  opts: { afterId: number | null; limit: number; folderId?: number | null; search?: string },
  actor: UserPrincipal,
) {
  await requireDeployment(db, deploymentId);
  const readable = await readableSet(db, actor, deploymentId);
  const where = and(
    eq(workbooks.deploymentId, deploymentId),
    opts.folderId === undefined ? undefined : opts.folderId === null ? isNull(workbooks.folderId) : eq(workbooks.folderId, opts.folderId),
    opts.search ? ilike(workbooks.name, `%${opts.search.replace(/[\\%_]/g, (m) => "\\" + m)}%`) : undefined,
    readableCondition(readable, { id: workbooks.id, folderId: workbooks.folderId, createdBy: workbooks.createdBy }, readable.workbookIds),
  );
  const ids = await db
    .select({ id: workbooks.id })
    .from(workbooks)
    .where(and(where, opts.afterId !== null ? gt(workbooks.id, opts.afterId) : undefined))
    .orderBy(asc(workbooks.id))
    .limit(opts.limit);
  const [total] = await db.select({ n: count() }).from(workbooks).where(where);
  const rows = ids.length
    ? await viewRows(db, sql`SELECT * FROM workbooks WHERE id IN (${sql.join(ids.map((r) => sql`${r.id}`), sql`, `)})`, actor.userId, sql`ORDER BY w.id`)
    : [];
  return { rows, total: Number(total?.n ?? 0) };
}

/** `PUT …/workbooks/{workbookId}`: like the update branch of 4.1, plus `slug` / `slugTakeover`. */
export async function updateWorkbook(db: Db, deploymentId: number, workbookId: number, input: UpdateWorkbookInput, actor: UserPrincipal): Promise<Workbook> {
  const meta = checkMeta(input.meta);
  const { row, level } = await requireWorkbook(db, deploymentId, workbookId, actor, "edit");
  const sendsFolder = input.folderId !== undefined;
  if (sendsFolder) {
    if (!atLeast(level, "manage")) throw forbidden("Moving this workbook (folderId) needs manage access to it");
    if (input.folderId !== null) await requireFolderEdit(db, deploymentId, input.folderId!, actor);
  }
  const sendsSlug = input.slug !== undefined;
  let takeoverFrom: number | null = null;
  if (sendsSlug && input.slug !== null && input.slug !== row.slug) {
    const [holder] = await db.select({ id: workbooks.id }).from(workbooks).where(and(eq(workbooks.deploymentId, deploymentId), eq(workbooks.slug, input.slug!)));
    if (holder) {
      if (!input.slugTakeover) throw conflict(`The slug ${input.slug} belongs to workbook ${holder.id}; send slugTakeover: true to take it over`, "slug_taken");
      await requireAccess(db, actor, "workbook", holder.id, "edit", "the workbook that holds the slug");
      takeoverFrom = holder.id;
    }
  }
  const columns: SQL[] = [];
  const values: SQL[] = [];
  if (input.name !== undefined && input.name !== null) {
    columns.push(sql`name`);
    values.push(sql`${input.name}::text`);
  }
  if (sendsFolder) {
    columns.push(sql`folder_id`);
    values.push(sql`${input.folderId ?? null}::integer`);
  }
  if (meta !== null) {
    columns.push(sql`meta`);
    values.push(sql`meta || ${JSON.stringify(meta)}::jsonb`);
  }
  if (sendsSlug) {
    columns.push(sql`slug`);
    values.push(sql`${input.slug ?? null}::text`);
  }
  if (columns.length) {
    const sets = sql.join(columns.map((c, i) => sql`${c} = ${values[i]}`), sql`, `);
    const update = sql`UPDATE workbooks SET ${sets}, updated_at = now()
      WHERE id = ${workbookId} AND (${sql.join(columns, sql`, `)}, true) IS DISTINCT FROM (${sql.join(values, sql`, `)}, true) RETURNING *`;
    try {
      const result = await db.transaction(async (tx) => {
        if (takeoverFrom !== null) {
          await tx.execute(sql`UPDATE workbooks SET slug = NULL, updated_at = now() WHERE id = ${takeoverFrom} AND slug = ${input.slug!}`);
        }
        return viewRows(tx as unknown as Db, update, actor.userId);
      });
      if (result[0]) return result[0];
    } catch (err) {
      mapWriteError(err, () => conflict(`The slug ${input.slug} was taken meanwhile`, "slug_taken"));
    }
  }
  const view = await getWorkbookView(db, workbookId, actor.userId);
  if (!view) throw notFound("Workbook");
  return view;
}

/** Deletes a workbook (manage access); its dashboard, versions and favorites go with it. */
export async function deleteWorkbook(db: Db, deploymentId: number, workbookId: number, actor: UserPrincipal): Promise<void> {
  await requireWorkbook(db, deploymentId, workbookId, actor, "manage");
  await db.delete(workbooks).where(eq(workbooks.id, workbookId));
  await deleteGrantsOf(db, "workbook", [workbookId]);
}

/**
 * Copies a workbook (read access to it, and the rights to create one). With `shared`, the copy
 * is cloned from the shared workspace: its draft is the published dashboard, and it is marked
 * shared. The copy has no slug.
 */
export async function duplicateWorkbook(db: Db, deploymentId: number, workbookId: number, input: DuplicateWorkbookInput, actor: UserPrincipal): Promise<Workbook> {
  const { row } = await requireWorkbook(db, deploymentId, workbookId, actor, "read");
  const folderId = input.folderId !== undefined ? input.folderId : row.folderId;
  if (!hasRole(actor, "ai_bi_user")) throw forbidden("Creating a workbook needs the role ai_bi_user or higher");
  if (folderId !== null) {
    const canPlace = atLeast(await accessLevel(db, actor, "folder", folderId), "edit");
    // An explicit destination must be editable; the source's own folder falls back to the root.
    if (!canPlace && input.folderId !== undefined) throw forbidden("This needs edit access to the destination folder");
  }
  const placeIn = folderId !== null && atLeast(await accessLevel(db, actor, "folder", folderId), "edit") ? folderId : null;
  let meta = { ...row.meta };
  if (input.shared) {
    const published = await getPublishedDashboard(db, row.id);
    if (!published) throw conflict("The workbook has no published dashboard to clone from the shared workspace", "dashboard_not_published");
    meta = { ...meta, dashboardDraft: published.v.config };
  }
  const insert = sql`INSERT INTO workbooks (deployment_id, folder_id, name, slug, meta, calculated_fields, created_by, user_id, shared)
    VALUES (${deploymentId}, ${placeIn}, ${input.name ?? `${row.name} (copy)`}, NULL, ${JSON.stringify(meta)}::jsonb,
      ${JSON.stringify(row.calculatedFields ?? {})}::jsonb, ${actor.userId}, ${actor.userId}, ${input.shared === true})
    RETURNING *`;
  try {
    const [created] = await viewRows(db, insert, actor.userId);
    return created!;
  } catch (err) {
    mapWriteError(err, branchChanged);
  }
}

/** Replaces the dashboard draft (`meta.dashboardDraft`), writing nothing when it is unchanged. Needs edit. */
export async function updateDashboardDraft(db: Db, deploymentId: number, workbookId: number, config: DashboardConfig, actor: UserPrincipal): Promise<Workbook> {
  const { row } = await requireWorkbook(db, deploymentId, workbookId, actor, "edit");
  const value = JSON.stringify(config);
  await db.execute(sql`UPDATE workbooks SET meta = jsonb_set(meta, '{dashboardDraft}', ${value}::jsonb), updated_at = now()
    WHERE id = ${workbookId} AND meta->'dashboardDraft' IS DISTINCT FROM ${value}::jsonb`);
  await ensureDashboard(db, row, actor.userId);
  const view = await getWorkbookView(db, workbookId, actor.userId);
  if (!view) throw notFound("Workbook");
  return view;
}

/** Marks or unmarks a workbook as a favorite of the actor (read access). */
export async function setFavorite(db: Db, deploymentId: number, workbookId: number, favorite: boolean, actor: UserPrincipal): Promise<Workbook> {
  await requireWorkbook(db, deploymentId, workbookId, actor, "read");
  if (favorite) await db.insert(favorites).values({ userId: actor.userId, workbookId }).onConflictDoNothing();
  else await db.delete(favorites).where(and(eq(favorites.userId, actor.userId), eq(favorites.workbookId, workbookId)));
  const view = await getWorkbookView(db, workbookId, actor.userId);
  if (!view) throw notFound("Workbook");
  return view;
}

export { publishDashboard } from "./dashboards";
export { upsertReportByPublicId } from "./reports";
