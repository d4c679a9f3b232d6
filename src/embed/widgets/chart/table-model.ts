/** Columns, sorting and the visible window of a table report. */
import type { ColumnFormatOverride } from "../../../schema/dashboard";
import type { TimePart } from "../../../schema/semantic-query";
import type { QueryAnnotation, SemanticQuery } from "../../shell/platform-api";
import { exportColumnsOf } from "../../export/export-columns";
import { isMeasureLike, resultColumnOf } from "../../export/result-columns";
import { numericValue } from "../query/format-cell";

export interface TableColumn {
  key: string;
  title: string;
  type?: string;
  annotationFormat?: string;
  /** A difference between periods: shown with its sign. */
  signed?: boolean;
  /** A time dimension read as a part of time: its integers are labelled (weekday, month, hour). */
  timePart?: TimePart;
  /** Raw value → the text shown for it (translations, country names); sorting and drills keep the raw value. */
  valueLabels?: Readonly<Record<string, string>>;
  format: ColumnFormatOverride | null;
  /** Amounts (measures, their comparisons and calculations) are right-aligned. */
  isMeasure: boolean;
  /** A measure of the model: its cells open the rows behind them. */
  drillable: boolean;
}

export function tableColumnsOf(
  rows: readonly Record<string, unknown>[],
  annotation: QueryAnnotation | undefined,
  query: SemanticQuery | undefined,
  columnFormats: Readonly<Record<string, ColumnFormatOverride>> | null | undefined,
): TableColumn[] {
  return exportColumnsOf(rows, annotation, query).map((c) => {
    const annotated = resultColumnOf(c.key, annotation);
    const isQueryMeasure = (query?.measures ?? []).includes(c.key);
    const isMeasure = isMeasureLike(annotated) || isQueryMeasure || /_(prev|next)_/.test(c.key);
    // A time column `view.member.grain` takes the format override of `view.member` too.
    const format = columnFormats?.[c.key] ?? columnFormats?.[c.key.split(".").slice(0, 2).join(".")] ?? null;
    const valueLabels = annotation?.dimensions[c.key]?.valueLabels;
    return {
      key: c.key,
      title: c.title,
      type: isMeasure ? "number" : c.type,
      ...(annotated?.format ? { annotationFormat: annotated.format } : {}),
      ...(annotated?.signed ? { signed: true } : {}),
      ...(annotated?.timePart ? { timePart: annotated.timePart } : {}),
      ...(valueLabels ? { valueLabels } : {}),
      format,
      isMeasure,
      drillable: annotated ? annotated.role === "measure" : isQueryMeasure,
    };
  });
}

export interface TableSort {
  key: string;
  direction: "asc" | "desc";
}

/** Rows sorted by one column: numbers numerically, the rest by locale collation; empty values last. */
export function sortRows<T extends Record<string, unknown>>(rows: readonly T[], sort: TableSort | null, locale: string): T[] {
  if (!sort) return [...rows];
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: "base" });
  const sign = sort.direction === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const av = a[sort.key];
    const bv = b[sort.key];
    const aEmpty = av === null || av === undefined || av === "";
    const bEmpty = bv === null || bv === undefined || bv === "";
    if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
    const an = numericValue(av);
    const bn = numericValue(bv);
    if (an !== null && bn !== null) return (an - bn) * sign;
    return collator.compare(String(av), String(bv)) * sign;
  });
}

/** Next sort state when a header is activated: ascending, descending, off. */
export function nextSort(current: TableSort | null, key: string): TableSort | null {
  if (!current || current.key !== key) return { key, direction: "asc" };
  if (current.direction === "asc") return { key, direction: "desc" };
  return null;
}

/** Rows to render for a scroll position: the visible ones plus an overscan on each side. */
export function visibleRowRange(scrollTop: number, viewportHeight: number, rowHeight: number, rowCount: number, overscan = 8): { start: number; end: number } {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const count = Math.ceil(Math.max(0, viewportHeight) / rowHeight);
  return { start: Math.max(0, first - overscan), end: Math.min(rowCount, first + count + overscan) };
}
