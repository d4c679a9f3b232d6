/**
 * Where the AI chat of the app goes: the `/chat` paths, and the side panel of a workbook when
 * the session's `showWorkbookChat` is on. The chat itself is provided by the AI feature; until
 * it is mounted here, these slots say so plainly.
 */
import { useApp } from "./app-context";

export function AppChatSlot(props: { threadId: string | null }) {
  const { go } = useApp();
  return (
    <div className="svc-empty is-large" data-testid="app-chat-slot" data-thread-id={props.threadId ?? ""}>
      <p>Chat is not available in this workspace.</p>
      <button type="button" className="svc-button is-small" onClick={() => go({ kind: "home" })}>
        Back to home
      </button>
    </div>
  );
}

/** The workbook's chat side panel, shown when `showWorkbookChat` is on. */
export function WorkbookChatPanel(props: { workbookId: number }) {
  return (
    <aside className="svc-app-chat-panel" data-testid="workbook-chat-panel" data-workbook-id={props.workbookId} aria-label="Chat">
      <p className="svc-app-muted">Chat is not available in this workspace.</p>
    </aside>
  );
}
