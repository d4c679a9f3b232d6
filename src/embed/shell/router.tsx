/** Routes of the embed app below the /embed basename (react-router library mode). */
import { lazy, Suspense, useEffect, type ComponentType } from "react";
import { createBrowserRouter, useLocation } from "react-router";
import { useEmbedServices } from "./embed-context";
import type { Surface } from "../../protocol";
import { EmbedShell } from "./embed-shell";
import { LoadingScreen, ErrorScreen } from "../ui/screens";
import { EMBED_BASENAME, SURFACE_ROUTES } from "./surface-paths";
import { t } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";

import { loadSurface } from "./surface-modules";

export { loadSurface };

/** A path no surface serves (`/embed/nothing/…`): the frame says so, and so does the host's error event (fatal: nothing else will show). */
function UnknownRoute() {
  const locale = useEmbedStore((s) => s.locale);
  const { bridge } = useEmbedServices();
  const { pathname } = useLocation();
  useEffect(() => {
    bridge.emitError({ name: "NotFound", message: `No embed surface at ${pathname.slice(0, 120)}`, fatal: true, context: "path" });
  }, [bridge, pathname]);
  return <ErrorScreen name="NotFound" message={t(locale, "notFound")} />;
}

/**
 * The router. `loaded` holds the surfaces whose code is already here (the one the frame opened
 * on): they render at once, without a loading fallback; the others load when navigated to.
 */
export function createEmbedRouter(loaded: Partial<Record<Surface, ComponentType>> = {}) {
  const element = (surface: Surface) => {
    const Loaded = loaded[surface];
    if (Loaded) return <Loaded />;
    const Lazy = lazy(() => loadSurface(surface).then((component) => ({ default: component })));
    return (
      <Suspense fallback={<LoadingScreen />}>
        <Lazy />
      </Suspense>
    );
  };
  return createBrowserRouter(
    [
      {
        path: "/",
        element: <EmbedShell />,
        children: [
          { path: SURFACE_ROUTES.dashboard, element: element("dashboard") },
          { path: SURFACE_ROUTES.app, element: element("app") },
          { path: SURFACE_ROUTES.chat, element: element("chat") },
          { path: SURFACE_ROUTES.report, element: element("report") },
          { path: SURFACE_ROUTES.deploymentReport, element: element("report") },
          { path: "*", element: <UnknownRoute /> },
        ],
      },
    ],
    { basename: EMBED_BASENAME },
  );
}
