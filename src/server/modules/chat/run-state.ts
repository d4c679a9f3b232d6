/**
 * Where an answer being written on this node stands (docs/ai.md "How a chat run proceeds").
 * The transitions are one table; anything the table does not name is refused.
 */

/**
 * - `pending`: claimed (a second post of the same messageId joins it); what the answer needs
 *   is being read — a stored answer of that id, the security context, the views, the history.
 * - `streaming`: `__cutoff__` has been said; the turn runs and each part is said as a delta.
 * - `cancelled`: the thread was deleted while the answer was pending or streaming; the turn
 *   runs to its end, but no more parts are said.
 * - `storing`: the last line has been said; the answer is being written. A rejoin gets it as
 *   a stored answer would be, and reads of the thread on this node wait for the write.
 * - `done`: stored (or a stored answer of that id was returned); the run is forgotten.
 * - `failed`: refused before the answer started (an error line, nothing stored); forgotten.
 */
export const RUN_STATES = ["pending", "streaming", "cancelled", "storing", "done", "failed"] as const;
export type RunState = (typeof RUN_STATES)[number];

/**
 * - `prepared`: the question may be answered; `__cutoff__` is said.
 * - `found-stored`: an answer of that messageId is already stored; it is returned as it is.
 * - `refused`: the question may not be answered (policy, no view, no such deployment).
 * - `cancel`: the thread is being deleted.
 * - `answered`: the turn ended (with an answer or an error) and its last line is said.
 * - `stored`: the write of the answer ended (stored, thread gone, or given up and logged).
 */
export const RUN_EVENTS = ["prepared", "found-stored", "refused", "cancel", "answered", "stored"] as const;
export type RunEvent = (typeof RUN_EVENTS)[number];

const TRANSITIONS: Record<RunState, Partial<Record<RunEvent, RunState>>> = {
  pending: { prepared: "streaming", "found-stored": "done", refused: "failed", cancel: "cancelled" },
  streaming: { cancel: "cancelled", answered: "storing" },
  // Cancelled while pending, the preparation still ends one of its three ways.
  cancelled: { prepared: "cancelled", "found-stored": "done", refused: "failed", answered: "storing" },
  storing: { stored: "done" },
  done: {},
  failed: {},
};

/** The state after `event`, or null when `event` cannot happen in `state`. */
export function next(state: RunState, event: RunEvent): RunState | null {
  return TRANSITIONS[state][event] ?? null;
}

/** Whether the answer is still being written: a rejoin follows its lines as they come. */
export function isAnswering(state: RunState): boolean {
  return state === "pending" || state === "streaming" || state === "cancelled";
}

/** Whether the run has ended and is no longer held. */
export function isFinal(state: RunState): boolean {
  return state === "done" || state === "failed";
}
