/** Routes of the embed app below the /embed basename (react-router library mode). */
import { lazy, Suspense } from "react";
import { createBrowserRouter } from "react-router";
import { EmbedShell } from "./embed-shell";
import { LoadingScreen, ErrorScreen } from "../ui/screens";
import { EMBED_BASENAME, SURFACE_ROUTES } from "./surface-paths";
import { t } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";

/**
 * The dashboard surface is its own chunk: main.tsx starts loading it at boot, beside the
 * session exchange, so `ready` (sent by the shell once authenticated) never waits for it.
 */
export const loadDashboardSurface = () => import("../surfaces/dashboard/dashboard-surface");
const DashboardSurface = lazy(() => loadDashboardSurface().then((m) => ({ default: m.DashboardSurface })));
// The app and chat surfaces load on use.
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
          {
            path: SURFACE_ROUTES.dashboard,
            element: (
              <Suspense fallback={<LoadingScreen />}>
                <DashboardSurface />
              </Suspense>
            ),
          },
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
