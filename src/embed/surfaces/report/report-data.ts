/**
 * The report surface's data, asked for from boot (as the dashboard's is, dashboard-data.ts): the
 * report's definition as soon as the session allows, beside the download of the app's code,
 * rather than once the surface has mounted. The chart worker starts when the report draws one.
 */
import { apiError, dataOf, type EmbedApi } from "../../shell/api";
import type { EmbedServices } from "../../shell/embed-context";
import type { EmbedReportResponse, ReportData } from "../../shell/report-data-types";
import { warmChartWorker } from "../../widgets/chart/chart-worker-client";

export type ReportRoute = { publicId: string } | { deploymentId: number; reportId: number };

/** The report of route parameters (`publicId`, or `deploymentId` and `reportId`); null when they name none. */
export function reportRouteOf(params: Record<string, string | undefined>): ReportRoute | null {
  if (params.publicId !== undefined) return /^[0-9A-Za-z]{12}$/.test(params.publicId) ? { publicId: params.publicId } : null;
  const deploymentId = Number(params.deploymentId);
  const reportId = Number(params.reportId);
  return Number.isInteger(deploymentId) && deploymentId > 0 && Number.isInteger(reportId) && reportId > 0 ? { deploymentId, reportId } : null;
}

/** The route of a browser path (`/embed/report/{publicId}`, `/embed/d/{deploymentId}/report/{reportId}`). */
export function reportRouteOfPath(pathname: string): ReportRoute | null {
  const byPublicId = /^\/embed\/report\/([^/]+)\/?$/.exec(pathname);
  if (byPublicId) return reportRouteOf({ publicId: byPublicId[1] });
  const byId = /^\/embed\/d\/([^/]+)\/report\/([^/]+)\/?$/.exec(pathname);
  return byId ? reportRouteOf({ deploymentId: byId[1], reportId: byId[2] }) : null;
}

export async function fetchReport(api: EmbedApi, route: ReportRoute, locale: string | undefined, signal?: AbortSignal): Promise<EmbedReportResponse> {
  const query = locale ? { locale } : {};
  const answer =
    "publicId" in route
      ? api.client.GET("/api/v1/embed/report/{publicId}", { params: { path: { publicId: route.publicId }, query }, signal })
      : api.client.GET("/api/v1/embed/deployments/{deploymentId}/reports/{reportId}", { params: { path: route, query }, signal });
  // The API's dashboard is the schema's Dashboard (src/schema, the single definition).
  return (await dataOf(answer)) as EmbedReportResponse;
}

export const reportKeyOf = (route: ReportRoute) => JSON.stringify(route);

/** Starts loading the frame's report once authenticated (in the locale the URL names; else the session's, which the platform knows). */
export function loadReportData(services: Pick<EmbedServices, "api" | "auth" | "urlParameters">): ReportData | null {
  const route = reportRouteOfPath(window.location.pathname);
  if (!route) return null;
  const definition = services.auth.first.then(async () => {
    if (!route) throw apiError(404, "not_found", "Unknown report");
    const data = await fetchReport(services.api, route, services.urlParameters.locale ?? undefined);
    const kind = data.dashboard.reportSnapshots[0]?.kind;
    if (kind === "vega" || kind === "map") warmChartWorker();
    return data;
  });
  // A failed load is the surface's to show; nothing else waits on it.
  definition.catch(() => undefined);
  return { key: reportKeyOf(route), definition };
}
