/**
 * What the report's widget gets from the report surface (grid/widget-host.ts): the queries and
 * values of the report's deployment, the formats the viewer may export (the server's grant for
 * the report's dashboard, turned on by the URL's allowExport=true), drill, clicks and downloads
 * to the host. The same answers a dashboard's widgets get; no dashboard-loaded to drive.
 */
import { useMemo } from "react";
import { EVENT_TYPES } from "../../../protocol";
import { offeredExportFormats } from "../../../schema/export-formats";
import type { DrilldownRequest, WidgetHost } from "../../grid/widget-host";
import { createValueLabelMemory } from "../../grid/value-label-memory";
import { createWidgetClickHandler } from "../../grid/widget-click-handler";
import { useEmbedServices } from "../../shell/embed-context";
import { authorizeExport, fetchDistinctValues, runQuery, type EmbedDashboardResponse } from "../../shell/platform-api";

export function useReportWidgetHost(data: EmbedDashboardResponse, drill: (request: DrilldownRequest) => void): WidgetHost {
  const { api, bridge, store, urlParameters } = useEmbedServices();
  const { dashboard, viewer } = data;
  const valueLabels = useMemo(() => createValueLabelMemory(), []);
  return useMemo<WidgetHost>(() => {
    const deploymentId = dashboard.deploymentId;
    // The URL only narrows the grant; the server refuses the other formats whatever is shown.
    const exportFormats = offeredExportFormats({
      granted: viewer.exportFormats ?? [],
      urlAllowsExport: urlParameters.allowExport,
      restrictDataDownload: dashboard.restrictDataDownload,
    });
    return {
      deploymentId,
      reportsById: new Map(dashboard.reportSnapshots.map((s) => [s.reportId, s])),
      allowExport: exportFormats.length > 0,
      exportFormats,
      authorizeExport: (format, target) => authorizeExport(api, { format, target }),
      runQuery: (request, signal) => runQuery(api, deploymentId, request, signal),
      distinctValues: async (member, search, signal) => {
        const locale = store.getState().locale;
        const answer = await fetchDistinctValues(api, deploymentId, { member, ...(search ? { search } : {}), limit: 200, locale }, signal);
        valueLabels.remember(member, locale, answer.labels);
        return answer.values;
      },
      valueLabel: (member, value) => valueLabels.labelOf(member, store.getState().locale, value),
      settle: () => undefined,
      reportError: (error) => bridge.emitError(error),
      drilled: (event) => bridge.emit(EVENT_TYPES.drilldown, event),
      drilldown: (request, event) => {
        bridge.emit(EVENT_TYPES.drilldown, event);
        drill(request);
      },
      downloaded: (event) => bridge.emit(EVENT_TYPES.download, event),
      clicked: createWidgetClickHandler({ bridge, store }),
    };
  }, [api, bridge, store, urlParameters.allowExport, dashboard, viewer, valueLabels, drill]);
}
