/**
 * The dashboard editor's state: the draft in its undo/redo history (dashboard-history.ts;
 * Ctrl/Cmd+Z, Shift+Ctrl/Cmd+Z or Ctrl+Y), autosaved a moment after the last change unless the
 * server would refuse it (dashboard-draft-check.ts), and publishing.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useStore } from "zustand";
import type { DashboardConfig } from "../../../schema/dashboard";
import { useApp, messageOf } from "./app-context";
import type { AppWorkbook } from "./app-api";
import { useAppText } from "./app-messages";
import { createDashboardHistory, historyKey, type ChangeOptions } from "./dashboard-history";
import { draftRefusal, type DraftRefusal, type KnownReports } from "./dashboard-draft-check";

export type SaveState = { status: "saved" | "saving" | "error"; message?: string };

export function useDashboardDraft(workbook: AppWorkbook, canEdit: boolean, reportIds: readonly number[] = []) {
  const { api, notify, refresh, go } = useApp();
  const t = useAppText();
  // The autosave effect reads the words and reports through refs, so a new `t` each render does not save again.
  const words = useRef(t);
  words.current = t;
  // The workbook's reports now, and those it had while the editor was open and has no more.
  const seen = useRef(new Set<number>());
  const known = new Set(reportIds);
  for (const id of reportIds) seen.current.add(id);
  const gone = new Set([...seen.current].filter((id) => !known.has(id)));
  const reports = useRef<Omit<KnownReports, "accepted">>({ known, gone });
  reports.current = { known, gone };
  // The draft is loaded once; after that the editor's copy is the truth and is saved back.
  const store = useMemo(
    () => createDashboardHistory(workbook.dashboardDraft ?? workbook.dashboardPublished ?? { title: workbook.name, widgets: [] }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [workbook.id],
  );
  const config = useStore(store, (h) => h.now);
  const version = useStore(store, (h) => h.version);
  const canUndo = useStore(store, (h) => h.past.length > 0);
  const canRedo = useStore(store, (h) => h.future.length > 0);
  const [save, setSave] = useState<SaveState>({ status: "saved" });
  const [publishing, setPublishing] = useState(false);
  // The last draft the server took: what a refused step is checked against, and what stays saved.
  const accepted = useRef<DashboardConfig | null>(store.getState().now);

  const change = useCallback((fn: (c: DashboardConfig) => DashboardConfig, options?: ChangeOptions) => store.getState().change(fn, options), [store]);
  const undo = useCallback(() => store.getState().undo(), [store]);
  const redo = useCallback(() => store.getState().redo(), [store]);
  const seal = useCallback(() => store.getState().seal(), [store]);

  // Autosave a moment after the last change; the editor keeps its copy whatever the answer.
  useEffect(() => {
    if (version === 0 || !canEdit) return;
    const refusal = draftRefusal(config, { ...reports.current, accepted: accepted.current });
    if (refusal) {
      const message = refusalText(words.current, refusal);
      setSave({ status: "error", message });
      notify("error", message);
      return;
    }
    setSave({ status: "saving" });
    const timer = setTimeout(() => {
      api.saveDraft(workbook.id, config).then(
        () => {
          accepted.current = config;
          setSave({ status: "saved" });
        },
        (error: unknown) => {
          setSave({ status: "error", message: messageOf(error) });
          notify("error", words.current("dashDraftNotSaved", { error: messageOf(error) }));
        },
      );
    }, 600);
    return () => clearTimeout(timer);
  }, [version, config, api, workbook.id, canEdit, notify]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = historyKey(e);
      if (!action) return;
      // A text field keeps its own undo.
      const target = e.target as HTMLElement | null;
      if (target && (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable)) return;
      e.preventDefault();
      if (action === "redo") redo();
      else undo();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [undo, redo]);

  const publish = async () => {
    const refusal = draftRefusal(config, { ...reports.current, accepted: accepted.current });
    if (refusal) {
      notify("error", t("dashNotPublished", { error: refusalText(t, refusal) }));
      return;
    }
    setPublishing(true);
    try {
      await api.saveDraft(workbook.id, config);
      accepted.current = config;
      await api.publish(workbook.id);
      await refresh();
      notify("ok", t("dashPublished"));
      go({ kind: "published", workbookId: workbook.id });
    } catch (error) {
      notify("error", t("dashNotPublished", { error: messageOf(error) }));
    } finally {
      setPublishing(false);
    }
  };

  return { config, change, undo, redo, seal, canUndo, canRedo, save, publishing, publish };
}

function refusalText(t: ReturnType<typeof useAppText>, refusal: DraftRefusal): string {
  return refusal.kind === "missingReport" ? t("dashStepMissingReport") : t("dashStepInvalid", { path: refusal.path });
}
