/**
 * `ready` (private mode; a signed embed's went out from the shell after the token exchange)
 * and `view` for the app and chat surfaces, once their first data is on screen.
 */
import { useEffect } from "react";
import { useLocation } from "react-router";
import { EVENT_TYPES } from "../../protocol";
import { useEmbedServices, useEmbedSession } from "../shell/embed-context";

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
    bridge.emit(EVENT_TYPES.view, { path: location.pathname, ...(title ? { title } : {}) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, bridge, location.pathname]);
}
