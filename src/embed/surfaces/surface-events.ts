/**
 * `ready` (private mode; a signed embed's went out from the shell after the token exchange)
 * and `view` for the app and chat surfaces, once their first data is on screen.
 */
import { useEffect } from "react";
import { useLocation } from "react-router";
import { EVENT_TYPES } from "../../protocol";
import { useEmbedServices, useEmbedSession } from "../shell/embed-context";
import { surfaceOfPath } from "../shell/surface-paths";

export function useSurfaceReadyAndView(loaded: boolean, deploymentId: number | null, title?: string) {
  const { bridge } = useEmbedServices();
  const { auth } = useEmbedSession();
  const location = useLocation();
  useEffect(() => {
    if (!loaded || auth.mode !== "private") return;
    bridge.emit(EVENT_TYPES.ready, { embedTenant: null, deploymentId, mode: auth.mode });
  }, [loaded, bridge, auth, deploymentId]);
  useEffect(() => {
    if (!loaded) return;
    // The surface of the route shown, which after a `navigate` is not the one the frame opened on.
    bridge.emit(EVENT_TYPES.view, { surface: surfaceOfPath(location.pathname), path: location.pathname, ...(title ? { title } : {}) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, bridge, location.pathname]);
}
