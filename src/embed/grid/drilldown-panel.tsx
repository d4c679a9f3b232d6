/**
 * The rows behind a clicked value: a modal side panel running the detail query of that slice
 * (same filters, same row-level security, on the server), one page at a time, sorted on the
 * server by a header click, and downloadable (CSV, XLSX) when exports are allowed.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { t, tCount } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";
import { CloseIcon } from "../ui/icons";
import type { QueryResult } from "../shell/platform-api";
import { exportColumnsOf, titleOfColumn } from "../export/export-columns";
import { resultColumnOf } from "../export/result-columns";
import { fileNameFor, saveBlob } from "../export/save-file";
import { buildXlsxBlob } from "../export/xlsx";
import { tableColumnsOf, type TableSort } from "../widgets/chart/table-model";
import { TableView } from "../widgets/chart/table-view";
import { formatCell } from "../widgets/query/format-cell";
import { DRILL_EXPORT_LIMIT, DRILL_PAGE_SIZE, drillPageQuery } from "../widgets/query/compose-query";
import { useWidgetQuery } from "../widgets/query/use-widget-query";
import { WidgetSkeleton } from "./widget-frame";
import { offersExport, useWidgetHost, type DrilldownRequest } from "./widget-host";
import { DATA_EXPORT_FORMATS, type DataExportFormat } from "../../schema/export-formats";
import "../ui/buttons.css";
import "./drilldown-panel.css";

export function DrilldownPanel(props: { request: DrilldownRequest; onClose: () => void }) {
  const host = useWidgetHost();
  const locale = useEmbedStore((s) => s.locale);
  const timezone = useEmbedStore((s) => s.timezone);
  const closeRef = useRef<HTMLButtonElement>(null);
  const { request, onClose } = props;
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<TableSort | null>(null);
  const [exporting, setExporting] = useState(false);
  const pageQuery = useMemo(() => drillPageQuery(request.detailQuery, page, sort), [request.detailQuery, page, sort]);
  // In the viewer's locale: column titles and values (statuses, country names) by their labels.
  const result = useWidgetQuery<QueryResult>(`${locale}:${JSON.stringify(pageQuery)}`, (signal) => host.runQuery({ query: pageQuery, locale }, signal));

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, [onClose]);

  const changeSort = useCallback((next: TableSort | null) => {
    setSort(next);
    setPage(0);
  }, []);

  // The row formats the viewer may export (the session's grant within the URL's allowExport=true).
  const dataFormats = DATA_EXPORT_FORMATS.filter((format) => offersExport(host, format));
  const download = async (format: DataExportFormat) => {
    setExporting(true);
    try {
      const full = await host.runQuery({
        query: { ...request.detailQuery, ...(sort ? { order: [[sort.key, sort.direction]] } : {}), limit: DRILL_EXPORT_LIMIT },
        locale,
        // The server refuses a format the session does not grant; nothing is saved then.
        export: { format },
      });
      const columns = exportColumnsOf(full.data, full.annotation, request.detailQuery);
      const name = `${request.title} ${memberTitle}`;
      if (format === "csv") {
        const { buildCsv } = await import("../export/csv");
        saveBlob(new Blob(["\ufeff" + buildCsv(columns, full.data)], { type: "text/csv;charset=utf-8" }), fileNameFor(name, "csv"));
      } else saveBlob(await buildXlsxBlob(columns, full.data, request.title), fileNameFor(name, "xlsx"));
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

  const annotation = result.data?.annotation;
  const memberTitle = titleOfColumn(request.member, annotation);
  const rows = result.data?.data.slice(0, DRILL_PAGE_SIZE) ?? [];
  const hasMore = (result.data?.data.length ?? 0) > DRILL_PAGE_SIZE;
  const columns = result.data ? tableColumnsOf(rows, annotation, request.detailQuery, null) : [];
  const valueColumn = columns.find((c) => c.key === request.member);
  const drilledValue = formatCell(
    request.value,
    valueColumn ?? { key: request.member, type: "number", annotationFormat: resultColumnOf(request.member, annotation)?.format },
    {
      locale,
      timezone,
    },
  );
  // The slice drilled into: the dimension values of the clicked row (equals filters the detail query added).
  const slice = (request.detailQuery.filters ?? []).flatMap((f) =>
    "member" in f && f.operator === "equals" && (request.detailQuery.dimensions ?? []).includes(f.member)
      ? [
          `${titleOfColumn(f.member, annotation)}: ${(f.values ?? []).map((v) => annotation?.dimensions[f.member]?.valueLabels?.[String(v)] ?? String(v)).join(", ")}`,
        ]
      : [],
  );
  const first = page * DRILL_PAGE_SIZE + 1;
  const last = page * DRILL_PAGE_SIZE + rows.length;

  return (
    <div className="svc-drawer-backdrop" onClick={(e) => e.target === e.currentTarget && props.onClose()}>
      <aside
        className="svc-drawer"
        role="dialog"
        aria-modal="true"
        aria-labelledby="svc-drill-title"
        data-testid="drilldown-panel"
        data-state={result.status === "ready" ? "ready" : result.status === "error" ? "error" : "loading"}
        // A new page or order is on its way while the rows shown are the previous ones.
        aria-busy={result.status === "loading" || result.refreshing}
      >
        <header className="svc-drawer-header">
          <div className="svc-drawer-heading">
            <p className="svc-drawer-eyebrow">{request.title}</p>
            <h2 id="svc-drill-title">{t(locale, "drilldown.title", { member: memberTitle })}</h2>
            <p className="svc-drawer-context" data-testid="drilldown-context">
              <span className="svc-drawer-figure">
                {memberTitle} {drilledValue}
              </span>
              {slice.map((s) => (
                <span key={s} className="svc-drawer-chip">
                  {s}
                </span>
              ))}
            </p>
          </div>
          <button ref={closeRef} type="button" className="svc-icon-button" onClick={props.onClose} aria-label={t(locale, "close")}>
            <CloseIcon size={16} />
          </button>
        </header>
        {dataFormats.length > 0 ? (
          <div className="svc-drawer-tools" role="group" aria-label={t(locale, "export.menu")}>
            {dataFormats.map((format) => (
              <button
                key={format}
                type="button"
                className="svc-button is-small"
                data-testid={`drilldown-export-${format}`}
                disabled={exporting}
                onClick={() => void download(format)}
              >
                {t(locale, `export.${format}`)}
              </button>
            ))}
          </div>
        ) : null}
        <div className="svc-drawer-body">
          {result.status === "ready" && result.data ? (
            <TableView
              columns={columns}
              rows={rows}
              caption={memberTitle}
              sort={sort}
              onSortChange={changeSort}
              footer={
                <div className="svc-pager">
                  <span data-testid="drilldown-range">
                    {rows.length === 0 ? tCount(locale, "rows", 0) : `${first}–${last}${hasMore ? "" : ` · ${tCount(locale, "rows", last)}`}`}
                  </span>
                  <span className="svc-pager-buttons">
                    <button type="button" className="svc-button is-small" disabled={page === 0} onClick={() => setPage((p) => Math.max(0, p - 1))}>
                      {t(locale, "pager.previous")}
                    </button>
                    <button type="button" className="svc-button is-small" disabled={!hasMore} onClick={() => setPage((p) => p + 1)}>
                      {t(locale, "pager.next")}
                    </button>
                  </span>
                </div>
              }
            />
          ) : result.status === "error" ? (
            <div className="svc-widget-error" role="alert">
              <p className="svc-widget-error-title">{t(locale, "error.QueryFailed")}</p>
              <p className="svc-widget-error-detail">{result.error?.message}</p>
              <button type="button" className="svc-button is-small" onClick={result.retry}>
                {t(locale, "retry")}
              </button>
            </div>
          ) : (
            <WidgetSkeleton shape="table" label={t(locale, "loading")} />
          )}
        </div>
      </aside>
    </div>
  );
}
