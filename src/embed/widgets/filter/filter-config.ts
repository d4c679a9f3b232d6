/** FILTER config `{ member, control: "values"|"dateRange"|"numberRange", label?, multiple? }` and its filter values. */
import type { DashboardWidget } from "../../../schema/dashboard";
import { isMemberName, type DashboardFilter, type FilterScalar } from "../../../schema/dashboard-filters";
import { allWidgets } from "../tabs-container/tabs-config";

export type FilterControlKind = "values" | "dateRange" | "numberRange";

export interface FilterWidgetConfig {
  member: string;
  control: FilterControlKind;
  label: string | null;
  multiple: boolean;
}

export function filterConfigOf(widget: DashboardWidget): FilterWidgetConfig | null {
  const c = (widget.config ?? {}) as { member?: unknown; control?: unknown; label?: unknown; multiple?: unknown };
  if (typeof c.member !== "string" || !isMemberName(c.member)) return null;
  const control: FilterControlKind = c.control === "dateRange" || c.control === "numberRange" ? c.control : "values";
  return { member: c.member, control, label: typeof c.label === "string" ? c.label : null, multiple: c.multiple !== false };
}

/** The members the dashboard has a filter control for, the ones inside tabs included. */
export function filterMembersOf(widgets: readonly DashboardWidget[] | null | undefined): Set<string> {
  return new Set(
    allWidgets(widgets ?? [])
      .filter((w) => w.type === "FILTER")
      .flatMap((w) => filterConfigOf(w)?.member ?? []),
  );
}

/** Values a filter selects (for a value picker): the equals-values, as a list. */
export function selectedValues(filter: DashboardFilter | undefined): FilterScalar[] {
  if (!filter || filter.operator !== "equals" || filter.value === undefined) return [];
  return Array.isArray(filter.value) ? filter.value : [filter.value];
}

/** The filter for a value selection; null (no filter) for an empty one. */
export function valuesFilter(member: string, values: readonly FilterScalar[]): DashboardFilter | null {
  if (values.length === 0) return null;
  return { member, operator: "equals", value: values.length === 1 ? values[0]! : [...values] };
}

/** The filter for a range; an open end uses ≥ / ≤, both ends empty clears it. */
export function rangeFilter(member: string, from: FilterScalar | null, to: FilterScalar | null): DashboardFilter | null {
  if (from !== null && to !== null) return { member, operator: "between", value: [from, to] };
  if (from !== null) return { member, operator: "greater_than_or_equal", value: from };
  if (to !== null) return { member, operator: "less_than_or_equal", value: to };
  return null;
}

/** The two ends of a range filter, for showing it in the inputs. */
export function rangeOf(filter: DashboardFilter | undefined): [FilterScalar | null, FilterScalar | null] {
  if (!filter) return [null, null];
  if (filter.operator === "between" && Array.isArray(filter.value)) return [filter.value[0] ?? null, filter.value[1] ?? null];
  if (filter.operator === "greater_than_or_equal" || filter.operator === "greater_than") return [(filter.value as FilterScalar) ?? null, null];
  if (filter.operator === "less_than_or_equal" || filter.operator === "less_than") return [null, (filter.value as FilterScalar) ?? null];
  return [null, null];
}
