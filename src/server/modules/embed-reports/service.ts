/**
 * The report surface's report (docs/embedding.md "Report surface"): one report of a published
 * dashboard, shown on its own. Whoever may view a published dashboard that shows the report may
 * view the report, and nobody else: the dashboard's checks decide (docs/decisions.md "Report
 * surface: access").
 */
import { and, eq, sql } from "drizzle-orm";
import type { Dashboard, DashboardWidget } from "../../../schema/dashboard";
import type { Db } from "../../db/connection";
import { dashboards, dashboardVersions, reports } from "../../db/schema";
import { notFound } from "../../domain/errors";
import type { Principal } from "../../domain/actor";
import { resolveViewableDashboard } from "../embed-access/service";

/** Which report: by its public id (`/embed/report/{publicId}`) or by its id in a deployment (`/embed/d/{deploymentId}/report/{reportId}`). */
export type ReportReference = { publicId: string } | { deploymentId: number; reportId: number };

/** What the report surface shows: the report's dashboard reduced to the report's widget and the dashboard's filter controls. */
export interface ViewableReport {
  report: { publicId: string; reportId: number; deploymentId: number; dashboardPublicId: string; widgetId: string };
  dashboard: Dashboard;
}

type Widget = DashboardWidget;

/** Every widget of a dashboard, those inside tab containers included, in reading order. */
function everyWidget(widgets: readonly Widget[]): Widget[] {
  return widgets.flatMap((widget) => {
    const tabs = widget.type === "TABS_CONTAINER" ? (widget.config as { tabs?: { widgets?: Widget[] }[] } | null)?.tabs : undefined;
    return Array.isArray(tabs) ? [widget, ...everyWidget(tabs.flatMap((tab) => (Array.isArray(tab?.widgets) ? tab.widgets : [])))] : [widget];
  });
}

function showsReport(widget: Widget, report: { id: number; publicId: string }): boolean {
  if (widget.type !== "CHART") return false;
  const config = (widget.config ?? {}) as { reportId?: unknown; reportPublicId?: unknown };
  return config.reportId === report.id || (config.reportId === undefined && config.reportPublicId === report.publicId);
}

/**
 * The report and a published dashboard that shows it, as `principal` may view them, or an error
 * that reveals no more than the dashboard's would: 404 for an unknown report, one outside the
 * viewer's deployment, one that no published dashboard shows; the dashboard's 403 `forbidden`
 * when embedding is off or the dashboard is not shared with the viewer's tenant.
 */
export async function resolveViewableReport(db: Db, principal: Principal, ref: ReportReference): Promise<ViewableReport> {
  const [row] = await db
    .select({ id: reports.id, publicId: reports.publicId, deploymentId: reports.deploymentId, workbookId: reports.workbookId })
    .from(reports)
    .where("publicId" in ref ? eq(reports.publicId, ref.publicId) : and(eq(reports.id, ref.reportId), eq(reports.deploymentId, ref.deploymentId)));
  if (!row) throw notFound("Report");
  if (principal.kind === "embed" && principal.deploymentId !== row.deploymentId) throw notFound("Report");
  // The published dashboards whose current version shows the report; its own workbook's first.
  const showing = await db
    .select({ publicId: dashboards.publicId, workbookId: dashboards.workbookId })
    .from(dashboards)
    .innerJoin(dashboardVersions, eq(dashboardVersions.id, dashboards.versionId))
    .where(
      and(
        eq(dashboards.deploymentId, row.deploymentId),
        eq(dashboards.status, "published"),
        sql`${dashboardVersions.reportSnapshots} @> ${JSON.stringify([{ reportId: row.id }])}::jsonb`,
      ),
    )
    .orderBy(dashboards.id);
  showing.sort((a, b) => Number(b.workbookId === row.workbookId) - Number(a.workbookId === row.workbookId));
  // A report that no published dashboard shows is not viewable on its own.
  if (showing.length === 0) throw notFound("Report");
  let refusal: unknown = null;
  for (const candidate of showing) {
    try {
      const shown = reportOn(await resolveViewableDashboard(db, principal, candidate.publicId), row);
      if (shown) return shown;
    } catch (error) {
      // The first dashboard's refusal is the answer when the viewer may view none of them.
      refusal ??= error;
    }
  }
  throw refusal ?? notFound("Report");
}

/** The report on a published dashboard, the dashboard reduced to it; null when no widget shows it. */
function reportOn(
  published: Awaited<ReturnType<typeof resolveViewableDashboard>>,
  row: { id: number; publicId: string; deploymentId: number },
): ViewableReport | null {
  const config = published.config as Dashboard["config"];
  const snapshot = published.reportSnapshots.find((s) => s.reportId === row.id);
  const all = everyWidget(config.widgets ?? []);
  const widget = all.find((w) => showsReport(w, row));
  if (!snapshot || !widget) return null;
  const filterControls = all.filter((w) => w.type === "FILTER");
  const dashboard: Dashboard = {
    ...published,
    config: {
      ...config,
      kind: "CLASSIC",
      app: null,
      // The report fills the frame; the filter controls stay for the filters' members and wiring, unshown.
      widgets: [
        { ...widget, config: { ...(widget.config ?? {}), reportId: row.id }, position: { x: 0, y: 0, w: 12, h: widget.position.h } },
        ...filterControls,
      ],
    },
    reportSnapshots: [snapshot],
  };
  return {
    report: { publicId: row.publicId, reportId: row.id, deploymentId: row.deploymentId, dashboardPublicId: published.publicId, widgetId: widget.id },
    dashboard,
  };
}
