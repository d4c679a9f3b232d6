/**
 * Entry of the embed app: what `ready` needs and nothing more. It reads the runtime
 * configuration and the URL parameters once, creates the store, the bridge (allowed host
 * origins only), the API client and the authentication (which sends a signed embed's
 * `ready` the moment the token is exchanged), binds the document (scheme, theme, lang) and
 * starts, beside each other, the dashboard's data and the React app (src/embed/app.tsx).
 * index.html shows the loading screen until the app mounts.
 */
// The global base (tokens, resets) and the loading screen before anything else.
import "./theme/base.css";
import "./ui/screens.css";
import { ACTION_TYPES } from "../protocol";
import { parseEmbedUrlParameters } from "../schema/dashboard-filters";
import { createEmbedApi } from "./shell/api";
import { parseAppPath } from "./shell/app-routes";
import { startAuthController } from "./shell/auth-controller";
import type { EmbedServices } from "./shell/embed-context";
import { readEmbedRuntimeConfig } from "./shell/runtime-config";
import { readSessionParameter } from "./shell/session";
import { inEmbedPath, surfaceOfPath } from "./shell/surface-paths";
import { createDefaultActionHandlers, createEmbedBridge, holdActionUntil } from "./bridge";
import { applyAiContextAction } from "./chat/ai-context";
import { loadLocaleMatching } from "./i18n/locales";
import { warmIntl } from "./i18n/intl-warmup";
import { loadSurface } from "./shell/surface-modules";
import { loadDashboardData } from "./surfaces/dashboard/dashboard-data";
import { loadReportData } from "./surfaces/report/report-data";
import { bindEmbedDocument } from "./state/bind-embed-document";
import { createEmbedStore } from "./state/embed-store";

const mountedAt = performance.now();
const config = readEmbedRuntimeConfig(document);
const surface = surfaceOfPath(window.location.pathname);
const urlParameters = parseEmbedUrlParameters(new URLSearchParams(window.location.search));

const store = createEmbedStore({
  timezone: urlParameters.timezone,
  filters: urlParameters.filters,
  timeGrains: urlParameters.timeGrains,
  memberSwitches: urlParameters.memberSwitches,
  path: inEmbedPath(window.location.pathname),
});
bindEmbedDocument(store, window);
const bridge = createEmbedBridge({ window, surface, allowedOrigins: config.allowedOrigins, store });
// A session parameter means signed mode: token only, the platform cookie is never sent.
const api = createEmbedApi({ baseUrl: window.location.origin, mode: readSessionParameter(window.location.search) ? "signed" : "private" });

// Every action handler is in place before `ready` lists them. On the app surface `navigate`
// accepts this deployment's app paths only.
const appDeployment = surface === "app" ? Number(/^\/embed\/d\/([^/]+)\/app/.exec(window.location.pathname)?.[1]) : NaN;
if (surface === "app" && Number.isInteger(appDeployment) && appDeployment > 0) {
  bridge.handle(ACTION_TYPES.navigate, ({ path }) => {
    if (!parseAppPath(path, appDeployment)) return { status: "rejected", reason: "invalid-path" };
    store.getState().navigate(path);
    return { status: "applied" };
  });
}
// The chat's `set-ai-context` waits until the chat knows its deployment, then the platform checks
// it; a dashboard's frame takes it once it has shown the chat (`navigate` to `/chat`).
if (surface === "chat") bridge.handle(ACTION_TYPES.setAiContext, (payload) => applyAiContextAction(payload));
if (surface === "dashboard") bridge.handle(ACTION_TYPES.setAiContext, (payload) => applyAiContextAction(payload, { waitForChat: false }));
// A dashboard's (or a report's) `set-filter` waits until its filter controls are known (its data).
let dashboardSettled: () => void = () => undefined;
if (surface === "dashboard" || surface === "report") {
  const settled = new Promise<void>((resolve) => (dashboardSettled = resolve));
  holdActionUntil(bridge, ACTION_TYPES.setFilter, createDefaultActionHandlers(store)[ACTION_TYPES.setFilter]!, settled);
}

// The engine's Intl data (time zones, this locale's formats) loads off the main thread, from
// now and for each later locale, so no widget's first formatter is a long task.
warmIntl(store.getState().locale);
store.subscribe((state, previous) => {
  if (state.locale !== previous.locale) warmIntl(state.locale);
});

const auth = startAuthController({ api, bridge, surface, location: window.location, history: window.history, win: window });

// The matcher loads beside the app (it is not in the start-up bundle); the URL's locale is
// applied as soon as it is there, before any data has arrived.
const urlLocaleRequest = urlParameters.locale;
if (urlLocaleRequest)
  void loadLocaleMatching().then(({ matchSupportedLocale }) => {
    const urlLocale = matchSupportedLocale(urlLocaleRequest);
    if (urlLocale) store.getState().setLocale(urlLocale);
    else
      bridge.emitError({
        name: "ConfigInvalid",
        message: `Unsupported locale "${urlLocaleRequest.slice(0, 40)}"; using the default`,
        fatal: false,
        context: "locale",
      });
  });

const services: EmbedServices = {
  api,
  bridge,
  store,
  surface,
  urlParameters,
  mountedAt,
  auth,
  dashboardData: null,
  ...(surface === "report" ? { widgetsSetUp: dashboardSettled } : {}),
};
let loadDashboard: () => void = () => undefined;
if (surface === "report") loadDashboard = () => (services.reportData = loadReportData(services));
if (surface === "dashboard")
  services.dashboardData = new Promise((resolve) => {
    loadDashboard = () => resolve(loadDashboardData(services, dashboardSettled));
  });

// Everything else starts after this task, each step in a task of its own: `ready` needs none of
// it, a session exchange that has already answered is handled first, and no step is long.
const steps: (() => void)[] = [
  // The dashboard's definition and its widgets' first queries (or the report's definition) go
  // out as soon as the session allows, without waiting for the app's code.
  loadDashboard,
  // The app's code in parts (vite.config.ts), each imported on its own so that each evaluates
  // in a task of its own rather than all in one long task: React, the surface the frame opened
  // on, the app itself.
  () => void import("react-dom/client"),
  () => void loadSurface(surface),
  () => void import("./app").then((m) => m.mountEmbedApp(services, document.getElementById("root")!)),
];
const nextStep = () => {
  steps.shift()?.();
  if (steps.length > 0) setTimeout(nextStep, 0);
};
setTimeout(nextStep, 0);
