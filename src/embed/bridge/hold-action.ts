/**
 * An action that arrives before what it acts on exists (`ready` goes out before a dashboard's
 * data): it is held until `until` settles, then handled as usual. Nothing is dropped, and the
 * host's `action-result` tells it what happened once it did.
 */
import type { SvcActionType } from "../../protocol";
import type { EmbedBridge } from "./embed-bridge";
import type { ActionHandler } from "./types";

/** Handles `type` with `handler`, each action waiting until `until` has settled (either way). */
export function holdActionUntil<T extends SvcActionType>(bridge: EmbedBridge, type: T, handler: ActionHandler<T>, until: Promise<unknown>): () => void {
  let open = false;
  const opened = until.then(
    () => void (open = true),
    () => void (open = true),
  );
  return bridge.handle(type, async (payload, action) => {
    if (!open) await opened;
    return handler(payload, action);
  });
}
