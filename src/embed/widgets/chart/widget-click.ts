/**
 * What a click on a chart widget does besides the drilldown (the widget's `config.click`,
 * schema/dashboard-wiring.ts): open another dashboard with the clicked value as its filter, or
 * tell the host page (`svc:event:widget-click`). The surfaces act on these; the widget only
 * says what was clicked.
 */
import type { ClickedValue, WidgetClickPayload } from "../../../protocol";
import type { DashboardFilter, FilterScalar } from "../../../schema/dashboard-filters";
import type { WidgetClickBehaviour } from "../../../schema/dashboard-wiring";
import type { SemanticQuery } from "../../shell/platform-api";

export type LinkClick = Extract<WidgetClickBehaviour, { action: "link" }>;
export type EventClick = Extract<WidgetClickBehaviour, { action: "event" }>;

/** A click on a widget whose behaviour is a link or a host event. */
export interface WidgetClick {
  widgetId: string;
  behaviour: LinkClick | EventClick;
  /** The clicked measure and its value. */
  member: string;
  value: unknown;
  /** The clicked row, by column. */
  row: Record<string, unknown>;
  /** The widget's composed query (its columns). */
  query: SemanticQuery;
}

const isScalar = (v: unknown): v is FilterScalar => typeof v === "string" || (typeof v === "number" && Number.isFinite(v)) || typeof v === "boolean";

/** The row's dimension columns (time dimensions as `<member>.<granularity>`), each a scalar or null. */
export function clickedDimensions(row: Record<string, unknown>, query: SemanticQuery): Record<string, ClickedValue> {
  const columns = [...(query.dimensions ?? []), ...(query.timeDimensions ?? []).filter((t) => t.granularity).map((t) => `${t.dimension}.${t.granularity}`)];
  return Object.fromEntries(columns.map((column) => [column, isScalar(row[column]) ? row[column] : null]));
}

/** The value a link passes: its source column's (default the query's first dimension); null when there is none. */
export function linkedValue(link: LinkClick, row: Record<string, unknown>, query: SemanticQuery): FilterScalar | null {
  const column = link.sourceMember ?? query.dimensions?.[0];
  const value = column === undefined ? undefined : row[column];
  return isScalar(value) ? value : null;
}

/** The linked dashboard's filter: its member equal to the clicked value. */
export function linkFilter(link: LinkClick, value: FilterScalar): DashboardFilter {
  return { member: link.filterMember, operator: "equals", value };
}

/** The host event of a click. */
export function widgetClickPayload(click: WidgetClick & { behaviour: EventClick }): WidgetClickPayload {
  return {
    name: click.behaviour.name,
    widgetId: click.widgetId,
    member: click.member,
    ...(isScalar(click.value) || click.value === null ? { value: click.value } : {}),
    dimensions: clickedDimensions(click.row, click.query),
  };
}

/** The in-embed path of a linked dashboard. */
export function linkedDashboardPath(link: LinkClick): string {
  return `/dashboard/${encodeURIComponent(link.dashboardPublicId)}`;
}
