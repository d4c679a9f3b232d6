/**
 * One thread's conversation for the chat panel: its messages (loaded when another thread is
 * opened), and `ask`, which posts a question, streams its answer into the list and reports it to
 * the host page — `svc:event:ai-query` `submitted`, then `completed` or `error`. The first
 * question of a new conversation starts its thread.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { EVENT_TYPES } from "../../protocol";
import type { ChatContext } from "../../schema/chat";
import { useEmbedServices } from "../shell/embed-context";
import { chatApi, newMessageId, type ChatLine, type ChatMessageView, type ChatPart } from "./chat-api";

export interface ChatConversationOptions {
  deploymentId: number;
  /** The open thread; null starts one on the first question. */
  threadId: string | null;
  onThreadId: (id: string) => void;
  /** Dashboard chat: the dashboard and its filters scope every query. */
  scope?: () => { dashboardPublicId: string; filterUrlParameters?: string[] };
  /** The host page's AI context (set-ai-context) each question carries, when there is one. */
  context?: () => ChatContext | null;
  /** Called when an answer finishes (the thread list refreshes). */
  onAnswered?: () => void;
}

export interface ChatConversation {
  messages: ChatMessageView[];
  /** An answer is streaming: no other question until it ends. */
  busy: boolean;
  /** Asks `question` (ignored while busy or when blank). */
  ask: (question: string) => Promise<void>;
  /** The thread the conversation is in now (a new one once the first question has made it). */
  currentThread: () => string | null;
}

/** `parts` with a streamed part added: a text delta continues the text part of the same id. */
export function mergePart(parts: ChatPart[], line: ChatPart): ChatPart[] {
  const last = parts[parts.length - 1];
  if (line.type === "text" && last && last.type === "text" && last.id === line.id) {
    return [...parts.slice(0, -1), { ...last, text: String(last.text ?? "") + String(line.text ?? "") }];
  }
  return [...parts, line];
}

export function useChatConversation(options: ChatConversationOptions): ChatConversation {
  const { api, bridge } = useEmbedServices();
  const [messages, setMessages] = useState<ChatMessageView[]>([]);
  const [busy, setBusy] = useState(false);
  const abortRef = useRef<AbortController | null>(null);
  const threadRef = useRef(options.threadId);
  const loadedThread = useRef<string | null>(null);

  // Load the thread's history when another thread is opened.
  useEffect(() => {
    threadRef.current = options.threadId;
    if (options.threadId === loadedThread.current) return;
    loadedThread.current = options.threadId;
    abortRef.current?.abort();
    if (!options.threadId) {
      setMessages([]);
      return;
    }
    let live = true;
    chatApi
      .get(api, options.deploymentId, options.threadId)
      .then((t) => live && setMessages(t.messages))
      .catch(() => live && setMessages([]));
    return () => {
      live = false;
    };
  }, [api, options.deploymentId, options.threadId]);

  const ask = useCallback(
    async (question: string) => {
      const content = question.trim();
      if (!content || busy) return;
      setBusy(true);
      const messageId = newMessageId();
      let threadId = threadRef.current;
      const update = (fn: (m: ChatMessageView) => ChatMessageView) => setMessages((all) => all.map((m) => (m.id === messageId ? fn(m) : m)));
      setMessages((all) => [
        ...all,
        { id: `${messageId}-q`, role: "user", status: "completed", content, parts: [] },
        { id: messageId, role: "assistant", status: "running", content: "", parts: [] },
      ]);
      let status: "completed" | "error" = "error";
      try {
        if (!threadId) {
          const thread = await chatApi.create(api, options.deploymentId);
          threadId = thread.id;
          threadRef.current = thread.id;
          loadedThread.current = thread.id;
          options.onThreadId(thread.id);
        }
        bridge.emit(EVENT_TYPES.aiQuery, { query: content, status: "submitted", chatId: threadId });
        const controller = new AbortController();
        abortRef.current = controller;
        const context = options.context?.();
        await chatApi.ask(
          api,
          options.deploymentId,
          threadId,
          { content, messageId, ...(options.scope ? { scope: options.scope() } : {}), ...(context ? { context } : {}) },
          (line: ChatLine) => {
            if ("__state__" in line) {
              status = "completed";
              const state = line.__state__ as ChatMessageView;
              update(() => state);
            } else if ("error" in line) {
              const error = line.error as { code: string; message: string };
              update((m) => ({ ...m, status: "error", error }));
            } else if ("isDelta" in line) {
              const { isDelta: _d, ...part } = line;
              update((m) => ({ ...m, parts: mergePart(m.parts, part as ChatPart) }));
            }
          },
          controller.signal,
        );
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        update((m) => ({ ...m, status: "error", error: { code: "failed", message } }));
      } finally {
        update((m) => (m.status === "running" ? { ...m, status: "error" } : m));
        bridge.emit(EVENT_TYPES.aiQuery, { query: content, status, ...(threadId ? { chatId: threadId } : {}) });
        setBusy(false);
        options.onAnswered?.();
      }
    },
    [api, bridge, busy, options],
  );

  return { messages, busy, ask, currentThread: useCallback(() => threadRef.current, []) };
}
