/**
 * "Save as report" under a chat answer that ran a query: a small dialog (name, where to), the
 * progress, then where the report went — or why it was not saved. Shown only when the
 * platform says the caller may save here (`…/chat/report-destinations`); the platform checks
 * again when saving, whatever this shows.
 */
import { useCallback, useEffect, useId, useState } from "react";
import type { EmbedApi } from "../shell/api";
import { AlertIcon } from "../ui/icons";
import { ModalDialog } from "../ui/modal-dialog";
import { chatApi, type ChatMessageView, type ReportDestination, type ReportDestinations, type SavedReport } from "./chat-api";
import { chatText } from "./chat-messages";
import "./save-report.css";

/** Where the caller may save answers; null while unknown or when they may not. Reloads after each save. */
export function useReportDestinations(api: EmbedApi, deploymentId: number, enabled: boolean) {
  const [destinations, setDestinations] = useState<ReportDestinations | null>(null);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    chatApi
      .destinations(api, deploymentId)
      .then((d) => live && setDestinations(d.allowed ? d : null))
      .catch(() => live && setDestinations(null));
    return () => {
      live = false;
    };
  }, [api, deploymentId, enabled, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { destinations: enabled ? destinations : null, reload };
}

/** Whether an answer has a query that can become a report. */
export function canSaveAnswer(answer: ChatMessageView): boolean {
  return answer.status === "completed" && answer.parts.some((p) => p.type === "query");
}

const pathText = (path: { name: string }[], name?: string) => [...path.map((p) => p.name), ...(name ? [name] : [])].join(" / ");

/** The place a saved report went, in words: "My workspace / Revenue", "Shared / Plans / Revenue". */
export function placeOf(saved: SavedReport, locale: string): string {
  const folders = saved.folderPath.map((p) => p.name);
  return [...(folders.length ? folders : [chatText(locale, "myWorkspace")]), saved.workbook.name].join(" › ");
}

function encode(d: ReportDestination): string {
  return d.kind === "personal" ? "personal" : d.kind === "folder" ? `folder:${d.folderId}` : `workbook:${d.workbookId}`;
}
function decode(v: string): ReportDestination {
  const [kind, id] = v.split(":");
  if (kind === "folder") return { kind: "folder", folderId: Number(id) };
  if (kind === "workbook") return { kind: "workbook", workbookId: Number(id) };
  return { kind: "personal" };
}

/** The answer to save, and where it may go. */
interface SaveAnswerProps {
  api: EmbedApi;
  deploymentId: number;
  threadId: string;
  answer: ChatMessageView;
  question: string;
  destinations: ReportDestinations;
  locale: string;
}

function SaveReportDialog(props: SaveAnswerProps & { onSaved: (saved: SavedReport) => void; onClose: () => void }) {
  const { locale } = props;
  const id = useId();
  const [name, setName] = useState(() => props.question.trim().slice(0, 200) || chatText(locale, "untitled"));
  const [where, setWhere] = useState("personal");
  const [state, setState] = useState<{ kind: "editing" } | { kind: "saving" } | { kind: "saved"; saved: SavedReport } | { kind: "failed"; message: string }>({
    kind: "editing",
  });
  const { onClose } = props;

  const save = async () => {
    if (!name.trim() || state.kind === "saving") return;
    setState({ kind: "saving" });
    try {
      const saved = await chatApi.saveReport(props.api, props.deploymentId, props.threadId, props.answer.id, {
        name: name.trim(),
        destination: decode(where),
      });
      setState({ kind: "saved", saved });
      props.onSaved(saved);
    } catch (e) {
      setState({ kind: "failed", message: e instanceof Error ? e.message : String(e) });
    }
  };

  const busy = state.kind === "saving";
  const addsSheet = where.startsWith("workbook:");
  return (
    <ModalDialog className="svc-chat-save-dialog" aria-labelledby={`${id}-title`} data-testid="chat-save-dialog" onClose={onClose}>
      <h2 id={`${id}-title`}>{chatText(locale, "saveAsReport")}</h2>
      {state.kind === "saved" ? (
        <>
          <p className="svc-chat-save-done" role="status" data-testid="chat-save-done">
            <span className="svc-chat-save-check" aria-hidden="true">
              ✓
            </span>
            <span>{chatText(locale, "savedTo", { place: placeOf(state.saved, locale) })}</span>
          </p>
          <div className="svc-chat-save-actions">
            <button type="button" className="svc-button is-primary" onClick={onClose} autoFocus>
              {chatText(locale, "done")}
            </button>
          </div>
        </>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label className="svc-chat-save-field">
            <span>{chatText(locale, "reportName")}</span>
            <input
              type="text"
              value={name}
              maxLength={255}
              required
              disabled={busy}
              onChange={(e) => setName(e.target.value)}
              data-testid="chat-save-name"
              autoFocus
            />
          </label>
          <label className="svc-chat-save-field">
            <span>{chatText(locale, "saveTo")}</span>
            <select value={where} disabled={busy} onChange={(e) => setWhere(e.target.value)} data-testid="chat-save-destination">
              <optgroup label={chatText(locale, "newWorkbookIn")}>
                <option value="personal">{chatText(locale, "myWorkspace")}</option>
                {props.destinations.folders.map((f) => (
                  <option key={f.id} value={encode({ kind: "folder", folderId: f.id })}>
                    {pathText(f.path, f.name)}
                  </option>
                ))}
              </optgroup>
              {props.destinations.workbooks.length ? (
                <optgroup label={chatText(locale, "addToWorkbook")}>
                  {props.destinations.workbooks.map((w) => (
                    <option key={w.id} value={encode({ kind: "workbook", workbookId: w.id })}>
                      {pathText(w.path, w.name)}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
            <small>{chatText(locale, addsSheet ? "hintAddSheet" : "hintNewWorkbook")}</small>
          </label>
          {state.kind === "failed" ? (
            <p className="svc-chat-save-error" role="alert" data-testid="chat-save-error">
              <AlertIcon size={15} />
              <span>{chatText(locale, "saveFailed", { message: state.message })}</span>
            </p>
          ) : null}
          <div className="svc-chat-save-actions">
            <button type="button" className="svc-button" onClick={onClose} disabled={busy}>
              {chatText(locale, "cancel")}
            </button>
            <button type="submit" className="svc-button is-primary" disabled={busy || !name.trim()} data-testid="chat-save-submit">
              {busy ? <span className="svc-chat-spinner" aria-hidden="true" /> : null}
              {chatText(locale, busy ? "saving" : "save")}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}

/** The "Save as report" button of one answer, and its dialog. */
export function SaveAnswerAsReport(props: SaveAnswerProps & { onSaved?: (saved: SavedReport) => void }) {
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState<SavedReport | null>(null);
  const close = useCallback(() => setOpen(false), []);
  return (
    <>
      <button
        type="button"
        className="svc-button is-small"
        onClick={() => setOpen(true)}
        data-testid="chat-save-report"
        title={saved ? chatText(props.locale, "savedTo", { place: placeOf(saved, props.locale) }) : undefined}
      >
        {saved ? `✓ ${chatText(props.locale, "savedReport")}` : chatText(props.locale, "saveAsReport")}
      </button>
      {open ? (
        <SaveReportDialog
          {...props}
          onClose={close}
          onSaved={(s) => {
            setSaved(s);
            props.onSaved?.(s);
          }}
        />
      ) : null}
    </>
  );
}
