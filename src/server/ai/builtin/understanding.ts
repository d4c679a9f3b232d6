/**
 * The engine's reading of a question (`Understanding`): what the question-reading step gives
 * and the query, summary and chart steps take.
 */
import type { CalculatedField } from "../../../schema/calculated-field";
import type { Granularity, TimePart } from "../../../schema/semantic-query";
import type { Language } from "../builtin-language";

/** The engine's reading of a question. */
export interface Understanding {
  language: Language;
  view: string;
  measures: string[];
  dimensions: string[];
  time?: { dimension: string; granularity?: Granularity; part?: TimePart; range?: { from: string; to: string }; label?: string };
  /** Values kept (or, with `exclude`, left out: "excluding cancelled orders"). */
  filters: { member: string; values: string[]; exclude?: boolean }[];
  /** Numeric conditions: on a number dimension (rows) or on a measure (groups, `HAVING`). */
  conditions?: Condition[];
  /**
   * Filters joined by "or": each group holds when one of its alternatives does (all of that
   * alternative's filters and conditions); the groups and the filters above all hold.
   */
  anyOf?: Alternative[][];
  limit?: number;
  direction?: "asc" | "desc";
  /** Growth and period-over-period: each row against the same measure one `unit` (or `amount` units) earlier. */
  compare?: { unit: Grain; toDate?: boolean; amount?: number };
  /** "top 5 countries by growth": the rows ranked by their relative change, and the first `limit` kept. */
  rankByChange?: { limit: number; direction: "asc" | "desc" };
  /** Two date ranges side by side ("Q1 2025 with Q1 2024"): the earlier is the baseline. */
  periods?: { dimension: string; baseline: { from: string; to: string }; current: { from: string; to: string } };
  /** A column worked out over the rows: each row's share of the total, or the running total along time. */
  calculation?: "percentOfTotal" | "runningTotal" | "rank";
  /** "the best-selling product in each category": the first `limit` rows within each value of `within`. */
  perGroup?: { within: string[]; limit: number };
  /** "why did revenue fall in February 2025?": which values moved the measure between the periods. */
  explain?: boolean;
  /**
   * "why is revenue in Germany lower than in France?": explained between two values of one
   * dimension (the first named is `current`, the one it is set against `baseline`), not two periods.
   */
  segments?: { member: string; baseline: string; current: string };
  /** Calculated fields the measures name ("share of revenue from Electronics", "average revenue per customer"): ratio.ts. */
  fields?: CalculatedField[];
  /** What the fields are made of, to title them: a measure per a count, or a measure over the rows these filters and conditions keep. */
  ratio?:
    | { measure: string; per: string; each?: undefined }
    | { measure: string; per?: undefined; each?: undefined; filters: Understanding["filters"]; conditions: Condition[] }
    /**
     * "share of revenue by country for DE and FR": each value's share of the whole, and its figure
     * (two fields a value); `title`: the measure's, as the fields were last titled.
     */
    | { measure: string; per?: undefined; each: { member: string; values: string[] }; title?: string };
  defaultMeasure: boolean;
  ignored: string[];
}

/** One side of an "or": filters and conditions that all hold. */
export interface Alternative {
  filters: { member: string; values: string[] }[];
  conditions: Condition[];
}

/** "orders above $500", "more than 3 units": a member compared with a number. */
export interface Condition {
  member: string;
  operator: "gt" | "gte" | "lt" | "lte" | "between";
  value: number;
  /** The upper bound of `between` (both included). */
  high?: number;
}

/**
 * Why a question gets no figures: it asks to change data, or it names something the data does
 * not hold (`term`, the first such word; `grouping` when it was asked "by": "by customer
 * segment", with the entity it was said of).
 */
export type Refusal =
  | { kind: "write" }
  /** Conditions joined by "or" ("above $500 or below $10"): read as all holding, they would give a wrong figure. */
  | { kind: "either" }
  | { kind: "unknown"; term: string; view: string; grouping?: { entity?: string } };

export type Reading = { ok: true; understanding: Understanding } | { ok: false; language: Language; unmatched: string; refusal?: Refusal };

export type Grain = "day" | "week" | "month" | "quarter" | "year";

/** The output columns of an understanding's period comparison: previous value, change, relative change. */
export function comparisonColumns(u: Understanding): { previous: string; change: string; percent: string } | null {
  if (!u.compare) return null;
  const m = u.measures[0]!;
  const back = u.compare.amount && u.compare.amount > 1 ? `${u.compare.amount}_${u.compare.unit}s` : u.compare.unit;
  return { previous: `${m}_prev_${back}`, change: `${m}_change`, percent: `${m}_change_pct` };
}
