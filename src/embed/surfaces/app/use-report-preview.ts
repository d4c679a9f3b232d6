/**
 * The report builder's preview: the dashboard's chart widget host, over a snapshot of the
 * draft's complete query. The query is complete, so what fails here is the server's or the data's,
 * and the host hears of it (`svc:event:error`). Results come with the calculations' columns titled
 * in the viewer's words, and their row count is told to the builder (the chart suggestion reads it).
 */
import { useCallback, useContext, useMemo, useRef, useState } from "react";
import { EVENT_TYPES } from "../../../protocol";
import type { PeriodComparison, ReportSnapshot } from "../../../schema/dashboard";
import { EmbedSessionContext, useEmbedServices } from "../../shell/embed-context";
import { authorizeExport, fetchDistinctValues, runQuery, type QueryRequest, type QueryResult, type SemanticQuery } from "../../shell/platform-api";
import type { DrilldownRequest, WidgetHost } from "../../grid/widget-host";
import type { ReportDraft } from "./use-report-draft";

export interface ReportPreviewInput {
  deploymentId: number;
  reportId: number;
  draft: ReportDraft;
  /** The complete part of the draft's query. */
  query: SemanticQuery;
  kind: ReportSnapshot["kind"];
  spec: Record<string, unknown> | null;
  periodComparisons: PeriodComparison[] | null;
  /** Retitles a result's calculated columns (report-column-words.ts). */
  retitle(result: QueryResult): QueryResult;
  /** Told the row count of each result. */
  onRows(request: QueryRequest, rows: number): void;
}

export function useReportPreview(input: ReportPreviewInput) {
  const { api: embedApi, bridge } = useEmbedServices();
  // A signed session exports the formats it grants (settings.allowExport); a platform login every format.
  const auth = useContext(EmbedSessionContext)?.auth;
  const exportFormats = auth?.mode === "signed" ? auth.exportFormats : undefined;
  const { deploymentId, reportId, draft, query: q, kind, spec, periodComparisons } = input;
  // The host lives as long as the deployment; it reads the latest words and listener when a result arrives.
  const latest = useRef(input);
  latest.current = input;
  // A click on a value of the preview drills through as on a dashboard (docs/dashboards.md "Drill-through").
  const [drill, setDrill] = useState<DrilldownRequest | null>(null);
  const closeDrill = useCallback(() => setDrill(null), []);
  const host = useMemo<WidgetHost>(
    () => ({
      deploymentId,
      reportsById: new Map(),
      allowExport: true,
      exportFormats,
      authorizeExport: (format, target) => authorizeExport(embedApi, { format, target }),
      runQuery: async (request, signal) => {
        const result = await runQuery(embedApi, deploymentId, request, signal);
        latest.current.onRows(request, result.data.length);
        return latest.current.retitle(result);
      },
      distinctValues: async (member, search, signal) =>
        (await fetchDistinctValues(embedApi, deploymentId, { member, ...(search ? { search } : {}), limit: 100 }, signal)).values,
      settle: () => undefined,
      reportError: (error) => bridge.emitError(error),
      drilldown: (request, event) => {
        bridge.emit(EVENT_TYPES.drilldown, event);
        setDrill(request);
      },
      drilled: (event) => bridge.emit(EVENT_TYPES.drilldown, event),
      downloaded: () => undefined,
    }),
    [deploymentId, embedApi, bridge, exportFormats],
  );
  const snapshot = useMemo<ReportSnapshot>(
    () => ({
      id: 0,
      reportId,
      versionNumber: 0,
      name: draft.name,
      title: draft.name,
      kind,
      spec,
      periodComparisons,
      preferences: { columnFormats: draft.formats },
      meta: { query: { ...q, limit: q.limit ?? 500 } },
    }),
    // The spec and comparisons are derived from the draft and its complete query each render: their content is in the key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [draft.name, draft.formats, kind, JSON.stringify(spec), JSON.stringify(periodComparisons), q, reportId],
  );
  const widget = useMemo(() => ({ id: `report-${reportId}`, type: "CHART" as const, position: { x: 0, y: 0, w: 12, h: 6 }, config: { reportId } }), [reportId]);
  const hostWithReport = useMemo<WidgetHost>(() => ({ ...host, reportsById: new Map([[reportId, snapshot]]) }), [host, snapshot, reportId]);
  return { host: hostWithReport, widget, snapshot, drill, closeDrill };
}
