import { useEffect, useRef } from "react";
import { EVENT_TYPES, type ReadyPayload } from "../../protocol";
import { useEmbedServices, useEmbedSession } from "./embed-context";

/**
 * A signed embed's `ready` goes out from the shell once the session is exchanged. Private mode
 * has no exchange: the surface's definition arriving is what confirms the viewer's login, so the
 * surface sends `ready` then, once (the bridge never sends a second one).
 */
export function usePrivateModeReady(payload: Pick<ReadyPayload, "embedTenant" | "deploymentId" | "publicId" | "exportFormats">): void {
  const { bridge } = useEmbedServices();
  const { auth } = useEmbedSession();
  const sent = useRef(false);
  const { embedTenant, deploymentId, publicId, exportFormats } = payload;
  useEffect(() => {
    if (sent.current || auth.mode !== "private") return;
    sent.current = true;
    bridge.emit(EVENT_TYPES.ready, { embedTenant, deploymentId, mode: auth.mode, publicId, exportFormats });
  }, [bridge, auth, embedTenant, deploymentId, publicId, exportFormats]);
}
