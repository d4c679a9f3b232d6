/**
 * The report builder's time dimension: grouped by a period (a granularity: months, weeks) or by
 * a part of time (day of week, hour of day, month of year), never both, as the query contract has
 * it (docs/data-model.md, "Parts of time").
 */
import { granularities, type Granularity, type TimePart } from "../../../schema/semantic-query";
import { timePartLabel } from "../../../schema/time-part-labels";
import type { SemanticQuery } from "../../shell/platform-api";
import type { AppMessageKey } from "./app-messages";

type TimeDimension = NonNullable<SemanticQuery["timeDimensions"]>[number];

/** Periods the builder offers, finest first, with the catalogue key of each one's name. */
export const GRANULARITIES = ["day", "week", "month", "quarter", "year"] as const;
export const GRANULARITY_NAMES: Record<(typeof GRANULARITIES)[number], AppMessageKey> = {
  day: "granDay",
  week: "granWeek",
  month: "granMonth",
  quarter: "granQuarter",
  year: "granYear",
};

/**
 * Relative date ranges the builder offers, as the query contract reads them (docs/data-model.md,
 * "Date ranges and time zones": "last 7 days" are the 7 complete days before today), with the
 * catalogue key of each one's name.
 */
export const RELATIVE_DATE_RANGES: readonly (readonly [string, AppMessageKey])[] = [
  ["last 7 days", "rangeLast7Days"],
  ["last 30 days", "rangeLast30Days"],
  ["this month", "rangeThisMonth"],
  ["last month", "rangeLastMonth"],
  ["this quarter", "rangeThisQuarter"],
  ["last quarter", "rangeLastQuarter"],
  ["this year", "rangeThisYear"],
  ["last year", "rangeLastYear"],
];

/** The value of the "date range" choice: "" (all time), a relative range, or `custom` for two dates. */
export function dateRangeChoiceOf(range: TimeDimension["dateRange"]): string {
  if (range === undefined) return "";
  if (Array.isArray(range)) return "custom";
  // A range saved in other words ("Last 7 days") reads as the same choice.
  const phrase = range.trim().toLowerCase().replace(/\s+/g, " ");
  return RELATIVE_DATE_RANGES.some(([value]) => value === phrase) ? phrase : "custom";
}

/** The time dimension over the chosen range: none, a relative one, or two dates (kept from a custom range, empty to start). */
export function withDateRangeChoice(td: TimeDimension, choice: string): TimeDimension {
  const { dateRange, ...rest } = td;
  if (!choice) return rest;
  if (choice === "custom") return { ...rest, dateRange: Array.isArray(dateRange) ? dateRange : ["", ""] };
  return { ...rest, dateRange: choice };
}

/** Parts of time the builder offers, with the catalogue key of each one's name. */
export const TIME_PART_NAMES: Record<TimePart, AppMessageKey> = {
  dayOfWeek: "partDayOfWeek",
  hourOfDay: "partHourOfDay",
  dayOfMonth: "partDayOfMonth",
  weekOfYear: "partWeekOfYear",
  monthOfYear: "partMonthOfYear",
  quarterOfYear: "partQuarterOfYear",
};

const isTimePart = (value: string): value is TimePart => Object.hasOwn(TIME_PART_NAMES, value);
const isGranularity = (value: string): value is Granularity => (granularities as readonly string[]).includes(value);

/** The value of the "group by" choice: `granularity:month`, `part:dayOfWeek`, or "" (no grouping). */
export function timeGroupingOf(td: TimeDimension | undefined): string {
  if (td?.part) return `part:${td.part}`;
  if (td?.granularity) return `granularity:${td.granularity}`;
  return "";
}

/** The time dimension grouped by `grouping` (a value of `timeGroupingOf`); its date range stays. */
export function withTimeGrouping(td: TimeDimension, grouping: string): TimeDimension {
  const { granularity: _g, part: _p, ...rest } = td;
  const [kind, value = ""] = grouping.split(":");
  if (kind === "part" && isTimePart(value)) return { ...rest, part: value };
  if (kind === "granularity" && isGranularity(value)) return { ...rest, granularity: value };
  return rest;
}

/** The result column of a grouped time dimension (`sales.created_at.month`, `sales.created_at.dayOfWeek`), or the member itself. */
export function timeColumnOf(td: TimeDimension): string {
  const grouping = td.part ?? td.granularity;
  return grouping ? `${td.dimension}.${grouping}` : td.dimension;
}

/** The range of a part's integers. */
const PART_RANGES: Record<TimePart, [number, number]> = {
  dayOfWeek: [1, 7],
  hourOfDay: [0, 23],
  dayOfMonth: [1, 31],
  weekOfYear: [1, 53],
  monthOfYear: [1, 12],
  quarterOfYear: [1, 4],
};

/**
 * A vega expression that labels a part's integers on an axis in `locale` ("Montag", "14:00"):
 * an array of the labels indexed by the value, so the chart needs no function of its own.
 */
export function timePartLabelExpr(locale: string, part: TimePart): string {
  const [low, high] = PART_RANGES[part];
  const labels: string[] = [];
  for (let v = 0; v <= high; v++) labels.push(v < low ? "" : timePartLabel(locale, part, v));
  return `${JSON.stringify(labels)}[datum.value] || datum.label`;
}
