import { and, eq, sql } from "drizzle-orm";
import type { WorkspaceItemType } from "../../../schema/workbook";
import type { BulkItemFailure, BulkResult, WorkspaceItem, WorkspaceItemRef } from "../../../schema/workspace";
import type { Db } from "../../db/connection";
import { deployments, reports, workbooks } from "../../db/schema";
import { DomainError, notFound } from "../../domain/errors";
import type { UserPrincipal } from "../../domain/actor";
import { deleteGrantsOf, readableSet, requireEditableContainer, requireObjectAccess, rowsOf } from "../access/service";
import { deleteFolderTree, moveFolderInto } from "../folders/service";

const OBJECT_TYPE = { FOLDER: "folder", WORKBOOK: "workbook", REPORT: "report" } as const;
const RANK: Record<WorkspaceItemType, number> = { FOLDER: 0, WORKBOOK: 1, REPORT: 2 };

async function requireDeployment(db: Db, deploymentId: number) {
  const [d] = await db.select({ id: deployments.id }).from(deployments).where(eq(deployments.id, deploymentId));
  if (!d) throw notFound("Deployment");
}

/** An item a bulk operation names, with manage access (the access module's rule: out of sight is 404, as for a missing id). */
function requireManagedItem(db: Db, deploymentId: number, item: WorkspaceItemRef, actor: UserPrincipal, doing: string) {
  return requireObjectAccess(db, actor, deploymentId, OBJECT_TYPE[item.type], item.id, "manage", `${doing} ${item.type} ${item.id} needs manage access`);
}

function failure(item: WorkspaceItemRef, err: unknown): BulkItemFailure {
  if (err instanceof DomainError) return { ...item, code: err.code, message: err.message };
  throw err;
}

/** Each item on its own: checks, then acts; a failure is reported and the others go on. */
async function eachItem(items: WorkspaceItemRef[], act: (item: WorkspaceItemRef) => Promise<void>): Promise<BulkResult> {
  const result: BulkResult = { succeeded: [], failed: [] };
  const seen = new Set<string>();
  for (const item of items) {
    const key = `${item.type}:${item.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      await act(item);
      result.succeeded.push(item);
    } catch (err) {
      result.failed.push(failure(item, err));
    }
  }
  return result;
}

/**
 * Deletes folders (with their contents), workbooks and reports. Each item needs manage access;
 * missing or refused items are reported in `failed` and the rest are still deleted.
 */
export async function bulkDelete(db: Db, deploymentId: number, items: WorkspaceItemRef[], actor: UserPrincipal): Promise<BulkResult> {
  await requireDeployment(db, deploymentId);
  return eachItem(items, async (item) => {
    await requireManagedItem(db, deploymentId, item, actor, "Deleting");
    const type = OBJECT_TYPE[item.type];
    if (item.type === "FOLDER") return deleteFolderTree(db, item.id);
    if (item.type === "WORKBOOK") await db.delete(workbooks).where(eq(workbooks.id, item.id));
    else await db.delete(reports).where(eq(reports.id, item.id));
    await deleteGrantsOf(db, type, [item.id]);
  });
}

/**
 * Moves items into `targetFolderId` (null: the root). Each item needs manage access, and the
 * destination edit access; a folder cannot go into itself or a descendant (`invalid_move`).
 */
export async function bulkMove(
  db: Db,
  deploymentId: number,
  items: WorkspaceItemRef[],
  targetFolderId: number | null,
  actor: UserPrincipal,
): Promise<BulkResult> {
  await requireDeployment(db, deploymentId);
  if (targetFolderId !== null) {
    await requireEditableContainer(db, actor, deploymentId, "folder", targetFolderId);
  }
  return eachItem(items, async (item) => {
    await requireManagedItem(db, deploymentId, item, actor, "Moving");
    if (item.type === "FOLDER") {
      if ((await moveFolderInto(db, item.id, targetFolderId)) === "cycle") {
        throw new DomainError("invalid_move", `Folder ${item.id} cannot be moved into itself or one of its descendants`);
      }
      return;
    }
    const table = item.type === "WORKBOOK" ? workbooks : reports;
    await db
      .update(table)
      .set({ folderId: targetFolderId, updatedAt: new Date() })
      .where(and(eq(table.id, item.id), sql`${table.folderId} IS DISTINCT FROM ${targetFolderId}::integer`));
  });
}

/**
 * The readable items directly inside a folder (null: the root): folders first, then workbooks,
 * then reports, each by id; cursor = (type rank, id).
 */
export async function listWorkspace(
  db: Db,
  deploymentId: number,
  opts: { folderId: number | null; first: number; after: { r: number; id: number } | null },
  actor: UserPrincipal,
) {
  await requireDeployment(db, deploymentId);
  if (opts.folderId !== null) {
    // A folder the caller cannot read does not exist for them.
    await requireObjectAccess(db, actor, deploymentId, "folder", opts.folderId, "read");
  }
  const readable = await readableSet(db, actor, deploymentId);
  const inFolder = (col: string) => (opts.folderId === null ? sql.raw(`${col} IS NULL`) : sql`${sql.raw(col)} = ${opts.folderId}`);
  const allowed = (ids: number[], idCol: string, folderCol: string, creatorCol: string) => {
    if (readable.all) return sql`true`;
    const parts = [sql`${sql.raw(creatorCol)} = ${readable.userId}`];
    if (readable.folderIds.length)
      parts.push(
        sql`${sql.raw(folderCol)} IN (${sql.join(
          readable.folderIds.map((i) => sql`${i}`),
          sql`, `,
        )})`,
      );
    if (ids.length)
      parts.push(
        sql`${sql.raw(idCol)} IN (${sql.join(
          ids.map((i) => sql`${i}`),
          sql`, `,
        )})`,
      );
    return sql`(${sql.join(parts, sql` OR `)})`;
  };
  const folderAllowed = readable.all
    ? sql`true`
    : readable.folderIds.length
      ? sql`id IN (${sql.join(
          readable.folderIds.map((i) => sql`${i}`),
          sql`, `,
        )})`
      : sql`false`;
  const union = sql`
    SELECT 0 AS r, id, name, parent_id AS folder_id, NULL::text AS slug, NULL::text AS public_id, created_at, updated_at FROM folders
      WHERE deployment_id = ${deploymentId} AND ${inFolder("parent_id")} AND ${folderAllowed}
    UNION ALL
    SELECT 1, id, name, folder_id, slug, NULL, created_at, updated_at FROM workbooks
      WHERE deployment_id = ${deploymentId} AND ${inFolder("folder_id")} AND ${allowed(readable.workbookIds, "id", "folder_id", "created_by")}
    UNION ALL
    SELECT 2, id, name, folder_id, NULL, public_id, created_at, updated_at FROM reports
      WHERE deployment_id = ${deploymentId} AND ${inFolder("folder_id")} AND ${allowed(readable.reportIds, "id", "folder_id", "created_by")}`;
  const after = opts.after ? sql`WHERE (r, id) > (${opts.after.r}, ${opts.after.id})` : sql``;
  const rows = await rowsOf<{
    r: number;
    id: number;
    name: string;
    folder_id: number | null;
    slug: string | null;
    public_id: string | null;
    created_at: Date | string;
    updated_at: Date | string;
  }>(db, sql`SELECT * FROM (${union}) items ${after} ORDER BY r, id LIMIT ${opts.first + 1}`);
  const [total] = await rowsOf<{ n: number | string }>(db, sql`SELECT count(*) AS n FROM (${union}) items`);
  const types: WorkspaceItemType[] = ["FOLDER", "WORKBOOK", "REPORT"];
  const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();
  const map = (r: (typeof rows)[number]): WorkspaceItem => ({
    type: types[Number(r.r)]!,
    id: Number(r.id),
    name: r.name,
    folderId: r.folder_id === null ? null : Number(r.folder_id),
    ...(r.slug !== null ? { slug: r.slug } : {}),
    ...(r.public_id !== null ? { publicId: r.public_id } : {}),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  });
  return { rows, total: Number(total?.n ?? 0), map, cursorOf: (r: (typeof rows)[number]) => ({ r: Number(r.r), id: Number(r.id) }), RANK };
}
