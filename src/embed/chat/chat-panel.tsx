/**
 * The conversation of one thread: its messages, the answer streaming in, and the question
 * box. Used by the chat surface, dashboard chat and the app's chat panel. Every question
 * sends `svc:event:ai-query` `submitted`, then `completed` or `error` (use-chat-conversation.ts).
 */
import { useEffect, useRef, type ReactNode } from "react";
import { useEmbedServices } from "../shell/embed-context";
import { ChatAnswer } from "./chat-answer";
import type { ChatMessageView } from "./chat-api";
import { ChatComposer, ChatStarters } from "./chat-composer";
import { SaveAnswerAsReport, canSaveAnswer, useReportDestinations } from "./save-report";
import { useChatConversation, type ChatConversationOptions } from "./use-chat-conversation";
import "./chat-panel.css";

export interface ChatPanelProps extends ChatConversationOptions {
  locale: string;
  showInput: boolean;
  /** Show each answer's query (and SQL when the platform sends it). */
  showQuery?: boolean;
  /** Questions offered before the first one. */
  starters?: string[];
  /** Shown above the starters when the thread is empty. */
  intro?: string;
  /** Actions under a finished answer (the app's "Add to workbook"), given the answer and the question it answers. */
  answerActions?: (answer: ChatMessageView, question: string) => ReactNode;
  /** Offer "Save as report" under answers with a query where the platform allows it (default true). */
  saveReports?: boolean;
}

/** The question an answer answers: the user message before it. */
function questionBefore(messages: ChatMessageView[], index: number): string {
  for (let i = index - 1; i >= 0; i--) if (messages[i]!.role === "user") return messages[i]!.content;
  return "";
}

export function ChatPanel(props: ChatPanelProps) {
  const { api } = useEmbedServices();
  const { messages, busy, ask, currentThread } = useChatConversation(props);
  const listRef = useRef<HTMLDivElement>(null);
  const saving = useReportDestinations(api, props.deploymentId, props.saveReports !== false);

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

  const answerActions = (m: ChatMessageView, question: string): ReactNode => {
    const own = props.answerActions?.(m, question) ?? null;
    const threadId = currentThread();
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

  return (
    <div className="svc-chat-panel" data-testid="chat-panel">
      <div className="svc-chat-messages" ref={listRef} aria-live="polite">
        {messages.length === 0 ? (
          <ChatStarters locale={props.locale} intro={props.intro} starters={props.starters} onAsk={(q) => void ask(q)} />
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
      {props.showInput ? <ChatComposer locale={props.locale} busy={busy} onAsk={(q) => void ask(q)} /> : null}
    </div>
  );
}
