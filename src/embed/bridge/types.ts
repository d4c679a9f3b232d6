/**
 * Types the bridge and its action handlers share. The bridge installs the default handlers and
 * the handlers answer in the bridge's terms; both import these from here, never each other.
 */
import type { ActionResultStatus, SvcActionOf, SvcActionPayloads, SvcActionType } from "../../protocol";

/** What a handler answers; `reason` is a short machine-readable code. */
export interface ActionOutcome {
  status: ActionResultStatus;
  reason?: string;
}

export type ActionHandler<T extends SvcActionType> = (payload: SvcActionPayloads[T], action: SvcActionOf<T>) => ActionOutcome | Promise<ActionOutcome>;
