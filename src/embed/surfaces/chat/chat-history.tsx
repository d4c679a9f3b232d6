/**
 * The chat surface's conversations: the viewer's own (open, delete, shared mark) and those shared
 * with them (read-only), in a side column — a drawer on phones (chat-surface.css) — and the list's
 * state, kept fresh after each answer.
 */
import { useCallback, useEffect, useState } from "react";
import { chatApi, type ChatThreadSummary } from "../../chat/chat-api";
import { chatText } from "../../chat/chat-messages";
import type { EmbedServices } from "../../shell/embed-context";
import { CloseIcon, ShareIcon } from "../../ui/icons";

export interface ChatThreads {
  threads: ChatThreadSummary[];
  setThreads: (update: (all: ChatThreadSummary[]) => ChatThreadSummary[]) => void;
  sharedWithMe: ChatThreadSummary[];
  /** The viewer may share their conversations. */
  canShare: boolean;
  refresh: () => void;
}

/** The viewer's conversations and those shared with them; nothing is read while `enabled` is false. */
export function useChatThreads(api: EmbedServices["api"], deploymentId: number, enabled: boolean): ChatThreads {
  const [threads, setThreads] = useState<ChatThreadSummary[]>([]);
  const [sharedWithMe, setSharedWithMe] = useState<ChatThreadSummary[]>([]);
  const [canShare, setCanShare] = useState(false);
  const refresh = useCallback(() => {
    if (!enabled) return;
    chatApi
      .list(api, deploymentId)
      .then(setThreads)
      .catch(() => setThreads([]));
    chatApi
      .shared(api, deploymentId)
      .then((r) => {
        setSharedWithMe(r.data);
        setCanShare(r.canShare);
      })
      .catch(() => setSharedWithMe([]));
  }, [api, deploymentId, enabled]);
  useEffect(refresh, [refresh]);
  return { threads, setThreads, sharedWithMe, canShare, refresh };
}

export function ChatHistory(props: {
  locale: string;
  threads: ChatThreadSummary[];
  sharedWithMe: ChatThreadSummary[];
  threadId: string | null;
  open: boolean;
  onClose: () => void;
  onOpen: (id: string) => void;
  onRemove: (id: string) => void;
}) {
  const { locale, threadId } = props;
  const item = (t: ChatThreadSummary) => (
    <button type="button" className="svc-chat-history-item" onClick={() => props.onOpen(t.id)} aria-current={t.id === threadId ? "true" : undefined}>
      {t.title || chatText(locale, "untitled")}
    </button>
  );
  return (
    <aside className={`svc-chat-history${props.open ? " is-open" : ""}`} aria-label={chatText(locale, "history")} data-testid="chat-history">
      <div className="svc-chat-history-head">
        <h2>{chatText(locale, "history")}</h2>
        <button type="button" className="svc-icon-button svc-chat-history-close" onClick={props.onClose} aria-label={chatText(locale, "close")}>
          <CloseIcon size={16} />
        </button>
      </div>
      {props.threads.length === 0 ? <p className="svc-chat-history-empty">{chatText(locale, "noHistory")}</p> : null}
      <ul>
        {props.threads.map((t) => (
          <li key={t.id} className={t.id === threadId ? "is-active" : undefined}>
            {item(t)}
            {t.shared ? (
              <span className="svc-chat-history-shared" title={chatText(locale, "sharedLabel")} aria-label={chatText(locale, "sharedLabel")}>
                <ShareIcon size={13} />
              </span>
            ) : null}
            <button
              type="button"
              className="svc-icon-button svc-chat-history-delete"
              onClick={() => props.onRemove(t.id)}
              aria-label={chatText(locale, "delete")}
            >
              <CloseIcon size={14} />
            </button>
          </li>
        ))}
      </ul>
      {props.sharedWithMe.length ? (
        <>
          <h2 className="svc-chat-history-subhead">{chatText(locale, "sharedWithYou")}</h2>
          <ul data-testid="chat-shared-with-me">
            {props.sharedWithMe.map((t) => (
              <li key={t.id} className={t.id === threadId ? "is-active" : undefined}>
                {item(t)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </aside>
  );
}
