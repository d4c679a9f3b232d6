/**
 * The downloads of a drill-through's rows: the formats the viewer may take (the session's grant
 * within the URL's allowExport=true), and the download of every row of the slice (up to the
 * export limit, in the table's order) as CSV or XLSX, named after the widget and the measure.
 */
import { useState } from "react";
import { useEmbedStore } from "../state/use-embed-store";
import { exportColumnsOf } from "../export/export-columns";
import { fileNameFor, saveBlob } from "../export/save-file";
import { buildXlsxBlob } from "../export/xlsx";
import type { TableSort } from "../widgets/chart/table-model";
import { DRILL_EXPORT_LIMIT } from "../widgets/query/compose-query";
import { offersExport, useWidgetHost, type DrilldownRequest } from "./widget-host";
import { DATA_EXPORT_FORMATS, type DataExportFormat } from "../../schema/export-formats";
import type { SemanticQuery } from "../../schema/semantic-query";

export function useDrillDownload(request: DrilldownRequest, detail: SemanticQuery, sort: TableSort | null, memberTitle: string) {
  const host = useWidgetHost();
  const locale = useEmbedStore((s) => s.locale);
  const [exporting, setExporting] = useState(false);
  const dataFormats = DATA_EXPORT_FORMATS.filter((format) => offersExport(host, format));
  const download = async (format: DataExportFormat) => {
    setExporting(true);
    try {
      const full = await host.runQuery({
        query: { ...detail, ...(sort ? { order: [[sort.key, sort.direction]] } : {}), limit: DRILL_EXPORT_LIMIT },
        locale,
        // The server refuses a format the session does not grant; nothing is saved then.
        export: { format },
      });
      const exported = exportColumnsOf(full.data, full.annotation, detail);
      const name = `${request.title} ${memberTitle}`;
      if (format === "csv") {
        const { buildCsv } = await import("../export/csv");
        saveBlob(new Blob(["\ufeff" + buildCsv(exported, full.data)], { type: "text/csv;charset=utf-8" }), fileNameFor(name, "csv"));
      } else saveBlob(await buildXlsxBlob(exported, full.data, request.title), fileNameFor(name, "xlsx"));
      host.downloaded({ format, target: "widget", widgetId: request.widgetId, title: name, rowCount: full.data.length });
    } catch (error) {
      host.reportError({
        name: "ExportFailed",
        message: error instanceof Error ? error.message : String(error),
        context: `drilldown:${request.widgetId}`,
        fatal: false,
      });
    } finally {
      setExporting(false);
    }
  };
  return { dataFormats, exporting, download };
}
