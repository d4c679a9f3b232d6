import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { AccessLevel, GrantObjectType } from "../../../schema/user";
import { rowsOf, type Db } from "../../db/connection";
import { grants } from "../../db/schema";
import { forbidden, notFound } from "../../domain/errors";
import type { UserPrincipal } from "../../domain/actor";

/** Object access of a user: none < read < edit < manage (decisions.md "Credentials"). */
export type EffectiveAccess = "none" | AccessLevel;
export const ACCESS_RANK: Record<EffectiveAccess, number> = { none: 0, read: 1, edit: 2, manage: 3 };
const BY_RANK: EffectiveAccess[] = ["none", "read", "edit", "manage"];

export function atLeast(level: EffectiveAccess, needed: AccessLevel): boolean {
  return ACCESS_RANK[level] >= ACCESS_RANK[needed];
}

export { rowsOf };

const TABLE: Record<GrantObjectType, SQL> = {
  workbook: sql.raw("workbooks"),
  report: sql.raw("reports"),
  folder: sql.raw("folders"),
};

/**
 * The access `actor` has on one object: admins manage everything; the creator of the object,
 * or of any folder that contains it, manages it; otherwise the highest grant to the user or one
 * of their groups, on the object or on any folder that contains it (a recursive walk up).
 */
export async function accessLevel(db: Db, actor: UserPrincipal, objectType: GrantObjectType, objectId: number): Promise<EffectiveAccess> {
  if (actor.role === "admin") return "manage";
  const uid = actor.userId;
  // For a folder the walk starts at the folder itself; for a workbook or report at its folder.
  const seed =
    objectType === "folder"
      ? sql`SELECT f.id, f.created_by, f.parent_id FROM folders f WHERE f.id = ${objectId}`
      : sql`SELECT f.id, f.created_by, f.parent_id FROM folders f JOIN ${TABLE[objectType]} o ON f.id = o.folder_id WHERE o.id = ${objectId}`;
  const creator = objectType === "folder" ? sql`false` : sql`EXISTS (SELECT 1 FROM ${TABLE[objectType]} o WHERE o.id = ${objectId} AND o.created_by = ${uid})`;
  const [row] = await rowsOf<{ is_creator: boolean; folder_creator: boolean; grant_rank: number | null }>(
    db,
    sql`WITH RECURSIVE chain(id, created_by, parent_id) AS (
          ${seed}
          UNION
          SELECT f.id, f.created_by, f.parent_id FROM folders f JOIN chain c ON f.id = c.parent_id
        ), mine AS (SELECT group_id FROM group_members WHERE user_id = ${uid})
        SELECT ${creator} AS is_creator,
          EXISTS (SELECT 1 FROM chain WHERE created_by = ${uid}) AS folder_creator,
          (SELECT max(CASE g.level WHEN 'read' THEN 1 WHEN 'edit' THEN 2 WHEN 'manage' THEN 3 END)
             FROM grants g
            WHERE ((g.object_type = ${objectType} AND g.object_id = ${objectId})
                   OR (g.object_type = 'folder' AND g.object_id IN (SELECT id FROM chain)))
              AND ((g.principal_type = 'user' AND g.principal_id = ${uid})
                   OR (g.principal_type = 'group' AND g.principal_id IN (SELECT group_id FROM mine)))) AS grant_rank`,
  );
  if (!row) return "none";
  if (row.is_creator || row.folder_creator) return "manage";
  return BY_RANK[Number(row.grant_rank ?? 0)] ?? "none";
}

const LABEL: Record<GrantObjectType, string> = { workbook: "Workbook", report: "Report", folder: "Folder" };

/**
 * The one answer for an object a request names — to read or change it, or to place something in
 * it (docs/decisions.md "Who may write where"). Not in the deployment, or out of the actor's
 * sight (`none`): 404 `not_found`, word for word the answer for an id that never existed, so the
 * ids of other tenants and of other users' private content cannot be told from missing ones.
 * Visible but below `needed`: 403 `forbidden`. Returns the actor's level.
 */
export async function requireObjectAccess(
  db: Db,
  actor: UserPrincipal,
  deploymentId: number,
  objectType: GrantObjectType,
  objectId: number,
  needed: AccessLevel,
  forbiddenMessage?: string,
): Promise<EffectiveAccess> {
  const found = await rowsOf<{ id: number }>(db, sql`SELECT id FROM ${TABLE[objectType]} WHERE id = ${objectId} AND deployment_id = ${deploymentId}`);
  return requireFoundAccess(db, actor, objectType, found.length ? objectId : null, needed, forbiddenMessage);
}

/** `requireObjectAccess` for a caller that has already looked the object up in the deployment (null: not there). */
export async function requireFoundAccess(
  db: Db,
  actor: UserPrincipal,
  objectType: GrantObjectType,
  objectId: number | null,
  needed: AccessLevel,
  forbiddenMessage?: string,
): Promise<EffectiveAccess> {
  const level = objectId === null ? "none" : await accessLevel(db, actor, objectType, objectId);
  if (level === "none") throw notFound(LABEL[objectType]);
  if (!atLeast(level, needed)) throw forbidden(forbiddenMessage ?? `This needs ${needed} access to the ${objectType}`);
  return level;
}

/**
 * A write that names a container — the folder something is created in or moved to, the
 * workbook a report is put in — needs edit access to that container; one the actor cannot see
 * answers 404 like a missing one.
 */
export function requireEditableContainer(db: Db, actor: UserPrincipal, deploymentId: number, type: "folder" | "workbook", id: number) {
  return requireObjectAccess(db, actor, deploymentId, type, id, "edit", `This needs edit access to the destination ${type}`);
}

/** What a non-admin may read in a deployment: folders reached through grants or authorship, and direct grants. */
export interface ReadableSet {
  all: boolean;
  userId: number;
  folderIds: number[];
  workbookIds: number[];
  reportIds: number[];
}

export async function readableSet(db: Db, actor: UserPrincipal, deploymentId: number): Promise<ReadableSet> {
  if (actor.role === "admin") return { all: true, userId: actor.userId, folderIds: [], workbookIds: [], reportIds: [] };
  const uid = actor.userId;
  const principalMatch = sql`((g.principal_type = 'user' AND g.principal_id = ${uid})
      OR (g.principal_type = 'group' AND g.principal_id IN (SELECT group_id FROM group_members WHERE user_id = ${uid})))`;
  const folderRows = await rowsOf<{ id: number }>(
    db,
    sql`WITH RECURSIVE seeds AS (
          SELECT id FROM folders WHERE deployment_id = ${deploymentId} AND created_by = ${uid}
          UNION SELECT g.object_id FROM grants g WHERE g.object_type = 'folder' AND ${principalMatch}
        ), tree(id) AS (
          SELECT f.id FROM folders f JOIN seeds s ON f.id = s.id WHERE f.deployment_id = ${deploymentId}
          UNION SELECT f.id FROM folders f JOIN tree t ON f.parent_id = t.id
        ) SELECT id FROM tree`,
  );
  const direct = await rowsOf<{ object_type: string; object_id: number }>(
    db,
    sql`SELECT g.object_type, g.object_id FROM grants g WHERE g.object_type IN ('workbook', 'report') AND ${principalMatch}`,
  );
  return {
    all: false,
    userId: uid,
    folderIds: folderRows.map((r) => Number(r.id)),
    workbookIds: direct.filter((r) => r.object_type === "workbook").map((r) => Number(r.object_id)),
    reportIds: direct.filter((r) => r.object_type === "report").map((r) => Number(r.object_id)),
  };
}

/** A WHERE condition limiting a workbooks/reports/folders query to what the set allows. */
export function readableCondition(
  set: ReadableSet,
  cols: { id: SQL.Aliased | import("drizzle-orm").AnyColumn; folderId?: import("drizzle-orm").AnyColumn; createdBy?: import("drizzle-orm").AnyColumn },
  directIds: number[],
): SQL | undefined {
  if (set.all) return undefined;
  const parts: (SQL | undefined)[] = [];
  if (cols.createdBy) parts.push(eq(cols.createdBy, set.userId));
  if (cols.folderId && set.folderIds.length) parts.push(inArray(cols.folderId, set.folderIds));
  if (directIds.length) parts.push(inArray(cols.id as import("drizzle-orm").AnyColumn, directIds));
  return or(...parts) ?? sql`false`;
}

/** Sets (or replaces) a grant. */
export async function setGrant(
  db: Db,
  g: { objectType: GrantObjectType; objectId: number; principalType: "user" | "group"; principalId: number; level: AccessLevel },
) {
  const [row] = await db
    .insert(grants)
    .values(g)
    .onConflictDoUpdate({ target: [grants.objectType, grants.objectId, grants.principalType, grants.principalId], set: { level: g.level } })
    .returning();
  return row!;
}

export async function revokeGrant(db: Db, g: { objectType: GrantObjectType; objectId: number; principalType: "user" | "group"; principalId: number }) {
  const rows = await db
    .delete(grants)
    .where(
      and(
        eq(grants.objectType, g.objectType),
        eq(grants.objectId, g.objectId),
        eq(grants.principalType, g.principalType),
        eq(grants.principalId, g.principalId),
      ),
    )
    .returning({ id: grants.id });
  return rows.length > 0;
}

export async function listGrants(db: Db, objectType: GrantObjectType, objectId: number) {
  return db
    .select()
    .from(grants)
    .where(and(eq(grants.objectType, objectType), eq(grants.objectId, objectId)))
    .orderBy(grants.id);
}

/** Grants die with their object (grants have no foreign key: they point at three tables). */
export async function deleteGrantsOf(db: Db, objectType: GrantObjectType, objectIds: number[]) {
  if (!objectIds.length) return;
  await db.delete(grants).where(and(eq(grants.objectType, objectType), inArray(grants.objectId, objectIds)));
}

/** The folder ancestor chain, root first, for each folder id given (itself included). */
export async function folderPaths(db: Db, folderIds: number[]): Promise<Map<number, { id: number; name: string }[]>> {
  const out = new Map<number, { id: number; name: string }[]>();
  const ids = [...new Set(folderIds)];
  if (!ids.length) return out;
  const rows = await rowsOf<{ start_id: number; id: number; name: string; depth: number }>(
    db,
    sql`WITH RECURSIVE chain(start_id, id, name, parent_id, depth) AS (
          SELECT f.id, f.id, f.name, f.parent_id, 0 FROM folders f WHERE f.id IN (${sql.join(
            ids.map((i) => sql`${i}`),
            sql`, `,
          )})
          UNION ALL
          SELECT c.start_id, f.id, f.name, f.parent_id, c.depth + 1 FROM folders f JOIN chain c ON f.id = c.parent_id WHERE c.depth < 64
        ) SELECT start_id, id, name, depth FROM chain ORDER BY start_id, depth DESC`,
  );
  for (const r of rows) {
    const key = Number(r.start_id);
    const list = out.get(key) ?? [];
    list.push({ id: Number(r.id), name: r.name });
    out.set(key, list);
  }
  return out;
}

/** Ids of the folder and every folder below it. */
export async function folderSubtree(db: Db, folderId: number): Promise<number[]> {
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`WITH RECURSIVE tree(id) AS (SELECT ${folderId}::int UNION SELECT f.id FROM folders f JOIN tree t ON f.parent_id = t.id) SELECT id FROM tree`,
  );
  return rows.map((r) => Number(r.id));
}
