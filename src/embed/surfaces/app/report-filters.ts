/**
 * Filter operators the report builder offers per member type (docs/data-model.md, "Operators"),
 * each with the catalogue key of its name as people say it ("is", "at least", "on or before"),
 * which values each one takes, and the two bounds of a `between` filter.
 */
import type { FilterOperator, FilterValue } from "../../../schema/semantic-query";
import type { MetaMember } from "./app-api";
import type { AppMessageKey } from "./app-messages";

const LIST: readonly FilterOperator[] = ["equals", "notEquals", "in", "notIn"];
const PRESENCE: readonly FilterOperator[] = ["set", "notSet"];
const COMPARISON: readonly FilterOperator[] = ["gt", "gte", "lt", "lte"];

/**
 * Every operator the builder offers a member of each type; measures are numbers. A date is
 * compared with before / after (`gt` and the like stay readable on a saved filter).
 */
export const OPERATORS_BY_TYPE: Record<MetaMember["type"], readonly FilterOperator[]> = {
  string: [...LIST, "contains", "notContains", "startsWith", "notStartsWith", "endsWith", "notEndsWith", ...PRESENCE],
  number: [...LIST, ...COMPARISON, "between", "notBetween", ...PRESENCE],
  time: [...LIST, "inDateRange", "notInDateRange", "beforeDate", "beforeOrOnDate", "afterDate", "afterOrOnDate", ...PRESENCE],
  boolean: [...LIST, ...PRESENCE],
};

/** Operators to offer for a member: those of its type, and the filter's own (a saved filter keeps showing what it has). */
export function operatorsFor(member: MetaMember | undefined, current: FilterOperator): readonly FilterOperator[] {
  const offered = OPERATORS_BY_TYPE[member?.type ?? "string"];
  return offered.includes(current) ? offered : [current, ...offered];
}

/** Operators without values. */
export const NO_VALUE_OPERATORS: ReadonlySet<FilterOperator> = new Set(["set", "notSet"]);

/** Operators that take exactly a lower and an upper bound. */
export function isRangeOperator(operator: FilterOperator): boolean {
  return operator === "between" || operator === "notBetween";
}

/**
 * The values of a range filter from the two inputs: both numbers, the lower first (the query is
 * refused otherwise, so bounds typed the wrong way round are put in order); none while one is missing.
 */
export function rangeValues(low: string, high: string): FilterValue[] {
  if (low.trim() === "" || high.trim() === "") return [];
  const a = Number(low);
  const b = Number(high);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return [];
  return a <= b ? [a, b] : [b, a];
}

/** The values a filter keeps when its operator changes: only between operators that take values alike (a range and a list do not read each other's). */
export function valuesAfterOperatorChange(from: FilterOperator, to: FilterOperator, values: FilterValue[] | undefined): FilterValue[] {
  if (NO_VALUE_OPERATORS.has(to) || valueInputOf(from) !== valueInputOf(to)) return [];
  return values ?? [];
}

/** The catalogue key of each operator's name. */
export const OPERATOR_NAMES: Record<FilterOperator, AppMessageKey> = {
  equals: "opEquals",
  notEquals: "opNotEquals",
  in: "opIn",
  notIn: "opNotIn",
  contains: "opContains",
  notContains: "opNotContains",
  startsWith: "opStartsWith",
  notStartsWith: "opNotStartsWith",
  endsWith: "opEndsWith",
  notEndsWith: "opNotEndsWith",
  gt: "opGt",
  gte: "opGte",
  lt: "opLt",
  lte: "opLte",
  between: "opBetween",
  notBetween: "opNotBetween",
  set: "opSet",
  notSet: "opNotSet",
  inDateRange: "opInDateRange",
  notInDateRange: "opNotInDateRange",
  beforeDate: "opBeforeDate",
  beforeOrOnDate: "opBeforeOrOnDate",
  afterDate: "opAfterDate",
  afterOrOnDate: "opAfterOrOnDate",
};

/**
 * How a filter's values are entered: none, two number bounds, two dates, one date, or a list
 * (with the member's values to pick from).
 */
export type ValueInput = "none" | "numberRange" | "dateRange" | "date" | "list";

export function valueInputOf(operator: FilterOperator): ValueInput {
  if (NO_VALUE_OPERATORS.has(operator)) return "none";
  if (isRangeOperator(operator)) return "numberRange";
  if (operator === "inDateRange" || operator === "notInDateRange") return "dateRange";
  if (operator === "beforeDate" || operator === "beforeOrOnDate" || operator === "afterDate" || operator === "afterOrOnDate") return "date";
  return "list";
}
