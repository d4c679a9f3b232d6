/**
 * Chat in a side panel: dashboard chat (questions about the dashboard in view, with its
 * filters) and the app's workbook chat. A drawer over the page on phones.
 */
import { useState } from "react";
import { CloseIcon, SparkIcon } from "../ui/icons";
import { chatText } from "./chat-messages";
import { ChatPanel, type ChatPanelProps } from "./chat-panel";
import "./chat-drawer.css";

export function ChatDrawer(props: Omit<ChatPanelProps, "threadId" | "onThreadId" | "showInput"> & { title: string; onClose: () => void }) {
  const [threadId, setThreadId] = useState<string | null>(null);
  const { title, onClose, ...panel } = props;
  return (
    <aside className="svc-chat-drawer" aria-label={title} data-testid="chat-drawer" data-export-ignore="true">
      <header className="svc-chat-drawer-head">
        <SparkIcon size={16} />
        <h2>{title}</h2>
        <button type="button" className="svc-button is-small" onClick={() => setThreadId(null)}>
          {chatText(props.locale, "newChat")}
        </button>
        <button type="button" className="svc-icon-button" onClick={onClose} aria-label={chatText(props.locale, "close")} data-testid="chat-drawer-close">
          <CloseIcon size={16} />
        </button>
      </header>
      <ChatPanel {...panel} threadId={threadId} onThreadId={setThreadId} showInput />
    </aside>
  );
}
