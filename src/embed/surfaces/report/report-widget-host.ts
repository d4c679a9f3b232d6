/**
 * What the report's widget gets from the report surface (grid/widget-host.ts): the queries and
 * values of the report's deployment, the formats the viewer may export (the server's grant for
 * the report's dashboard, turned on by the URL's allowExport=true), drill, clicks and downloads
 * to the host. The same answers a dashboard's widgets get; no dashboard-loaded to drive.
 */
import { useMemo } from "react";
import { offeredExportFormats } from "../../../schema/export-formats";
import type { DrilldownRequest, WidgetHost } from "../../grid/widget-host";
import { createValueLabelMemory } from "../../grid/value-label-memory";
import { sharedHostParts } from "../../grid/shared-host-parts";
import { useEmbedServices } from "../../shell/embed-context";
import { runQuery, type EmbedDashboardResponse } from "../../shell/platform-api";

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
      runQuery: (request, signal) => runQuery(api, deploymentId, request, signal),
      settle: () => undefined,
      ...sharedHostParts({ services: { api, bridge, store }, deploymentId, valueLabels, onDrilldown: drill }),
    };
  }, [api, bridge, store, urlParameters.allowExport, dashboard, viewer, valueLabels, drill]);
}
