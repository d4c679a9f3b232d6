/**
 * The request a CHART widget sends for the dashboard state it is shown in: its report's query
 * composed with the filters, grains, member switches and time zone, plus the report's options.
 * One function for the widget and for the dashboard's data loader, which sends the same
 * requests before the widgets exist: equal requests are equal JSON.
 */
import type { ReportSnapshot } from "../../../schema/dashboard";
import type { QueryRequest, SemanticQuery } from "../../shell/platform-api";
import { composeWidgetQuery, type DashboardQueryState } from "../query/compose-query";
import { viewerTimeZone } from "../../i18n/viewer-time-zone";

export function reportQueryOf(snapshot: ReportSnapshot | undefined): SemanticQuery | null {
  const query = (snapshot?.meta as { query?: unknown } | null | undefined)?.query;
  return query && typeof query === "object" ? (query as SemanticQuery) : null;
}

/** True for a report whose Python code the platform runs instead of its query. */
export function hasPythonCode(meta: unknown): boolean {
  const code = (meta as { python?: unknown } | null | undefined)?.python;
  return typeof code === "string" && code.trim().length > 0;
}

/** The report's query in this dashboard state; without a chosen zone, times are the viewer's own. */
export function composeChartQuery(base: SemanticQuery, state: DashboardQueryState): SemanticQuery {
  return composeWidgetQuery(base, { ...state, timezone: state.timezone ?? viewerTimeZone() });
}

/** The request body of a composed query: the report's fill and period comparisons, and a cache bypass after a host `refresh`. */
export function chartQueryRequest(snapshot: ReportSnapshot | undefined, query: SemanticQuery, refreshNonce: number, locale?: string): QueryRequest {
  return {
    query,
    ...(locale ? { locale } : {}),
    ...(snapshot?.fillMissingRows ? { fillMissingRows: snapshot.fillMissingRows } : {}),
    ...(snapshot?.periodComparisons?.length ? { periodComparisons: snapshot.periodComparisons } : {}),
    ...(refreshNonce > 0 ? { cache: "bypass" as const } : {}),
  };
}
