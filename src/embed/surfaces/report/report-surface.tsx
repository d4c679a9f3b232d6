/**
 * One report of a published dashboard on its own: `/embed/report/:publicId` and (signed mode's
 * form) `/embed/d/:deploymentId/report/:reportId`. The report is the dashboard's widget, drawn by
 * the dashboard's widget renderer with the dashboard's filters (their controls' members and
 * wiring, unshown), exports within the viewer's grant, and drill. `ready` comes from the shell in
 * signed mode, from here in private mode; then `view` (surface `report`).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useLocation, useParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { EVENT_TYPES } from "../../../protocol";
import { useEmbedServices, type EmbedServices } from "../../shell/embed-context";
import type { EmbedReportResponse, ReportData } from "../../shell/report-data-types";
import { SurfaceLoadScreen, useSurfaceQuery } from "../../shell/surface-load";
import { usePrivateModeReady } from "../../shell/use-private-ready";
import { DEFAULT_LOCALE } from "../../i18n";
import { useEmbedStore } from "../../state/use-embed-store";
import { WidgetHostContext, type DrilldownRequest } from "../../grid/widget-host";
import { applyDashboardSetupOnce } from "../../grid/dashboard-setup";
import { DrilldownPanel } from "../../grid/drilldown-panel";
import { FilterWiringProvider } from "../../grid/filter-wiring-context";
import { WidgetRenderer } from "../../grid/widget-renderer";
import { useReportWidgetHost } from "./report-widget-host";
import { fetchReport, reportKeyOf, reportRouteOf, type ReportRoute } from "./report-data";
import "../../ui/buttons.css";
import "./report-surface.css";

const takenDefinitions = new WeakSet<ReportData>();

/** The first time, what boot fetched (`services.reportData`); a reload or a new locale fetches anew. */
async function loadReport(services: EmbedServices, route: ReportRoute, signal: AbortSignal): Promise<EmbedReportResponse> {
  const loaded = services.reportData;
  if (loaded && loaded.key === reportKeyOf(route) && !takenDefinitions.has(loaded)) {
    takenDefinitions.add(loaded);
    return loaded.definition;
  }
  return fetchReport(services.api, route, services.store.getState().locale, signal);
}

const languageOf = (locale: string) => locale.split("-")[0]!.toLowerCase();

export function ReportSurface() {
  const params = useParams();
  const route = useMemo(() => reportRouteOf(params), [params]);
  const services = useEmbedServices();
  const { store, urlParameters } = services;
  // A `set-locale` after the report arrived asks for its titles again in the new language.
  const [contentLocale, setContentLocale] = useState<string | null>(null);
  const key = route ? reportKeyOf(route) : "";
  const query = useQuery({
    queryKey: ["embed-report", key, contentLocale],
    queryFn: ({ signal }) => loadReport(services, route!, signal),
    enabled: route !== null,
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === key ? previous : undefined),
  });
  const [load, reload] = useSurfaceQuery(query, route ? null : { message: "Not a report's embed path" });
  const data = load.status === "ready" ? load.data : null;
  const localeAtStart = useRef(store.getState().locale);
  // The filter controls and session settings go into the store before the widget composes a query.
  const [setUp, setSetUp] = useState<EmbedReportResponse | null>(null);
  useLayoutEffect(() => {
    if (!data || setUp === data) return;
    applyDashboardSetupOnce(store, data, urlParameters, { localeChosen: store.getState().locale !== localeAtStart.current });
    setSetUp(data);
    services.widgetsSetUp?.();
  }, [data, setUp, store, urlParameters, services]);
  // A refused or missing report: a held `set-filter` is answered (ignored: no control) rather than left waiting.
  const failed = load.status === "fatal";
  useEffect(() => {
    if (failed) services.widgetsSetUp?.();
  }, [failed, services]);
  const locale = useEmbedStore((s) => s.locale);
  useEffect(() => {
    if (setUp && languageOf(locale) !== languageOf(setUp.contentLocale ?? DEFAULT_LOCALE)) setContentLocale(locale);
  }, [locale, setUp]);
  if (load.status !== "ready") return <SurfaceLoadScreen state={load} onReload={reload} />;
  const shown = data && setUp === data ? data : setUp && data && setUp.report.reportId === data.report.reportId ? setUp : null;
  if (!shown) return null;
  return <ReportView key={shown.report.reportId} data={shown} />;
}

function ReportView(props: { data: EmbedReportResponse }) {
  const { bridge } = useEmbedServices();
  const location = useLocation();
  const { report, dashboard, viewer } = props.data;
  const widgets = dashboard.config.widgets ?? [];
  const widget = widgets.find((w) => w.id === report.widgetId) ?? widgets[0]!;
  const snapshot = dashboard.reportSnapshots[0];
  const title = (widget.config as { title?: unknown } | null)?.title;
  const shownTitle = typeof title === "string" && title ? title : (snapshot?.title ?? snapshot?.name ?? undefined);
  const [drill, setDrill] = useState<DrilldownRequest | null>(null);
  const host = useReportWidgetHost(props.data, setDrill);

  usePrivateModeReady({
    embedTenant: viewer.embedTenant,
    deploymentId: dashboard.deploymentId,
    publicId: report.publicId,
    exportFormats: host.exportFormats ? [...host.exportFormats] : [],
  });

  useEffect(() => {
    bridge.emit(EVENT_TYPES.view, { surface: "report", path: location.pathname, publicId: report.publicId, ...(shownTitle ? { title: shownTitle } : {}) });
    // A title change (locale) is not a new view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bridge, location.pathname, report.publicId]);

  useEffect(() => {
    if (shownTitle) document.title = shownTitle;
  }, [shownTitle]);

  return (
    <WidgetHostContext.Provider value={host}>
      <FilterWiringProvider widgets={widgets}>
        <main className="svc-report" data-testid="report" data-public-id={report.publicId} data-report-id={report.reportId}>
          <div className="svc-report-cell">
            <WidgetRenderer widget={widget} renderGrid={() => null} />
          </div>
        </main>
      </FilterWiringProvider>
      {drill ? <DrilldownPanel request={drill} onClose={() => setDrill(null)} /> : null}
    </WidgetHostContext.Provider>
  );
}
