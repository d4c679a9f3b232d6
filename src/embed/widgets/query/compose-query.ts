/**
 * The query a widget runs: its report's query with the dashboard state applied — filters of
 * members of the same view, time grain overrides of its time dimensions, the active time zone.
 * Widgets re-run when their composed query changes, so a filter re-runs exactly the widgets
 * it affects.
 */
import { toQueryFilter, type DashboardFilter, type TimeGranularity } from "../../../schema/dashboard-filters";
import type { QueryFilter } from "../../../schema/semantic-query";
import type { SemanticQuery } from "../../shell/platform-api";
import { filtersForWidget, type FilterWiring } from "./filter-wiring";

export interface DashboardQueryState {
  filters: Readonly<Record<string, DashboardFilter>>;
  timeGrains: Readonly<Record<string, TimeGranularity>>;
  /** IANA zone; null leaves the query's own (or the server's default). */
  timezone: string | null;
  /** Member switches (`ms_<view>.<member>=<selected>`): `<view>.<member>` → selected member name. */
  memberSwitches?: Readonly<Record<string, string>>;
  /** The dashboard's explicit filter wiring (filter-wiring.ts); absent, every filter on the default wiring. */
  filterWiring?: FilterWiring;
  /** The widget the query is for: with `filterWiring`, which filters reach it and on which member. */
  widgetId?: string;
}

const MEMBER_PART = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

/**
 * The member a switch selects: `<view>.<selected>` for a bare name, or the selected full name
 * when it is in the same view. Anything else (another view, a malformed name) is no switch.
 */
export function switchedMember(member: string, selected: string): string | null {
  const view = viewOf(member);
  const dot = selected.indexOf(".");
  const name = dot < 0 ? selected : selected.slice(0, dot) === view ? selected.slice(dot + 1) : null;
  if (name === null || !MEMBER_PART.test(name)) return null;
  return `${view}.${name}`;
}

/**
 * Applies member switches to a query: each switched member is replaced, in the same place
 * (measure, dimension, time dimension, filter, order), by the member the switch selects.
 */
export function applyMemberSwitches(base: SemanticQuery, switches: Readonly<Record<string, string>> | undefined): SemanticQuery {
  if (!switches || Object.keys(switches).length === 0) return base;
  const renames = new Map<string, string>();
  for (const [member, selected] of Object.entries(switches)) {
    const next = switchedMember(member, selected);
    if (next && next !== member) renames.set(member, next);
  }
  if (renames.size === 0) return base;
  const rename = (m: string) => renames.get(m) ?? m;
  // Order keys are members, or `<time dimension>.<granularity>` columns.
  const renameColumn = (key: string) => {
    if (renames.has(key)) return renames.get(key)!;
    const dot = key.lastIndexOf(".");
    const head = key.slice(0, dot);
    return dot > 0 && renames.has(head) ? `${renames.get(head)}${key.slice(dot)}` : key;
  };
  const renameFilter = (f: QueryFilter): QueryFilter =>
    "member" in f ? { ...f, member: rename(f.member) } : "and" in f ? { and: f.and.map(renameFilter) } : { or: f.or.map(renameFilter) };
  const query: SemanticQuery = { ...base };
  if (base.measures) query.measures = base.measures.map(rename);
  if (base.dimensions) query.dimensions = base.dimensions.map(rename);
  if (base.timeDimensions) query.timeDimensions = base.timeDimensions.map((t) => ({ ...t, dimension: rename(t.dimension) }));
  if (base.filters) query.filters = base.filters.map(renameFilter);
  if (base.order) {
    query.order = Array.isArray(base.order)
      ? base.order.map(([k, d]) => [renameColumn(k), d] as [string, "asc" | "desc"])
      : Object.fromEntries(Object.entries(base.order).map(([k, d]) => [renameColumn(k), d]));
  }
  return query;
}

/**
 * Columns of the report's own query that the composed query names differently (a member
 * switch, a time grain switch): old column → new column. Reports' specs and templates name
 * the old columns; these aliases point them at the new ones.
 */
export function columnAliases(base: SemanticQuery, composed: SemanticQuery): Record<string, string> {
  const aliases: Record<string, string> = {};
  const pair = (from: string | undefined, to: string | undefined) => {
    if (from && to && from !== to) aliases[from] = to;
  };
  base.measures?.forEach((m, i) => pair(m, composed.measures?.[i]));
  base.dimensions?.forEach((d, i) => pair(d, composed.dimensions?.[i]));
  base.timeDimensions?.forEach((t, i) => {
    const now = composed.timeDimensions?.[i];
    if (!now) return;
    pair(t.dimension, now.dimension);
    if (t.granularity && now.granularity) pair(`${t.dimension}.${t.granularity}`, `${now.dimension}.${now.granularity}`);
  });
  return aliases;
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
 * Applies the dashboard state to a widget's report query: member switches first, then
 * filters (as wired to the widget), time grains and the time zone. The report query is never mutated;
 * a dashboard filter on a member the query already filters replaces nothing — both apply.
 * `excludeFilterMember` leaves one member's filter out (a value picker lists all values of
 * its own member, not just the selected ones).
 */
export function composeWidgetQuery(report: SemanticQuery, state: DashboardQueryState, excludeFilterMember?: string): SemanticQuery {
  const base = applyMemberSwitches(report, state.memberSwitches);
  const query: SemanticQuery = { ...base };
  // A filter wired to this widget applies on the member the creator chose; one wired elsewhere not at all.
  const dashboardFilters = filtersForWidget(state.filters, state.filterWiring, state.widgetId)
    .filter(({ source, filter, wired }) => source !== excludeFilterMember && (wired || filterAppliesTo(filter.member, base)))
    .map(({ filter }) => toQueryFilter(filter));
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
    return { dimension: t.dimension, granularity: "day" as const, dateRange: [v.slice(0, 10), grainEnd(v, t.granularity!)] as [string, string] };
  });
  return {
    measures: [measure],
    // A drill member that is a time dimension of the query is listed by day there already.
    dimensions: [...new Set([...(composed.dimensions ?? []), ...(drillMembers ?? []).filter((m) => !timeDimensions.some((t) => t.dimension === m))])],
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

/** Rows on one page of the drill-down. */
export const DRILL_PAGE_SIZE = 50;
/** Largest download of a drill-down. */
export const DRILL_EXPORT_LIMIT = 50_000;

/** The detail query for one page: one row more than the page, to know whether another follows. */
export function drillPageQuery(
  detail: SemanticQuery,
  page: number,
  sort: { key: string; direction: "asc" | "desc" } | null,
  pageSize = DRILL_PAGE_SIZE,
): SemanticQuery {
  return {
    ...detail,
    ...(sort ? { order: [[sort.key, sort.direction]] as [string, "asc" | "desc"][] } : {}),
    limit: pageSize + 1,
    offset: page * pageSize,
  };
}
