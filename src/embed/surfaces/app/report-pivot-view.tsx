/**
 * The builder's Pivot result: runs the complete query through the preview's widget host (so a
 * failure reaches the host like the chart's), pivots its rows with the chosen breakout across,
 * and draws the table with totals. The breakout across is picked above the table.
 */
import { useMemo } from "react";
import type { ColumnFormatOverride } from "../../../schema/dashboard";
import { isMeasureLike, resultColumnsOf } from "../../export/result-columns";
import { useWidgetHost } from "../../grid/widget-host";
import type { QueryRequest, QueryResult } from "../../shell/platform-api";
import { useEmbedStore } from "../../state/use-embed-store";
import { tableColumnsOf } from "../../widgets/chart/table-model";
import { useWidgetQuery } from "../../widgets/query/use-widget-query";
import { useAppText } from "./app-messages";
import { isAdditiveColumn, pivotOf } from "./report-pivot";
import { PivotTable } from "./report-pivot-table";

export interface PivotViewProps {
  request: QueryRequest;
  /** The breakouts (result column keys and their titles) in the query's order, outermost first. */
  breakouts: readonly { key: string; title: string }[];
  /** The breakout across the top. */
  across: string;
  onAcrossChange(key: string): void;
  canEdit: boolean;
  measureTypeOf(measure: string): string | undefined;
  formats: Record<string, ColumnFormatOverride>;
}

export function PivotView(props: PivotViewProps) {
  const text = useAppText();
  const host = useWidgetHost();
  const locale = useEmbedStore((s) => s.locale);
  const timezone = useEmbedStore((s) => s.timezone);
  const key = JSON.stringify(props.request);
  const result = useWidgetQuery<QueryResult>(
    key,
    (signal) => host.runQuery(props.request, signal),
    (error) => host.reportError({ name: error.name, message: error.message, context: "widget:report-pivot", fatal: false }),
  );
  const data = result.data;
  const view = useMemo(() => {
    if (!data) return null;
    const columns = tableColumnsOf(data.data, data.annotation, props.request.query, props.formats);
    const byKey = new Map(columns.map((c) => [c.key, c]));
    const values = resultColumnsOf(data.annotation)
      .filter(isMeasureLike)
      .map((c) => ({ key: c.key, additive: isAdditiveColumn(c, props.measureTypeOf) }));
    const rowKeys = props.breakouts.map((b) => b.key).filter((k) => k !== props.across);
    const model = pivotOf({ rows: data.data, rowKeys, columnKey: props.across, values, locale });
    const titles = new Map(props.breakouts.map((b) => [b.key, b.title]));
    const columnOf = (k: string) => {
      const c = byKey.get(k) ?? { key: k, title: k, format: null };
      return titles.has(k) ? { ...c, title: titles.get(k)! } : c;
    };
    return { model, columnOf };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the breakouts and measure types are read with the result they came with
  }, [data, props.across, props.formats, locale]);

  const titleOf = (k: string) => view?.columnOf(k).title ?? k;
  // The values are named in the headers: the caption says what is down and what is across.
  const caption = view ? `${view.model.rowKeys.map(titleOf).join(", ")} × ${titleOf(props.across)}` : "";
  return (
    <div className="svc-app-pivot-view" data-state={result.status} data-testid="pivot-view">
      <label className="svc-app-field svc-app-pivot-across">
        <span>{text("pivotAcross")}</span>
        <select
          className="svc-app-input"
          value={props.across}
          disabled={!props.canEdit}
          onChange={(e) => props.onAcrossChange(e.target.value)}
          data-testid="pivot-across"
        >
          {props.breakouts.map((b) => (
            <option key={b.key} value={b.key}>
              {b.title}
            </option>
          ))}
        </select>
      </label>
      {result.status === "error" ? (
        <div className="svc-app-error" role="alert">
          {result.error?.message}
        </div>
      ) : view ? (
        <div className="svc-app-pivot-scroll" role="region" aria-label={caption} tabIndex={0}>
          <PivotTable model={view.model} caption={caption} columnOf={view.columnOf} ctx={{ locale, timezone }} />
        </div>
      ) : (
        <div className="svc-app-skeleton" aria-busy="true" />
      )}
    </div>
  );
}
