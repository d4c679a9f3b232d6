/**
 * Analytics chat at /embed/chat: conversations (history, new chat, delete, share), the ones
 * shared with the viewer (read-only), and the chat panel. URL switches `showNewChat`,
 * `showChatInput`, `showChatHistory` (literal `false` hides).
 */
import { useEffect, useMemo, useState } from "react";
import { useSvcPlatformApiQuery } from "../../../client/react-query";
import { useEmbedServices, useEmbedSession } from "../../shell/embed-context";
import { keepPreviousData } from "@tanstack/react-query";
import { SurfaceLoadScreen, useSurfaceQuery } from "../../shell/surface-load";
import { useEmbedStore } from "../../state/use-embed-store";
import { PlusIcon, ShareIcon, SparkIcon } from "../../ui/icons";
import { useSurfaceReadyAndView } from "../surface-events";
import { aiContextStore } from "../../chat/ai-context";
import { AiContextHeader } from "./ai-context-header";
import { ChatHistory, useChatThreads } from "./chat-history";
import { chatApi } from "../../chat/chat-api";
import { chatText } from "../../chat/chat-messages";
import { ChatPanel } from "../../chat/chat-panel";
import { startersOf } from "../../chat/starters";
import "../../ui/buttons.css";
import "../../ui/page.css";
import "./chat-surface.css";

export function ChatSurface() {
  const { urlParameters, api } = useEmbedServices();
  const { auth } = useEmbedSession();
  const locale = useEmbedStore((s) => s.locale);
  const deploymentId = auth.mode === "signed" ? auth.deploymentId : Number(new URLSearchParams(window.location.search).get("deploymentId"));
  const valid = Number.isInteger(deploymentId) && deploymentId > 0;
  // Views and members titled in the viewer's language (the context header and the starters name them).
  const query = useSvcPlatformApiQuery(
    "get",
    "/api/v1/deployments/{deploymentId}/meta",
    { params: { path: { deploymentId }, query: { locale } } },
    // A new locale keeps the chat on screen while its titles are asked for.
    { enabled: valid, placeholderData: keepPreviousData },
  );
  const [load, reload] = useSurfaceQuery(query, valid ? null : { message: "No deployment given" });
  useSurfaceReadyAndView(load.status === "ready", valid ? deploymentId : null, chatText(locale, "title"));
  const show = urlParameters.show;
  const { threads, setThreads, sharedWithMe, canShare, refresh } = useChatThreads(api, deploymentId, valid && show.showChatHistory);
  const [threadId, setThreadId] = useState<string | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [shareState, setShareState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  // The host's set-ai-context is checked by the platform for this viewer (held until now).
  useEffect(() => {
    if (!valid) return;
    aiContextStore.setState({ check: (context) => chatApi.checkContext(api, deploymentId, context) });
    return () => aiContextStore.setState({ check: null });
  }, [api, deploymentId, valid]);

  const starters = useMemo(() => (load.status === "ready" ? startersOf(load.data.sources, locale) : []), [load, locale]);
  if (load.status !== "ready") return <SurfaceLoadScreen state={load} onReload={reload} />;

  const open = (id: string | null) => {
    setThreadId(id);
    setHistoryOpen(false);
    setShareState({ busy: false, error: null });
  };
  const current = threads.find((t) => t.id === threadId);
  const readOnly = sharedWithMe.some((t) => t.id === threadId) && !current;
  const toggleShare = async () => {
    if (!current) return;
    setShareState({ busy: true, error: null });
    try {
      const updated = await chatApi.share(api, deploymentId, current.id, !current.shared);
      setThreads((all) => all.map((t) => (t.id === updated.id ? { ...t, shared: updated.shared } : t)));
      setShareState({ busy: false, error: null });
    } catch (e) {
      setShareState({ busy: false, error: chatText(locale, "shareFailed", { message: e instanceof Error ? e.message : String(e) }) });
    }
  };

  const remove = async (id: string) => {
    await chatApi.remove(api, deploymentId, id).catch(() => undefined);
    if (id === threadId) setThreadId(null);
    refresh();
  };

  return (
    <main className="svc-chat-shell" data-testid="chat-surface" data-mode={auth.mode}>
      {show.showChatHistory ? (
        <ChatHistory
          locale={locale}
          threads={threads}
          sharedWithMe={sharedWithMe}
          threadId={threadId}
          open={historyOpen}
          onClose={() => setHistoryOpen(false)}
          onOpen={open}
          onRemove={(id) => void remove(id)}
        />
      ) : null}
      <section className="svc-chat-main">
        <header className="svc-chat-header">
          {show.showChatHistory ? (
            <button type="button" className="svc-button svc-chat-history-toggle" onClick={() => setHistoryOpen((o) => !o)} aria-expanded={historyOpen}>
              {chatText(locale, "history")}
            </button>
          ) : null}
          <h1 className="svc-chat-title">
            <SparkIcon size={18} />
            <span>{chatText(locale, "title")}</span>
          </h1>
          <AiContextHeader locale={locale} sources={load.data.sources} />
          {current && canShare ? (
            <button
              type="button"
              className={current.shared ? "svc-button is-active" : "svc-button"}
              aria-pressed={current.shared ? "true" : "false"}
              aria-label={chatText(locale, current.shared ? "sharedLabel" : "share")}
              title={chatText(locale, current.shared ? "unshareTitle" : "shareTitle")}
              disabled={shareState.busy}
              onClick={() => void toggleShare()}
              data-testid="chat-share"
            >
              <ShareIcon size={14} />
              <span className="svc-chat-share-label">{chatText(locale, current.shared ? "sharedLabel" : "share")}</span>
            </button>
          ) : null}
          {show.showNewChat ? (
            <button
              type="button"
              className="svc-button"
              onClick={() => open(null)}
              aria-label={chatText(locale, "newChat")}
              title={chatText(locale, "newChat")}
              data-testid="chat-new"
            >
              <PlusIcon size={14} />
              <span className="svc-chat-new-label">{chatText(locale, "newChat")}</span>
            </button>
          ) : null}
        </header>
        {shareState.error ? (
          <p className="svc-chat-notice is-error" role="alert" data-testid="chat-share-error">
            {shareState.error}
          </p>
        ) : null}
        {readOnly ? (
          <p className="svc-chat-notice" role="status" data-testid="chat-read-only">
            <ShareIcon size={14} />
            {chatText(locale, "readOnlyNotice")}
          </p>
        ) : null}
        <ChatPanel
          deploymentId={deploymentId}
          threadId={threadId}
          onThreadId={(id) => {
            setThreadId(id);
            refresh();
          }}
          onAnswered={refresh}
          context={() => aiContextStore.getState().sent}
          locale={locale}
          showInput={show.showChatInput && !readOnly}
          saveReports={!readOnly}
          starters={starters}
          intro={chatText(locale, "empty")}
        />
      </section>
    </main>
  );
}
