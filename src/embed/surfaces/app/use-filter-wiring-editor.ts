/** The wiring mode of one FILTER widget: its rows (filter-wiring-rows.ts) and the edits that write its targets. */
import { useMemo } from "react";
import type { DashboardWidget } from "../../../schema/dashboard";
import type { Report } from "../../../schema/report";
import type { SemanticQuery } from "../../shell/platform-api";
import { filterConfigOf } from "../../widgets/filter/filter-config";
import { chartsOf, defaultMemberFor, filterTargetsOf, retarget, wiringRows, withTargets, type WiringRow } from "./filter-wiring-rows";
import type { ModelDimensions } from "./use-model-dimensions";

export interface FilterWiringEditor {
  /** The FILTER widget being connected. */
  widgetId: string;
  /** The filter's name: its label, else its member's title. */
  label: string;
  member: string;
  rows: WiringRow[];
  /** The targets are explicit (not the default wiring). */
  custom: boolean;
  rowOf(widgetId: string): WiringRow | undefined;
  connect(widgetId: string, on: boolean): void;
  setMember(widgetId: string, member: string): void;
  reset(): void;
}

export function useFilterWiringEditor(
  filterWidget: DashboardWidget | null,
  widgets: readonly DashboardWidget[],
  reports: readonly Report[],
  dimensions: ModelDimensions,
  update: (id: string, fn: (w: DashboardWidget) => DashboardWidget) => void,
): FilterWiringEditor | null {
  const config = filterWidget ? filterConfigOf(filterWidget) : null;
  const member = config?.member ?? null;
  const filterConfig = filterWidget?.config;
  const targets = useMemo(() => filterTargetsOf(filterConfig), [filterConfig]);
  const rows = useMemo(() => {
    if (!member) return [];
    const queries = new Map(reports.map((r) => [r.id, (r.query as SemanticQuery | null) ?? null]));
    return wiringRows(
      member,
      targets,
      chartsOf(widgets, (id) => queries.get(id) ?? null),
      (view) => [...(dimensions.byView.get(view) ?? [])],
    );
  }, [member, targets, widgets, reports, dimensions]);
  if (!filterWidget || !config || !member) return null;
  const write = (next: ReturnType<typeof retarget> | null) => update(filterWidget.id, (w) => withTargets(w, next));
  const rowOf = (widgetId: string) => rows.find((r) => r.widgetId === widgetId);
  return {
    widgetId: filterWidget.id,
    label: config.label || dimensions.titleOf(member),
    member,
    rows,
    custom: targets !== null,
    rowOf,
    connect: (widgetId, on) => {
      const row = rowOf(widgetId);
      const to = on && row ? defaultMemberFor(row, member) : null;
      if (on && !to) return;
      write(retarget(rows, widgetId, to));
    },
    setMember: (widgetId, to) => write(retarget(rows, widgetId, to)),
    reset: () => write(null),
  };
}
