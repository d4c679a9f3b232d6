/** CSV export of a widget's rows (RFC 4180 through papaparse). */
import Papa from "papaparse";
import type { ExportColumn } from "./export-columns";

/**
 * Text cells a spreadsheet would run as a formula get a leading apostrophe, so an exported
 * value like `=HYPERLINK(...)` stays text (CSV injection).
 */
export function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function csvCell(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return neutralizeFormula(JSON.stringify(value));
  return neutralizeFormula(String(value));
}

/** A CSV document: one header line of column titles, then one line per row. */
export function buildCsv(columns: readonly ExportColumn[], rows: readonly Record<string, unknown>[]): string {
  return Papa.unparse(
    {
      fields: columns.map((c) => c.title),
      data: rows.map((row) => columns.map((c) => csvCell(row[c.key]))),
    },
    { newline: "\r\n", quotes: false, escapeFormulae: false },
  );
}
