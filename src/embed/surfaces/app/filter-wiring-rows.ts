/**
 * The dashboard editor's wiring mode, as data: for the filter being wired, each chart widget
 * of the canvas with whether the filter reaches it, on which member, which members it could
 * take instead, and why it is not connected. Writing a change makes the wiring explicit
 * (`FILTER config.targets`); "default" removes it again.
 */
import type { DashboardWidget } from "../../../schema/dashboard";
import { filterTargetsOf, type FilterTarget } from "../../../schema/dashboard-wiring";
import type { SemanticQuery } from "../../shell/platform-api";
import { filterAppliesTo, viewsOfQuery } from "../../widgets/query/compose-query";
import { allWidgets, tabsOf } from "../../widgets/tabs-container/tabs-config";

export type NotConnectedReason = "noReport" | "noMember" | "off";

export interface WiringRow {
  widgetId: string;
  connected: boolean;
  /** The member the filter applies to in this widget, when connected. */
  member: string | null;
  /** Dimensions of the report's views it may apply to. */
  options: string[];
  reason: NotConnectedReason | null;
}

/** The rows of the chart widgets, for the filter on `member` with these targets (null: default). */
export function wiringRows(
  member: string,
  targets: readonly FilterTarget[] | null,
  charts: readonly { widgetId: string; query: SemanticQuery | null }[],
  dimensionsOfView: (view: string) => string[],
): WiringRow[] {
  return charts.map(({ widgetId, query }) => {
    if (!query) return { widgetId, connected: false, member: null, options: [], reason: "noReport" };
    const options = [...viewsOfQuery(query)].flatMap(dimensionsOfView);
    if (targets) {
      const target = targets.find((t) => t.widgetId === widgetId);
      return target
        ? { widgetId, connected: true, member: target.member, options, reason: null }
        : { widgetId, connected: false, member: null, options, reason: "off" };
    }
    return filterAppliesTo(member, query)
      ? { widgetId, connected: true, member, options, reason: null }
      : { widgetId, connected: false, member: null, options, reason: "noMember" };
  });
}

/** The targets after connecting (`to` a member) or disconnecting (`to` null) one widget. */
export function retarget(rows: readonly WiringRow[], widgetId: string, to: string | null): FilterTarget[] {
  const targets = rows.filter((r) => r.connected && r.member && r.widgetId !== widgetId).map((r) => ({ widgetId: r.widgetId, member: r.member! }));
  const at = rows.findIndex((r) => r.widgetId === widgetId);
  if (to !== null && at >= 0) targets.splice(Math.min(at, targets.length), 0, { widgetId, member: to });
  return targets;
}

/** The member a widget connects on: the filter's own where its report has it, else its first option. */
export function defaultMemberFor(row: WiringRow, filterMember: string): string | null {
  return row.options.includes(filterMember) ? filterMember : (row.options[0] ?? null);
}

/**
 * The chart widgets of the dashboard, those inside tabs too (the canvas shows switches on the
 * top-level ones; a tab's charts keep their connection when the wiring becomes explicit).
 */
export function chartsOf(widgets: readonly DashboardWidget[], queryOfReport: (reportId: number) => SemanticQuery | null) {
  return allWidgets(widgets)
    .filter((w) => w.type === "CHART")
    .map((w) => {
      const reportId = (w.config as { reportId?: unknown } | null)?.reportId;
      return { widgetId: w.id, query: typeof reportId === "number" ? queryOfReport(reportId) : null };
    });
}

/** The filter widget's config with new targets, or (null) back on the default wiring. */
export function withTargets(widget: DashboardWidget, targets: FilterTarget[] | null): DashboardWidget {
  const { targets: _old, ...rest } = (widget.config ?? {}) as Record<string, unknown>;
  void _old;
  return { ...widget, config: targets ? { ...rest, targets } : rest };
}

export { filterTargetsOf };

/** The charts inside the tab containers of the canvas, each named "Tab › Chart" (its report's name where it has no title). */
export function tabChartsOf(widgets: readonly DashboardWidget[], reportName: (reportId: number) => string | null): { widgetId: string; label: string }[] {
  return widgets
    .filter((w) => w.type === "TABS_CONTAINER")
    .flatMap((container) =>
      tabsOf(container).flatMap((tab) =>
        tab.widgets
          .filter((w) => w.type === "CHART")
          .map((w) => {
            const config = (w.config ?? {}) as { title?: unknown; reportId?: unknown };
            const title =
              typeof config.title === "string" && config.title ? config.title : typeof config.reportId === "number" ? reportName(config.reportId) : null;
            return { widgetId: w.id, label: `${tab.title} › ${title ?? w.id}` };
          }),
      ),
    );
}
