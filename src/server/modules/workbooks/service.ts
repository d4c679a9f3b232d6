import { and, asc, count, eq, gt, ilike, isNull, sql, type SQL } from "drizzle-orm";
import { NAME_MAX } from "../../../schema/common";
import type { DashboardConfig } from "../../../schema/dashboard";
import type { CreateWorkbookInput, Workbook } from "../../../schema/workbook";
import { normalizeSlug, SLUG_PATTERN, SLUG_RULE, type DuplicateWorkbookInput, type UpdateWorkbookInput } from "../../../schema/workspace";
import { MAX_CALCULATED_FIELDS, type WorkbookCalculatedFields } from "../../../schema/calculated-field";
import type { Db } from "../../db/connection";
import { checkWorkbookCalculatedFields, type DataModel } from "../../semantic";
import { deployments, favorites, workbooks } from "../../db/schema";
import { badRequest, conflict, forbidden, notFound, type DomainError } from "../../domain/errors";
import { hasRole, type UserPrincipal } from "../../domain/actor";
import { pgError } from "../../db/pg-error";
import { getWorkbookView, viewRows, withFolderPaths, workbookView, type ViewRow } from "./workbook-view";
import { decide, decideAndUpdate, insertWorkbook, patchChanges, rereadHolder, type DecidedRow, type WorkbookRow } from "./upsert-store";
import { isWriting, slugKey, updateHolderMerging, writing } from "./upsert-coalesce";
import { accessLevel, atLeast, deleteGrantsOf, readableCondition, readableSet, requireEditableContainer, requireFoundAccess } from "../access/service";
import { ensureDashboard, getPublishedDashboard, parseDashboardConfig, resolveWidgetReports } from "../dashboards/service";

export const branchChanged = () =>
  conflict("Another writer created or deleted the workbook holding this slug meanwhile; retry the request", "upsert_branch_changed");

/** Spec 4.1 rule 1 plus the slug rule; 400 with the path of the problem. */
export function parseSlug(raw: string, path: (string | number)[] = ["slug"]): string {
  const slug = normalizeSlug(raw);
  if (!SLUG_PATTERN.test(slug)) throw badRequest(`Invalid slug: must be ${SLUG_RULE}`, [{ path, message: `must be ${SLUG_RULE}` }]);
  return slug;
}

/** `meta.dashboardDraft`, when present and not null, must be a DashboardConfig (spec 4.1 rule 2). */
function checkMeta(meta: unknown, path: (string | number)[] = ["meta"]): Record<string, unknown> | null {
  if (meta === undefined || meta === null) return null;
  if (typeof meta !== "object" || Array.isArray(meta)) throw badRequest("meta must be an object", [{ path, message: "expected an object" }]);
  const m = meta as Record<string, unknown>;
  if (m.dashboardDraft !== undefined && m.dashboardDraft !== null) parseDashboardConfig(m.dashboardDraft, [...path, "dashboardDraft"]);
  return m;
}

/** The reports a dashboard draft names must be ones the actor can read, as at publish (unknown to them otherwise: 400 with the path). */
async function checkDraftReports(
  db: Db,
  deploymentId: number,
  meta: Record<string, unknown> | null,
  actor: UserPrincipal,
  path: (string | number)[] = ["meta", "dashboardDraft"],
) {
  const draft = meta?.dashboardDraft;
  if (draft === undefined || draft === null) return;
  await resolveWidgetReports(db, deploymentId, parseDashboardConfig(draft, path), path, actor);
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

/** Access to place something in a folder: it exists in the deployment and the actor can edit it (404 when they cannot see it). */
async function requireFolderEdit(db: Db, deploymentId: number, folderId: number, actor: UserPrincipal) {
  await requireEditableContainer(db, actor, deploymentId, "folder", folderId);
}

/** Access for creating a workbook (POST /workbooks): role ai_bi_user or higher, edit on the folder. */
async function requireCreateAccess(db: Db, deploymentId: number, folderId: number | null | undefined, actor: UserPrincipal) {
  if (!hasRole(actor, "ai_bi_user")) throw forbidden("Creating a workbook needs the role ai_bi_user or higher");
  if (folderId !== undefined && folderId !== null) await requireFolderEdit(db, deploymentId, folderId, actor);
}

/** What an update sends; a field wrapped in `{ value }` is sent even when its value is null. */
interface WorkbookPatchInput {
  /** A null name cannot be stored (every workbook has a name): it leaves the name unchanged. */
  name?: string | null;
  folderId?: { value: number | null };
  /** Merged into the stored meta (`meta || patch`), so concurrent writers of other keys lose nothing. */
  meta: Record<string, unknown> | null;
  slug?: { value: string | null };
  /** Replaces the stored calculated fields. */
  calculatedFields?: Record<string, unknown>;
  /** Applied to the stored calculated fields in the statement itself, so a concurrent writer's fields are kept. */
  calculatedFieldChanges?: { set: Record<string, unknown>; remove: string[] };
}

/**
 * The SET list of a workbook update, and the stored and wanted values of the same columns as
 * row values, so that a statement can write only when they differ (a repeated request is a
 * no-op). Null when nothing is sent.
 */
function workbookPatch(input: WorkbookPatchInput): { sets: SQL; current: SQL; wanted: SQL } | null {
  const columns: SQL[] = [];
  const values: SQL[] = [];
  if (input.name !== undefined && input.name !== null) {
    columns.push(sql`name`);
    values.push(sql`${input.name}::text`);
  }
  if (input.folderId) {
    columns.push(sql`folder_id`);
    values.push(sql`${input.folderId.value}::integer`);
  }
  if (input.meta !== null) {
    columns.push(sql`meta`);
    values.push(sql`meta || ${JSON.stringify(input.meta)}::jsonb`);
  }
  if (input.slug) {
    columns.push(sql`slug`);
    values.push(sql`${input.slug.value}::text`);
  }
  if (input.calculatedFields) {
    columns.push(sql`calculated_fields`);
    values.push(sql`${JSON.stringify(input.calculatedFields)}::jsonb`);
  }
  if (input.calculatedFieldChanges) {
    const { set, remove } = input.calculatedFieldChanges;
    columns.push(sql`calculated_fields`);
    values.push(sql`(calculated_fields - ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(remove)}::jsonb))) || ${JSON.stringify(set)}::jsonb`);
  }
  if (!columns.length) return null;
  return {
    sets: sql.join(
      columns.map((c, i) => sql`${c} = ${values[i]}`),
      sql`, `,
    ),
    current: sql`(${sql.join(columns, sql`, `)}, true)`,
    wanted: sql`(${sql.join(values, sql`, `)}, true)`,
  };
}

/** jsonb refuses U+0000 in a string (meta, calculated fields): 400, not a server error. */
function refuseNul(code: string | undefined) {
  if (code === "22P05")
    throw badRequest("JSON values cannot hold the character U+0000", [{ path: [], message: "U+0000 (\\u0000) is not allowed in a JSON string" }]);
}

/** Maps a failed write to the answer the caller should see. */
function mapWriteError(err: unknown, onSlugTaken: () => DomainError): never {
  const { code, constraint } = pgError(err);
  if (code === "23505" && (constraint === undefined || constraint === "workbooks_deployment_slug_key")) throw onSlugTaken();
  refuseNul(code);
  if (code === "23503") {
    // The folder or the deployment was deleted between the check and the write.
    throw notFound(constraint?.includes("folder") ? "Folder" : "Deployment");
  }
  throw err;
}

/**
 * Spec 4.1, `PUT …/workbooks/by-slug/{slug}`. The branch is decided by one read and checked
 * for access first; then it is applied with a single statement that can only do what was
 * decided: the create branch INSERTs (a unique violation means someone created the slug
 * meanwhile → 409 `upsert_branch_changed`), the update branch UPDATEs the decided id while it
 * still holds the slug (no row means it was deleted or lost the slug meanwhile → 409; it is
 * never re-created). The update merges `meta` in SQL (`meta || patch`), so concurrent writers
 * of different keys lose nothing. A request that would change nothing in the decided row is
 * answered from that row without a write (the same request twice leaves `updatedAt` alone).
 * Every statement is a named prepared statement (upsert-store.ts), and the answer is built
 * from the decision's row and the write's row, without a read after the write.
 */
export async function upsertWorkbookBySlug(
  db: Db,
  deploymentId: number,
  rawSlug: string,
  input: CreateWorkbookInput | null | undefined,
  actor: UserPrincipal,
): Promise<Workbook> {
  const slug = parseSlug(rawSlug);
  const body = input ?? {};
  const meta = checkMeta(body.meta);
  const folderId = checkFolderIdValue(body.folderId);
  const sendsFolder = "folderId" in body && body.folderId !== undefined;
  const metaText = meta === null ? null : JSON.stringify(meta);

  // Decide: the deployment and the workbook holding the slug, in one read. A caller whose
  // access needs no read (an admin), sending no folder and no draft, is decided and updated in
  // one statement, unless a write of the slug is in flight here (then its patch joins the next).
  const key = slugKey(deploymentId, slug);
  const oneStatement = actor.role === "admin" && !sendsFolder && (meta?.dashboardDraft ?? null) === null && !isWriting(db, key);
  const decision = oneStatement
    ? writing(db, key, slug, () => decideAndUpdate(db, deploymentId, slug, actor.userId, { name: body.name, meta: metaText }))
    : decide(db, deploymentId, slug, actor.userId, metaText);
  const decided: (DecidedRow & { written?: WorkbookRow | null }) | undefined = await decision.catch((err: unknown) => {
    refuseNul(pgError(err).code);
    throw err;
  });
  if (!decided) throw notFound("Deployment");

  if (decided.id === null) {
    await requireCreateAccess(db, deploymentId, folderId, actor);
    await checkDraftReports(db, deploymentId, meta, actor);
    let inserted: WorkbookRow;
    try {
      inserted = await insertWorkbook(db, {
        deploymentId,
        folderId: folderId ?? null,
        name: body.name ?? slug,
        slug,
        meta: metaText ?? "{}",
        actorId: actor.userId,
      });
    } catch (err) {
      mapWriteError(err, branchChanged);
    }
    // A new workbook has no dashboard and is nobody's favorite yet; its owner is the actor.
    return answer(db, {
      ...inserted,
      owner_email: decided.actor_email,
      owner_first_name: decided.actor_first_name,
      owner_picture: decided.actor_picture,
      is_favorite: false,
      published_config: null,
      published_snapshots: null,
    });
  }

  const holder = { ...decided, id: decided.id };
  // A slug held by a workbook the actor cannot see answers 404, like any object out of sight.
  const level = await requireFoundAccess(db, actor, "workbook", holder.id, "edit", "Updating this workbook needs edit access to it");
  if (sendsFolder) {
    if (!atLeast(level, "manage")) throw forbidden("Moving this workbook (folderId) needs manage access to it");
    if (folderId !== null && folderId !== undefined) await requireFolderEdit(db, deploymentId, folderId, actor);
  }
  await checkDraftReports(db, deploymentId, meta, actor);

  const patch = { name: body.name, folderId: sendsFolder ? { value: folderId ?? null } : undefined, meta: metaText };
  if (decided.written) return answer(db, { ...holder, ...decided.written, meta: decided.written.meta });
  // The same request again (or one that changes nothing): the decided row is the answer.
  if (!patchChanges(holder, patch)) return answer(db, { ...holder, meta: holder.meta ?? {} });
  let written: WorkbookRow | undefined;
  try {
    // Nothing written means the row changed or vanished under us: a concurrent writer deleted it
    // or took its slug (409), or already brought it to the wanted state (the row as it is now).
    const update = oneStatement ? undefined : await updateHolderMerging(db, key, holder.id, slug, patch);
    written = update ?? (await rereadHolder(db, holder.id, slug));
  } catch (err) {
    mapWriteError(err, branchChanged);
  }
  if (!written) throw branchChanged();
  return answer(db, { ...holder, ...written, meta: written.meta });
}

/** The Workbook of an upsert's answer: the row with its view columns, plus its folder path. */
async function answer(db: Db, row: ViewRow): Promise<Workbook> {
  return workbookView((await withFolderPaths(db, [row]))[0]!);
}

/** `POST …/workbooks`: role ai_bi_user or higher (and edit on the folder); an optional slug must be free. */
export async function createWorkbook(
  db: Db,
  deploymentId: number,
  input: CreateWorkbookInput & { slug?: string | null },
  actor: UserPrincipal,
): Promise<Workbook> {
  const meta = checkMeta(input.meta);
  const folderId = checkFolderIdValue(input.folderId);
  const slug = input.slug === undefined || input.slug === null ? null : parseSlug(input.slug);
  await requireDeployment(db, deploymentId);
  await requireCreateAccess(db, deploymentId, folderId, actor);
  await checkDraftReports(db, deploymentId, meta, actor);
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
  const [row] = await db
    .select()
    .from(workbooks)
    .where(and(eq(workbooks.id, workbookId), eq(workbooks.deploymentId, deploymentId)));
  const level = await requireFoundAccess(db, actor, "workbook", row?.id ?? null, needed);
  return { row: row!, level };
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
    ? await viewRows(
        db,
        sql`SELECT * FROM workbooks WHERE id IN (${sql.join(
          ids.map((r) => sql`${r.id}`),
          sql`, `,
        )})`,
        actor.userId,
        sql`ORDER BY w.id`,
      )
    : [];
  return { rows, total: Number(total?.n ?? 0) };
}

/** `PUT …/workbooks/{workbookId}`: like the update branch of 4.1, plus `slug` / `slugTakeover`. */
/** Options of `updateWorkbook`. */
export interface UpdateWorkbookOptions {
  /** The deployment's data model, when it has one: calculated fields are checked against it. */
  model?: () => Promise<DataModel | undefined>;
}

export async function updateWorkbook(
  db: Db,
  deploymentId: number,
  workbookId: number,
  input: UpdateWorkbookInput,
  actor: UserPrincipal,
  options: UpdateWorkbookOptions = {},
): Promise<Workbook> {
  const meta = checkMeta(input.meta);
  const { row, level } = await requireWorkbook(db, deploymentId, workbookId, actor, "edit");
  const calculatedFields = input.calculatedFields === undefined ? undefined : (input.calculatedFields ?? {});
  if (calculatedFields) await checkCalculatedFields(calculatedFields, options);
  const fieldChanges = input.calculatedFieldChanges
    ? { set: input.calculatedFieldChanges.set ?? {}, remove: input.calculatedFieldChanges.remove ?? [] }
    : undefined;
  if (fieldChanges && calculatedFields)
    throw badRequest("Send calculatedFields (all of them) or calculatedFieldChanges (some of them), not both", [
      { path: ["calculatedFieldChanges"], message: "not with calculatedFields" },
    ]);
  if (fieldChanges) await checkCalculatedFields(fieldChanges.set, options, ["calculatedFieldChanges", "set"]);
  const sendsFolder = input.folderId !== undefined;
  if (sendsFolder) {
    if (!atLeast(level, "manage")) throw forbidden("Moving this workbook (folderId) needs manage access to it");
    if (input.folderId !== null) await requireFolderEdit(db, deploymentId, input.folderId!, actor);
  }
  await checkDraftReports(db, deploymentId, meta, actor);
  const sendsSlug = input.slug !== undefined;
  let takeoverFrom: number | null = null;
  if (sendsSlug && input.slug !== null && input.slug !== row.slug) {
    const [holder] = await db
      .select({ id: workbooks.id })
      .from(workbooks)
      .where(and(eq(workbooks.deploymentId, deploymentId), eq(workbooks.slug, input.slug!)));
    if (holder) {
      if (!input.slugTakeover) {
        // Slugs are unique per deployment, so a taken one is a 409 for everyone; the holder's id only for who can see it.
        const seen = (await accessLevel(db, actor, "workbook", holder.id)) !== "none";
        const held = seen ? `belongs to workbook ${holder.id}` : "is taken in this deployment";
        throw conflict(`The slug ${input.slug} ${held}; send slugTakeover: true to take it over`, "slug_taken");
      }
      await requireFoundAccess(db, actor, "workbook", holder.id, "edit", "This needs edit access to the workbook that holds the slug");
      takeoverFrom = holder.id;
    }
  }
  const patch = workbookPatch({
    name: input.name,
    folderId: sendsFolder ? { value: input.folderId ?? null } : undefined,
    meta,
    slug: sendsSlug ? { value: input.slug ?? null } : undefined,
    calculatedFields,
    calculatedFieldChanges: fieldChanges,
  });
  if (patch) {
    const update = sql`UPDATE workbooks SET ${patch.sets}, updated_at = now()
      WHERE id = ${workbookId} AND ${patch.current} IS DISTINCT FROM ${patch.wanted} RETURNING *`;
    try {
      const result = await db.transaction(async (tx) => {
        if (takeoverFrom !== null) {
          await tx.execute(sql`UPDATE workbooks SET slug = NULL, updated_at = now() WHERE id = ${takeoverFrom} AND slug = ${input.slug!}`);
        }
        const rows = await viewRows(tx, update, actor.userId);
        // Changes merged into the stored fields may pass the limit only the whole map is checked against: nothing is written then.
        const merged = Object.keys(rows[0]?.calculatedFields ?? {}).length;
        if (fieldChanges && merged > MAX_CALCULATED_FIELDS)
          throw badRequest(`A workbook holds at most ${MAX_CALCULATED_FIELDS} calculated fields; with these changes it would hold ${merged}`, [
            { path: ["calculatedFieldChanges", "set"], message: `at most ${MAX_CALCULATED_FIELDS} calculated fields` },
          ]);
        return rows;
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

/**
 * Formulas compile over the deployment's model as a query would compile them (400 naming the
 * key and the position); without a model (no data source, a broken model, no model files) only
 * their shape is checked, and queries check them again when they use them.
 */
async function checkCalculatedFields(fields: WorkbookCalculatedFields, options: UpdateWorkbookOptions, at: string[] = ["calculatedFields"]): Promise<void> {
  if (!Object.keys(fields).length || !options.model) return;
  const model = await options.model();
  // No model files yet (an empty model): nothing to check against until the model is written.
  if (!model || (model.views.size === 0 && model.cubes.size === 0)) return;
  // Paths name where the fields were sent (calculatedFields, or calculatedFieldChanges.set).
  const problems = checkWorkbookCalculatedFields(model, fields).map((p) => ({ ...p, path: [...at, ...p.path.slice(1)] }));
  if (!problems.length) return;
  const summary = problems.slice(0, 5).map((p) => `${p.path.slice(at.length).join(".")}: ${p.message}`);
  throw badRequest(`Invalid calculated fields: ${summary.join("; ")}`, problems);
}

/** Deletes a workbook (manage access); its dashboard, versions and favorites go with it. */
export async function deleteWorkbook(db: Db, deploymentId: number, workbookId: number, actor: UserPrincipal): Promise<void> {
  await requireWorkbook(db, deploymentId, workbookId, actor, "manage");
  await db.delete(workbooks).where(eq(workbooks.id, workbookId));
  await deleteGrantsOf(db, "workbook", [workbookId]);
}

/** "<name> (copy)" within the name limit: the name is shortened by whole code points, never splitting a surrogate pair. */
export function copyName(name: string): string {
  const suffix = " (copy)";
  let kept = "";
  for (const point of name) {
    if (kept.length + point.length + suffix.length > NAME_MAX) break;
    kept += point;
  }
  return kept + suffix;
}

/**
 * Copies a workbook (read access to it, and the rights to create one). With `shared`, the copy
 * is cloned from the shared workspace: its draft is the published dashboard, and it is marked
 * shared. The copy has no slug.
 */
export async function duplicateWorkbook(
  db: Db,
  deploymentId: number,
  workbookId: number,
  input: DuplicateWorkbookInput,
  actor: UserPrincipal,
): Promise<Workbook> {
  const { row } = await requireWorkbook(db, deploymentId, workbookId, actor, "read");
  const folderId = input.folderId !== undefined ? input.folderId : row.folderId;
  if (!hasRole(actor, "ai_bi_user")) throw forbidden("Creating a workbook needs the role ai_bi_user or higher");
  // An explicit destination must be editable; the source's own folder falls back to the root.
  if (input.folderId !== undefined && input.folderId !== null) await requireFolderEdit(db, deploymentId, input.folderId, actor);
  const placeIn = input.folderId !== undefined || (folderId !== null && atLeast(await accessLevel(db, actor, "folder", folderId), "edit")) ? folderId : null;
  let meta = { ...row.meta };
  if (input.shared) {
    const published = await getPublishedDashboard(db, row.id);
    if (!published) throw conflict("The workbook has no published dashboard to clone from the shared workspace", "dashboard_not_published");
    meta = { ...meta, dashboardDraft: published.v.config };
  }
  const insert = sql`INSERT INTO workbooks (deployment_id, folder_id, name, slug, meta, calculated_fields, created_by, user_id, shared)
    VALUES (${deploymentId}, ${placeIn}, ${input.name ?? copyName(row.name)}, NULL, ${JSON.stringify(meta)}::jsonb,
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
  await resolveWidgetReports(db, deploymentId, config, [], actor);
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
