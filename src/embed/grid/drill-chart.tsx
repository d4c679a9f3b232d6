/**
 * The chart above a drill step's table: the measure per value of the breakout (bars, largest
 * first, each value by its label in the viewer's language) or per period (a line at the step's
 * grain, ticked at its own periods). A click on a bar or a point opens that value's rows, as a
 * click on its row does.
 */
import { useMemo } from "react";
import type { QueryResult } from "../shell/platform-api";
import { titleOfColumn } from "../export/export-columns";
import { withTemporalAxisFormat, withTemporalTicks } from "../widgets/chart/temporal-axis";
import { useChartPalette } from "../widgets/chart/use-chart-palette";
import { buildVegaConfig } from "../widgets/chart/vega-theme";
import { drilldownTarget, prepareVegaLiteSpec, type VegaLiteSpec } from "../widgets/chart/vega-spec";
import { VegaView } from "../widgets/chart/vega-view";
import type { DrillView } from "./drill-explore";

/** More values than this make bars too many to read: the table alone shows them. */
export const DRILL_CHART_MAX_BARS = 12;
const BAR_HEIGHT = 22;
const LINE_HEIGHT = 200;

/** The step's chart as Vega-Lite over the result's own columns, or null when a chart would not help (one value, too many bars). */
export function drillChartSpec(view: DrillView, member: string, result: QueryResult): { spec: VegaLiteSpec; height: number } | null {
  const rows = result.data;
  if (rows.length < 2) return null;
  const tooltip = (key: string, type: string) => [
    { field: key, type },
    { field: member, type: "quantitative" },
  ];
  if (view.kind === "time") {
    const key = `${view.dimension}.${view.granularity}`;
    const spec: VegaLiteSpec = {
      mark: { type: "line", point: true },
      encoding: { x: { field: key, type: "temporal" }, y: { field: member, type: "quantitative" }, tooltip: tooltip(key, "temporal") },
    };
    return { spec: withTemporalTicks(withTemporalAxisFormat(spec, view.granularity), rows, view.granularity), height: LINE_HEIGHT };
  }
  if (view.kind !== "breakout" || rows.length > DRILL_CHART_MAX_BARS) return null;
  const key = view.dimension;
  const spec: VegaLiteSpec = {
    mark: "bar",
    encoding: {
      y: { field: key, type: "nominal", sort: "-x" },
      x: { field: member, type: "quantitative" },
      tooltip: tooltip(key, "nominal"),
    },
  };
  return { spec, height: rows.length * BAR_HEIGHT };
}

/**
 * The result row a clicked mark stands for: the one with the mark's value of `key` (a period is
 * drawn as a time, read as local time like the chart reads the row's text).
 */
export function rowOfMark(rows: readonly Record<string, unknown>[], key: string, value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  const at = value instanceof Date ? value.getTime() : typeof value === "number" ? value : null;
  return rows.find((row) => row[key] === value || (at !== null && typeof row[key] === "string" && new Date(row[key]).getTime() === at));
}

export function DrillChart(props: { view: DrillView; member: string; result: QueryResult; onValue: (row: Record<string, unknown>) => void }) {
  const palette = useChartPalette();
  const { view, member, result } = props;
  const drawn = useMemo(() => {
    const chart = drillChartSpec(view, member, result);
    if (!chart) return null;
    const { spec, fields } = prepareVegaLiteSpec(chart.spec, result.data, { annotation: result.annotation, config: buildVegaConfig(palette) });
    return { spec, fields, height: chart.height };
  }, [view, member, result, palette]);
  if (!drawn) return null;
  return (
    // The drawing's height and 48 px for the axis and its title below it.
    <div className="svc-drill-chart" data-testid="drill-chart" style={{ height: drawn.height + 48 }}>
      <VegaView
        spec={drawn.spec}
        description={titleOfColumn(member, result.annotation)}
        onDatumClick={(datum) => {
          const key = view.kind === "time" ? `${view.dimension}.${view.granularity}` : view.kind === "breakout" ? view.dimension : null;
          const mark = drilldownTarget(datum, drawn.fields, [member]);
          const row = key && mark ? rowOfMark(result.data, key, mark.row[key]) : undefined;
          if (row) props.onValue(row);
        }}
      />
    </div>
  );
}
