/**
 * Entry of the embed app: reads the runtime configuration and the URL parameters once,
 * creates the store, the bridge (allowed host origins only) and the API client, binds the
 * document (scheme, theme, lang) and mounts the router.
 */
// The global base (tokens, resets) before the modules that bring in their features' stylesheets.
import "./theme/base.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { parseEmbedUrlParameters } from "../schema/dashboard-filters";
import { QueryClient } from "@tanstack/react-query";
import { SvcPlatformApiProvider } from "../client/react-query";
import { createEmbedApi } from "./shell/api";
import { EmbedServicesContext, type EmbedServices } from "./shell/embed-context";
import { createEmbedRouter, loadDashboardSurface } from "./shell/router";
import { readEmbedRuntimeConfig } from "./shell/runtime-config";
import { readSessionParameter } from "./shell/session";
import { inEmbedPath, surfaceOfPath } from "./shell/surface-paths";
import { createEmbedBridge } from "./bridge";
import { loadLocaleMatching } from "./i18n";
import { bindEmbedDocument } from "./state/bind-embed-document";
import { createEmbedStore } from "./state/embed-store";
import { EmbedStoreProvider } from "./state/use-embed-store";

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
// Surface data is read once per load; failures are the surface's to show (no silent retries,
// no refetch on focus that would re-run a dashboard under the host's feet).
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false, staleTime: Infinity } },
});
// The matcher loads beside the app (it is not in the start-up bundle); the URL's locale is
// applied as soon as it is there, before any data has arrived.
const urlLocaleRequest = urlParameters.locale;
void loadLocaleMatching().then(({ matchSupportedLocale }) => {
  if (!urlLocaleRequest) return;
  const urlLocale = matchSupportedLocale(urlLocaleRequest);
  if (urlLocale) store.getState().setLocale(urlLocale);
  else bridge.emitError({ name: "ConfigInvalid", message: `Unsupported locale "${urlLocaleRequest.slice(0, 40)}"; using the default`, fatal: false, context: "locale" });
});

const services: EmbedServices = { api, bridge, store, surface, urlParameters, mountedAt };
if (surface === "dashboard") void loadDashboardSurface();
const router = createEmbedRouter();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <SvcPlatformApiProvider client={api.client} queryClient={queryClient}>
      <EmbedServicesContext.Provider value={services}>
        <EmbedStoreProvider store={store}>
          <RouterProvider router={router} />
        </EmbedStoreProvider>
      </EmbedServicesContext.Provider>
    </SvcPlatformApiProvider>
  </StrictMode>,
);
