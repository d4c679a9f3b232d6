import { and, desc, eq, ilike, inArray, isNull, sql } from "drizzle-orm";
import type { PeriodComparison } from "../../../schema/dashboard";
import type { AppHome, AppShares, ShareTarget } from "../../../schema/creator-app";
import type { Report } from "../../../schema/report";
import type { WorkspaceItem } from "../../../schema/workspace";
import type { GrantObjectType } from "../../../schema/user";
import type { Db } from "../../db/connection";
import {
  creatorRecents,
  creatorTenantGroups,
  dashboards,
  embedAccess,
  embedUsers,
  favorites,
  folders,
  grants,
  groupMembers,
  reports,
  workbooks,
} from "../../db/schema";
import { forbidden } from "../../domain/errors";
import { hasRole, type UserPrincipal } from "../../domain/actor";
import { accessLevel, readableCondition, readableSet, requireObjectAccess, setGrant } from "../access/service";
import { shareTargetGroup, shareTargets, shareTargetsOfGroups } from "../access/creator";
import { ensureDashboard, generatePublicId } from "../dashboards/service";
import { reportViewOf, upsertReportByPublicId } from "../reports/service";
import { requireWorkbook } from "../workbooks/service";

const HOME_LIMIT = 12;
const iso = (d: Date) => d.toISOString();

type Row = { id: number; name: string; folderId: number | null; createdAt: Date; updatedAt: Date; slug?: string | null; publicId?: string | null };
const item = (type: WorkspaceItem["type"], r: Row): WorkspaceItem => ({
  type,
  id: r.id,
  name: r.name,
  folderId: r.folderId,
  ...(r.slug ? { slug: r.slug } : {}),
  ...(r.publicId ? { publicId: r.publicId } : {}),
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

const workbookCols = {
  id: workbooks.id,
  name: workbooks.name,
  folderId: workbooks.folderId,
  slug: workbooks.slug,
  createdAt: workbooks.createdAt,
  updatedAt: workbooks.updatedAt,
};

async function displayNameOf(db: Db, actor: UserPrincipal): Promise<string | null> {
  if (!actor.creator) return actor.email || null;
  const [eu] = await db
    .select({ displayName: embedUsers.displayName, externalId: embedUsers.externalId, email: embedUsers.email })
    .from(embedUsers)
    .where(eq(embedUsers.id, actor.creator.embedUserId));
  return eu?.displayName ?? eu?.email ?? eu?.externalId ?? null;
}

/** The app's home: who is working, recently opened and favourite workbooks, and what others shared with the caller. */
export async function appHome(db: Db, deploymentId: number, actor: UserPrincipal, settings: Record<string, unknown> = {}): Promise<AppHome> {
  const readable = await readableSet(db, actor, deploymentId);
  const wbReadable = readableCondition(readable, { id: workbooks.id, folderId: workbooks.folderId, createdBy: workbooks.createdBy }, readable.workbookIds);
  const recent = await db
    .select(workbookCols)
    .from(creatorRecents)
    .innerJoin(workbooks, eq(workbooks.id, creatorRecents.workbookId))
    .where(and(eq(creatorRecents.userId, actor.userId), eq(workbooks.deploymentId, deploymentId), wbReadable))
    .orderBy(desc(creatorRecents.viewedAt))
    .limit(HOME_LIMIT);
  const favs = await db
    .select(workbookCols)
    .from(favorites)
    .innerJoin(workbooks, eq(workbooks.id, favorites.workbookId))
    .where(and(eq(favorites.userId, actor.userId), eq(workbooks.deploymentId, deploymentId), wbReadable))
    .orderBy(desc(favorites.createdAt))
    .limit(50);

  // Shared with me: objects granted to one of my groups that someone else made (the shared space itself aside).
  const mine = db.select({ id: groupMembers.groupId }).from(groupMembers).where(eq(groupMembers.userId, actor.userId));
  const granted = await db
    .select({ type: grants.objectType, id: grants.objectId })
    .from(grants)
    .where(and(eq(grants.principalType, "group"), inArray(grants.principalId, mine)));
  const ids = (t: GrantObjectType) => [...new Set(granted.filter((g) => g.type === t).map((g) => g.id))];
  const sharedFolder = actor.creator?.sharedFolderId ?? -1;
  const shared: WorkspaceItem[] = [];
  const notMine = <T extends { createdBy: unknown }>(t: T) => sql`${t.createdBy} IS DISTINCT FROM ${actor.userId}`;
  if (ids("folder").length) {
    const rows = await db
      .select({ id: folders.id, name: folders.name, folderId: folders.parentId, createdAt: folders.createdAt, updatedAt: folders.updatedAt })
      .from(folders)
      .where(and(inArray(folders.id, ids("folder")), eq(folders.deploymentId, deploymentId), notMine(folders), sql`${folders.id} <> ${sharedFolder}`));
    shared.push(...rows.map((r) => item("FOLDER", r)));
  }
  if (ids("workbook").length) {
    const rows = await db
      .select(workbookCols)
      .from(workbooks)
      .where(and(inArray(workbooks.id, ids("workbook")), eq(workbooks.deploymentId, deploymentId), notMine(workbooks)));
    shared.push(...rows.map((r) => item("WORKBOOK", r)));
  }
  if (ids("report").length) {
    const rows = await db
      .select({
        id: reports.id,
        name: reports.name,
        folderId: reports.folderId,
        publicId: reports.publicId,
        createdAt: reports.createdAt,
        updatedAt: reports.updatedAt,
      })
      .from(reports)
      // A report shared with its workbook shows as the workbook.
      .where(and(inArray(reports.id, ids("report")), eq(reports.deploymentId, deploymentId), notMine(reports), isNull(reports.workbookId)));
    shared.push(...rows.map((r) => item("REPORT", r)));
  }
  shared.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));

  return {
    me: {
      mode: actor.creator ? "signed" : "private",
      displayName: await displayNameOf(db, actor),
      embedTenant: actor.creator?.tenantName ?? null,
      role: actor.role,
      canCreate: hasRole(actor, "ai_bi_user"),
      sharedFolderId: actor.creator?.sharedFolderId ?? null,
      settings,
    },
    recent: recent.map((r) => item("WORKBOOK", r)),
    favorites: favs.map((r) => item("WORKBOOK", r)),
    shared: shared.slice(0, 100),
  };
}

/** Folders, workbooks and reports the caller can read whose name contains `q`, most recently changed first. */
export async function appSearch(db: Db, deploymentId: number, q: string, actor: UserPrincipal): Promise<WorkspaceItem[]> {
  const readable = await readableSet(db, actor, deploymentId);
  const pattern = `%${q.replace(/[\\%_]/g, (m) => "\\" + m)}%`;
  const folderRows = await db
    .select({ id: folders.id, name: folders.name, folderId: folders.parentId, createdAt: folders.createdAt, updatedAt: folders.updatedAt })
    .from(folders)
    .where(
      and(
        eq(folders.deploymentId, deploymentId),
        ilike(folders.name, pattern),
        readable.all ? undefined : readable.folderIds.length ? inArray(folders.id, readable.folderIds) : sql`false`,
      ),
    )
    .limit(50);
  const wbRows = await db
    .select(workbookCols)
    .from(workbooks)
    .where(
      and(
        eq(workbooks.deploymentId, deploymentId),
        ilike(workbooks.name, pattern),
        readableCondition(readable, { id: workbooks.id, folderId: workbooks.folderId, createdBy: workbooks.createdBy }, readable.workbookIds),
      ),
    )
    .limit(50);
  const reportRows = await db
    .select({
      id: reports.id,
      name: reports.name,
      folderId: reports.folderId,
      publicId: reports.publicId,
      createdAt: reports.createdAt,
      updatedAt: reports.updatedAt,
    })
    .from(reports)
    .where(
      and(
        eq(reports.deploymentId, deploymentId),
        ilike(reports.name, pattern),
        readableCondition(readable, { id: reports.id, folderId: reports.folderId, createdBy: reports.createdBy }, readable.reportIds),
      ),
    )
    .limit(50);
  return [...folderRows.map((r) => item("FOLDER", r)), ...wbRows.map((r) => item("WORKBOOK", r)), ...reportRows.map((r) => item("REPORT", r))].sort((a, b) =>
    a.updatedAt < b.updatedAt ? 1 : -1,
  );
}

/** Remembers that the caller opened the workbook (read access). */
export async function touchRecent(db: Db, deploymentId: number, workbookId: number, actor: UserPrincipal): Promise<void> {
  await requireWorkbook(db, deploymentId, workbookId, actor, "read");
  await db
    .insert(creatorRecents)
    .values({ userId: actor.userId, workbookId, viewedAt: new Date() })
    .onConflictDoUpdate({ target: [creatorRecents.userId, creatorRecents.workbookId], set: { viewedAt: new Date() } });
}

/** The reports (sheets) of a workbook the caller can read, oldest first. */
export async function workbookReports(db: Db, deploymentId: number, workbookId: number, actor: UserPrincipal): Promise<Report[]> {
  await requireWorkbook(db, deploymentId, workbookId, actor, "read");
  const rows = await db
    .select()
    .from(reports)
    .where(and(eq(reports.workbookId, workbookId), eq(reports.deploymentId, deploymentId)))
    .orderBy(reports.id)
    .limit(200);
  const out: Report[] = [];
  for (const r of rows) {
    if ((await accessLevel(db, actor, "report", r.id)) === "none") continue;
    out.push(await reportViewOf(db, r, actor));
  }
  return out;
}

/** Group grants of the tenant's share groups on an object (what "shared" means in the app). */
async function shareGrantsOn(db: Db, tenantId: number, objectType: GrantObjectType, objectId: number) {
  const tenantShareGroups = db
    .select({ id: creatorTenantGroups.groupId })
    .from(creatorTenantGroups)
    .where(and(eq(creatorTenantGroups.tenantId, tenantId), inArray(creatorTenantGroups.kind, ["all_embed_users", "group"])));
  return db
    .select({ groupId: grants.principalId, level: grants.level })
    .from(grants)
    .where(
      and(eq(grants.objectType, objectType), eq(grants.objectId, objectId), eq(grants.principalType, "group"), inArray(grants.principalId, tenantShareGroups)),
    );
}

/** A new report (sheet) in a workbook (edit access): it lives in the workbook's folder and is shared where the workbook is. */
export async function createWorkbookReport(
  db: Db,
  deploymentId: number,
  workbookId: number,
  input: {
    name?: string;
    kind?: "vega" | "table" | "kpi";
    query?: Record<string, unknown>;
    spec?: Record<string, unknown>;
    periodComparisons?: PeriodComparison[];
  },
  actor: UserPrincipal,
): Promise<Report> {
  const { row } = await requireWorkbook(db, deploymentId, workbookId, actor, "edit");
  const report = await upsertReportByPublicId(
    db,
    deploymentId,
    generatePublicId(),
    {
      name: input.name ?? "Untitled report",
      kind: input.kind ?? "table",
      query: input.query ?? null,
      ...(input.spec ? { spec: input.spec } : {}),
      ...(input.periodComparisons?.length ? { periodComparisons: input.periodComparisons } : {}),
      workbookId,
      folderId: row.folderId,
    },
    actor,
  );
  const wbGrants = await db
    .select()
    .from(grants)
    .where(and(eq(grants.objectType, "workbook"), eq(grants.objectId, workbookId)));
  for (const g of wbGrants) {
    await setGrant(db, { objectType: "report", objectId: report.id, principalType: g.principalType, principalId: g.principalId, level: g.level });
  }
  return report;
}

function scopeOf(actor: UserPrincipal) {
  if (!actor.creator) throw forbidden("Sharing from the app is for embed creators; platform users share with the grants API");
  return actor.creator;
}

async function requireManaged(db: Db, deploymentId: number, objectType: GrantObjectType, objectId: number, actor: UserPrincipal) {
  await requireObjectAccess(db, actor, deploymentId, objectType, objectId, "manage");
}

/** Where an object is shared in the creator's tenant, and the groups it could be shared with (manage access). */
export async function getShares(db: Db, deploymentId: number, objectType: GrantObjectType, objectId: number, actor: UserPrincipal): Promise<AppShares> {
  await requireManaged(db, deploymentId, objectType, objectId, actor);
  const scope = scopeOf(actor);
  const current = await shareGrantsOn(db, scope.tenantId, objectType, objectId);
  const targets = await shareTargetsOfGroups(
    db,
    scope.tenantId,
    current.map((g) => g.groupId),
  );
  return {
    shared: [...targets.values()],
    available: (await shareTargets(db, scope)).map((g) => ({ kind: "embed_group" as const, name: g.name, displayName: g.displayName })),
  };
}

/**
 * Replaces where an object is shared (manage access): read grants to the creator's tenant's
 * `all_embed_users` or embed groups, never anything of another tenant. A workbook takes its
 * reports along, and shared with `all_embed_users` its published dashboard opens for every
 * embed user of the tenant on the dashboard surface too.
 */
export async function setShares(db: Db, deploymentId: number, objectType: GrantObjectType, objectId: number, shared: ShareTarget[], actor: UserPrincipal) {
  await requireManaged(db, deploymentId, objectType, objectId, actor);
  const scope = scopeOf(actor);
  const wanted = new Set<number>();
  for (const t of shared) wanted.add(await shareTargetGroup(db, scope, t));
  const objects: { type: GrantObjectType; id: number }[] = [{ type: objectType, id: objectId }];
  if (objectType === "workbook") {
    const rs = await db.select({ id: reports.id }).from(reports).where(eq(reports.workbookId, objectId));
    objects.push(...rs.map((r) => ({ type: "report" as const, id: r.id })));
  }
  await db.transaction(async (txn) => {
    const tx: Db = txn;
    for (const o of objects) {
      const current = await shareGrantsOn(tx, scope.tenantId, o.type, o.id);
      const stale = current.filter((g) => !wanted.has(g.groupId)).map((g) => g.groupId);
      if (stale.length)
        await tx
          .delete(grants)
          .where(and(eq(grants.objectType, o.type), eq(grants.objectId, o.id), eq(grants.principalType, "group"), inArray(grants.principalId, stale)));
      for (const groupId of wanted) await setGrant(tx, { objectType: o.type, objectId: o.id, principalType: "group", principalId: groupId, level: "read" });
    }
    if (objectType === "workbook") {
      const everyone = shared.some((t) => t.kind === "all_embed_users");
      await tx.delete(embedAccess).where(and(eq(embedAccess.workbookId, objectId), eq(embedAccess.tenantId, scope.tenantId)));
      await tx.insert(embedAccess).values({ workbookId: objectId, tenantId: scope.tenantId, action: everyone ? "read" : "none" });
      if (everyone) {
        const dash = await ensureDashboard(tx, { id: objectId, deploymentId }, actor.userId);
        await tx.update(dashboards).set({ allowEmbed: true }).where(eq(dashboards.id, dash.id));
      }
    }
  });
  return getShares(db, deploymentId, objectType, objectId, actor);
}
