/**
 * The published dashboard at /embed/dashboard/:publicId: header, grid of widgets, exports,
 * drilldown; `view`, and `dashboard-loaded` when every visible widget has rendered or failed.
 * `ready` comes first: from the shell in signed mode (before this fetch), from here in private
 * mode; a refused or missing dashboard is then a fatal `error` after `ready`.
 */
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useLocation, useParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { EVENT_TYPES, type DownloadFormat } from "../../../protocol";
import { dataOf } from "../../shell/api";
import type { DashboardData } from "../../shell/dashboard-data-types";
import { useEmbedServices, type EmbedServices } from "../../shell/embed-context";
import { authorizeExport, type EmbedDashboardResponse } from "../../shell/platform-api";
import { SurfaceLoadScreen, useSurfaceQuery } from "../../shell/surface-load";
import { usePrivateModeReady } from "../../shell/use-private-ready";
import { DEFAULT_LOCALE, t } from "../../i18n";
import { useEmbedStore } from "../../state/use-embed-store";
import { WidgetHostContext, type DrilldownRequest } from "../../grid/widget-host";
import { SparkIcon } from "../../ui/icons";
import { chatText } from "../../chat/chat-messages";
import { serializeFilterParameters } from "../../../schema/dashboard-filters";
import { offeredExportFormats } from "../../../schema/export-formats";
import { DashboardExportMenu, dashboardExportFormats } from "./dashboard-export-menu";
import { applyDashboardSetupOnce } from "../../grid/dashboard-setup";
import { DashboardGrid } from "../../grid/dashboard-grid";
import { DrilldownPanel } from "../../grid/drilldown-panel";
import { createLoadTracker, visibleWidgetIds, type LoadTracker } from "./load-tracker";
import { useDashboardWidgetHost } from "./dashboard-widget-host";
import { AppDashboard, APP_WIDGET_ID } from "./app-dashboard";
import "../../ui/buttons.css";
import "../../ui/empty.css";
import "./dashboard-surface.css";

// The dashboard chat's code loads when the viewer opens it.
const ChatDrawer = lazy(() => import("../../chat/chat-drawer").then((m) => ({ default: m.ChatDrawer })));

const takenDefinitions = new WeakSet<DashboardData>();

const languageOf = (locale: string) => locale.split("-")[0]!.toLowerCase();

/**
 * The dashboard of this surface: the first time, what the data loader fetched from boot
 * (`services.dashboardData`); a reload, or another dashboard reached by `navigate`, fetches anew.
 */
async function loadDefinition(services: EmbedServices, publicId: string, signal: AbortSignal): Promise<EmbedDashboardResponse> {
  const loaded = services.dashboardData ? await services.dashboardData : null;
  if (loaded && loaded.publicId === publicId && !takenDefinitions.has(loaded)) {
    takenDefinitions.add(loaded);
    return loaded.definition;
  }
  // The API's dashboard is the schema's Dashboard (src/schema, the single definition).
  return (await dataOf(
    services.api.client.GET("/api/v1/embed/dashboard/{publicId}", {
      params: { path: { publicId }, query: { locale: services.store.getState().locale } },
      signal,
    }),
  )) as EmbedDashboardResponse;
}

export function DashboardSurface() {
  const { publicId = "" } = useParams();
  const services = useEmbedServices();
  const { store, urlParameters } = services;
  // A `set-locale` after the dashboard arrived asks for its titles and labels again in the new
  // language; the dashboard shown stays until they are in.
  const [contentLocale, setContentLocale] = useState<string | null>(null);
  const query = useQuery({
    queryKey: ["embed-dashboard", publicId, contentLocale],
    queryFn: ({ signal }) => loadDefinition(services, publicId, signal),
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === publicId ? previous : undefined),
  });
  const [load, reload] = useSurfaceQuery(query);
  const data = load.status === "ready" ? load.data : null;
  // What the host chose at run time before the dashboard arrived (`ready` may precede it)
  // outranks the session's settings: the locale is the only such value not pinned by the URL.
  const localeAtStart = useRef(store.getState().locale);
  // Session settings and filter controls go into the store before any widget composes a query
  // (the data loader has done it already for the dashboard it fetched).
  const [setUp, setSetUp] = useState<EmbedDashboardResponse | null>(null);
  useLayoutEffect(() => {
    if (!data || setUp === data) return;
    applyDashboardSetupOnce(store, data, urlParameters, { localeChosen: store.getState().locale !== localeAtStart.current });
    setSetUp(data);
  }, [data, setUp, store, urlParameters]);
  const locale = useEmbedStore((s) => s.locale);
  useEffect(() => {
    if (setUp && languageOf(locale) !== languageOf(setUp.contentLocale ?? DEFAULT_LOCALE)) setContentLocale(locale);
  }, [locale, setUp]);
  if (load.status !== "ready") return <SurfaceLoadScreen state={load} onReload={reload} />;
  const shown = data && setUp === data ? data : setUp && data && setUp.dashboard.publicId === data.dashboard.publicId ? setUp : null;
  if (!shown) return null;
  return <DashboardView key={publicId} publicId={publicId} data={shown} />;
}

function DashboardView(props: { publicId: string; data: EmbedDashboardResponse }) {
  const { api, bridge, urlParameters, mountedAt, store } = useEmbedServices();
  const location = useLocation();
  const locale = useEmbedStore((s) => s.locale);
  const { dashboard, viewer } = props.data;
  const widgets = dashboard.config.widgets ?? [];
  const title = dashboard.config.title ?? dashboard.title ?? t(locale, "dashboard.untitled");
  const description = dashboard.config.description ?? dashboard.description ?? null;
  const [drill, setDrill] = useState<DrilldownRequest | null>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const show = urlParameters.show;
  // The formats offered: the server's grant for this viewer and dashboard, turned on by the URL's
  // allowExport=true (the URL only narrows). The server refuses the others whatever is shown.
  const exportFormats = useMemo(
    () =>
      offeredExportFormats({
        granted: viewer.exportFormats ?? [],
        urlAllowsExport: urlParameters.allowExport,
        restrictDataDownload: dashboard.restrictDataDownload,
      }),
    [viewer.exportFormats, urlParameters.allowExport, dashboard.restrictDataDownload],
  );

  const tracker = useRef<LoadTracker | null>(null);
  // An app dashboard (kind APP) is one frame: loaded when the app says so.
  const isApp = dashboard.config.kind === "APP";
  tracker.current ??= createLoadTracker(isApp ? [APP_WIDGET_ID] : visibleWidgetIds(widgets), ({ widgetCount }) => {
    bridge.emit(EVENT_TYPES.dashboardLoaded, { publicId: props.publicId, widgetCount, loadDurationMs: Math.round(performance.now() - mountedAt) });
  });

  usePrivateModeReady({ embedTenant: viewer.embedTenant, deploymentId: dashboard.deploymentId, publicId: props.publicId, exportFormats });

  useEffect(() => {
    bridge.emit(EVENT_TYPES.view, { surface: "dashboard", path: location.pathname, publicId: props.publicId, title });
    // A title change (locale) is not a new view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bridge, location.pathname, props.publicId]);

  useEffect(() => {
    document.title = title;
  }, [title]);

  // What the widgets ask of the dashboard: queries, values, exports, drilldowns (dashboard-widget-host.ts).
  const host = useDashboardWidgetHost({ publicId: props.publicId, data: props.data, exportFormats, tracker, onDrilldown: setDrill });
  const printables = host.printables;

  const authorizeDashboardExport = useCallback((format: DownloadFormat) => authorizeExport(api, { format, target: "dashboard" }), [api]);
  const closeDrill = useCallback(() => setDrill(null), []);
  const showHeader = show.showDashboardHeader;
  const menuFormats = dashboardExportFormats(exportFormats);
  const showExportMenu = menuFormats.length > 0 && show.showDashboardExportMenu;
  // Dashboard chat: asked for by the session (`showDashboardChat`), never where AI is off.
  const settings = (viewer.settings ?? {}) as { showDashboardChat?: boolean; allowAi?: boolean };
  const showChat = settings.showDashboardChat === true && settings.allowAi !== false;
  const [chatOpen, setChatOpen] = useState(false);

  return (
    <WidgetHostContext.Provider value={host}>
      <main className="svc-dashboard" data-testid="dashboard" data-public-id={props.publicId} ref={contentRef}>
        {showHeader && (show.showDashboardTitle || showExportMenu || description || showChat) ? (
          <header className="svc-dashboard-header">
            <div className="svc-dashboard-heading">
              {show.showDashboardTitle ? <h1 className="svc-dashboard-title">{title}</h1> : null}
              {show.showDashboardTitle && description ? <p className="svc-dashboard-description">{description}</p> : null}
            </div>
            {showChat ? (
              <button
                type="button"
                className="svc-button is-small"
                data-testid="dashboard-chat-open"
                data-export-ignore="true"
                onClick={() => setChatOpen(true)}
              >
                <SparkIcon size={14} />
                {chatText(locale, "openChat")}
              </button>
            ) : null}
            {showExportMenu ? (
              <DashboardExportMenu
                formats={menuFormats}
                title={title}
                description={description}
                widgets={widgets}
                printables={printables}
                valueLabel={host.valueLabel!}
                contentRef={contentRef}
                bridge={bridge}
                authorize={authorizeDashboardExport}
              />
            ) : null}
          </header>
        ) : null}
        {isApp ? (
          <AppDashboard config={dashboard.config} title={title} publicId={props.publicId} />
        ) : widgets.length === 0 ? (
          <div className="svc-empty is-large">{t(locale, "dashboard.empty")}</div>
        ) : (
          // The grid mounts its cells a few at a time (dashboard-grid.tsx): no long commit.
          <DashboardGrid widgets={widgets} layout={dashboard.config.layout} />
        )}
      </main>
      {drill ? <DrilldownPanel request={drill} onClose={closeDrill} /> : null}
      {chatOpen ? (
        <Suspense fallback={null}>
          <ChatDrawer
            title={chatText(locale, "askDashboard")}
            onClose={() => setChatOpen(false)}
            deploymentId={dashboard.deploymentId}
            locale={locale}
            scope={() => ({ dashboardPublicId: props.publicId, filterUrlParameters: serializeFilterParameters(store.getState().filters) })}
            starters={[]}
          />
        </Suspense>
      ) : null}
    </WidgetHostContext.Provider>
  );
}
