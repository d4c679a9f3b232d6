/**
 * The query a widget runs: its report's query with the dashboard state applied — filters of
 * members of the same view, time grain overrides of its time dimensions, the active time zone.
 * Widgets re-run when their composed query changes, so a filter re-runs exactly the widgets
 * it affects.
 */
import { toQueryFilter, type DashboardFilter, type TimeGranularity } from "../../../schema/dashboard-filters";
import type { SemanticQuery } from "../../app/platform-api";

export interface DashboardQueryState {
  filters: Readonly<Record<string, DashboardFilter>>;
  timeGrains: Readonly<Record<string, TimeGranularity>>;
  /** IANA zone; null leaves the query's own (or the server's default). */
  timezone: string | null;
}

const viewOf = (member: string) => member.split(".")[0]!;

/** Views (or cubes) whose members the query uses. */
export function viewsOfQuery(query: SemanticQuery): Set<string> {
  const views = new Set<string>();
  for (const m of query.measures ?? []) views.add(viewOf(m));
  for (const d of query.dimensions ?? []) views.add(viewOf(d));
  for (const t of query.timeDimensions ?? []) views.add(viewOf(t.dimension));
  return views;
}

/** True when a dashboard filter on `member` applies to `query`: both use the same view. */
export function filterAppliesTo(member: string, query: SemanticQuery): boolean {
  return viewsOfQuery(query).has(viewOf(member));
}

/**
 * Applies the dashboard state to a widget's base query. The base query is never mutated;
 * a dashboard filter on a member the query already filters replaces nothing — both apply.
 * `excludeFilterMember` leaves one member's filter out (a value picker lists all values of
 * its own member, not just the selected ones).
 */
export function composeWidgetQuery(base: SemanticQuery, state: DashboardQueryState, excludeFilterMember?: string): SemanticQuery {
  const query: SemanticQuery = { ...base };
  const dashboardFilters = Object.keys(state.filters)
    .sort()
    .filter((member) => member !== excludeFilterMember && filterAppliesTo(member, base))
    .map((member) => toQueryFilter(state.filters[member]!));
  if (dashboardFilters.length > 0) query.filters = [...(base.filters ?? []), ...dashboardFilters];
  if (base.timeDimensions?.some((t) => state.timeGrains[t.dimension] && t.granularity)) {
    query.timeDimensions = base.timeDimensions.map((t) =>
      t.granularity && state.timeGrains[t.dimension] ? { ...t, granularity: state.timeGrains[t.dimension] } : t,
    );
    // An order on the old grain's column follows the grain.
    query.order = renameOrderColumns(base, query);
  }
  if (state.timezone) query.timezone = state.timezone;
  return query;
}

function renameOrderColumns(base: SemanticQuery, next: SemanticQuery): SemanticQuery["order"] {
  if (!base.order) return undefined;
  const renames = new Map<string, string>();
  base.timeDimensions?.forEach((t, i) => {
    const n = next.timeDimensions![i]!;
    if (t.granularity && n.granularity !== t.granularity) renames.set(`${t.dimension}.${t.granularity}`, `${n.dimension}.${n.granularity}`);
  });
  const rename = (key: string) => renames.get(key) ?? key;
  return Array.isArray(base.order)
    ? base.order.map(([k, d]) => [rename(k), d] as [string, "asc" | "desc"])
    : Object.fromEntries(Object.entries(base.order).map(([k, d]) => [rename(k), d]));
}

/**
 * The query of the rows under one value of a widget (drilldown): the composed query's
 * filters, plus equality on the clicked row's dimensions, listing the dimensions with the
 * measure instead of aggregating over them.
 */
export function composeDetailQuery(
  composed: SemanticQuery,
  row: Record<string, unknown>,
  measure: string,
  /** Dimensions to list the slice by (a report's `meta.drillMembers`); default the query's own. */
  drillMembers?: readonly string[],
  limit = 500,
): SemanticQuery {
  const filters = [...(composed.filters ?? [])];
  for (const d of composed.dimensions ?? []) {
    const v = row[d];
    if (v === null || v === undefined) filters.push({ member: d, operator: "notSet", values: [] });
    else if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") filters.push({ member: d, operator: "equals", values: [v] });
  }
  const timeDimensions = (composed.timeDimensions ?? []).map((t) => {
    const v = t.granularity ? row[`${t.dimension}.${t.granularity}`] : undefined;
    if (typeof v !== "string") return t;
    return { dimension: t.dimension, granularity: "day", dateRange: [v.slice(0, 10), grainEnd(v, t.granularity!)] as [string, string] };
  });
  return {
    measures: [measure],
    dimensions: [...new Set([...(composed.dimensions ?? []), ...(drillMembers ?? [])])],
    timeDimensions,
    filters,
    order: [[measure, "desc"]],
    limit,
    ...(composed.timezone ? { timezone: composed.timezone } : {}),
  };
}

/** Last day (YYYY-MM-DD) of the period starting at `start` in `granularity`. */
export function grainEnd(start: string, granularity: string): string {
  const [y, m, d] = start.slice(0, 10).split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  switch (granularity) {
    case "week":
      date.setUTCDate(date.getUTCDate() + 6);
      break;
    case "month":
      date.setUTCMonth(date.getUTCMonth() + 1, 0);
      break;
    case "quarter":
      date.setUTCMonth(date.getUTCMonth() + 3, 0);
      break;
    case "year":
      date.setUTCFullYear(date.getUTCFullYear() + 1, 0, 0);
      break;
    default:
      break;
  }
  return date.toISOString().slice(0, 10);
}
