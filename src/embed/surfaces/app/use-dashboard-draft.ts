/**
 * The dashboard editor's state: the draft with its undo/redo history (Ctrl/Cmd+Z, Shift to
 * redo), the draft autosaved a moment after the last change, and publishing.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { DashboardConfig } from "../../../schema/dashboard";
import { useApp, messageOf } from "./app-context";
import type { AppWorkbook } from "./app-api";
import { useAppText } from "./app-messages";

export type SaveState = { status: "saved" | "saving" | "error"; message?: string };
interface History {
  past: DashboardConfig[];
  now: DashboardConfig;
  future: DashboardConfig[];
}

export function useDashboardDraft(workbook: AppWorkbook, canEdit: boolean) {
  const { api, notify, refresh, go } = useApp();
  const t = useAppText();
  // The autosave effect reads the words through a ref, so a new `t` each render does not save again.
  const words = useRef(t);
  words.current = t;
  const initial = useMemo<DashboardConfig>(
    () => workbook.dashboardDraft ?? workbook.dashboardPublished ?? { title: workbook.name, widgets: [] },
    // The draft is loaded once; after that the editor's copy is the truth and is saved back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [workbook.id],
  );
  const [history, setHistory] = useState<History>({ past: [], now: initial, future: [] });
  const [save, setSave] = useState<SaveState>({ status: "saved" });
  const [publishing, setPublishing] = useState(false);
  const dirty = useRef(false);
  const config = history.now;

  const change = useCallback((fn: (c: DashboardConfig) => DashboardConfig) => {
    dirty.current = true;
    setHistory((h) => ({ past: [...h.past, h.now].slice(-100), now: fn(h.now), future: [] }));
  }, []);
  const undo = useCallback(
    () =>
      setHistory((h) =>
        h.past.length ? ((dirty.current = true), { past: h.past.slice(0, -1), now: h.past[h.past.length - 1]!, future: [h.now, ...h.future] }) : h,
      ),
    [],
  );
  const redo = useCallback(
    () => setHistory((h) => (h.future.length ? ((dirty.current = true), { past: [...h.past, h.now], now: h.future[0]!, future: h.future.slice(1) }) : h)),
    [],
  );

  // Autosave the draft a moment after the last change; the editor keeps its copy whatever the answer.
  useEffect(() => {
    if (!dirty.current || !canEdit) return;
    setSave({ status: "saving" });
    const timer = setTimeout(() => {
      api.saveDraft(workbook.id, config).then(
        () => setSave({ status: "saved" }),
        (error: unknown) => {
          setSave({ status: "error", message: messageOf(error) });
          notify("error", words.current("dashDraftNotSaved", { error: messageOf(error) }));
        },
      );
    }, 600);
    return () => clearTimeout(timer);
  }, [config, api, workbook.id, canEdit, notify]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== "z") return;
      const target = e.target as HTMLElement | null;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
      e.preventDefault();
      if (e.shiftKey) redo();
      else undo();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [undo, redo]);

  const publish = async () => {
    setPublishing(true);
    try {
      await api.saveDraft(workbook.id, config);
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

  return { config, change, undo, redo, canUndo: history.past.length > 0, canRedo: history.future.length > 0, save, publishing, publish };
}
