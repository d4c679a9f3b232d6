/** CSV export of a widget's rows, through the platform's one CSV writer (src/schema/csv.ts). */
import { writeCsv } from "../../schema/csv";
import { shownValue, type ExportColumn } from "./export-columns";

/** A CSV document: one header line of column titles, then one line per row; formulas neutralised. */
export function buildCsv(columns: readonly ExportColumn[], rows: readonly Record<string, unknown>[]): string {
  return writeCsv(
    columns.map((c) => c.title),
    rows.map((row) => columns.map((c) => shownValue(row[c.key], c))),
  );
}
