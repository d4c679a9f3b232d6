/**
 * A breakout or time step of a drill-through: the measure on the slice per value of another
 * dimension, or per period at a finer grain, charted above its table (drill-chart.tsx). A
 * value's figure, bar or point opens the rows behind it.
 */
import { useEmbedStore } from "../state/use-embed-store";
import type { QueryResult } from "../shell/platform-api";
import { titleOfColumn } from "../export/export-columns";
import { tableColumnsOf } from "../widgets/chart/table-model";
import { TableView } from "../widgets/chart/table-view";
import { formatCell } from "../widgets/query/format-cell";
import { DrillChart } from "./drill-chart";
import type { DrillView } from "./drill-explore";
import type { SemanticQuery } from "../../schema/semantic-query";

/** The result column a breakout or time step is keyed by. */
function keyColumnOf(view: DrillView): string | null {
  return view.kind === "breakout" ? view.dimension : view.kind === "time" ? `${view.dimension}.${view.granularity}` : null;
}

export function DrillBreakdown(props: {
  view: DrillView;
  query: SemanticQuery;
  result: QueryResult;
  member: string;
  /** A value of the step's dimension (a period's start for a time step) was chosen: its rows open; `label` is the value as shown. */
  onValue: (value: unknown, label: string) => void;
}) {
  const locale = useEmbedStore((s) => s.locale);
  const timezone = useEmbedStore((s) => s.timezone);
  const { result, view } = props;
  const key = keyColumnOf(view);
  const columns = tableColumnsOf(result.data, result.annotation, props.query, null);
  const keyColumn = columns.find((c) => c.key === key);
  const open = (row: Record<string, unknown>) => key && keyColumn && props.onValue(row[key], formatCell(row[key], keyColumn, { locale, timezone }));
  return (
    <div className="svc-drawer-body" data-testid="drill-breakdown">
      <DrillChart view={view} member={props.member} result={result} onValue={open} />
      <TableView columns={columns} rows={result.data} caption={titleOfColumn(props.member, result.annotation)} onDrill={(_member, _value, row) => open(row)} />
    </div>
  );
}
