/**
 * The conversation of one thread: its messages, the answer streaming in, and the question
 * box. Used by the chat surface, dashboard chat and the app's chat panel. Every question
 * sends `svc:event:ai-query` `submitted`, then `completed` or `error`.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { EVENT_TYPES } from "../../protocol";
import type { ChatContext } from "../../schema/chat";
import { useEmbedServices } from "../shell/embed-context";
import { ArrowUpIcon } from "../ui/icons";
import { ChatAnswer } from "./chat-answer";
import { chatApi, newMessageId, type ChatLine, type ChatMessageView, type ChatPart } from "./chat-api";
import { chatText } from "./chat-messages";
import { SaveAnswerAsReport, canSaveAnswer, useReportDestinations } from "./save-report";
import "./chat-panel.css";

export interface ChatPanelProps {
  deploymentId: number;
  /** The open thread; null starts one on the first question. */
  threadId: string | null;
  onThreadId: (id: string) => void;
  locale: string;
  showInput: boolean;
  /** Show each answer's query (and SQL when the platform sends it). */
  showQuery?: boolean;
  /** Dashboard chat: the dashboard and its filters scope every query. */
  scope?: () => { dashboardPublicId: string; filterUrlParameters?: string[] };
  /** The host page's AI context (set-ai-context) each question carries, when there is one. */
  context?: () => ChatContext | null;
  /** Questions offered before the first one. */
  starters?: string[];
  /** Shown above the starters when the thread is empty. */
  intro?: string;
  /** Called when an answer finishes (the thread list refreshes). */
  onAnswered?: () => void;
  /** Actions under a finished answer (the app's "Add to workbook"), given the answer and the question it answers. */
  answerActions?: (answer: ChatMessageView, question: string) => ReactNode;
  /** Offer "Save as report" under answers with a query where the platform allows it (default true). */
  saveReports?: boolean;
}

function merge(parts: ChatPart[], line: ChatPart): ChatPart[] {
  const last = parts[parts.length - 1];
  if (line.type === "text" && last && last.type === "text" && last.id === line.id) {
    return [...parts.slice(0, -1), { ...last, text: String(last.text ?? "") + String(line.text ?? "") }];
  }
  return [...parts, line];
}

/** The question an answer answers: the user message before it. */
function questionBefore(messages: ChatMessageView[], index: number): string {
  for (let i = index - 1; i >= 0; i--) if (messages[i]!.role === "user") return messages[i]!.content;
  return "";
}

export function ChatPanel(props: ChatPanelProps) {
  const { api, bridge } = useEmbedServices();
  const [messages, setMessages] = useState<ChatMessageView[]>([]);
  const [draft, setDraft] = useState("");
  const [busy, setBusy] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const threadRef = useRef(props.threadId);
  const loadedThread = useRef<string | null>(null);
  const saving = useReportDestinations(api, props.deploymentId, props.saveReports !== false);

  // Load the thread's history when another thread is opened.
  useEffect(() => {
    threadRef.current = props.threadId;
    if (props.threadId === loadedThread.current) return;
    loadedThread.current = props.threadId;
    abortRef.current?.abort();
    if (!props.threadId) {
      setMessages([]);
      return;
    }
    let live = true;
    chatApi
      .get(api, props.deploymentId, props.threadId)
      .then((t) => live && setMessages(t.messages))
      .catch(() => live && setMessages([]));
    return () => {
      live = false;
    };
  }, [api, props.deploymentId, props.threadId]);

  // While an answer streams the view follows it; once it is done, the question it answers is
  // brought to the top so the answer reads from its beginning.
  const lastStatus = messages[messages.length - 1]?.status;
  useEffect(() => {
    const el = listRef.current;
    if (!el) return;
    if (lastStatus === "running") el.scrollTop = el.scrollHeight;
    else {
      const questions = el.querySelectorAll<HTMLElement>(".svc-chat-question");
      const last = questions[questions.length - 1];
      if (last) el.scrollTop = last.offsetTop - el.offsetTop - 12;
    }
  }, [messages, lastStatus]);

  const ask = useCallback(
    async (question: string) => {
      const content = question.trim();
      if (!content || busy) return;
      setBusy(true);
      setDraft("");
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
          const thread = await chatApi.create(api, props.deploymentId);
          threadId = thread.id;
          threadRef.current = thread.id;
          loadedThread.current = thread.id;
          props.onThreadId(thread.id);
        }
        bridge.emit(EVENT_TYPES.aiQuery, { query: content, status: "submitted", chatId: threadId });
        const controller = new AbortController();
        abortRef.current = controller;
        await chatApi.ask(
          api,
          props.deploymentId,
          threadId,
          { content, messageId, ...(props.scope ? { scope: props.scope() } : {}), ...(props.context?.() ? { context: props.context()! } : {}) },
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
              update((m) => ({ ...m, parts: merge(m.parts, part as ChatPart) }));
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
        props.onAnswered?.();
      }
    },
    [api, bridge, busy, props],
  );

  const answerActions = (m: ChatMessageView, question: string): ReactNode => {
    const own = props.answerActions?.(m, question) ?? null;
    const threadId = threadRef.current;
    const save =
      saving.destinations && threadId && canSaveAnswer(m) ? (
        <SaveAnswerAsReport
          api={api}
          deploymentId={props.deploymentId}
          threadId={threadId}
          answer={m}
          question={question}
          destinations={saving.destinations}
          locale={props.locale}
          onSaved={saving.reload}
        />
      ) : null;
    return own || save ? (
      <>
        {own}
        {save}
      </>
    ) : null;
  };

  const empty = messages.length === 0;
  return (
    <div className="svc-chat-panel" data-testid="chat-panel">
      <div className="svc-chat-messages" ref={listRef} aria-live="polite">
        {empty ? (
          <div className="svc-chat-empty">
            {props.intro ? <p className="svc-chat-intro">{props.intro}</p> : null}
            {props.starters?.length ? (
              <>
                <p className="svc-chat-starters-title">{chatText(props.locale, "tryAsking")}</p>
                <div className="svc-chat-suggestions" data-testid="chat-starters">
                  {props.starters.map((s) => (
                    <button key={s} type="button" className="svc-chat-suggestion" onClick={() => void ask(s)}>
                      {s}
                    </button>
                  ))}
                </div>
              </>
            ) : null}
          </div>
        ) : (
          messages.map((m, i) =>
            m.role === "user" ? (
              <div key={m.id} className="svc-chat-question" data-testid="chat-question">
                <p>{m.content}</p>
              </div>
            ) : (
              <ChatAnswer
                key={m.id}
                message={m}
                locale={props.locale}
                onAsk={(q) => void ask(q)}
                showQuery={props.showQuery ?? true}
                actions={m.status === "completed" ? answerActions(m, questionBefore(messages, i)) : null}
              />
            ),
          )
        )}
      </div>
      {props.showInput ? (
        <form
          className="svc-chat-composer"
          onSubmit={(e) => {
            e.preventDefault();
            void ask(draft);
          }}
        >
          <textarea
            rows={1}
            value={draft}
            maxLength={4000}
            placeholder={chatText(props.locale, "placeholder")}
            aria-label={chatText(props.locale, "placeholder")}
            data-testid="chat-input"
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey) {
                e.preventDefault();
                void ask(draft);
              }
            }}
          />
          <button
            type="submit"
            className="svc-chat-send"
            disabled={busy || draft.trim() === ""}
            aria-label={chatText(props.locale, "send")}
            data-testid="chat-send"
          >
            <ArrowUpIcon size={16} />
          </button>
        </form>
      ) : null}
    </div>
  );
}
