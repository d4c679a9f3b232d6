import { and, eq, isNull } from "drizzle-orm";
import type { EmbedAccessAction, EmbedAccessRule } from "../../../schema/embed-tenant";
import { EmbedSessionSettings } from "../../../schema/embed-session";
import type { Db } from "../../db/connection";
import { dashboards, dashboardVersions, embedAccess, embedSessions, embedTenants, groupMembers, groups } from "../../db/schema";
import { forbidden, notFound } from "../../domain/errors";
import type { EmbedPrincipal, Principal, UserPrincipal } from "../../domain/actor";
import type { SecurityContext } from "../../semantic/security-context";
import { upsertEmbedTenant } from "../embed-tenants/service";
import { userAttributeMap } from "../user-attributes/service";
import { userSecurityContextCache } from "../../domain/request-caches";
import { accessLevel, requireObjectAccess } from "../access/service";

export type AccessLevel = "read" | "edit" | "manage";

/**
 * For the query engine: an embed principal may only touch the deployment its session is for.
 * Another deployment answers 404, as if it did not exist, so ids cannot be probed.
 * Platform users pass (their object access is checked per object).
 */
export function assertEmbedDeploymentAccess(principal: Principal, deploymentId: number): void {
  if (principal.kind === "embed" && principal.deploymentId !== deploymentId) throw notFound("Deployment");
}

/**
 * Who is asking, for row-level security: embed viewers from their signed token (never from
 * the URL or the request), platform users from their stored attribute values and role.
 */
export async function securityContextOf(principal: Principal, db: Db): Promise<SecurityContext> {
  if (principal.kind === "embed") {
    return {
      userId: null,
      externalId: principal.externalId,
      embedTenant: principal.embedTenant,
      groups: [...principal.groups],
      userAttributes: { ...principal.userAttributes },
    };
  }
  const cached = userSecurityContextCache.get(db, principal.userId) as SecurityContext | undefined;
  if (cached && cached.role === principal.role) return { ...cached, groups: [...cached.groups], userAttributes: { ...cached.userAttributes } };
  const readAt = userSecurityContextCache.generation();
  const [groupRows, userAttributes] = await Promise.all([
    db.select({ name: groups.name }).from(groupMembers).innerJoin(groups, eq(groups.id, groupMembers.groupId)).where(eq(groupMembers.userId, principal.userId)),
    userAttributeMap(db, principal.userId),
  ]);
  const context: SecurityContext = {
    userId: principal.userId,
    externalId: null,
    embedTenant: null,
    groups: groupRows.map((g) => g.name).sort(),
    userAttributes,
    role: principal.role,
  };
  userSecurityContextCache.set(db, principal.userId, context, readAt);
  return { ...context, groups: [...context.groups], userAttributes: { ...context.userAttributes } };
}

/** The workbook in the deployment, when the user has `level` on it (the access module's rule: 404 out of sight, 403 below `level`). */
async function requireWorkbookLevel(db: Db, user: UserPrincipal, deploymentId: number, workbookId: number, level: AccessLevel) {
  await requireObjectAccess(db, user, deploymentId, "workbook", workbookId, level);
}

/**
 * The embed access decision for a workbook's dashboard: a tenant's own rule wins over the
 * all-embed-users rule (so a tenant `none` beats an all-users `read`); no rule → none.
 */
export async function embedAccessFor(db: Db, workbookId: number, embedTenant: string | null): Promise<EmbedAccessAction> {
  const rows = await db
    .select({ tenantName: embedTenants.name, tenantId: embedAccess.tenantId, action: embedAccess.action })
    .from(embedAccess)
    .leftJoin(embedTenants, eq(embedTenants.id, embedAccess.tenantId))
    .where(eq(embedAccess.workbookId, workbookId));
  const own = embedTenant ? rows.find((r) => r.tenantId !== null && r.tenantName === embedTenant) : undefined;
  if (own) return own.action;
  return rows.find((r) => r.tenantId === null)?.action ?? "none";
}

async function accessView(db: Db, workbookId: number) {
  const [dash] = await db
    .select({ publicId: dashboards.publicId, allowEmbed: dashboards.allowEmbed })
    .from(dashboards)
    .where(eq(dashboards.workbookId, workbookId));
  const rows = await db
    .select({ tenantName: embedTenants.name, action: embedAccess.action })
    .from(embedAccess)
    .leftJoin(embedTenants, eq(embedTenants.id, embedAccess.tenantId))
    .where(eq(embedAccess.workbookId, workbookId))
    .orderBy(embedAccess.id);
  return {
    workbookId,
    dashboardPublicId: dash?.publicId ?? null,
    allowEmbed: dash?.allowEmbed ?? false,
    rules: rows.map((r) => ({ embedTenantName: r.tenantName ?? null, action: r.action })),
  };
}

export async function getEmbedAccess(db: Db, user: UserPrincipal, deploymentId: number, workbookId: number) {
  await requireWorkbookLevel(db, user, deploymentId, workbookId, "read");
  return accessView(db, workbookId);
}

/** Sets rules (manage access needed); a tenant named here is created when new, so access can be set up before its first session. */
export async function setEmbedAccess(
  db: Db,
  user: UserPrincipal,
  deploymentId: number,
  workbookId: number,
  input: { rules: EmbedAccessRule[]; replace?: boolean },
) {
  await requireWorkbookLevel(db, user, deploymentId, workbookId, "manage");
  await db.transaction(async (tx) => {
    if (input.replace) await tx.delete(embedAccess).where(eq(embedAccess.workbookId, workbookId));
    for (const rule of input.rules) {
      const tenantId = rule.embedTenantName === null ? null : (await upsertEmbedTenant(tx, rule.embedTenantName)).id;
      await tx
        .delete(embedAccess)
        .where(and(eq(embedAccess.workbookId, workbookId), tenantId === null ? isNull(embedAccess.tenantId) : eq(embedAccess.tenantId, tenantId)));
      await tx.insert(embedAccess).values({ workbookId, tenantId, action: rule.action });
    }
  });
  return accessView(db, workbookId);
}

/** PATCH /embed/dashboard/{publicId}: turns signed embedding of a dashboard on or off (manage access). */
export async function setDashboardAllowEmbed(db: Db, user: UserPrincipal, publicId: string, allowEmbed: boolean) {
  const [dash] = await db.select().from(dashboards).where(eq(dashboards.publicId, publicId));
  if (!dash) throw notFound("Dashboard");
  await requireWorkbookLevel(db, user, dash.deploymentId, dash.workbookId, "manage");
  const [row] = await db.update(dashboards).set({ allowEmbed, updatedAt: new Date() }).where(eq(dashboards.id, dash.id)).returning();
  return { publicId: row!.publicId, deploymentId: row!.deploymentId, workbookId: row!.workbookId, allowEmbed: row!.allowEmbed };
}

/**
 * The published dashboard a principal may view, or an error that reveals nothing:
 * embed viewers get 404 outside their deployment, 403 `forbidden` when the dashboard is not
 * embeddable or not shared with their tenant; platform users need read access to the workbook.
 */
export async function resolveViewableDashboard(db: Db, principal: Principal, publicId: string) {
  const [dash] = await db.select().from(dashboards).where(eq(dashboards.publicId, publicId));
  if (!dash) throw notFound("Dashboard");
  if (principal.kind === "embed") {
    if (dash.deploymentId !== principal.deploymentId) throw notFound("Dashboard");
    if (!dash.allowEmbed) throw forbidden("This dashboard is not enabled for embedding");
    if ((await embedAccessFor(db, dash.workbookId, principal.embedTenant)) !== "read") {
      throw forbidden("This dashboard is not shared with your organization");
    }
  } else {
    if ((await accessLevel(db, principal, "workbook", dash.workbookId)) === "none") throw notFound("Dashboard");
  }
  if (dash.versionId === null || dash.status === "archived") throw notFound("Published dashboard");
  const [version] = await db
    .select()
    .from(dashboardVersions)
    .where(and(eq(dashboardVersions.id, dash.versionId), eq(dashboardVersions.dashboardId, dash.id)));
  if (!version) throw notFound("Published dashboard");
  return {
    id: dash.id,
    publicId: dash.publicId,
    deploymentId: dash.deploymentId,
    workbookId: dash.workbookId,
    status: dash.status,
    allowEmbed: dash.allowEmbed,
    config: version.config,
    versionNumber: version.versionNumber,
    versionId: version.id,
    reportSnapshots: version.reportSnapshots,
    createdBy: dash.createdBy,
    title: dash.title,
    description: dash.description,
    restrictDataDownload: dash.restrictDataDownload,
  };
}

/** What the embed needs to know about its viewer (GET /embed/dashboard/{publicId}). */
export async function viewerOf(db: Db, principal: Principal) {
  if (principal.kind === "user") {
    return {
      mode: "private" as const,
      deploymentId: null,
      embedTenant: null,
      externalId: null,
      settings: {},
      embedTheme: null,
      expiresAt: "sessionExpiresAt" in principal && typeof principal.sessionExpiresAt === "number" ? new Date(principal.sessionExpiresAt).toISOString() : null,
    };
  }
  return { ...(await embedViewerOf(db, principal)) };
}

async function embedViewerOf(db: Db, p: EmbedPrincipal) {
  const [row] = await db.select({ request: embedSessions.request }).from(embedSessions).where(eq(embedSessions.id, p.sessionId));
  const theme = row?.request.embedTheme ?? null;
  return {
    mode: "signed" as const,
    deploymentId: p.deploymentId,
    embedTenant: p.embedTenant,
    externalId: p.externalId,
    // The token's settings were checked when the session was made; only the schema's keys are told.
    settings: EmbedSessionSettings.partial().safeParse(p.settings).data ?? {},
    embedTheme: theme,
    expiresAt: new Date(p.expiresAt).toISOString(),
  };
}
