/**
 * A pivot drawn as an HTML table: the row breakouts as row headers (`scope="row"`), the values
 * across as column headers (`scope="col"`, grouped by `scope="colgroup"` when there are several
 * values), a Total column and a Total row. A value without totals (not additive) shows a dash
 * that a screen reader hears as "No total: not additive".
 */
import type { CellFormatContext } from "../../widgets/query/format-cell";
import { formatCell, type CellColumn } from "../../widgets/query/format-cell";
import { useAppText } from "./app-messages";
import type { PivotModel } from "./report-pivot";

export interface PivotTableProps {
  model: PivotModel;
  caption: string;
  /** The breakouts' and values' columns by key: titles and formats. */
  columnOf(key: string): CellColumn & { title: string };
  ctx: CellFormatContext;
}

export function PivotTable(props: PivotTableProps) {
  const text = useAppText();
  const { model, columnOf, ctx } = props;
  const several = model.values.length > 1;
  const across = columnOf(model.columnKey);
  const value = (n: number | null, i: number) => formatCell(n, columnOf(model.values[i]!.key), ctx);
  const total = (n: number | null, i: number, key: string) =>
    model.values[i]!.additive ? (
      <td key={key} className={`is-total${i === 0 ? " is-group-start" : ""}`}>
        {value(n, i)}
      </td>
    ) : (
      <td key={key} className={`is-total is-none${i === 0 ? " is-group-start" : ""}`} title={text("pivotNoTotal")}>
        <span aria-hidden="true">–</span>
        <span className="svc-visually-hidden">{text("pivotNoTotal")}</span>
      </td>
    );
  const valueHeads = (prefix: string) =>
    model.values.map((v, i) => (
      <th key={`${prefix}-${v.key}`} scope="col" className={i === 0 ? "is-group-start" : undefined}>
        {columnOf(v.key).title}
      </th>
    ));
  return (
    <table className="svc-app-pivot" data-testid="pivot-table">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          {model.rowKeys.map((k) => (
            <th key={k} scope="col" rowSpan={several ? 2 : 1} className="is-row-head">
              {columnOf(k).title}
            </th>
          ))}
          {model.columns.map((c, ci) => (
            <th key={ci} scope={several ? "colgroup" : "col"} colSpan={model.values.length} title={across.title} className="is-group-start">
              {formatCell(c, across, ctx)}
            </th>
          ))}
          <th scope={several ? "colgroup" : "col"} colSpan={model.values.length} className="is-total is-group-start">
            {text("pivotTotal")}
          </th>
        </tr>
        {several ? (
          <tr>
            {model.columns.map((_, ci) => valueHeads(String(ci)))}
            {valueHeads("total")}
          </tr>
        ) : null}
      </thead>
      <tbody>
        {model.rows.map((tuple, ri) => (
          <tr key={ri}>
            {tuple.map((v, k) => (
              <th key={k} scope="row" className="is-row-head">
                {formatCell(v, columnOf(model.rowKeys[k]!), ctx)}
              </th>
            ))}
            {model.cells[ri]!.flatMap((cell, ci) =>
              cell.map((n, i) => (
                <td key={`${ci}-${i}`} data-row={ri} data-column={ci} className={i === 0 ? "is-group-start" : undefined}>
                  {value(n, i)}
                </td>
              )),
            )}
            {model.rowTotals[ri]!.map((n, i) => total(n, i, `t${i}`))}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr data-testid="pivot-totals">
          <th scope="row" colSpan={model.rowKeys.length} className="is-row-head">
            {text("pivotTotal")}
          </th>
          {model.columnTotals.flatMap((t, ci) => t.map((n, i) => total(n, i, `${ci}-${i}`)))}
          {model.grandTotals.map((n, i) => total(n, i, `g${i}`))}
        </tr>
      </tfoot>
    </table>
  );
}
