/**
 * Putting a dashboard widget into a tab of a tab container, and taking it out again: the
 * widget moves with its settings (its id, report, wiring and click stay the same), placed
 * below what the tab (or the dashboard) already holds, at its own width.
 */
import type { BreakpointKey, DashboardWidget } from "../../../schema/dashboard";
import { tabsOf } from "../../widgets/tabs-container/tabs-config";

/** A tab a widget can be put in: the container's and the tab's ids, and "Container › Tab". */
export interface TabPlace {
  containerId: string;
  tabId: string;
  label: string;
}

/** The tabs of the dashboard's tab containers (containers are not nested in each other here). */
export function tabPlacesOf(widgets: readonly DashboardWidget[], untitled: string): TabPlace[] {
  return widgets
    .filter((w) => w.type === "TABS_CONTAINER")
    .flatMap((container) => {
      const title = (container.config as { title?: unknown } | null | undefined)?.title;
      const name = typeof title === "string" && title.trim() ? title.trim() : untitled;
      return tabsOf(container).map((tab) => ({ containerId: container.id, tabId: tab.id, label: `${name} › ${tab.title}` }));
    });
}

type Position = DashboardWidget["position"];
const overlaps = (a: Position, b: Position) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** New places for `items` moved up, top to bottom, as far as each goes without overlapping one above (never sideways or down). */
function movedUp(items: readonly { id: string; at: Position }[]): Map<string, Position> {
  const placed: Position[] = [];
  const moved = new Map<string, Position>();
  for (const { id, at } of [...items].sort((a, b) => a.at.y - b.at.y || a.at.x - b.at.x)) {
    let y = at.y;
    while (y > 0 && !placed.some((p) => overlaps(p, { ...at, y: y - 1 }))) y--;
    placed.push({ ...at, y });
    if (y !== at.y) moved.set(id, { ...at, y });
  }
  return moved;
}

/**
 * The dashboard's widgets moved up as far as they go, so a removed or moved widget leaves no gap:
 * the desktop layout, and each breakpoint's layouts of their own (among the widgets that have
 * one there; derived ones follow the desktop layout). Unmoved widgets are the same objects.
 */
export function closeGaps(widgets: readonly DashboardWidget[]): DashboardWidget[] {
  const desktop = movedUp(widgets.map((w) => ({ id: w.id, at: w.position })));
  const breakpoints = [...new Set(widgets.flatMap((w) => Object.keys(w.responsiveLayouts ?? {})))] as BreakpointKey[];
  const own = new Map(
    breakpoints.map((bp) => [bp, movedUp(widgets.flatMap((w) => (w.responsiveLayouts?.[bp] ? [{ id: w.id, at: w.responsiveLayouts[bp]! }] : [])))]),
  );
  return widgets.map((w) => {
    const layouts = breakpoints.filter((bp) => own.get(bp)!.has(w.id));
    if (!desktop.has(w.id) && layouts.length === 0) return w;
    const responsiveLayouts = layouts.length
      ? { ...w.responsiveLayouts, ...Object.fromEntries(layouts.map((bp) => [bp, own.get(bp)!.get(w.id)!])) }
      : w.responsiveLayouts;
    return { ...w, position: desktop.get(w.id) ?? w.position, ...(layouts.length ? { responsiveLayouts } : {}) };
  });
}

/** The widgets without `widgetId`, the gap it leaves closed. */
export function withoutWidget(widgets: readonly DashboardWidget[], widgetId: string): DashboardWidget[] {
  return closeGaps(widgets.filter((w) => w.id !== widgetId));
}

const bottomOf = (widgets: readonly DashboardWidget[]) => widgets.reduce((max, w) => Math.max(max, w.position.y + w.position.h), 0);

/** The container with its tabs' widgets changed by `fn` (the tab's id given to it). */
function withTabs(container: DashboardWidget, fn: (tabId: string, widgets: DashboardWidget[]) => DashboardWidget[]): DashboardWidget {
  const tabs = tabsOf(container).map((tab) => ({ ...tab, widgets: fn(tab.id, tab.widgets) }));
  return { ...container, config: { ...(container.config ?? {}), tabs } };
}

/** Moves a top-level widget (not a tab container) into a tab, below the tab's widgets; unchanged when either is missing. */
export function moveIntoTab(widgets: readonly DashboardWidget[], widgetId: string, place: Pick<TabPlace, "containerId" | "tabId">): DashboardWidget[] {
  const widget = widgets.find((w) => w.id === widgetId);
  const container = widgets.find((w) => w.id === place.containerId && w.type === "TABS_CONTAINER");
  if (!widget || widget.type === "TABS_CONTAINER" || !container || !tabsOf(container).some((t) => t.id === place.tabId)) return [...widgets];
  const moved = withTabs(container, (tabId, inTab) =>
    tabId === place.tabId ? [...inTab, { ...widget, position: { ...widget.position, x: 0, y: bottomOf(inTab) }, responsiveLayouts: null }] : inTab,
  );
  return closeGaps(widgets.filter((w) => w.id !== widgetId).map((w) => (w.id === container.id ? moved : w)));
}

/** Moves a widget out of a container's tab onto the dashboard, below everything; unchanged when it is not there. */
export function moveOutOfTab(widgets: readonly DashboardWidget[], containerId: string, widgetId: string): DashboardWidget[] {
  const container = widgets.find((w) => w.id === containerId && w.type === "TABS_CONTAINER");
  const widget = container
    ? tabsOf(container)
        .flatMap((t) => t.widgets)
        .find((w) => w.id === widgetId)
    : undefined;
  if (!container || !widget) return [...widgets];
  const emptied = withTabs(container, (_, inTab) => inTab.filter((w) => w.id !== widgetId));
  return [...widgets.map((w) => (w.id === containerId ? emptied : w)), { ...widget, position: { ...widget.position, x: 0, y: bottomOf(widgets) } }];
}
