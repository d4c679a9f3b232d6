/**
 * Columns of an exported result: the query's members in query order (dimensions, time
 * dimensions, measures), then any further columns the result carries (period comparison
 * outputs), titled from the query annotation.
 */
import type { QueryAnnotation, SemanticQuery } from "../shell/platform-api";

export interface ExportColumn {
  /** Key in the result rows. */
  key: string;
  /** Header shown to people. */
  title: string;
  /** Semantic type from the annotation (`number`, `time`, `string`, …) when known. */
  type?: string;
}

export function titleOfColumn(key: string, annotation: QueryAnnotation | undefined): string {
  const a = annotation?.measures[key] ?? annotation?.dimensions[key] ?? annotation?.timeDimensions[key];
  // Short titles ("Revenue") read better than view-prefixed ones ("Sales Revenue") in a widget.
  if (a?.shortTitle || a?.title) return (a.shortTitle || a.title)!;
  // `view.member.granularity` of a time dimension: title of the member plus the grain.
  const base = key.split(".").slice(0, 2).join(".");
  const grain = key.split(".")[2];
  const baseAnnotation = annotation?.timeDimensions[base] ?? annotation?.dimensions[base];
  const baseTitle = baseAnnotation?.shortTitle || baseAnnotation?.title;
  if (baseTitle) return grain ? `${baseTitle} (${grain})` : baseTitle;
  return key;
}

export function typeOfColumn(key: string, annotation: QueryAnnotation | undefined): string | undefined {
  return (annotation?.measures[key] ?? annotation?.dimensions[key] ?? annotation?.timeDimensions[key])?.type;
}

export function exportColumnsOf(
  rows: readonly Record<string, unknown>[],
  annotation: QueryAnnotation | undefined,
  query?: SemanticQuery,
): ExportColumn[] {
  const keys: string[] = [];
  const add = (key: string) => {
    if (!keys.includes(key)) keys.push(key);
  };
  for (const d of query?.dimensions ?? []) add(d);
  for (const t of query?.timeDimensions ?? []) if (t.granularity) add(`${t.dimension}.${t.granularity}`);
  for (const m of query?.measures ?? []) add(m);
  for (const row of rows.slice(0, 50)) for (const key of Object.keys(row)) add(key);
  // Members the query names but the result lacks (an empty result) still get a header.
  return keys.map((key) => ({ key, title: titleOfColumn(key, annotation), type: typeOfColumn(key, annotation) }));
}
