/** TABS_CONTAINER config: `{ tabs: [{ id, title, widgets: DashboardWidget[] }] }`. */
import type { DashboardWidget } from "../../../schema/dashboard";

const WIDGET_TYPES = ["CHART", "TEXT", "FILTER", "AI", "TABS_CONTAINER", "TIME_GRAIN"];
const isInt = (v: unknown): v is number => Number.isInteger(v);

/** A nested widget is shown only when it has the shape of spec 2.7 (id, type, integer position). */
export function isDashboardWidget(value: unknown): value is DashboardWidget {
  const w = value as Partial<DashboardWidget> | null;
  const p = w?.position as Partial<DashboardWidget["position"]> | undefined;
  return (
    !!w &&
    typeof w === "object" &&
    typeof w.id === "string" &&
    WIDGET_TYPES.includes(w.type as string) &&
    !!p &&
    isInt(p.x) &&
    isInt(p.y) &&
    isInt(p.w) &&
    isInt(p.h)
  );
}

export interface DashboardTab {
  id: string;
  title: string;
  widgets: DashboardWidget[];
}

/** The tabs of a tab container; malformed tabs and widgets are left out. */
export function tabsOf(widget: DashboardWidget): DashboardTab[] {
  const raw = (widget.config as { tabs?: unknown } | null | undefined)?.tabs;
  if (!Array.isArray(raw)) return [];
  const tabs: DashboardTab[] = [];
  raw.forEach((tab, index) => {
    if (!tab || typeof tab !== "object") return;
    const t = tab as { id?: unknown; title?: unknown; widgets?: unknown };
    const widgets = Array.isArray(t.widgets) ? t.widgets.filter(isDashboardWidget) : [];
    tabs.push({ id: typeof t.id === "string" ? t.id : `tab-${index + 1}`, title: typeof t.title === "string" ? t.title : `Tab ${index + 1}`, widgets });
  });
  return tabs;
}

/** Every widget of a widget list, including those nested in tab containers. */
export function allWidgets(widgets: readonly DashboardWidget[]): DashboardWidget[] {
  return widgets.flatMap((w) => (w.type === "TABS_CONTAINER" ? [w, ...tabsOf(w).flatMap((tab) => allWidgets(tab.widgets))] : [w]));
}
