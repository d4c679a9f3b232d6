/**
 * The embed's React app, loaded by the boot (src/embed/boot.ts) beside the session exchange:
 * the router with the surface the frame opened on already loaded (no loading fallback
 * between the shell and it), the typed client's query cache, and the services of the boot.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { QueryClient } from "@tanstack/react-query";
import { SvcPlatformApiProvider } from "../client/react-query";
import { EmbedServicesContext, type EmbedServices } from "./shell/embed-context";
import { createEmbedRouter, loadSurface } from "./shell/router";
import { EmbedStoreProvider } from "./state/use-embed-store";

export async function mountEmbedApp(services: EmbedServices, container: HTMLElement): Promise<void> {
  // Surface data is read once per load; failures are the surface's to show (no silent retries,
  // no refetch on focus that would re-run a dashboard under the host's feet).
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false, staleTime: Infinity } },
  });
  const router = createEmbedRouter({ [services.surface]: await loadSurface(services.surface) });
  createRoot(container).render(
    <StrictMode>
      <SvcPlatformApiProvider client={services.api.client} queryClient={queryClient}>
        <EmbedServicesContext.Provider value={services}>
          <EmbedStoreProvider store={services.store}>
            <RouterProvider router={router} />
          </EmbedStoreProvider>
        </EmbedServicesContext.Provider>
      </SvcPlatformApiProvider>
    </StrictMode>,
  );
}
