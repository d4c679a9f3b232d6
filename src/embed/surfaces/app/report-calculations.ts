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
import type { CompareRanges, QueryFilter } from "../../../schema/semantic-query";
import type { SemanticQuery } from "../../shell/platform-api";
import type { AppMessageKey } from "./app-messages";
import { compareRangesOf, type CompareMode } from "./report-compare-ranges";

export type { CompareMode };

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
  /** Whether a member is a measure (a filter on one is HAVING: which period would it mean?). */
  isMeasure(member: string): boolean;
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
      if (choices.percentOfTotal || q.calculations?.length) leftOut.compare = "compareNotWithShare";
      else {
        const unit = choices.compare === "yearBefore" ? "year" : COMPARISON_UNITS.has(td.granularity) ? td.granularity : "day";
        periodComparisons = [{ measure: measures[0]!, timeDimension: td.dimension, offset: { amount: 1, unit } }];
      }
    } else {
      const ranges = td?.dateRange ? compareRangesOf(td.dateRange, choices.compare, ctx.today) : null;
      if (!td || !ranges) leftOut.compare = "compareNeedsRange";
      else if (filtersMembers(q.filters ?? []).some(ctx.isMeasure)) leftOut.compare = "compareNotWithMeasureFilter";
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

function filtersMembers(filters: readonly QueryFilter[]): string[] {
  return filters.flatMap((f) => ("member" in f ? [f.member] : filtersMembers("or" in f ? f.or : f.and)));
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
