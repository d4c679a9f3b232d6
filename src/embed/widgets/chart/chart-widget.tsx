/**
 * CHART widget: `config.reportId` names a report snapshot whose `meta.query` runs with the
 * dashboard's filters, time grains and time zone, rendered by the snapshot's `kind`
 * (vega, table, kpi, html, map). Exports re-run the same composed query on the server, so
 * filters and row-level security hold for downloads too.
 */
import { useCallback, useMemo, useRef, useState } from "react";
import type { DashboardWidget, ReportSnapshot } from "../../../schema/dashboard";
import type { DataExportFormat } from "../../../schema/export-formats";
import type { QueryResult, SemanticQuery } from "../../shell/platform-api";
import { titleOfColumn } from "../../export/export-columns";
import { firstAmountColumn } from "../../export/result-columns";
import { t } from "../../i18n";
import { useEmbedStore } from "../../state/use-embed-store";
import { columnAliases } from "../query/compose-query";
import { useWidgetQuery } from "../query/use-widget-query";
import { useWidgetHost } from "../../grid/widget-host";
import { useFilterWiring } from "../../grid/filter-wiring-context";
import { WidgetFrame } from "../../grid/widget-frame";
import { HtmlBody, KpiBody } from "./chart-bodies";
import { describeChart } from "./chart-description";
import { tableColumnsOf } from "./table-model";
import { TableView } from "./table-view";
import { useChartPalette } from "./use-chart-palette";
import { drilldownTarget } from "./vega-spec";
import { useChartDrill } from "./use-chart-drill";
import { useChartPrintable } from "./use-chart-printable";
import { usePreparedSpec } from "./use-prepared-spec";
import { useWidgetExports } from "./use-widget-exports";
import { VegaView, type ChartHandle } from "./vega-view";
import { chartQueryRequest, composeChartQuery, reportQueryOf } from "./widget-request";

export { reportQueryOf };

export { EXPORT_ROW_LIMIT } from "./use-widget-exports";

function parseSpec(spec: ReportSnapshot["spec"]): Record<string, unknown> | null {
  if (!spec) return null;
  if (typeof spec === "string") {
    try {
      const parsed = JSON.parse(spec) as unknown;
      return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
  return spec as Record<string, unknown>;
}

export function ChartWidget(props: { widget: DashboardWidget }) {
  const { widget } = props;
  const host = useWidgetHost();
  const locale = useEmbedStore((s) => s.locale);
  const timezone = useEmbedStore((s) => s.timezone);
  const filters = useEmbedStore((s) => s.filters);
  const timeGrains = useEmbedStore((s) => s.timeGrains);
  const memberSwitches = useEmbedStore((s) => s.memberSwitches);
  const refreshNonce = useEmbedStore((s) => s.refreshNonce);
  const palette = useChartPalette();
  const chartHandle = useRef<ChartHandle | null>(null);
  const [renderState, setRenderState] = useState<{ key: string; status: "drawn" | "deferred" | "failed"; message?: string } | null>(null);

  const reportId = (widget.config as { reportId?: unknown } | null)?.reportId;
  const snapshot = typeof reportId === "number" ? host.reportsById.get(reportId) : undefined;
  const base = reportQueryOf(snapshot);
  const kind = snapshot?.kind ?? "table";
  const title = (widget.config as { title?: string } | null)?.title ?? snapshot?.title ?? snapshot?.name ?? null;

  // Only the filters wired to this widget, each on its member (filter-wiring.ts): its exports re-run this query.
  const filterWiring = useFilterWiring();
  const composed = useMemo(
    () => (base ? composeChartQuery(base, { filters, timeGrains, timezone, memberSwitches, filterWiring, widgetId: widget.id }) : null),
    [base, filters, timeGrains, timezone, memberSwitches, filterWiring, widget.id],
  );
  // Columns the report names that the composed query renamed (member and grain switches).
  const aliases = useMemo(() => (base && composed ? columnAliases(base, composed) : {}), [base, composed]);
  // The locale is part of the answer (translated titles and value labels): a new locale asks again.
  const key = composed ? JSON.stringify([composed, refreshNonce, locale]) : null;

  const request = useCallback(
    (query: SemanticQuery, signal?: AbortSignal, dataExport?: DataExportFormat) =>
      host.runQuery({ ...chartQueryRequest(snapshot, query, refreshNonce, locale), ...(dataExport ? { export: { format: dataExport } } : {}) }, signal),
    [host, snapshot, refreshNonce, locale],
  );

  const result = useWidgetQuery<QueryResult>(
    key,
    (signal) => request(composed!, signal),
    (error) => host.reportError({ name: error.name, message: error.message, context: `widget:${widget.id}`, fatal: false }),
  );

  const rows = result.data?.data ?? [];
  const annotation = result.data?.annotation;
  const spec = parseSpec(snapshot?.spec ?? null);
  const measures = composed?.measures ?? [];
  const firstMeasureKey = firstAmountColumn(measures, annotation);
  const firstMeasure = firstMeasureKey ? { key: firstMeasureKey, title: titleOfColumn(firstMeasureKey, annotation) } : null;
  const chartTitle = title ?? t(locale, "widget.untitled");

  // The widget's click behaviour, or the drilldown (use-chart-drill.ts).
  const openDrill = useChartDrill({ widget, host, snapshot, composed, title: chartTitle });

  const isVega = kind === "vega" || kind === "map";
  const { prepared, geoFailed } = usePreparedSpec({ isVega, kind, spec, data: result.data, ready: !!(base && composed), composed, palette, aliases });

  const exports = useWidgetExports({ request, composed, chartTitle, widgetId: widget.id, chartHandle });

  const tableColumns = useMemo(
    () => (kind === "table" && result.data && composed ? tableColumnsOf(rows, annotation, composed, snapshot?.preferences?.columnFormats) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [kind, result.data, composed, snapshot],
  );
  // The dashboard PDF: a table with every row, a chart's drawing as SVG.
  useChartPrintable({ widgetId: widget.id, tableColumns, rows, isVega, prepared, chartHandle, locale, timezone });

  const ctx = { locale, timezone };
  let state: "loading" | "ready" | "error" = result.status === "ready" ? "ready" : result.status === "error" ? "error" : "loading";
  let error = result.error;
  let body: React.ReactNode = null;
  let rendering = false;

  if (!snapshot || !base) {
    state = "error";
    error = { name: "ConfigInvalid", message: t(locale, "widget.noReport") };
  } else if (result.status === "ready") {
    if (kind === "table") {
      body = (
        <TableView
          columns={tableColumns ?? tableColumnsOf(rows, annotation, composed!, snapshot.preferences?.columnFormats)}
          rows={rows}
          caption={chartTitle}
          onDrill={openDrill}
        />
      );
    } else if (kind === "kpi") {
      const measure = typeof spec?.measure === "string" ? (aliases[spec.measure] ?? spec.measure) : measures[0];
      if (!measure) {
        state = "error";
        error = { name: "ConfigInvalid", message: t(locale, "widget.noReport") };
      } else {
        body = <KpiBody rows={rows} measure={measure} snapshot={snapshot} composed={composed!} annotation={annotation} ctx={ctx} onDrill={openDrill} />;
      }
    } else if (kind === "html") {
      const html = typeof spec?.html === "string" ? spec.html : "";
      body = <HtmlBody html={html} rows={rows} aliases={aliases} annotation={annotation} snapshot={snapshot} ctx={ctx} title={chartTitle} />;
    } else if (prepared === "waiting") {
      rendering = true;
    } else if (!prepared) {
      state = "error";
      error = geoFailed ? { name: "RenderFailed", message: t(locale, "error.RenderFailed") } : { name: "ConfigInvalid", message: t(locale, "widget.noSpec") };
    } else if (renderState?.key === key && renderState.status === "failed") {
      state = "error";
      error = { name: "RenderFailed", message: renderState.message ?? t(locale, "error.RenderFailed") };
    } else {
      rendering = !(renderState?.key === key && (renderState.status === "drawn" || renderState.status === "deferred"));
      body = (
        <VegaView
          spec={prepared.spec}
          description={describeChart(locale, chartTitle, rows, firstMeasure)}
          handleRef={chartHandle}
          onDeferred={() => setRenderState((s) => (s?.key === key && s.status === "drawn" ? s : { key: key!, status: "deferred" }))}
          onRendered={(renderError) => {
            if (renderError) {
              host.reportError({ name: "RenderFailed", message: renderError.message, context: `widget:${widget.id}`, fatal: false });
              setRenderState({ key: key!, status: "failed", message: renderError.message });
            } else setRenderState({ key: key!, status: "drawn" });
          }}
          onDatumClick={(datum) => {
            const target = drilldownTarget(datum, prepared.fields, measures);
            if (target) openDrill(target.member, target.value, target.row);
          }}
        />
      );
    }
  }

  return (
    <WidgetFrame
      widget={widget}
      title={title}
      description={snapshot?.description}
      state={state}
      error={error}
      onRetry={
        snapshot && base
          ? () => {
              setRenderState(null);
              result.retry();
            }
          : undefined
      }
      exports={exports}
      skeleton={kind === "kpi" ? "kpi" : kind === "table" ? "table" : "chart"}
      busy={result.refreshing}
      rendering={rendering}
    >
      {body}
    </WidgetFrame>
  );
}
