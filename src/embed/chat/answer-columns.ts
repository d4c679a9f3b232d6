/**
 * Columns of a table in a chat answer. The platform sends each column's key, title, type and
 * format as the query's annotation gave them; which ones are differences between two periods
 * (shown with their sign) it leaves out, so they are read off the query the same tool call ran.
 */
import type { TimePart } from "../../schema/semantic-query";
import { isCompareOutput, isSignedCompareOutput } from "../export/result-columns";
import type { CellColumn } from "../widgets/query/format-cell";
import type { ChatPart } from "./chat-api";

export interface AnswerColumn extends CellColumn {
  title: string;
  type: string;
}

const TIME_PARTS: Record<TimePart, true> = { dayOfWeek: true, hourOfDay: true, dayOfMonth: true, weekOfYear: true, monthOfYear: true, quarterOfYear: true };

const isTimePart = (value: unknown): value is TimePart => typeof value === "string" && Object.hasOwn(TIME_PARTS, value);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A record of strings (a column's `valueLabels`), without any entry that is not one; undefined when none is left. */
function stringRecordOf(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string");
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/** Measures of a query part that ran with `compare`: their `change` and `relativeChange` columns are signed. */
function comparedMeasures(query: unknown): Set<string> {
  if (!isRecord(query) || !isRecord(query.compare) || !Array.isArray(query.measures)) return new Set();
  return new Set(query.measures.filter((m): m is string => typeof m === "string"));
}

function isSigned(column: Record<string, unknown>, key: string, compared: ReadonlySet<string>): boolean {
  if (isCompareOutput(column.output)) return isSignedCompareOutput(column.output);
  const dot = key.lastIndexOf(".");
  const output = key.slice(dot + 1);
  return dot > 0 && compared.has(key.slice(0, dot)) && isCompareOutput(output) && isSignedCompareOutput(output);
}

/** The table part's columns, checked (they come over the wire), with the query part that produced them. */
export function answerColumnsOf(part: ChatPart, queryPart: ChatPart | undefined): AnswerColumn[] {
  const compared = comparedMeasures(queryPart?.query);
  const raw = Array.isArray(part.columns) ? part.columns : [];
  return raw.flatMap((c): AnswerColumn[] => {
    if (!isRecord(c) || typeof c.key !== "string") return [];
    const type = typeof c.type === "string" ? c.type : "string";
    const column: AnswerColumn = { key: c.key, title: typeof c.title === "string" ? c.title : c.key, type };
    if (typeof c.format === "string") column.annotationFormat = c.format;
    if (isTimePart(c.timePart)) column.timePart = c.timePart;
    if (isSigned(c, c.key, compared)) column.signed = true;
    const labels = stringRecordOf(c.valueLabels);
    if (labels) column.valueLabels = labels;
    return [column];
  });
}

/** The query part a table part belongs to: the last one before it in the message (one tool call gives both). */
export function queryPartOf(parts: readonly ChatPart[], table: ChatPart): ChatPart | undefined {
  const at = parts.indexOf(table);
  for (let i = at - 1; i >= 0; i--) if (parts[i]!.type === "query") return parts[i];
  return undefined;
}
