/**
 * The report builder's draft: the report's name, view, query, chart and formats as edited on
 * screen, saved 800 ms after the last edit when what is saved (`inputOf`: the complete part of
 * the query) changed. A failed save keeps the draft on screen, says so, and is retried with the
 * next edit.
 */
import { useEffect, useRef, useState } from "react";
import type { ColumnFormatOverride } from "../../../schema/dashboard";
import type { Report, ReportInput } from "../../../schema/report";
import type { SemanticQuery } from "../../shell/platform-api";
import { messageOf } from "./app-context";
import { savedCalculationsOf, type CompareMode } from "./report-calculations";
import { todayOf } from "./report-today";
import { pivotSpecOf, type Viz } from "./report-query";

export interface ReportDraft {
  name: string;
  view: string | null;
  query: SemanticQuery;
  viz: Viz;
  formats: Record<string, ColumnFormatOverride>;
  /** Compare with the previous period or the same period a year before (report-calculations.ts). */
  compare: CompareMode;
  /** Each count or sum's share of the total. */
  percentOfTotal: boolean;
  /** The chart follows the suggestion for the result's shape until the creator picks one. */
  vizAuto: boolean;
  /** The breakout across the top of a pivot (null: the time dimension, else the last breakout). */
  pivotColumns: string | null;
}

export type SaveState = { status: "saved" | "saving" | "error"; message?: string };

/** Wait after the last edit before saving. */
export const AUTOSAVE_DELAY_MS = 800;

export function draftOf(report: Report): ReportDraft {
  const saved = savedCalculationsOf((report.query ?? {}) as SemanticQuery, report.periodComparisons ?? null, todayOf());
  const query = saved.query;
  const first = query.measures?.[0] ?? query.dimensions?.[0] ?? query.timeDimensions?.[0]?.dimension ?? null;
  const mark = (report.spec as { mark?: string | { type?: string } } | null)?.mark;
  const markType = typeof mark === "string" ? mark : mark?.type;
  const pivot = pivotSpecOf(report.spec);
  const viz: Viz =
    report.kind === "kpi" ? "kpi" : report.kind === "vega" ? (markType === "line" ? "line" : markType === "area" ? "area" : "bar") : pivot ? "pivot" : "table";
  return {
    name: report.name,
    view: first ? first.split(".")[0]! : null,
    query,
    viz,
    formats: (report.preferences?.columnFormats ?? {}) as Record<string, ColumnFormatOverride>,
    compare: saved.compare,
    percentOfTotal: saved.percentOfTotal,
    vizAuto: !query.measures?.length && !query.dimensions?.length && !query.timeDimensions?.length,
    pivotColumns: pivot?.columns ?? null,
  };
}

export interface ReportDraftOptions {
  canEdit: boolean;
  /** What is saved for a draft (its chart spec and comparisons derive from it). */
  inputOf(draft: ReportDraft): ReportInput;
  save(input: ReportInput): Promise<unknown>;
  /** Told why a save failed (the draft stays). */
  onSaveError(message: string): void;
}

export function useReportDraft(report: Report, options: ReportDraftOptions) {
  const [draft, setDraft] = useState<ReportDraft>(() => draftOf(report));
  const [save, setSave] = useState<SaveState>({ status: "saved" });
  const dirty = useRef(false);
  // The latest callbacks, read when the timer fires: the draft is what schedules a save.
  const latest = useRef(options);
  latest.current = options;

  // What the report holds on the server: an edit whose input is the same (a filter still being
  // made leaves the complete query as it was) saves nothing.
  const savedKey = useRef<string | null>(null);

  useEffect(() => {
    const input = latest.current.inputOf(draft);
    const key = JSON.stringify(input);
    savedKey.current ??= key;
    if (!latest.current.canEdit) return;
    if (!dirty.current || key === savedKey.current) {
      setSave((s) => (s.status === "saving" ? { status: "saved" } : s));
      return;
    }
    setSave({ status: "saving" });
    const timer = setTimeout(() => {
      const { save: send, onSaveError } = latest.current;
      send(input).then(
        () => {
          savedKey.current = key;
          setSave({ status: "saved" });
        },
        (error: unknown) => {
          setSave({ status: "error", message: messageOf(error) });
          onSaveError(messageOf(error));
        },
      );
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft]);

  const edit = (next: Partial<ReportDraft> | ((d: ReportDraft) => Partial<ReportDraft>)) => {
    dirty.current = true;
    setDraft((d) => ({ ...d, ...(typeof next === "function" ? next(d) : next) }));
  };
  const editQuery = (fn: (q: SemanticQuery) => SemanticQuery) => edit((d) => ({ query: fn(d.query) }));
  /** Adds a measure or dimension to the query, or takes it out. */
  const toggle = (list: "measures" | "dimensions", name: string) =>
    editQuery((cur) => {
      const now = cur[list] ?? [];
      return { ...cur, [list]: now.includes(name) ? now.filter((n) => n !== name) : [...now, name] };
    });
  return { draft, save, edit, editQuery, toggle };
}
