/** Routes of the embed app below the /embed basename (react-router library mode). */
import { lazy, Suspense, type ComponentType } from "react";
import { createBrowserRouter } from "react-router";
import type { Surface } from "../../protocol";
import { EmbedShell } from "./embed-shell";
import { LoadingScreen, ErrorScreen } from "../ui/screens";
import { EMBED_BASENAME, SURFACE_ROUTES } from "./surface-paths";
import { t } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";

import { loadSurface } from "./surface-modules";

export { loadSurface };

function UnknownRoute() {
  const locale = useEmbedStore((s) => s.locale);
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
          { path: "*", element: <UnknownRoute /> },
        ],
      },
    ],
    { basename: EMBED_BASENAME },
  );
}
