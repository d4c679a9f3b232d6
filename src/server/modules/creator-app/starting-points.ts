/**
 * The creator app's starting points: the published dashboards a caller may open (the demo
 * dashboard among them), and a copy of one into a workbook of the caller's own space. The copy
 * takes the published version (its report snapshots become reports of the new workbook, its
 * charts point at them) and is written only where the caller may create a workbook.
 */
import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { DashboardConfig, DashboardWidget, ReportSnapshot } from "../../../schema/dashboard";
import type { StartingDashboard } from "../../../schema/creator-app";
import type { Workbook } from "../../../schema/workbook";
import type { Db } from "../../db/connection";
import { dashboardVersions, dashboards } from "../../db/schema";
import { conflict, notFound } from "../../domain/errors";
import type { Principal, UserPrincipal } from "../../domain/actor";
import { accessLevel } from "../access/service";
import { generatePublicId } from "../dashboards/service";
import { embedAccessFor, resolveViewableDashboard } from "../embed-access/service";
import { upsertReportByPublicId } from "../reports/service";
import { createWorkbook, updateDashboardDraft } from "../workbooks/service";

/** Published widget dashboards of others in the deployment the caller may open, newest first (at most 20). */
export async function startingDashboards(db: Db, deploymentId: number, principal: Principal, actor: UserPrincipal): Promise<StartingDashboard[]> {
  const rows = await db
    .select({ d: dashboards, config: dashboardVersions.config })
    .from(dashboards)
    .innerJoin(dashboardVersions, eq(dashboardVersions.id, dashboards.versionId))
    .where(and(eq(dashboards.deploymentId, deploymentId), eq(dashboards.status, "published"), isNotNull(dashboards.versionId)))
    .orderBy(desc(dashboards.updatedAt))
    .limit(200);
  const out: StartingDashboard[] = [];
  for (const { d, config } of rows) {
    if (out.length >= 20) break;
    // A dashboard app is code, not widgets: nothing to copy.
    if ((config as DashboardConfig).kind === "APP") continue;
    const readable =
      principal.kind === "embed"
        ? d.allowEmbed && (await embedAccessFor(db, d.workbookId, principal.embedTenant)) === "read"
        : (await accessLevel(db, actor, "workbook", d.workbookId)) !== "none";
    // The caller's own dashboards are theirs already.
    if (readable && d.createdBy !== actor.userId) out.push({ publicId: d.publicId, title: d.title ?? d.publicId });
  }
  return out;
}

const COPYABLE = new Set(["vega", "table", "kpi"]);

/** A copy of the published dashboard `publicId` (one the caller may open) in a new workbook of theirs. */
export async function copyPublishedDashboard(
  db: Db,
  deploymentId: number,
  publicId: string,
  input: { folderId?: number | null; name?: string },
  principal: Principal,
  actor: UserPrincipal,
): Promise<Workbook> {
  const source = await resolveViewableDashboard(db, principal, publicId);
  if (source.deploymentId !== deploymentId) throw notFound("Dashboard");
  const config = source.config as DashboardConfig;
  if (config.kind === "APP") throw conflict("A dashboard app cannot be copied; start from a template instead");
  return db.transaction(async (tx) => {
    const name = input.name ?? source.title ?? config.title ?? "Dashboard";
    const wb = await createWorkbook(tx, deploymentId, { name, folderId: input.folderId ?? null }, actor);
    // Each snapshot of a semantic query becomes a report of the new workbook; SQL, HTML and map reports stay behind.
    const copies = new Map<number, number>();
    for (const s of (source.reportSnapshots ?? []) as ReportSnapshot[]) {
      const query = (s.meta as { query?: Record<string, unknown> | null } | null)?.query;
      if (!query || s.sqlQuery || !s.kind || !COPYABLE.has(s.kind)) continue;
      const report = await upsertReportByPublicId(
        tx,
        deploymentId,
        generatePublicId(),
        {
          name: s.title ?? s.name ?? "Report",
          title: s.title ?? null,
          description: s.description ?? null,
          kind: s.kind,
          query,
          spec: typeof s.spec === "object" ? s.spec : null,
          fillMissingRows: s.fillMissingRows ?? null,
          periodComparisons: s.periodComparisons ?? null,
          preferences: s.preferences ?? null,
          workbookId: wb.id,
          folderId: wb.folderId ?? null,
        },
        actor,
      );
      copies.set(s.reportId, report.id);
    }
    const draft: DashboardConfig = { ...config, title: name, widgets: rewireCharts(config.widgets ?? [], copies) };
    return updateDashboardDraft(tx, deploymentId, wb.id, draft, actor);
  });
}

/** Charts on the copied reports; a chart of a report that was not copied is left out. */
export function rewireCharts(widgets: DashboardWidget[], copies: ReadonlyMap<number, number>): DashboardWidget[] {
  return widgets.flatMap((w): DashboardWidget[] => {
    const config = w.config ?? {};
    if (w.type === "TABS_CONTAINER" && Array.isArray(config.tabs)) {
      const tabs = (config.tabs as { widgets?: DashboardWidget[] }[]).map((tab) => ({ ...tab, widgets: rewireCharts(tab.widgets ?? [], copies) }));
      return [{ ...w, config: { ...config, tabs } }];
    }
    if (w.type !== "CHART") return [w];
    const copy = typeof config.reportId === "number" ? copies.get(config.reportId) : undefined;
    if (copy === undefined) return [];
    const { reportPublicId: _old, ...rest } = config as Record<string, unknown>;
    return [{ ...w, config: { ...rest, reportId: copy } }];
  });
}
