/**
 * The dashboard editor's widget kinds (their order in the toolbar, default sizes and starting
 * settings), the report snapshots widgets read, and the widget host the grid renders them with.
 */
import { useMemo } from "react";
import type { DashboardWidget, DashboardWidgetType, ReportSnapshot } from "../../../schema/dashboard";
import type { Report } from "../../../schema/report";
import { useEmbedServices } from "../../shell/embed-context";
import { fetchDistinctValues, runQuery } from "../../shell/platform-api";
import type { DrilldownRequest, WidgetHost } from "../../grid/widget-host";
import { EVENT_TYPES } from "../../../protocol";
import { linkedValue, linkFilter, widgetClickPayload } from "../../widgets/chart/widget-click";
import { tabsOf } from "../../widgets/tabs-container/tabs-config";
import { useApp } from "./app-context";
import type { AppMessageKey } from "./app-messages";

/** The catalogue key of each widget type's name. */
export const WIDGET_LABEL: Record<DashboardWidgetType, AppMessageKey> = {
  CHART: "widgetChart",
  TEXT: "widgetText",
  FILTER: "widgetFilter",
  TIME_GRAIN: "widgetTimeGrain",
  TABS_CONTAINER: "widgetTabs",
  AI: "widgetAi",
};
export const WIDGET_TYPES = Object.keys(WIDGET_LABEL) as DashboardWidgetType[];

const DEFAULT_SIZE: Record<DashboardWidgetType, { w: number; h: number }> = {
  CHART: { w: 6, h: 5 },
  TEXT: { w: 6, h: 2 },
  FILTER: { w: 3, h: 2 },
  TIME_GRAIN: { w: 3, h: 2 },
  TABS_CONTAINER: { w: 12, h: 6 },
  AI: { w: 6, h: 4 },
};

export function snapshotOfReport(r: Report): ReportSnapshot {
  return {
    id: r.id,
    reportId: r.id,
    versionNumber: r.versionNumber,
    name: r.name,
    title: r.title ?? r.name,
    description: r.description,
    kind: r.kind,
    spec: r.spec,
    fillMissingRows: r.fillMissingRows,
    periodComparisons: r.periodComparisons,
    preferences: r.preferences,
    meta: { ...(r.meta ?? {}), query: r.query },
  };
}

/** Widgets added on this page so far: two added in the same millisecond still get ids of their own. */
let added = 0;

/**
 * An id for a new widget of `type`: the time it was added and a count of this page's additions,
 * never one a widget of `widgets` (or of their tabs) already has.
 */
export function newWidgetId(type: DashboardWidgetType, widgets: readonly DashboardWidget[], now = Date.now()): string {
  const taken = new Set<string>();
  const collect = (list: readonly DashboardWidget[]) => {
    for (const w of list) {
      taken.add(w.id);
      if (w.type === "TABS_CONTAINER") for (const tab of tabsOf(w)) collect(tab.widgets);
    }
  };
  collect(widgets);
  let id: string;
  do id = `${type.toLowerCase()}-${now.toString(36)}-${(++added).toString(36)}`;
  while (taken.has(id));
  return id;
}

/** A new widget of a type, below every widget there is, with its type's starting settings. */
export function newWidget(type: DashboardWidgetType, widgets: DashboardWidget[], reports: Report[], id: string): DashboardWidget {
  const y = widgets.reduce((m, w) => Math.max(m, w.position.y + w.position.h), 0);
  const config: Record<string, unknown> =
    type === "CHART"
      ? { reportId: reports[0]?.id ?? null }
      : type === "TEXT"
        ? { markdown: "## Heading\nWrite **markdown** here." }
        : type === "TABS_CONTAINER"
          ? { tabs: [{ id: "tab-1", title: "Tab 1", widgets: [] }] }
          : type === "AI"
            ? { question: "" }
            : {};
  return { id, type, position: { x: 0, y, ...DEFAULT_SIZE[type] }, config };
}

/**
 * The widget host of the app's dashboards. With `clicks` (the published view, the preview), a
 * chart's click behaviour holds: a host event goes to the host page, a link opens the linked
 * workbook's published dashboard with the clicked value as its filter.
 */
export function useWidgetHost(snapshots: ReportSnapshot[], clicks = false, onDrill?: (request: DrilldownRequest) => void): WidgetHost {
  const { api: appApi, go } = useApp();
  const { api, bridge, store } = useEmbedServices();
  return useMemo<WidgetHost>(
    () => ({
      deploymentId: appApi.deploymentId,
      reportsById: new Map(snapshots.map((s) => [s.reportId, s])),
      allowExport: true,
      runQuery: (request, signal) => runQuery(api, appApi.deploymentId, request, signal),
      distinctValues: async (member, search, signal) =>
        (await fetchDistinctValues(api, appApi.deploymentId, { member, ...(search ? { search } : {}), limit: 200 }, signal)).values,
      settle: () => undefined,
      reportError: (error) => bridge.emitError(error),
      // With `onDrill` (the published view, the preview) a value drills through as on the dashboard surface.
      drilldown: (request, event) => {
        if (!onDrill) return;
        bridge.emit(EVENT_TYPES.drilldown, event);
        onDrill(request);
      },
      drilled: onDrill ? (event) => bridge.emit(EVENT_TYPES.drilldown, event) : undefined,
      downloaded: (event) => bridge.emit("svc:event:download", event),
      clicked: clicks
        ? (click) => {
            const { behaviour } = click;
            if (behaviour.action === "event") return void bridge.emit(EVENT_TYPES.widgetClick, widgetClickPayload({ ...click, behaviour }));
            const value = linkedValue(behaviour, click.row, click.query);
            store.getState().replaceFilters(value === null ? {} : { [behaviour.filterMember]: linkFilter(behaviour, value) });
            if (behaviour.workbookId) go({ kind: "published", workbookId: behaviour.workbookId });
          }
        : undefined,
    }),
    [api, appApi.deploymentId, bridge, snapshots, clicks, store, go, onDrill],
  );
}
