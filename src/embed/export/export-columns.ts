/**
 * Columns of an exported result: the query's members in query order (dimensions, time
 * dimensions, measures with the compare columns made of them), then the other columns the
 * annotation lists (period comparisons, calculations), then any further keys of the rows;
 * titled from the annotation (`result-columns.ts`).
 */
import type { QueryAnnotation, SemanticQuery } from "../shell/platform-api";
import { resultColumnOf, resultColumnsOf } from "./result-columns";

export interface ExportColumn {
  /** Key in the result rows. */
  key: string;
  /** Header shown to people. */
  title: string;
  /** Semantic type from the annotation (`number`, `time`, `string`, …) when known. */
  type?: string;
  /** Raw value → the text shown for it in the viewer's locale (the answer's `valueLabels`). */
  valueLabels?: Readonly<Record<string, string>>;
}

/** A cell as the viewer reads it: a dimension value's label (a translation, a country's name) in place of the raw value. */
export function shownValue(value: unknown, column: Pick<ExportColumn, "valueLabels">): unknown {
  return typeof value === "string" && column.valueLabels && Object.hasOwn(column.valueLabels, value) ? column.valueLabels[value] : value;
}

export function titleOfColumn(key: string, annotation: QueryAnnotation | undefined): string {
  // Short titles ("Revenue") read better than view-prefixed ones ("Sales Revenue") in a widget.
  const a = resultColumnOf(key, annotation);
  if (a) return a.shortTitle;
  // `view.member.granularity` of a time dimension: title of the member plus the grain.
  const base = key.split(".").slice(0, 2).join(".");
  const grain = key.split(".")[2];
  const baseColumn = resultColumnOf(base, annotation);
  if (baseColumn && (baseColumn.role === "timeDimension" || baseColumn.role === "dimension"))
    return grain ? `${baseColumn.shortTitle} (${grain})` : baseColumn.shortTitle;
  return key;
}

export function typeOfColumn(key: string, annotation: QueryAnnotation | undefined): string | undefined {
  return resultColumnOf(key, annotation)?.type;
}

/** Result keys in query order: with an annotation, only the columns the result has (a compared measure `m` has no column `m`). */
export function orderedColumnKeys(rows: readonly Record<string, unknown>[], annotation: QueryAnnotation | undefined, query?: SemanticQuery): string[] {
  const annotated = resultColumnsOf(annotation);
  const rowKeys = new Set(rows.slice(0, 50).flatMap((row) => Object.keys(row)));
  const present = (key: string) => !annotation || rowKeys.has(key) || annotated.some((c) => c.key === key);
  const keys: string[] = [];
  const add = (key: string) => {
    if (!keys.includes(key) && present(key)) keys.push(key);
  };
  for (const d of query?.dimensions ?? []) add(d);
  for (const t of query?.timeDimensions ?? []) {
    if (t.granularity) add(`${t.dimension}.${t.granularity}`);
    if (t.part) add(`${t.dimension}.${t.part}`);
  }
  for (const m of query?.measures ?? []) {
    add(m);
    for (const c of annotated) if (c.role === "compare" && c.measure === m) add(c.key);
  }
  for (const c of annotated) add(c.key);
  // The engine also gives each time column by a grain under its plain member name (as Cube does);
  // the viewer sees the period once, by its grain's column, unless the query lists the member itself.
  const plainAliases = new Set(
    Object.entries(annotation?.timeDimensions ?? {}).flatMap(([column, a]) => {
      const granularity = (a as { granularity?: unknown }).granularity;
      return typeof granularity === "string" && column.endsWith(`.${granularity}`) ? [column.slice(0, -granularity.length - 1)] : [];
    }),
  );
  for (const key of rowKeys) if (!plainAliases.has(key) || (query?.dimensions ?? []).includes(key)) add(key);
  // Members the query names but the result lacks (an empty result) still get a header.
  return keys;
}

export function exportColumnsOf(rows: readonly Record<string, unknown>[], annotation: QueryAnnotation | undefined, query?: SemanticQuery): ExportColumn[] {
  return orderedColumnKeys(rows, annotation, query).map((key) => {
    const valueLabels = annotation?.dimensions[key]?.valueLabels;
    return { key, title: titleOfColumn(key, annotation), type: typeOfColumn(key, annotation), ...(valueLabels ? { valueLabels } : {}) };
  });
}
