/**
 * Filter operators the report builder offers per member type (docs/data-model.md, "Operators"),
 * and the two bounds of a `between` filter.
 */
import type { FilterOperator, FilterValue } from "../../../schema/semantic-query";
import type { MetaMember } from "./app-api";

const LIST: readonly FilterOperator[] = ["equals", "notEquals", "in", "notIn"];
const PRESENCE: readonly FilterOperator[] = ["set", "notSet"];
const COMPARISON: readonly FilterOperator[] = ["gt", "gte", "lt", "lte"];

/** Every operator a member of each type takes; measures are numbers. */
export const OPERATORS_BY_TYPE: Record<MetaMember["type"], readonly FilterOperator[]> = {
  string: [...LIST, "contains", "notContains", "startsWith", "notStartsWith", "endsWith", "notEndsWith", ...PRESENCE],
  number: [...LIST, ...COMPARISON, "between", "notBetween", ...PRESENCE],
  time: [...LIST, ...COMPARISON, "inDateRange", "notInDateRange", "beforeDate", "beforeOrOnDate", "afterDate", "afterOrOnDate", ...PRESENCE],
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

/** The values a filter keeps when its operator changes: a range and a list do not read each other's values. */
export function valuesAfterOperatorChange(from: FilterOperator, to: FilterOperator, values: FilterValue[] | undefined): FilterValue[] {
  if (NO_VALUE_OPERATORS.has(to) || isRangeOperator(from) !== isRangeOperator(to)) return [];
  return values ?? [];
}
