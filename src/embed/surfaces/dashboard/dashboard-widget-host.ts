/**
 * What a published dashboard's widgets ask of their surface (grid/widget-host.ts): its reports,
 * queries (the first answers from boot's batch), distinct values with their labels, exports as
 * the viewer's grant allows, drilldowns, clicks and Python runs, each reported to the host page.
 * A new host for a new viewer or dashboard, so the widgets ask again for them.
 */
import { useMemo, type RefObject } from "react";
import type { ExportFormat } from "../../../schema/export-formats";
import { useEmbedServices } from "../../shell/embed-context";
import { runQuery, type EmbedDashboardResponse } from "../../shell/platform-api";
import type { DrilldownRequest, WidgetHost } from "../../grid/widget-host";
import { createValueLabelMemory } from "../../grid/value-label-memory";
import { createPrintableRegistry, type PrintableRegistry } from "../../grid/printables";
import { sharedHostParts } from "../../grid/shared-host-parts";
import { filterMembersOf } from "../../widgets/filter/filter-config";
import { runPythonReport } from "./app-dashboard";
import type { LoadTracker } from "./load-tracker";

export function useDashboardWidgetHost(input: {
  publicId: string;
  data: EmbedDashboardResponse;
  exportFormats: ExportFormat[];
  tracker: RefObject<LoadTracker | null>;
  onDrilldown: (request: DrilldownRequest) => void;
}): WidgetHost & { printables: PrintableRegistry } {
  const { api, bridge, store, dashboardData } = useEmbedServices();
  const { publicId, exportFormats, tracker, onDrilldown } = input;
  const { dashboard, viewer } = input.data;
  const valueLabels = useMemo(() => createValueLabelMemory(), []);
  const printables = useMemo(() => createPrintableRegistry(), []);
  return useMemo((): WidgetHost & { printables: PrintableRegistry } => {
    const deploymentId = dashboard.deploymentId;
    return {
      deploymentId,
      reportsById: new Map(dashboard.reportSnapshots.map((s) => [s.reportId, s])),
      allowExport: exportFormats.length > 0,
      exportFormats,
      // The first answers of the widgets shown at load were asked for from boot (one batch).
      runQuery: async (request, signal) => {
        const loaded = dashboardData ? await dashboardData : null;
        const early = loaded?.publicId === publicId ? await loaded.takeResult(request) : null;
        return early ?? runQuery(api, deploymentId, request, signal);
      },
      printables,
      settle: (widgetId, status) => tracker.current?.settle(widgetId, status),
      filterMembers: filterMembersOf(dashboard.config.widgets),
      filterTo: (filters) => {
        const next = { ...store.getState().filters };
        for (const f of filters) next[f.member] = f;
        store.getState().replaceFilters(next);
      },
      ...sharedHostParts({ services: { api, bridge, store }, deploymentId, valueLabels, onDrilldown }),
      runPython: (reportId, filters, signal) => runPythonReport(api, publicId, reportId, filters, signal),
    };
    // A new host for a new viewer or dashboard id; the tracker and the drilldown setter keep their identity.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, bridge, dashboard, viewer, exportFormats, publicId, store, valueLabels, printables]);
}
