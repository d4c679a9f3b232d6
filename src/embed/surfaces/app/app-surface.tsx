/**
 * The creator-mode app at /embed/d/:deploymentId/app/*: the workspace (home, folders,
 * workbooks, reports), the workbook with its report builder, and the dashboard editor with its
 * published view. Every rule of who may see or change what is the API's; the app shows what
 * the API answers and reports each write's progress and failure.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useLocation, useNavigate, useParams } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEmbedServices } from "../../shell/embed-context";
import { SurfaceLoadScreen, useSurfaceQuery } from "../../shell/surface-load";
import { useSurfaceReadyAndView } from "../surface-events";
import { loadLocaleMatching } from "../../i18n/locales";
import { useEmbedStore } from "../../state/use-embed-store";
import { appPath, createAppApi, parseAppPath, type AppApi, type AppRoute } from "./app-api";
import { AppContext, type AppContextValue, type AppSwitches } from "./app-context";
import { WorkspaceView } from "./workspace-view";
import { WorkbookView } from "./workbook-view";
import { AppChatSlot } from "./app-chat-slot";
import { useAppText } from "./app-messages";
import { BookIcon } from "../../ui/icons";
import { MenuIcon } from "./app-icons";
import "../../ui/page.css";
import "../../ui/buttons.css";
import "../../ui/empty.css";
import "../../ui/visually-hidden.css";
import "./app-surface.css";
import { appQueries, appKeys } from "./app-queries";

/** URL switches of decisions.md "Creator mode": the literal `false` hides. */
const SWITCHES = [
  "showDashboardHeader",
  "showDashboardBackButton",
  "showDashboardTitle",
  "showDashboardEditButton",
  "showDashboardDuplicateButton",
  "showWorkbookBackButton",
] as const;

// Read once at load, pinned for the life of the embed.
const initialSearch = typeof window === "undefined" ? "" : window.location.search;
function readSwitches(search: string): Record<(typeof SWITCHES)[number], boolean> {
  const params = new URLSearchParams(search);
  return Object.fromEntries(SWITCHES.map((k) => [k, params.get(k) !== "false"])) as Record<(typeof SWITCHES)[number], boolean>;
}

export function AppSurface() {
  const params = useParams();
  const { api, store, urlParameters } = useEmbedServices();
  const localeAtStart = useRef(store.getState().locale);
  const deploymentId = Number(params.deploymentId);
  const valid = Number.isInteger(deploymentId) && deploymentId > 0;
  const appApi = useMemo(() => createAppApi(api, valid ? deploymentId : 0), [api, deploymentId, valid]);
  const home = useQuery({ ...appQueries.home(appApi), enabled: valid });
  const config = useQuery({ ...appQueries.config(appApi), enabled: valid });
  const [load, reload] = useSurfaceQuery(home, valid ? null : { message: "Unknown deployment" });
  const location = useLocation();
  const inEmbed = location.pathname;
  const route = valid ? parseAppPath(inEmbed, deploymentId) : null;

  // `svc:action:navigate` accepts the app's own paths only: the boot (src/embed/boot.ts) holds that handler.

  // The session's locale, unless the URL named one or the host sent `set-locale` first.
  const sessionLocale = load.status === "ready" ? load.data.me.settings.locale : undefined;
  useEffect(() => {
    if (urlParameters.locale || typeof sessionLocale !== "string" || store.getState().locale !== localeAtStart.current) return;
    const before = store.getState().locale;
    void loadLocaleMatching().then(({ matchSupportedLocale }) => {
      const locale = matchSupportedLocale(sessionLocale);
      if (locale && store.getState().locale === before) store.getState().setLocale(locale);
    });
  }, [sessionLocale, store, urlParameters.locale]);

  const switches = useMemo<AppSwitches>(() => {
    const url = readSwitches(initialSearch);
    const settings = load.status === "ready" ? load.data.me.settings : {};
    const setting = (k: string, dflt: boolean) => (typeof settings[k] === "boolean" ? (settings[k] as boolean) : dflt);
    return {
      ...url,
      showWorkbookShare: setting("showWorkbookShare", true),
      showDashboardSettings: setting("showDashboardSettings", true),
      showMemberNames: setting("showMemberNames", false),
      showWorkbookChat: setting("showWorkbookChat", false),
      showGeneratedSql: config.data?.creatorMode.showGeneratedSql ?? false,
      showSemanticSql: config.data?.creatorMode.showSemanticSql ?? true,
    };
  }, [load, config.data]);

  useSurfaceReadyAndView(load.status === "ready", valid ? deploymentId : null, route ? titleOf(route) : undefined);

  if (load.status !== "ready") return <SurfaceLoadScreen state={load} onReload={reload} />;
  return <AppFrame api={appApi} route={route} switches={switches} me={load.data.me} localizedTitles={config.data?.creatorMode.localizedTitles ?? []} />;
}

function titleOf(route: AppRoute): string {
  switch (route.kind) {
    case "home":
      return "Home";
    case "folder":
      return "Folder";
    case "workbook":
    case "report":
      return "Workbook";
    case "dashboard":
      return "Dashboard editor";
    case "published":
      return "Dashboard";
    case "chat":
      return "Chat";
  }
}

function AppFrame(props: {
  api: AppApi;
  route: AppRoute | null;
  switches: AppSwitches;
  me: AppContextValue["me"];
  localizedTitles: { locale: string; value: string }[];
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [toast, setToast] = useState<{ kind: "ok" | "error"; text: string; undo?: () => void } | null>(null);
  const toastTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const { api } = props;
  const go = useCallback((route: AppRoute) => navigate(appPath(api.deploymentId, route)), [navigate, api.deploymentId]);
  const notify = useCallback((kind: "ok" | "error", text: string, undo?: () => void) => {
    if (toastTimer.current) clearTimeout(toastTimer.current);
    setToast({ kind, text, ...(undo ? { undo } : {}) });
    toastTimer.current = setTimeout(() => setToast(null), kind === "error" ? 8000 : 5000);
  }, []);
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: appKeys.all(api.deploymentId) }), [queryClient, api.deploymentId]);
  const locale = useEmbedStore((s) => s.locale);
  const tx = useAppText();
  const appTitle =
    props.localizedTitles.find((l) => l.locale === locale)?.value ??
    props.localizedTitles.find((l) => l.locale.split("-")[0] === locale.split("-")[0])?.value ??
    tx("brand");

  const ctx = useMemo<AppContextValue>(
    () => ({ api, go, notify, refresh, switches: props.switches, me: props.me }),
    [api, go, notify, refresh, props.switches, props.me],
  );
  const route = props.route;
  const [navOpen, setNavOpen] = useState(false);
  const section = route?.kind === "folder" ? `folder:${route.folderId}` : (route?.kind ?? "");

  return (
    <AppContext.Provider value={ctx}>
      <div className="svc-app" data-testid="app-surface" data-deployment-id={api.deploymentId} data-mode={props.me.mode}>
        <aside className={navOpen ? "svc-app-nav is-open" : "svc-app-nav"} aria-label={tx("workspace")}>
          <div className="svc-app-brand">
            <span className="svc-app-brand-mark" aria-hidden="true">
              <BookIcon size={16} />
            </span>
            <span className="svc-app-brand-name">{appTitle}</span>
          </div>
          <nav className="svc-app-nav-list">
            <button
              type="button"
              className={section === "home" ? "svc-app-nav-item is-active" : "svc-app-nav-item"}
              onClick={() => go({ kind: "home" })}
              data-testid="nav-home"
            >
              {tx("home")}
            </button>
            {props.me.sharedFolderId !== null ? (
              <button
                type="button"
                className={section === `folder:${props.me.sharedFolderId}` ? "svc-app-nav-item is-active" : "svc-app-nav-item"}
                onClick={() => go({ kind: "folder", folderId: props.me.sharedFolderId! })}
                data-testid="nav-shared"
              >
                {tx("sharedWith", { name: props.me.embedTenant ?? tx("team") })}
              </button>
            ) : null}
          </nav>
          <div className="svc-app-me">
            <span className="svc-app-avatar" aria-hidden="true">
              {(props.me.displayName ?? "?").slice(0, 1).toUpperCase()}
            </span>
            <span className="svc-app-me-text">
              <span className="svc-app-me-name">{props.me.displayName ?? tx("you")}</span>
              <span className="svc-app-me-role">{props.me.embedTenant ? tx("creatorRole", { tenant: props.me.embedTenant }) : props.me.role}</span>
            </span>
          </div>
        </aside>
        <div className="svc-app-main">
          <button
            type="button"
            className="svc-app-nav-toggle svc-icon-button"
            aria-label={tx("menu")}
            aria-expanded={navOpen}
            onClick={() => setNavOpen((o) => !o)}
          >
            <MenuIcon />
          </button>
          {route === null ? (
            <div className="svc-empty is-large" data-testid="app-not-found">
              {tx("notFound")}{" "}
              <button type="button" className="svc-button is-small" onClick={() => go({ kind: "home" })}>
                {tx("goHome")}
              </button>
            </div>
          ) : route.kind === "home" || route.kind === "folder" ? (
            <WorkspaceView key={section} folderId={route.kind === "folder" ? route.folderId : null} />
          ) : route.kind === "chat" ? (
            <AppChatSlot threadId={route.threadId} />
          ) : (
            <WorkbookView key={route.workbookId} route={route} />
          )}
        </div>
        {toast ? (
          <div
            className={toast.kind === "error" ? "svc-app-toast is-error" : "svc-app-toast"}
            role={toast.kind === "error" ? "alert" : "status"}
            data-testid="app-toast"
          >
            <span>{toast.text}</span>
            {toast.undo ? (
              <button
                type="button"
                className="svc-button is-small"
                onClick={() => {
                  toast.undo?.();
                  setToast(null);
                }}
              >
                {tx("undo")}
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
    </AppContext.Provider>
  );
}
