/**
 * The complete part of a report draft: what the builder previews and saves. A filter still being
 * made (no value yet, one bound of a `between`, a number that is not one, half a date range) stays
 * in the draft on screen, marked incomplete, and is left out of the query until it is complete,
 * so a draft never sends the server a query it refuses (docs/data-model.md, "Operators").
 */
import type { FilterValue, MemberFilter, QueryFilter } from "../../../schema/semantic-query";
import type { SemanticQuery } from "../../shell/platform-api";
import type { MetaMember } from "./app-api";
import { ADDITIVE_MEASURE_TYPES, withCalculations, type CalculatedQuery } from "./report-calculations";
import { isRangeOperator, NO_VALUE_OPERATORS } from "./report-filters";
import type { ReportDraft } from "./use-report-draft";

/** A member's type by its name (undefined: not in the data model, its values are not checked). */
export type MemberTypeOf = (member: string) => MetaMember["type"] | undefined;

export type FilterState = "complete" | "incomplete";

const SINGLE_VALUE: ReadonlySet<string> = new Set(["gt", "gte", "lt", "lte", "beforeDate", "beforeOrOnDate", "afterDate", "afterOrOnDate"]);
const DATE_RANGE: ReadonlySet<string> = new Set(["inDateRange", "notInDateRange"]);

/** `YYYY-MM-DD`, optionally with a time: a real calendar day. */
export function isDateValue(value: FilterValue): boolean {
  if (typeof value !== "string") return false;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim());
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d;
}

const isNumberValue = (value: FilterValue) =>
  typeof value === "number" ? Number.isFinite(value) : typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value));

/** A relative range the query contract reads ("last 7 days", "this month"; docs/data-model.md, "Date ranges and time zones"). */
export function isRelativeRange(value: string): boolean {
  const phrase = value.trim().toLowerCase().replace(/\s+/g, " ");
  return (
    ["today", "yesterday", "tomorrow"].includes(phrase) ||
    /^(this|last|next) (day|week|month|quarter|year)s?$/.test(phrase) ||
    /^(last|next) \d{1,4} (day|week|month|quarter|year)s?$/.test(phrase)
  );
}

/** A `dateRange` that can run: two real dates, the first not after the second, or a relative range. */
export function isCompleteDateRange(range: string | readonly string[] | undefined): boolean {
  if (range === undefined) return true;
  if (typeof range === "string") return isRelativeRange(range);
  return range.length === 2 && isDateValue(range[0]!) && isDateValue(range[1]!) && range[0]!.slice(0, 10) <= range[1]!.slice(0, 10);
}

/** Whether a member filter can run as it is: its operator's number of values, each of the member's type. */
export function filterState(filter: MemberFilter, typeOf: MemberTypeOf = () => undefined): FilterState {
  const values = filter.values ?? [];
  const type = typeOf(filter.member);
  const ok = (() => {
    if (NO_VALUE_OPERATORS.has(filter.operator)) return values.length === 0;
    if (isRangeOperator(filter.operator)) return values.length === 2 && values.every(isNumberValue) && Number(values[0]) <= Number(values[1]);
    if (DATE_RANGE.has(filter.operator))
      return values.length === 1 ? typeof values[0] === "string" && isRelativeRange(values[0]) : values.length === 2 && isCompleteDateRange(values.map(String));
    if (values.length === 0 || (SINGLE_VALUE.has(filter.operator) && values.length !== 1)) return false;
    if (values.some((v) => v === null || (typeof v === "string" && v.trim() === ""))) return false;
    if (type === "number") return values.every(isNumberValue);
    if (type === "time") return values.every(isDateValue);
    if (type === "boolean") return values.every((v) => v === true || v === false || v === "true" || v === "false");
    return true;
  })();
  return ok ? "complete" : "incomplete";
}

/** The complete filters of a list: incomplete ones left out, a group without complete members dropped. */
export function completeFiltersOf(filters: readonly QueryFilter[], typeOf: MemberTypeOf): QueryFilter[] {
  return filters.flatMap((f): QueryFilter[] => {
    if ("member" in f) return filterState(f, typeOf) === "complete" ? [f] : [];
    const key = "or" in f ? "or" : "and";
    const inner = completeFiltersOf("or" in f ? f.or : f.and, typeOf);
    if (!inner.length) return [];
    return [key === "or" ? { or: inner } : { and: inner }];
  });
}

/** The query a draft previews and saves: its incomplete filters, unfinished date ranges and unpicked breakouts left out. */
export function completeQueryOf(query: SemanticQuery, typeOf: MemberTypeOf = () => undefined): SemanticQuery {
  const { filters, timeDimensions, dimensions, ...rest } = query;
  const out: SemanticQuery = { ...rest };
  // A breakout whose dimension is not picked yet is left out; a dimension picked twice runs once.
  const picked = [...new Set((dimensions ?? []).filter((d) => d !== ""))];
  if (picked.length) out.dimensions = picked;
  if (timeDimensions)
    out.timeDimensions = timeDimensions.map((td) => {
      if (isCompleteDateRange(td.dateRange)) return td;
      const { dateRange: _unfinished, ...kept } = td;
      return kept;
    });
  if (filters) {
    const complete = completeFiltersOf(filters, typeOf);
    if (complete.length) out.filters = complete;
  }
  return out;
}

export interface RunContext {
  typeOf: MemberTypeOf;
  /** A measure's type in the data model (`count`, `sum`, `avg`, …). */
  measureTypeOf(measure: string): string | undefined;
  /** Today as `YYYY-MM-DD` (relative ranges compared as dates). */
  today: string;
}

/** What a draft runs and saves: its complete query with the chosen calculations, and what they left out. */
export function runQueryOf(draft: Pick<ReportDraft, "query" | "compare" | "percentOfTotal">, ctx: RunContext): CalculatedQuery {
  const complete = completeQueryOf(draft.query, ctx.typeOf);
  return withCalculations(
    complete,
    { compare: draft.compare, percentOfTotal: draft.percentOfTotal },
    {
      additive: (m) => ADDITIVE_MEASURE_TYPES.has(ctx.measureTypeOf(m) ?? ""),
      isMeasure: (m) => ctx.measureTypeOf(m) !== undefined,
      today: ctx.today,
    },
  );
}
