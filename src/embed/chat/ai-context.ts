/**
 * The host page's AI context on the chat surface (`svc:action:set-ai-context`, docs/ai.md "AI
 * context from the host"): the action is checked by the platform (`POST …/chat/context`) for
 * this viewer, answered `applied` with what was applied or `rejected` with the platform's
 * reason, and the applied context goes with every question and shows in the chat header.
 */
import { createStore } from "zustand/vanilla";
import type { SetAiContextPayload } from "../../protocol";
import type { AppliedChatContext, ChatContext } from "../../schema/chat";
import type { ActionOutcome } from "../bridge/types";

/** Checks a context for this viewer: what would be applied, or throws the platform's refusal. */
export type CheckAiContext = (context: ChatContext) => Promise<AppliedChatContext>;

export interface AiContextState {
  /** What the platform accepted, as the host sent it (each question carries it). */
  sent: ChatContext | null;
  /** What the platform said it applies (the header shows it). */
  applied: AppliedChatContext | null;
  /** Set by the chat surface once it knows its deployment. */
  check: CheckAiContext | null;
}

export const aiContextStore = createStore<AiContextState>()(() => ({ sent: null, applied: null, check: null }));

/** "title; filters=sales.customers_country,sales.status; views=sales": what an `applied` result reports. */
export function appliedReason(applied: AppliedChatContext): string {
  return [
    ...(applied.title ? ["title"] : []),
    ...(applied.description ? ["description"] : []),
    `filters=${applied.filters.map((f) => f.member).join(",")}`,
    `views=${applied.views.join(",")}`,
  ].join("; ");
}

function whenCheckable(): Promise<CheckAiContext> {
  const now = aiContextStore.getState().check;
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    const stop = aiContextStore.subscribe((s) => {
      if (!s.check) return;
      stop();
      resolve(s.check);
    });
  });
}

/**
 * The bridge's handler of `set-ai-context`: `{}` clears the context; anything else is checked by
 * the platform first. A chat frame waits for its chat to know its deployment; another frame that
 * can show the chat (a dashboard's, after `navigate` to `/chat`) answers `ignored` /
 * `chat-not-shown` until it has shown it, instead of leaving the host waiting.
 */
export async function applyAiContextAction(payload: SetAiContextPayload, opts: { waitForChat?: boolean } = {}): Promise<ActionOutcome> {
  const context: ChatContext = {
    ...(payload.title !== undefined ? { title: payload.title } : {}),
    ...(payload.description !== undefined ? { description: payload.description } : {}),
    ...(payload.filters !== undefined ? { filters: payload.filters as ChatContext["filters"] } : {}),
    ...(payload.views !== undefined ? { views: payload.views } : {}),
  };
  if (Object.keys(context).length === 0) {
    aiContextStore.setState({ sent: null, applied: null });
    return { status: "applied", reason: "cleared" };
  }
  const check = aiContextStore.getState().check ?? (opts.waitForChat === false ? null : await whenCheckable());
  if (!check) return { status: "ignored", reason: "chat-not-shown" };
  try {
    const applied = await check(context);
    aiContextStore.setState({ sent: context, applied });
    return { status: "applied", reason: appliedReason(applied) };
  } catch (e) {
    // The context in force stays as it was: a refused one changes nothing.
    return { status: "rejected", reason: `invalid-context: ${e instanceof Error ? e.message : String(e)}`.slice(0, 500) };
  }
}
