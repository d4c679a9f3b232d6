/** Routes of the embed app below the /embed basename (react-router library mode). */
import { lazy, Suspense } from "react";
import { createBrowserRouter } from "react-router";
import { DashboardSurface } from "../surfaces/dashboard/dashboard-surface";
import { EmbedShell } from "./embed-shell";
import { LoadingScreen, ErrorScreen } from "./screens";
import { EMBED_BASENAME, SURFACE_ROUTES } from "./surface-paths";
import { t } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";

// The dashboard is what most embeds ship, so it is in the start-up bundle; the others load on use.
const AppSurface = lazy(() => import("../surfaces/app/app-surface").then((m) => ({ default: m.AppSurface })));
const ChatSurface = lazy(() => import("../surfaces/chat/chat-surface").then((m) => ({ default: m.ChatSurface })));

function UnknownRoute() {
  const locale = useEmbedStore((s) => s.locale);
  return <ErrorScreen name="NotFound" message={t(locale, "notFound")} />;
}

export function createEmbedRouter() {
  return createBrowserRouter(
    [
      {
        path: "/",
        element: <EmbedShell />,
        children: [
          { path: SURFACE_ROUTES.dashboard, element: <DashboardSurface /> },
          {
            path: SURFACE_ROUTES.app,
            element: (
              <Suspense fallback={<LoadingScreen />}>
                <AppSurface />
              </Suspense>
            ),
          },
          {
            path: SURFACE_ROUTES.chat,
            element: (
              <Suspense fallback={<LoadingScreen />}>
                <ChatSurface />
              </Suspense>
            ),
          },
          { path: "*", element: <UnknownRoute /> },
        ],
      },
    ],
    { basename: EMBED_BASENAME },
  );
}
