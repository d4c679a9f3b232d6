/**
 * The AI chat of the app: the `/chat` paths (the chat full-width inside the app), and the side
 * panel of a workbook when the session's `showWorkbookChat` is on. Both ask the chat API of the
 * app's deployment; an answer with a query can become a report of the open workbook when the
 * caller may edit it.
 */
import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { SemanticQuery } from "../../shell/platform-api";
import type { ChatMessageView } from "../../chat/chat-api";
import { ChatDrawer } from "../../chat/chat-drawer";
import { chatText } from "../../chat/chat-messages";
import { ChatPanel } from "../../chat/chat-panel";
import { startersOf } from "../../chat/starters";
import { SparkIcon } from "../../ui/icons";
import { useApp, messageOf } from "./app-context";
import { useEmbedStore } from "../../state/use-embed-store";
import { chartSpecOf } from "./report-query";
import { appText } from "./app-messages";
import "../../chat/chat-panel.css";
import { appQueries } from "./app-queries";

function useLocale(): string {
  return useEmbedStore((s) => s.locale);
}

/** Questions offered before the first one, from the deployment's views. */
function useStarters(): string[] {
  const { api } = useApp();
  const locale = useLocale();
  const meta = useQuery(appQueries.meta(api, locale));
  return useMemo(() => (meta.data ? startersOf(meta.data.sources, locale) : []), [meta.data, locale]);
}

/** `/d/{id}/app/chat` and `/d/{id}/app/chat/{threadId}`: the chat, full-width inside the app. */
export function AppChatSlot(props: { threadId: string | null }) {
  const { api, go } = useApp();
  const locale = useLocale();
  const starters = useStarters();
  return (
    <section className="svc-app-chat-page" data-testid="app-chat-slot" data-thread-id={props.threadId ?? ""} aria-label={chatText(locale, "title")}>
      <header className="svc-app-chat-page-head">
        <SparkIcon size={16} />
        <h1>{chatText(locale, "title")}</h1>
        <button type="button" className="svc-button is-small" onClick={() => go({ kind: "chat", threadId: null })} data-testid="app-chat-new">
          {chatText(locale, "newChat")}
        </button>
      </header>
      <ChatPanel
        deploymentId={api.deploymentId}
        threadId={props.threadId}
        onThreadId={(id) => go({ kind: "chat", threadId: id })}
        locale={locale}
        showInput
        starters={starters}
      />
    </section>
  );
}

/** What a chat answer becomes as a report: its semantic query, and its chart when it has one. */
function reportOf(answer: ChatMessageView): { query: SemanticQuery; viz: "table" | "bar" | "line" | "area"; titles: Map<string, string> } | null {
  const queryPart = answer.parts.find((p) => p.type === "query");
  const query = queryPart?.query as SemanticQuery | undefined;
  if (!query || typeof query !== "object") return null;
  const chart = answer.parts.find((p) => p.type === "chart");
  const chartType = (chart?.chart as { type?: string } | undefined)?.type;
  const viz = !chart ? "table" : chartType === "line" ? "line" : chartType === "area" ? "area" : "bar";
  const columns = (answer.parts.find((p) => p.type === "table")?.columns ?? []) as { key: string; title: string }[];
  return { query, viz, titles: new Map(columns.map((c) => [c.key, c.title])) };
}

function AddToWorkbook(props: { workbookId: number; answer: ChatMessageView; question: string }) {
  const { api, go, notify, refresh } = useApp();
  const locale = useLocale();
  const [state, setState] = useState<"idle" | "adding" | "added">("idle");
  const report = reportOf(props.answer);
  if (!report) return null;
  const add = async () => {
    setState("adding");
    const name = props.question.trim().slice(0, 200) || appText(locale, "wsChatAnswer");
    try {
      const created = await api.createReport(props.workbookId, name, {
        kind: report.viz === "table" ? "table" : "vega",
        query: report.query as Record<string, unknown>,
      });
      const spec = report.viz === "table" ? null : chartSpecOf(report.viz, report.query, (m) => report.titles.get(m) ?? m);
      if (spec) await api.saveReport(created.publicId, { spec });
      await refresh();
      setState("added");
      notify("ok", appText(locale, "wsChatAddedNotice", { name }));
      go({ kind: "report", workbookId: props.workbookId, reportId: created.id });
    } catch (error) {
      setState("idle");
      notify("error", appText(locale, "wsChatNotAdded", { error: messageOf(error) }));
    }
  };
  return (
    <button type="button" className="svc-button is-small" disabled={state !== "idle"} onClick={() => void add()} data-testid="chat-add-to-workbook">
      {appText(locale, state === "added" ? "wsChatAddedToWorkbook" : state === "adding" ? "wsChatAdding" : "wsChatAddToWorkbook")}
    </button>
  );
}

/** The workbook's "Ask AI" button and its chat side panel, shown when `showWorkbookChat` is on. */
export function WorkbookChatPanel(props: { workbookId: number; canEdit: boolean }) {
  const { api } = useApp();
  const locale = useLocale();
  const starters = useStarters();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={open ? "svc-button is-primary" : "svc-button"}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="workbook-chat-toggle"
      >
        <SparkIcon size={14} /> {chatText(locale, "openChat")}
      </button>
      {open ? (
        <div className="svc-app-chat-panel" data-testid="workbook-chat-panel" data-workbook-id={props.workbookId}>
          <ChatDrawer
            title={chatText(locale, "title")}
            onClose={() => setOpen(false)}
            deploymentId={api.deploymentId}
            locale={locale}
            starters={starters}
            answerActions={
              props.canEdit ? (answer, question) => <AddToWorkbook workbookId={props.workbookId} answer={answer} question={question} /> : undefined
            }
          />
        </div>
      ) : null}
    </>
  );
}
