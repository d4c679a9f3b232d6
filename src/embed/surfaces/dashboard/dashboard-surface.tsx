/**
 * The published dashboard at /embed/dashboard/:publicId: header, grid of widgets, exports,
 * drilldown; `ready` once authenticated and mounted, `view`, and `dashboard-loaded` when
 * every visible widget has rendered or failed.
 */
import { startTransition, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useLocation, useParams } from "react-router";
import { EVENT_TYPES, type DownloadFormat } from "../../../protocol";
import { useEmbedServices, useEmbedSession } from "../../app/embed-context";
import { useSvcPlatformApiQuery } from "../../../client/react-query";
import { fetchDistinctValues, runQuery, type EmbedDashboardResponse } from "../../app/platform-api";
import { SurfaceLoadScreen, useSurfaceQuery } from "../../app/surface-load";
import { elementToPng, pngToPdf } from "../../export/image-export";
import { fileNameFor, saveBlob, saveUrl } from "../../export/save-file";
import { t } from "../../i18n";
import { useEmbedStore } from "../../state/use-embed-store";
import { WidgetHostContext, type DrilldownRequest, type WidgetHost } from "../../widgets/widget-context";
import { DownloadIcon, ImageIcon } from "../../app/icons";
import { applyDashboardSetup } from "./dashboard-setup";
import { DashboardGrid } from "./dashboard-grid";
import { DrilldownPanel } from "./drilldown-panel";
import { createLoadTracker, visibleWidgetIds, type LoadTracker } from "./load-tracker";

export function DashboardSurface() {
  const { publicId = "" } = useParams();
  const { store, urlParameters } = useEmbedServices();
  const query = useSvcPlatformApiQuery("get", "/api/v1/embed/dashboard/{publicId}", { params: { path: { publicId } } });
  const [load, reload] = useSurfaceQuery(query);
  // The API's dashboard is the schema's Dashboard (src/schema, the single definition).
  const data = load.status === "ready" ? (load.data as unknown as EmbedDashboardResponse) : null;
  // Session settings and filter controls go into the store before any widget composes a query.
  const [setUp, setSetUp] = useState<EmbedDashboardResponse | null>(null);
  useLayoutEffect(() => {
    if (!data || setUp === data) return;
    applyDashboardSetup(store, data.dashboard, data.viewer, urlParameters);
    setSetUp(data);
  }, [data, setUp, store, urlParameters]);
  if (load.status !== "ready") return <SurfaceLoadScreen state={load} onReload={reload} />;
  if (!data || setUp !== data) return null;
  return <DashboardView key={publicId} publicId={publicId} data={data} />;
}

function DashboardView(props: { publicId: string; data: EmbedDashboardResponse }) {
  const { api, bridge, urlParameters, mountedAt } = useEmbedServices();
  const { auth } = useEmbedSession();
  const location = useLocation();
  const locale = useEmbedStore((s) => s.locale);
  const { dashboard, viewer } = props.data;
  const widgets = dashboard.config.widgets ?? [];
  const title = dashboard.config.title ?? dashboard.title ?? t(locale, "dashboard.untitled");
  const description = dashboard.config.description ?? dashboard.description ?? null;
  const [drill, setDrill] = useState<DrilldownRequest | null>(null);
  const [exporting, setExporting] = useState(false);
  const contentRef = useRef<HTMLDivElement>(null);
  const show = urlParameters.show;
  const allowExport = urlParameters.allowExport && dashboard.restrictDataDownload !== true;

  const tracker = useRef<LoadTracker | null>(null);
  tracker.current ??= createLoadTracker(visibleWidgetIds(widgets), ({ widgetCount }) => {
    bridge.emit(EVENT_TYPES.dashboardLoaded, { publicId: props.publicId, widgetCount, loadDurationMs: Math.round(performance.now() - mountedAt) });
  });

  // The grid (every widget) renders as a transition after the dashboard's shell is on screen:
  // React renders it in slices that leave the main thread free in between, and `ready`
  // goes out without waiting for it.
  const [gridShown, setGridShown] = useState(false);
  useEffect(() => startTransition(() => setGridShown(true)), []);

  // `ready` once per dashboard: a session the host swaps in later (set-session) is no new start.
  const readySent = useRef(false);
  useEffect(() => {
    if (readySent.current) return;
    readySent.current = true;
    bridge.emit(EVENT_TYPES.ready, {
      embedTenant: auth.mode === "signed" ? auth.embedTenant : viewer.embedTenant,
      deploymentId: dashboard.deploymentId,
      mode: auth.mode,
      publicId: props.publicId,
    });
  }, [bridge, auth, viewer, dashboard.deploymentId, props.publicId]);

  useEffect(() => {
    bridge.emit(EVENT_TYPES.view, { path: location.pathname, publicId: props.publicId, title });
    // A title change (locale) is not a new view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bridge, location.pathname, props.publicId]);

  useEffect(() => {
    document.title = title;
  }, [title]);

  const host = useMemo<WidgetHost>(() => {
    const deploymentId = dashboard.deploymentId;
    return {
      deploymentId,
      reportsById: new Map(dashboard.reportSnapshots.map((s) => [s.reportId, s])),
      allowExport,
      runQuery: (request, signal) => runQuery(api, deploymentId, request, signal),
      distinctValues: async (member, search, signal) => (await fetchDistinctValues(api, deploymentId, { member, ...(search ? { search } : {}), limit: 200 }, signal)).values,
      settle: (widgetId, status) => tracker.current?.settle(widgetId, status),
      reportError: (error) => bridge.emitError(error),
      drilldown: (request, event) => {
        bridge.emit(EVENT_TYPES.drilldown, event);
        setDrill(request);
      },
      downloaded: (event) => bridge.emit(EVENT_TYPES.download, event),
    };
  }, [api, bridge, dashboard, viewer, allowExport, props.publicId]);

  const exportDashboard = useCallback(
    async (format: DownloadFormat) => {
      const element = contentRef.current;
      if (!element) return;
      setExporting(true);
      try {
        const background = getComputedStyle(document.documentElement).getPropertyValue("--svc-canvas").trim() || "#ffffff";
        const png = await elementToPng(element, background);
        if (format === "pdf") saveBlob(await pngToPdf(png, title), fileNameFor(title, "pdf"));
        else saveUrl(png, fileNameFor(title, "png"));
        bridge.emit(EVENT_TYPES.download, { format, target: "dashboard", title });
      } catch (error) {
        bridge.emitError({ name: "ExportFailed", message: error instanceof Error ? error.message : String(error), context: "dashboard", fatal: false });
      } finally {
        setExporting(false);
      }
    },
    [bridge, title],
  );

  const closeDrill = useCallback(() => setDrill(null), []);
  const showHeader = show.showDashboardHeader;
  const showExportMenu = allowExport && show.showDashboardExportMenu;

  return (
    <WidgetHostContext.Provider value={host}>
      <main className="svc-dashboard" data-testid="dashboard" data-public-id={props.publicId} ref={contentRef}>
        {showHeader && (show.showDashboardTitle || showExportMenu || description) ? (
          <header className="svc-dashboard-header">
            <div className="svc-dashboard-heading">
              {show.showDashboardTitle ? <h1 className="svc-dashboard-title">{title}</h1> : null}
              {show.showDashboardTitle && description ? <p className="svc-dashboard-description">{description}</p> : null}
            </div>
            {showExportMenu ? (
              <div className="svc-dashboard-tools" data-export-ignore="true" role="group" aria-label={t(locale, "export.menu")}>
                <button type="button" className="svc-button is-small" data-testid="export-png-dashboard" disabled={exporting} onClick={() => void exportDashboard("png")}>
                  <ImageIcon size={14} />
                  PNG
                </button>
                <button type="button" className="svc-button is-small" data-testid="export-pdf-dashboard" disabled={exporting} onClick={() => void exportDashboard("pdf")}>
                  <DownloadIcon size={14} />
                  PDF
                </button>
              </div>
            ) : null}
          </header>
        ) : null}
        {widgets.length === 0 ? (
          <div className="svc-empty is-large">{t(locale, "dashboard.empty")}</div>
        ) : gridShown ? (
          <DashboardGrid widgets={widgets} layout={dashboard.config.layout} />
        ) : (
          <div className="svc-grid is-pending" aria-busy="true" />
        )}
      </main>
      {drill ? <DrilldownPanel request={drill} onClose={closeDrill} /> : null}
    </WidgetHostContext.Provider>
  );
}
