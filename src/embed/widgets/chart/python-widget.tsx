/**
 * A CHART widget whose report holds Python (`meta.python`): the platform runs it
 * (`python-run`, sandboxed, with the dashboard's filters and the viewer's row-level security)
 * and the widget shows what it returned — HTML in a scriptless sandboxed frame, a table, an
 * image and the printed output. Any other report goes to the chart widget.
 */
import { useMemo } from "react";
import type { DashboardWidget } from "../../../schema/dashboard";
import { serializeFilterParameters } from "../../../schema/dashboard-filters";
import { useFilterWiring } from "../../grid/filter-wiring-context";
import { widgetFilterMap } from "../query/filter-wiring";
import { useWidgetHost, type PythonRunOutput } from "../../grid/widget-host";
import { WidgetFrame } from "../../grid/widget-frame";
import { useEmbedStore } from "../../state/use-embed-store";
import { useWidgetQuery } from "../query/use-widget-query";
import { ChartWidget } from "./chart-widget";
import { hasPythonCode } from "./widget-request";
import { HtmlView } from "./html-view";
import type { TableColumn } from "./table-model";
import { TableView } from "./table-view";
import "./python-widget.css";

/** The CHART widget of a report: Python reports run on the platform, the rest as charts. */
export function ReportWidget(props: { widget: DashboardWidget }) {
  const host = useWidgetHost();
  const reportId = (props.widget.config as { reportId?: unknown } | null)?.reportId;
  const snapshot = typeof reportId === "number" ? host.reportsById.get(reportId) : undefined;
  if (snapshot && hasPythonCode(snapshot.meta) && host.runPython) return <PythonWidget widget={props.widget} reportId={snapshot.reportId} />;
  return <ChartWidget widget={props.widget} />;
}

function PythonWidget(props: { widget: DashboardWidget; reportId: number }) {
  const { widget, reportId } = props;
  const host = useWidgetHost();
  const snapshot = host.reportsById.get(reportId)!;
  const filters = useEmbedStore((s) => s.filters);
  const refreshNonce = useEmbedStore((s) => s.refreshNonce);
  const filterWiring = useFilterWiring();
  // The filters wired to this widget, keyed by the member each applies to here.
  const parameters = useMemo(() => serializeFilterParameters(widgetFilterMap(filters, filterWiring, widget.id)), [filters, filterWiring, widget.id]);
  const key = JSON.stringify([reportId, parameters, refreshNonce]);
  const result = useWidgetQuery<PythonRunOutput>(
    key,
    (signal) => host.runPython!(reportId, parameters, signal),
    (error) => host.reportError({ name: error.name, message: error.message, context: `widget:${widget.id}`, fatal: false }),
  );
  const title = (widget.config as { title?: string } | null)?.title ?? snapshot.title ?? snapshot.name ?? null;
  const out = result.data;
  const columns = useMemo(() => {
    const first = out?.table?.[0];
    return first
      ? Object.keys(first).map((key): TableColumn => {
          const isMeasure = typeof first[key] === "number";
          return { key, title: key, type: isMeasure ? "number" : "string", format: null, isMeasure, drillable: false };
        })
      : [];
  }, [out]);
  const state = result.status === "ready" ? "ready" : result.status === "error" ? "error" : "loading";
  return (
    <WidgetFrame
      widget={widget}
      title={title}
      description={snapshot.description}
      state={state}
      error={result.error}
      onRetry={result.retry}
      skeleton="table"
      busy={result.refreshing}
    >
      {out ? (
        <div className="svc-python-output" data-testid={`python-${widget.id}`}>
          {out.html ? <HtmlView body={out.html} title={title ?? "Python"} /> : null}
          {out.image ? <img className="svc-python-image" src={out.image} alt={title ?? ""} /> : null}
          {out.table && out.table.length ? <TableView columns={columns} rows={out.table} caption={title ?? "Python"} /> : null}
          {out.stdout && !out.html && !out.image && !out.table ? <pre className="svc-python-stdout">{out.stdout}</pre> : null}
        </div>
      ) : null}
    </WidgetFrame>
  );
}
