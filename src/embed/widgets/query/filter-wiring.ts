/**
 * Which dashboard filter reaches which widget, on which member (docs/dashboards.md "Filter
 * wiring"). A FILTER widget without `targets` drives every chart whose report uses its member's
 * view, on that member; one with `targets` drives exactly the widgets listed, each on its own
 * member. The dashboard surface, its first batch of queries, every export and Python run of a
 * widget read the same answer from here.
 */
import type { DashboardWidget } from "../../../schema/dashboard";
import type { DashboardFilter } from "../../../schema/dashboard-filters";
import { filterTargetsOf } from "../../../schema/dashboard-wiring";
import { filterConfigOf } from "../filter/filter-config";
import { allWidgets } from "../tabs-container/tabs-config";

/** Filter member → (widget id → member it filters), for the filters wired explicitly. */
export type FilterWiring = ReadonlyMap<string, ReadonlyMap<string, string>>;

export const NO_WIRING: FilterWiring = new Map();

/**
 * The explicit wiring of a dashboard's FILTER widgets (nested tabs included). Two controls on
 * one member share one filter: its targets are theirs together; a control without targets
 * keeps that filter on the default wiring.
 */
export function filterWiringOf(widgets: readonly DashboardWidget[]): FilterWiring {
  const wiring = new Map<string, Map<string, string>>();
  const defaults = new Set<string>();
  for (const widget of allWidgets(widgets)) {
    if (widget.type !== "FILTER") continue;
    const config = filterConfigOf(widget);
    if (!config) continue;
    const targets = filterTargetsOf(widget.config);
    if (!targets) {
      defaults.add(config.member);
      continue;
    }
    const map = wiring.get(config.member) ?? new Map<string, string>();
    for (const target of targets) if (!map.has(target.widgetId)) map.set(target.widgetId, target.member);
    wiring.set(config.member, map);
  }
  for (const member of defaults) wiring.delete(member);
  return wiring;
}

/** One dashboard filter as a widget receives it. */
export interface WidgetFilter {
  /** The filter's own member (the store's key, the control's member). */
  source: string;
  /** The filter, on the member it applies to in this widget. */
  filter: DashboardFilter;
  /** Wired explicitly to this widget: applies whatever the report's views. */
  wired: boolean;
}

/**
 * The filters a widget receives, sorted by their member: explicitly wired ones moved to the
 * member the creator chose (left out where the widget is not wired), the others as they are
 * (they apply where the report uses their view). Without a widget id, the default wiring.
 */
export function filtersForWidget(
  filters: Readonly<Record<string, DashboardFilter>>,
  wiring: FilterWiring | undefined,
  widgetId: string | undefined,
): WidgetFilter[] {
  const out: WidgetFilter[] = [];
  for (const source of Object.keys(filters).sort()) {
    const filter = filters[source]!;
    const targets = widgetId === undefined ? undefined : wiring?.get(source);
    if (!targets) {
      out.push({ source, filter, wired: false });
      continue;
    }
    const member = targets.get(widgetId!);
    if (member) out.push({ source, filter: { ...filter, member }, wired: true });
  }
  return out;
}

/**
 * The filters of a widget that runs no query of its own (a Python report): keyed by the
 * member each applies to, so the platform filters that member.
 */
export function widgetFilterMap(
  filters: Readonly<Record<string, DashboardFilter>>,
  wiring: FilterWiring | undefined,
  widgetId: string,
): Record<string, DashboardFilter> {
  return Object.fromEntries(filtersForWidget(filters, wiring, widgetId).map(({ filter }) => [filter.member, filter]));
}
