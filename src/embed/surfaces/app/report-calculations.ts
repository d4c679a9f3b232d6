/**
 * The builder's calculations on the query contract: percent of total (`calculations`, type
 * `percentOfTotal`) and a comparison with the previous period or the same period a year before.
 * A trend (a time dimension by a period) compares bucket by bucket (`periodComparisons`, the
 * bucket one period or one year earlier); otherwise the date range of the time dimension is
 * compared with the range before it (`compare: { dimension, baseline, current }`; docs/data-model.md,
 * "Comparing two date ranges"). A choice that cannot run yet (no date range, no count or sum) is
 * named and left out, like a half-made filter.
 */
import type { PeriodComparison } from "../../../schema/dashboard";
import type { CompareRanges, DateRange } from "../../../schema/semantic-query";
import type { SemanticQuery } from "../../shell/platform-api";
import type { AppMessageKey } from "./app-messages";

export type CompareMode = "none" | "previousPeriod" | "yearBefore";

export interface CalculationChoices {
  compare: CompareMode;
  percentOfTotal: boolean;
}

export interface CalculatedQuery {
  query: SemanticQuery;
  periodComparisons: PeriodComparison[] | null;
  /** Why a chosen calculation is left out, by choice. */
  leftOut: { compare?: AppMessageKey; percentOfTotal?: AppMessageKey };
}

export interface CalculationContext {
  /** Whether a measure adds up over rows (a count or a sum): only those take a percent of total. */
  additive(measure: string): boolean;
  /** Today as `YYYY-MM-DD`: relative ranges are compared as the dates they mean today. */
  today: string;
}

type QueryTimeDimension = NonNullable<SemanticQuery["timeDimensions"]>[number];

const COMPARISON_UNITS: ReadonlySet<string> = new Set(["day", "week", "month", "quarter", "year"]);
/** Measure types that add up over rows. */
export const ADDITIVE_MEASURE_TYPES: ReadonlySet<string> = new Set(["count", "sum"]);

/** The complete query with the chosen calculations on it, and what was left out and why. */
export function withCalculations(q: SemanticQuery, choices: CalculationChoices, ctx: CalculationContext): CalculatedQuery {
  const measures = q.measures ?? [];
  const leftOut: CalculatedQuery["leftOut"] = {};
  let query: SemanticQuery = q;
  let periodComparisons: PeriodComparison[] | null = null;
  const td = q.timeDimensions?.[0];
  if (choices.compare !== "none" && measures.length) {
    if (td?.granularity) {
      if (choices.percentOfTotal) leftOut.compare = "compareNotWithShare";
      else {
        const unit = choices.compare === "yearBefore" ? "year" : COMPARISON_UNITS.has(td.granularity) ? td.granularity : "day";
        periodComparisons = [{ measure: measures[0]!, timeDimension: td.dimension, offset: { amount: 1, unit } }];
      }
    } else {
      const ranges = td?.dateRange ? compareRangesOf(td.dateRange, choices.compare, ctx.today) : null;
      if (!td || !ranges) leftOut.compare = "compareNeedsRange";
      else query = comparedQueryOf(q, td, ranges);
    }
  }
  if (choices.percentOfTotal) {
    const shared = measures.filter((m) => ctx.additive(m));
    if (!shared.length) leftOut.percentOfTotal = "percentOfTotalNeeds";
    else {
      const shares = shared.map((m) => ({ type: "percentOfTotal" as const, measure: query.compare ? `${m}.current` : m }));
      query = { ...query, calculations: [...(query.calculations ?? []), ...shares] };
    }
  }
  return { query, periodComparisons, leftOut };
}

/** The query comparing `td`'s range: the compared dimension keeps only a part of time, an order by a measure reads its current value. */
function comparedQueryOf(q: SemanticQuery, td: QueryTimeDimension, ranges: Omit<CompareRanges, "dimension">): SemanticQuery {
  const { dateRange: _compared, granularity: _none, ...kept } = td;
  const measures = new Set(q.measures ?? []);
  const order = (Array.isArray(q.order) ? q.order : Object.entries(q.order ?? {}))
    .filter(([column]) => column !== td.dimension)
    .map(([column, direction]): [string, "asc" | "desc"] => [measures.has(column) ? `${column}.current` : column, direction]);
  const out: SemanticQuery = {
    ...q,
    timeDimensions: [...(kept.part ? [kept] : []), ...(q.timeDimensions ?? []).slice(1)],
    compare: { dimension: td.dimension, ...ranges },
  };
  if (!out.timeDimensions!.length) delete out.timeDimensions;
  if (order.length) out.order = order;
  else delete out.order;
  return out;
}

type Unit = "day" | "week" | "month" | "quarter" | "year";

/**
 * The two ranges of a comparison of `range`. "This month/quarter/year" against the previous
 * one stays relative ("last month"), so a saved report keeps moving with the calendar; other
 * relative ranges are compared as the dates they mean on `today`.
 */
export function compareRangesOf(range: DateRange, mode: Exclude<CompareMode, "none">, today: string): { baseline: DateRange; current: DateRange } | null {
  if (typeof range === "string") {
    const phrase = range.trim().toLowerCase();
    const m = /^this (day|week|month|quarter|year)$/.exec(phrase);
    if (mode === "previousPeriod" && (m || phrase === "today")) return { baseline: m ? `last ${m[1]}` : "yesterday", current: range };
  }
  const dates = typeof range === "string" ? datesOfRelative(range, today) : [range[0].slice(0, 10), range[1].slice(0, 10)];
  if (!dates) return null;
  const [from, to] = dates as [string, string];
  if (mode === "yearBefore") return { baseline: [addMonths(from, -12), addMonths(to, -12)], current: [from, to] };
  const months = wholeMonths(from, to);
  const before = addDays(from, -1);
  const baseline: [string, string] = months ? [addMonths(from, -months), before] : [addDays(from, -(daysBetween(from, to) + 1)), before];
  return { baseline, current: [from, to] };
}

/** The dates a relative range means on `today` (the N complete units before the current one for `last N …`). */
export function datesOfRelative(phrase: string, today: string): [string, string] | null {
  const p = phrase.trim().toLowerCase().replace(/\s+/g, " ");
  if (p === "today") return [today, today];
  if (p === "yesterday") return [addDays(today, -1), addDays(today, -1)];
  const m = /^(this|last)(?: (\d{1,4}))? (day|week|month|quarter|year)s?$/.exec(p);
  if (!m || (m[1] === "this" && m[2])) return null;
  const unit = m[3] as Unit;
  const n = m[2] ? Number(m[2]) : 1;
  const start = startOf(today, unit);
  if (m[1] === "this") return [start, addDays(shift(start, unit, 1), -1)];
  return [shift(start, unit, -n), addDays(start, -1)];
}

const toDate = (d: string) => new Date(`${d.slice(0, 10)}T00:00:00Z`);
const iso = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: string, n: number) => iso(new Date(toDate(d).getTime() + n * 86_400_000));
const daysBetween = (a: string, b: string) => Math.round((toDate(b).getTime() - toDate(a).getTime()) / 86_400_000);

/** `d` plus `n` months, the day kept or the month's last day (29 February a year before is 28 February). */
function addMonths(d: string, n: number): string {
  const date = toDate(d);
  const first = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + n, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return iso(new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(date.getUTCDate(), last))));
}

/** How many whole calendar months `[from, to]` spans (from the 1st to a month's last day), else 0. */
function wholeMonths(from: string, to: string): number {
  if (from.slice(8, 10) !== "01" || addDays(to, 1).slice(8, 10) !== "01") return 0;
  const a = toDate(from);
  const b = toDate(addDays(to, 1));
  return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
}

function startOf(d: string, unit: Unit): string {
  const date = toDate(d);
  if (unit === "day") return d.slice(0, 10);
  if (unit === "week") return addDays(d, -((date.getUTCDay() + 6) % 7));
  const month = unit === "month" ? date.getUTCMonth() : unit === "quarter" ? date.getUTCMonth() - (date.getUTCMonth() % 3) : 0;
  return iso(new Date(Date.UTC(date.getUTCFullYear(), month, 1)));
}

function shift(d: string, unit: Unit, n: number): string {
  if (unit === "day") return addDays(d, n);
  if (unit === "week") return addDays(d, 7 * n);
  return addMonths(d, n * (unit === "month" ? 1 : unit === "quarter" ? 3 : 12));
}

/**
 * The builder's choices in a saved query: its `compare` back on the time dimension's range when
 * it is one of the builder's (the previous period, the same period a year before), its shares off.
 * A comparison of other ranges (made in the chat or the API) stays in the query as it is.
 */
export function savedCalculationsOf(
  saved: SemanticQuery,
  periodComparisons: readonly PeriodComparison[] | null,
  today: string,
): CalculationChoices & { query: SemanticQuery } {
  const { compare, calculations, ...rest } = saved;
  const query: SemanticQuery = rest;
  const percentOfTotal = !!calculations?.some((c) => c.type === "percentOfTotal");
  // Running totals and ranks (from the chat or the API) stay as they are; the shares are the builder's choice.
  const windows = calculations?.filter((c) => c.type !== "percentOfTotal") ?? [];
  if (windows.length) query.calculations = windows;
  const kept = (q: SemanticQuery, mode: CompareMode) => ({ query: q, percentOfTotal, compare: mode });
  if (!compare) {
    const pc = periodComparisons?.[0];
    return kept(query, pc ? (pc.offset.unit === "year" ? "yearBefore" : "previousPeriod") : "none");
  }
  const dateRange = typeof compare.current === "string" ? compare.current : ([compare.current[0]!, compare.current[1]!] as [string, string]);
  const same = (mode: Exclude<CompareMode, "none">) => JSON.stringify(compareRangesOf(dateRange, mode, today)?.baseline) === JSON.stringify(compare.baseline);
  const mode = same("previousPeriod") ? "previousPeriod" : same("yearBefore") ? "yearBefore" : null;
  if (!mode) return kept({ ...query, compare }, "none");
  const others = (query.timeDimensions ?? []).filter((t) => t.dimension !== compare.dimension);
  const own = query.timeDimensions?.find((t) => t.dimension === compare.dimension);
  query.timeDimensions = [{ ...(own ?? { dimension: compare.dimension }), dateRange }, ...others];
  const measures = new Set(query.measures ?? []);
  const order = Array.isArray(query.order) ? query.order : Object.entries(query.order ?? {});
  if (order.length)
    query.order = order.map(([c, d]): [string, "asc" | "desc"] => [c.endsWith(".current") && measures.has(c.slice(0, -8)) ? c.slice(0, -8) : c, d]);
  return kept(query, mode);
}
