/**
 * A pivot of a result: the values of one breakout across, the others down, each value column
 * per cell, and row, column and grand totals worked out from the result's rows. Only values that
 * add up are totalled (counts and sums, their comparisons' before/after/change, shares of the
 * whole); an average, a distinct count, a minimum or a relative change has no total, because
 * the sum of the cells would be a wrong figure (docs/creator-mode.md, "Pivot").
 */
import type { ResultColumn } from "../../export/result-columns";
import { numericValue } from "../../widgets/query/format-cell";
import { ADDITIVE_MEASURE_TYPES } from "./report-calculations";

export interface PivotValue {
  key: string;
  /** Whether the column's values add up over rows: only those have totals. */
  additive: boolean;
}

export interface PivotInput {
  rows: readonly Record<string, unknown>[];
  /** The breakouts down the side, outermost first. */
  rowKeys: readonly string[];
  /** The breakout across the top. */
  columnKey: string;
  values: readonly PivotValue[];
  /** Collation of the column headers. */
  locale?: string;
}

export interface PivotModel {
  rowKeys: readonly string[];
  columnKey: string;
  values: readonly PivotValue[];
  /** The distinct combinations of the row breakouts, in the result's order. */
  rows: unknown[][];
  /** The distinct values across, ascending. */
  columns: unknown[];
  /** `cells[row][column][value]`: null where the result has no row. */
  cells: (number | null)[][][];
  /** `rowTotals[row][value]`: null for a value without totals. */
  rowTotals: (number | null)[][];
  columnTotals: (number | null)[][];
  grandTotals: (number | null)[];
}

const keyOf = (values: readonly unknown[]) => JSON.stringify(values);
const sum = (xs: readonly (number | null)[]) => xs.reduce<number>((a, b) => a + (b ?? 0), 0);

export function pivotOf(input: PivotInput): PivotModel {
  const { rowKeys, columnKey, values } = input;
  const rowIndex = new Map<string, number>();
  const rows: unknown[][] = [];
  const columnSet = new Map<string, unknown>();
  for (const r of input.rows) {
    const tuple = rowKeys.map((k) => r[k] ?? null);
    if (!rowIndex.has(keyOf(tuple))) {
      rowIndex.set(keyOf(tuple), rows.length);
      rows.push(tuple);
    }
    const c = r[columnKey] ?? null;
    columnSet.set(keyOf([c]), c);
  }
  const collator = new Intl.Collator(input.locale, { numeric: true, sensitivity: "base" });
  const columns = [...columnSet.values()].sort((a, b) => (a === null ? 1 : b === null ? -1 : collator.compare(String(a), String(b))));
  const columnIndex = new Map(columns.map((c, i) => [keyOf([c]), i]));
  const cells = rows.map(() => columns.map(() => values.map((): number | null => null)));
  for (const r of input.rows) {
    const cell = cells[rowIndex.get(keyOf(rowKeys.map((k) => r[k] ?? null)))!]![columnIndex.get(keyOf([r[columnKey] ?? null]))!]!;
    values.forEach((v, i) => {
      const n = numericValue(r[v.key]);
      // One result row per combination; were there more, an additive value adds up and another keeps its first.
      if (n !== null) cell[i] = cell[i] === null ? n : v.additive ? cell[i]! + n : cell[i]!;
    });
  }
  const total = (i: number, xs: (number | null)[]) => (values[i]!.additive && xs.some((x) => x !== null) ? sum(xs) : null);
  const rowTotals = cells.map((row) =>
    values.map((_, i) =>
      total(
        i,
        row.map((c) => c[i]!),
      ),
    ),
  );
  const columnTotals = columns.map((_, ci) =>
    values.map((_, i) =>
      total(
        i,
        cells.map((row) => row[ci]![i]!),
      ),
    ),
  );
  const grandTotals = values.map((_, i) =>
    total(
      i,
      rowTotals.map((t) => t[i]!),
    ),
  );
  return { rowKeys, columnKey, values, rows, columns, cells, rowTotals, columnTotals, grandTotals };
}

/**
 * Whether a result column adds up over rows, given the model's measure types: a count or a sum,
 * their compared before/after/change and their previous period's value and change, and a share
 * of the whole (of all rows, so the shares of a group add up to its share).
 */
export function isAdditiveColumn(column: ResultColumn, measureTypeOf: (measure: string) => string | undefined): boolean {
  const additive = (m: string | undefined) => !!m && ADDITIVE_MEASURE_TYPES.has(measureTypeOf(m) ?? "");
  switch (column.role) {
    case "measure":
      return additive(column.key);
    case "compare":
      return column.compareOutput !== "relativeChange" && additive(column.measure);
    case "periodComparison":
      return !column.key.endsWith("percent_change") && column.format !== "percent" && additive(column.measure ?? column.key.replace(/_prev_.*$/, ""));
    case "calculation":
      return column.calculation === "percentOfTotal";
    default:
      return false;
  }
}
