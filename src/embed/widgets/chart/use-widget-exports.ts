/**
 * A chart widget's downloads: CSV and XLSX re-run its composed query on the server with a higher
 * limit, saying the format (filters, row-level security and the session's export grant hold);
 * PNG asks the platform for the grant, then draws the chart (or the widget's element).
 */
import { useCallback } from "react";
import type { QueryResult, SemanticQuery } from "../../shell/platform-api";
import type { DataExportFormat } from "../../../schema/export-formats";
import { exportColumnsOf } from "../../export/export-columns";
import { elementToPng } from "../../export/image-export";
import { fileNameFor, saveBlob, saveUrl } from "../../export/save-file";
import { buildXlsxBlob } from "../../export/xlsx";
import { useWidgetHost } from "../../grid/widget-host";
import type { WidgetExport } from "../../grid/widget-frame";
import type { ChartHandle } from "./vega-view";

/** Largest result an export asks for. */
export const EXPORT_ROW_LIMIT = 50_000;

export function useWidgetExports(input: {
  /** Runs a query; with `dataExport` the rows are for a file in that format (the server checks the grant). */
  request: (query: SemanticQuery, signal?: AbortSignal, dataExport?: DataExportFormat) => Promise<QueryResult>;
  composed: SemanticQuery | null;
  chartTitle: string;
  widgetId: string;
  chartHandle: { current: ChartHandle | null };
}): WidgetExport[] {
  const { request, composed, chartTitle, widgetId, chartHandle } = input;
  const host = useWidgetHost();
  // Export: the widget's composed query again, on the server, with a higher limit and the format.
  const exportRows = useCallback(
    async (format: DataExportFormat) => {
      const full = await request({ ...composed!, limit: EXPORT_ROW_LIMIT, offset: undefined }, undefined, format);
      return { rows: full.data, columns: exportColumnsOf(full.data, full.annotation, composed!) };
    },
    [request, composed],
  );

  const exports: WidgetExport[] = [
    {
      format: "csv",
      run: async () => {
        const [{ rows: all, columns }, { buildCsv }] = await Promise.all([exportRows("csv"), import("../../export/csv")]);
        saveBlob(new Blob(["\ufeff" + buildCsv(columns, all)], { type: "text/csv;charset=utf-8" }), fileNameFor(chartTitle, "csv"));
        host.downloaded({ format: "csv", target: "widget", widgetId: widgetId, title: chartTitle, rowCount: all.length });
      },
    },
    {
      format: "xlsx",
      run: async () => {
        const { rows: all, columns } = await exportRows("xlsx");
        saveBlob(await buildXlsxBlob(columns, all, chartTitle), fileNameFor(chartTitle, "xlsx"));
        host.downloaded({ format: "xlsx", target: "widget", widgetId: widgetId, title: chartTitle, rowCount: all.length });
      },
    },
    {
      format: "png",
      run: async () => {
        await host.authorizeExport?.("png", "widget");
        let url: string;
        if (chartHandle.current) url = await chartHandle.current.toPngUrl();
        else {
          const element = document.querySelector<HTMLElement>(`[data-testid="widget-${CSS.escape(widgetId)}"]`);
          if (!element) throw new Error("widget is not on screen");
          url = await elementToPng(element, getComputedStyle(document.documentElement).getPropertyValue("--svc-surface").trim() || "#ffffff");
        }
        saveUrl(url, fileNameFor(chartTitle, "png"));
        host.downloaded({ format: "png", target: "widget", widgetId: widgetId, title: chartTitle });
      },
    },
  ];
  return exports;
}
