/**
 * A CHART widget's part of the dashboard PDF: a table with every row (the screen holds only those
 * in view), a chart's drawing as SVG — drawn off the page at its card's size when it has not been
 * drawn yet (off screen). Registered under the widget's id while the widget is mounted.
 */
import { useMemo, type RefObject } from "react";
import { usePrintable, type PrintableProvider } from "../../grid/printables";
import { formatCell, type CellFormatContext } from "../query/format-cell";
import { chartSvgOffPage } from "./chart-svg";
import type { TableColumn } from "./table-model";
import type { usePreparedSpec } from "./use-prepared-spec";
import type { ChartHandle } from "./vega-view";

export function useChartPrintable(input: {
  widgetId: string;
  tableColumns: TableColumn[] | null;
  rows: Record<string, unknown>[];
  isVega: boolean;
  prepared: ReturnType<typeof usePreparedSpec>["prepared"];
  chartHandle: RefObject<ChartHandle | null>;
  locale: CellFormatContext["locale"];
  timezone: CellFormatContext["timezone"];
}): void {
  const { widgetId, tableColumns, rows, isVega, prepared, chartHandle, locale, timezone } = input;
  const printable = useMemo<PrintableProvider | null>(() => {
    if (tableColumns) {
      const columns = tableColumns;
      return async () => ({
        kind: "table",
        columns: columns.map((c) => ({ title: c.title, numeric: !!c.isMeasure })),
        rows: rows.map((row) => columns.map((c) => formatCell(row[c.key], c, { locale, timezone }))),
      });
    }
    if (isVega && prepared && prepared !== "waiting") {
      const spec = prepared.spec;
      return async () => {
        if (chartHandle.current) return { kind: "chart", svg: await chartHandle.current.toSvg() };
        const canvas = document.querySelector<HTMLElement>(`[data-testid="widget-${CSS.escape(widgetId)}"] .svc-chart-canvas`);
        const svg = canvas ? await chartSvgOffPage(spec, canvas.clientWidth, canvas.clientHeight, locale) : null;
        return svg ? { kind: "chart", svg } : null;
      };
    }
    return null;
    // The rows come with the table's columns (one result); the handle is a ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tableColumns, isVega, prepared, locale, timezone, widgetId]);
  usePrintable(widgetId, printable);
}
