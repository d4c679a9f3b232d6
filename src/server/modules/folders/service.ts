import { and, asc, count, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { CreateFolderInput, Folder, UpdateFolderInput } from "../../../schema/folder";
import { rowsOf, type Db } from "../../db/connection";
import { deployments, folders, reports, workbooks } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../../domain/errors";
import { hasRole, type UserPrincipal } from "../../domain/actor";
import {
  accessLevel,
  atLeast,
  deleteGrantsOf,
  folderPaths,
  folderSubtree,
  readableCondition,
  readableSet,
  requireFoundAccess,
  type EffectiveAccess,
} from "../access/service";

type FolderRow = typeof folders.$inferSelect;

function folderView(row: FolderRow, path: { id: number; name: string }[], level: EffectiveAccess): Folder {
  return {
    id: row.id,
    deploymentId: row.deploymentId,
    parentId: row.parentId,
    name: row.name,
    type: "FOLDER",
    // The stored chain includes the folder itself; a folder's path is its ancestors.
    folderPath: path.filter((p) => p.id !== row.id),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    canEdit: atLeast(level, "edit"),
    canManage: atLeast(level, "manage"),
  };
}

async function viewsOf(db: Db, rows: FolderRow[], actor: UserPrincipal): Promise<Folder[]> {
  const paths = await folderPaths(
    db,
    rows.map((r) => r.id),
  );
  const out: Folder[] = [];
  for (const r of rows) out.push(folderView(r, paths.get(r.id) ?? [], await accessLevel(db, actor, "folder", r.id)));
  return out;
}

async function requireDeployment(db: Db, deploymentId: number) {
  const [d] = await db.select({ id: deployments.id }).from(deployments).where(eq(deployments.id, deploymentId));
  if (!d) throw notFound("Deployment");
}

/** The folder when it exists in the deployment and the actor has `needed`; 404 / 403 otherwise. */
export async function requireFolder(db: Db, deploymentId: number, folderId: number, actor: UserPrincipal, needed: "read" | "edit" | "manage") {
  const [row] = await db
    .select()
    .from(folders)
    .where(and(eq(folders.id, folderId), eq(folders.deploymentId, deploymentId)));
  const level = await requireFoundAccess(db, actor, "folder", row?.id ?? null, needed);
  return { row: row!, level };
}

/** Creates a folder: role ai_bi_user or higher, and edit on the parent folder when there is one. */
export async function createFolder(db: Db, deploymentId: number, input: CreateFolderInput, actor: UserPrincipal): Promise<Folder> {
  await requireDeployment(db, deploymentId);
  if (!hasRole(actor, "ai_bi_user")) throw forbidden("Creating a folder needs the role ai_bi_user or higher");
  if (input.parentId) await requireFolder(db, deploymentId, input.parentId, actor, "edit");
  const [row] = await db
    .insert(folders)
    .values({ deploymentId, parentId: input.parentId ?? null, name: input.name, createdBy: actor.userId })
    .returning();
  return (await viewsOf(db, [row!], actor))[0]!;
}

export async function getFolder(db: Db, deploymentId: number, folderId: number, actor: UserPrincipal): Promise<Folder> {
  const { row } = await requireFolder(db, deploymentId, folderId, actor, "read");
  return (await viewsOf(db, [row], actor))[0]!;
}

/**
 * Moves `folderId` under `parentId` (null: the root) after checking that the destination is
 * not the folder itself or one of its descendants. Returns false when that check fails.
 */
export async function moveFolderInto(db: Db, folderId: number, parentId: number | null): Promise<"ok" | "cycle"> {
  if (parentId !== null) {
    const subtree = await folderSubtree(db, folderId);
    if (subtree.includes(parentId)) return "cycle";
  }
  // Re-check the cycle in the statement itself, so a concurrent move cannot close a loop.
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`UPDATE folders SET parent_id = ${parentId}::integer, updated_at = now()
    WHERE id = ${folderId} AND (${parentId}::integer IS NULL OR ${parentId}::integer NOT IN (
      WITH RECURSIVE tree(id) AS (SELECT ${folderId}::int UNION SELECT f.id FROM folders f JOIN tree t ON f.parent_id = t.id) SELECT id FROM tree))
    RETURNING id`,
  );
  return rows.length ? "ok" : "cycle";
}

/** Renames and/or moves a folder: edit to rename; a move needs manage on it and edit on the destination. */
export async function updateFolder(db: Db, deploymentId: number, folderId: number, input: UpdateFolderInput, actor: UserPrincipal): Promise<Folder> {
  const { level } = await requireFolder(db, deploymentId, folderId, actor, "edit");
  if (input.parentId !== undefined) {
    if (!atLeast(level, "manage")) throw forbidden("Moving this folder needs manage access to it");
    if (input.parentId !== null) {
      if (input.parentId === folderId) throw badRequest("A folder cannot be moved into itself", [{ path: ["parentId"], message: "is the folder itself" }]);
      await requireFolder(db, deploymentId, input.parentId, actor, "edit");
    }
    const [current] = await db.select({ parentId: folders.parentId }).from(folders).where(eq(folders.id, folderId));
    if (current && current.parentId !== input.parentId) {
      const moved = await moveFolderInto(db, folderId, input.parentId);
      if (moved === "cycle")
        throw badRequest("A folder cannot be moved into one of its descendants", [{ path: ["parentId"], message: "is a descendant of the folder" }]);
    }
  }
  if (input.name !== undefined) {
    await db
      .update(folders)
      .set({ name: input.name, updatedAt: new Date() })
      .where(and(eq(folders.id, folderId), sql`${folders.name} IS DISTINCT FROM ${input.name}`));
  }
  const [row] = await db.select().from(folders).where(eq(folders.id, folderId));
  if (!row) throw notFound("Folder");
  return (await viewsOf(db, [row], actor))[0]!;
}

/** Deletes a folder with everything inside it (folders, workbooks, reports); needs manage on it. */
export async function deleteFolderTree(db: Db, folderId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const ids = await folderSubtree(tx, folderId);
    const wbIds = (await tx.select({ id: workbooks.id }).from(workbooks).where(inArray(workbooks.folderId, ids))).map((r) => r.id);
    const repIds = (await tx.select({ id: reports.id }).from(reports).where(inArray(reports.folderId, ids))).map((r) => r.id);
    if (repIds.length) await tx.delete(reports).where(inArray(reports.id, repIds));
    if (wbIds.length) await tx.delete(workbooks).where(inArray(workbooks.id, wbIds));
    await tx.delete(folders).where(inArray(folders.id, ids));
    await deleteGrantsOf(tx, "folder", ids);
    await deleteGrantsOf(tx, "workbook", wbIds);
    await deleteGrantsOf(tx, "report", repIds);
  });
}

export async function deleteFolder(db: Db, deploymentId: number, folderId: number, actor: UserPrincipal): Promise<void> {
  await requireFolder(db, deploymentId, folderId, actor, "manage");
  await deleteFolderTree(db, folderId);
}

/** A page of readable folders by id; `parentId` filters (null: top-level folders). */
export async function listFolders(
  db: Db,
  deploymentId: number,
  opts: { afterId: number | null; limit: number; parentId?: number | null },
  actor: UserPrincipal,
) {
  await requireDeployment(db, deploymentId);
  const readable = await readableSet(db, actor, deploymentId);
  const where = and(
    eq(folders.deploymentId, deploymentId),
    opts.parentId === undefined ? undefined : opts.parentId === null ? isNull(folders.parentId) : eq(folders.parentId, opts.parentId),
    readable.all ? undefined : readable.folderIds.length ? inArray(folders.id, readable.folderIds) : sql`false`,
  );
  const rows = await db
    .select()
    .from(folders)
    .where(and(where, opts.afterId !== null ? gt(folders.id, opts.afterId) : undefined))
    .orderBy(asc(folders.id))
    .limit(opts.limit);
  const [total] = await db.select({ n: count() }).from(folders).where(where);
  return { rows: await viewsOf(db, rows, actor), total: Number(total?.n ?? 0) };
}

export { readableCondition };
