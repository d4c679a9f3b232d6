/**
 * The statements of the upsert by slug (spec 4.1), each written once and run as a named prepared
 * statement (db/prepared.ts): the branch decision, the INSERT of the create branch, the UPDATE of
 * the update branch, and the re-read of a row a concurrent writer already brought to the wanted
 * state. The decision reads everything the answer needs besides the workbook row itself (its
 * owner, the caller's favorite flag, its dashboard and published version: none of them is
 * changed by the upsert), so the writes return only the workbook's own columns and no answer
 * needs a joined read after the write.
 */
import type { Db } from "../../db/connection";
import { preparedStatement, runPrepared } from "../../db/prepared";
import type { ViewRow } from "./workbook-view";

/** The columns of a workbook row, in ViewRow's names. */
const COLUMNS = "id, deployment_id, folder_id, name, slug, meta, calculated_fields, created_by, user_id, shared, created_at, updated_at";
const W_COLUMNS = COLUMNS.split(", ")
  .map((c) => `w.${c}`)
  .join(", ");

/** A workbook row as the writes return it. */
export type WorkbookRow = Pick<
  ViewRow,
  "id" | "deployment_id" | "folder_id" | "name" | "slug" | "meta" | "calculated_fields" | "created_by" | "user_id" | "shared" | "created_at" | "updated_at"
>;

/**
 * The decision's row: the deployment (absent: no row at all), the actor, and the workbook
 * holding the slug with its view columns (all null: none). Its `meta` is read only when merging
 * the request's meta would leave it unchanged (the no-op's answer); otherwise the write returns
 * it, so a large meta crosses the wire once.
 */
export type DecidedRow = Omit<ViewRow, "id" | "folder_path" | "meta"> & {
  id: number | null;
  meta: Record<string, unknown> | null;
  /** Whether `meta || <the request's meta>` equals the stored meta (jsonb equality: keys in any order). */
  meta_unchanged: boolean | null;
  actor_email: string | null;
  actor_first_name: string | null;
  actor_picture: string | null;
};

/**
 * Whether `meta || patch` equals `meta` (jsonb equality), key by key: every key sent is stored
 * with an equal value. It reads only the keys sent, instead of building and comparing the
 * whole merged object (a hot workbook's meta grows large).
 */
const SAME_META = (meta: string, patch: string) => `NOT EXISTS (SELECT FROM jsonb_each(${patch}::jsonb) p WHERE ${meta} -> p.key IS DISTINCT FROM p.value)`;

/** The decision's SELECT: $1 the deployment, $2 the slug, $3 the actor, $4 the meta sent ('{}': none). */
const DECISION = `SELECT ${W_COLUMNS.replace("w.meta", "CASE WHEN m.unchanged THEN w.meta END AS meta")},
     m.unchanged AS meta_unchanged,
     a.email AS actor_email, a.first_name AS actor_first_name, a.picture AS actor_picture,
     u.email AS owner_email, u.first_name AS owner_first_name, u.picture AS owner_picture,
     fv.user_id IS NOT NULL AS is_favorite,
     d.id AS d_id, d.public_id AS d_public_id, d.status AS d_status, d.allow_embed AS d_allow_embed, d.version_id AS d_version_id,
     d.version_number AS d_version_number, d.title AS d_title, d.description AS d_description,
     d.restrict_data_download AS d_restrict_data_download, d.created_by AS d_created_by,
     v.config AS published_config, v.report_snapshots AS published_snapshots
   FROM deployments dep
   LEFT JOIN users a ON a.id = $3::integer
   LEFT JOIN workbooks w ON w.deployment_id = dep.id AND w.slug = $2::text
   LEFT JOIN LATERAL (SELECT ${SAME_META("w.meta", "$4")} AS unchanged) m ON w.id IS NOT NULL
   LEFT JOIN users u ON u.id = w.user_id
   LEFT JOIN favorites fv ON fv.workbook_id = w.id AND fv.user_id = $3::integer
   LEFT JOIN dashboards d ON d.workbook_id = w.id
   LEFT JOIN dashboard_versions v ON v.id = d.version_id
   WHERE dep.id = $1::integer`;

const DECIDE = preparedStatement("svc_upsert_by_slug_decide", DECISION);

/**
 * The decision and, when it finds the workbook and the request would change it, the update in
 * the same statement ($5 the name, null: unchanged): for a caller whose access to the workbook
 * needs no read (an admin), sending neither a folder nor a draft (nothing to check against the
 * decided row). Deciding and writing in one statement leaves no moment between them for another
 * writer. `written` is the row it wrote, as JSON (null: nothing written).
 */
const DECIDE_AND_UPDATE = preparedStatement(
  "svc_upsert_by_slug_decide_and_update",
  `WITH dec AS (${DECISION}),
   up AS (
     UPDATE workbooks w SET name = COALESCE($5::text, w.name), meta = w.meta || $4::jsonb, updated_at = now()
     FROM dec WHERE w.id = dec.id AND w.slug = $2::text
       AND (w.name IS DISTINCT FROM COALESCE($5::text, w.name) OR NOT ${SAME_META("w.meta", "$4")})
     RETURNING ${W_COLUMNS})
   SELECT dec.*, (SELECT to_jsonb(up) FROM up) AS written FROM dec`,
);

const CREATE = preparedStatement(
  "svc_upsert_by_slug_create",
  `INSERT INTO workbooks (deployment_id, folder_id, name, slug, meta, created_by, user_id)
   VALUES ($1::integer, $2::integer, $3::text, $4::text, $5::jsonb, $6::integer, $6::integer)
   RETURNING ${COLUMNS}`,
);

// One statement for every shape of update: $3 the name (null: unchanged), $4 whether folder_id
// is sent and $5 its value, $6 the meta to merge ('{}': none). It writes only while the row
// still holds the slug and only when the result differs from the stored row.
const NEW_NAME = "COALESCE($3::text, name)";
const NEW_FOLDER = "CASE WHEN $4::boolean THEN $5::integer ELSE folder_id END";
const NEW_META = "meta || $6::jsonb";
const UPDATE = preparedStatement(
  "svc_upsert_by_slug_update",
  `UPDATE workbooks SET name = ${NEW_NAME}, folder_id = ${NEW_FOLDER}, meta = ${NEW_META}, updated_at = now()
   WHERE id = $1::integer AND slug = $2::text
     AND (name IS DISTINCT FROM ${NEW_NAME} OR folder_id IS DISTINCT FROM ${NEW_FOLDER} OR NOT ${SAME_META("meta", "$6")})
   RETURNING ${COLUMNS}`,
);

const CURRENT = preparedStatement("svc_upsert_by_slug_current", `SELECT ${COLUMNS} FROM workbooks WHERE id = $1::integer AND slug = $2::text`);

/**
 * The deployment, the workbook holding the slug (with what its answer needs) and the actor's own
 * row; undefined when the deployment does not exist. `meta` is the JSON text the request merges.
 */
export async function decide(db: Db, deploymentId: number, slug: string, actorId: number, meta: string | null): Promise<DecidedRow | undefined> {
  const [row] = await runPrepared<DecidedRow>(db, DECIDE, [deploymentId, slug, actorId, meta ?? "{}"]);
  return row;
}

/** `decide`, and the update of the workbook it finds (see DECIDE_AND_UPDATE): the row written, or null. */
export async function decideAndUpdate(
  db: Db,
  deploymentId: number,
  slug: string,
  actorId: number,
  patch: { name?: string | null; meta: string | null },
): Promise<(DecidedRow & { written: WorkbookRow | null }) | undefined> {
  const [row] = await runPrepared<DecidedRow & { written: WorkbookRow | null }>(db, DECIDE_AND_UPDATE, [
    deploymentId,
    slug,
    actorId,
    patch.meta ?? "{}",
    patch.name ?? null,
  ]);
  return row;
}

export interface CreateValues {
  deploymentId: number;
  folderId: number | null;
  name: string;
  slug: string;
  /** The meta as JSON text. */
  meta: string;
  actorId: number;
}

/** The INSERT of the create branch; a unique violation means the slug was created meanwhile. */
export async function insertWorkbook(db: Db, v: CreateValues): Promise<WorkbookRow> {
  const [row] = await runPrepared<WorkbookRow>(db, CREATE, [v.deploymentId, v.folderId, v.name, v.slug, v.meta, v.actorId]);
  return row!;
}

/** What an update by slug sends. */
export interface SlugPatch {
  /** null or absent: unchanged. */
  name?: string | null;
  folderId?: { value: number | null };
  /** The meta to merge, as JSON text of an object; null: none. */
  meta: string | null;
}

/** The UPDATE of the update branch: the new row, or undefined when nothing was written (see rereadHolder). */
export async function updateHolder(db: Db, id: number, slug: string, patch: SlugPatch): Promise<WorkbookRow | undefined> {
  const folder = patch.folderId;
  const [row] = await runPrepared<WorkbookRow>(db, UPDATE, [
    id,
    slug,
    patch.name ?? null,
    folder ? "true" : "false",
    folder?.value ?? null,
    patch.meta ?? "{}",
  ]);
  return row;
}

/** The row as stored while it still holds the slug; undefined when it was deleted or lost the slug. */
export async function rereadHolder(db: Db, id: number, slug: string): Promise<WorkbookRow | undefined> {
  const [row] = await runPrepared<WorkbookRow>(db, CURRENT, [id, slug]);
  return row;
}

/**
 * Whether applying the patch to the decided row would change it (spec 4.1 rule 4: the same
 * request again is a no-op, detected here without a write): the name or the folder sent differ,
 * or merging the meta changes it (compared by the decision, as jsonb).
 */
export function patchChanges(row: Pick<DecidedRow, "name" | "folder_id" | "meta_unchanged">, patch: SlugPatch): boolean {
  if (patch.name !== undefined && patch.name !== null && patch.name !== row.name) return true;
  if (patch.folderId && patch.folderId.value !== row.folder_id) return true;
  return patch.meta !== null && row.meta_unchanged !== true;
}
