/**
 * Drill-through from a clicked value (docs/dashboards.md "Drill-through"): besides the rows behind
 * it, the same measure broken out by another dimension of the slice, or over time at a finer
 * grain. Each step is a query of its own on the same slice (the widget's filters and the clicked
 * row's values), so it runs under the viewer's row-level security like any other; a value of a
 * step opens the rows behind it, and the breadcrumb goes back.
 */
import type { DashboardFilter } from "../../schema/dashboard-filters";
import type { Granularity, QueryAnnotation, QueryFilter, SemanticQuery, TimeDimension } from "../../schema/semantic-query";

/** What one step of a drill-through shows. */
export type ExploreView = { kind: "breakout"; dimension: string } | { kind: "time"; dimension: string; granularity: Granularity };
export type DrillView = { kind: "rows" } | ExploreView;

export interface DrillStep {
  view: DrillView;
  /** The rows step's detail query, or the query of a breakout or time step. */
  query: SemanticQuery;
  /** What the breadcrumb calls the step ("By City", "Berlin"); the first step has none. */
  label?: string;
  /** The raw value a rows step was opened from (a city, a period's start). */
  value?: unknown;
}

/** The dimensions of the slice the clicked value is not already one value of: text and yes/no ones (an id would be one row each). */
export function breakoutChoices(detail: SemanticQuery, annotation: QueryAnnotation | undefined): string[] {
  if (!annotation) return [];
  const fixed = new Set((detail.filters ?? []).flatMap((f) => ("member" in f && (f.operator === "equals" || f.operator === "notSet") ? [f.member] : [])));
  return (detail.dimensions ?? []).filter((d) => !fixed.has(d) && ["string", "boolean"].includes(annotation.dimensions[d]?.type ?? ""));
}

const DAY_MS = 86_400_000;

/** A grain that shows a range as a handful to a few dozen points: a year or a quarter by month, a month by week, a week by day. */
export function finerGranularity(range: readonly [string, string] | undefined): Granularity {
  if (!range) return "month";
  const days = (Date.parse(range[1].slice(0, 10)) - Date.parse(range[0].slice(0, 10))) / DAY_MS + 1;
  return days >= 85 ? "month" : days >= 14 ? "week" : "day";
}

/** The slice over time: its time dimension (the clicked period's, else a time dimension it lists), at a grain finer than the click's. */
export function timeChoice(detail: SemanticQuery, annotation: QueryAnnotation | undefined): { dimension: string; granularity: Granularity } | null {
  for (const t of detail.timeDimensions ?? []) {
    const range = t.dateRange;
    if (!Array.isArray(range)) continue;
    // A single day has no finer grain worth a chart.
    return range[0].slice(0, 10) === range[1].slice(0, 10) ? null : { dimension: t.dimension, granularity: finerGranularity(range) };
  }
  const listed = (detail.dimensions ?? []).find((d) => annotation?.dimensions[d]?.type === "time");
  return listed ? { dimension: listed, granularity: "month" } : null;
}

/** The slice's filters and its period (as a range only: the step chooses its own grain). */
function sliceOf(detail: SemanticQuery): { filters: QueryFilter[]; timeDimensions: TimeDimension[] } {
  return {
    filters: detail.filters ?? [],
    timeDimensions: (detail.timeDimensions ?? []).filter((t) => t.dateRange !== undefined).map((t) => ({ dimension: t.dimension, dateRange: t.dateRange })),
  };
}

/** The measure on the slice, one row per value of `dimension`, largest first. */
export function breakoutQuery(detail: SemanticQuery, measure: string, dimension: string): SemanticQuery {
  const { filters, timeDimensions } = sliceOf(detail);
  return {
    measures: [measure],
    dimensions: [dimension],
    ...(timeDimensions.length ? { timeDimensions } : {}),
    filters,
    order: [[measure, "desc"]],
    limit: 100,
    ...(detail.timezone ? { timezone: detail.timezone } : {}),
  };
}

/** The measure on the slice over time, one row per period, in order. */
export function timeQuery(detail: SemanticQuery, measure: string, choice: { dimension: string; granularity: Granularity }): SemanticQuery {
  const { filters, timeDimensions } = sliceOf(detail);
  const range = timeDimensions.find((t) => t.dimension === choice.dimension)?.dateRange;
  return {
    measures: [measure],
    timeDimensions: [
      ...timeDimensions.filter((t) => t.dimension !== choice.dimension),
      { dimension: choice.dimension, granularity: choice.granularity, ...(range ? { dateRange: range } : {}) },
    ],
    filters,
    order: [[`${choice.dimension}.${choice.granularity}`, "asc"]],
    limit: 400,
    ...(detail.timezone ? { timezone: detail.timezone } : {}),
  };
}

/** The detail query of one value of a breakout or time step: the rows behind it. */
export function rowsOfValue(detail: SemanticQuery, view: DrillView, value: unknown, periodEnd: (start: string, granularity: string) => string): SemanticQuery {
  if (view.kind === "breakout") {
    const filter: QueryFilter =
      value === null || value === undefined
        ? { member: view.dimension, operator: "notSet", values: [] }
        : { member: view.dimension, operator: "equals", values: [value as string | number | boolean] };
    return { ...detail, filters: [...(detail.filters ?? []), filter] };
  }
  if (view.kind === "time" && typeof value === "string") {
    const range: [string, string] = [value.slice(0, 10), periodEnd(value, view.granularity)];
    const others = (detail.timeDimensions ?? []).filter((t) => t.dimension !== view.dimension);
    return { ...detail, timeDimensions: [...others, { dimension: view.dimension, granularity: "day", dateRange: range }] };
  }
  return detail;
}

/** The slice's single values (equals one value) on members the dashboard has filter controls for, as dashboard filters. */
export function sliceFilters(detail: SemanticQuery, filterMembers: ReadonlySet<string> | undefined): DashboardFilter[] {
  const out: DashboardFilter[] = [];
  for (const f of detail.filters ?? []) {
    if (!("member" in f) || f.operator !== "equals" || f.values?.length !== 1 || !filterMembers?.has(f.member)) continue;
    const value = f.values[0];
    if ((typeof value === "string" || typeof value === "number" || typeof value === "boolean") && !out.some((o) => o.member === f.member)) {
      out.push({ member: f.member, operator: "equals", value });
    }
  }
  return out;
}
