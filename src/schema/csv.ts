/**
 * The one CSV writer of the platform: the embed's widget and drilldown exports (in the browser)
 * and the notification attachments (on the server) both write through it. RFC 4180 through
 * papaparse (`Papa.unparse`), CRLF line ends, quotes only where a cell needs them.
 *
 * Formula injection (CSV injection, OWASP): a spreadsheet runs a cell that starts with `=`, `+`,
 * `-`, `@`, a tab or a carriage return as a formula, so an exported value like
 * `=HYPERLINK("http://x","y")` could act when the file is opened. Such a text cell gets a
 * leading `'` (papaparse's `escapeFormulae`, which then quotes the cell too) and stays text.
 * The header row (column titles come from data model titles) is treated the same way.
 *
 * Numbers stay numbers: a JavaScript number, bigint or boolean is written as it is (`-5`, not
 * `'-5`), and so is a text cell that is exactly a decimal number (`-12345678901234567890`,
 * `-0.5`, `+3e-2`: the data sources give integers past 2^53 and exact decimals as such text).
 * A number cannot name a function or a reference, so it cannot be a formula.
 */
import Papa from "papaparse";

/**
 * A text cell a spreadsheet would read as a formula: it starts with = + - @ tab or CR and is
 * not just a decimal number. Unlike papaparse's own default (`/^[=+\-@\t\r].*$/`, whose `.`
 * stops at a line break), this matches a multi-line cell too.
 */
export const CSV_FORMULA_START = /^(?![+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$)[=+\-@\t\r]/;

/** A value as the CSV writer takes it: null for an empty cell. */
export type CsvCell = string | number | bigint | boolean | null;

/** A result value as a CSV cell: dates as ISO text, objects and arrays as JSON text. */
export function toCsvCell(value: unknown): CsvCell {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "bigint" || typeof value === "boolean" || typeof value === "string") return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * A CSV document: the `header` line, then one line per row (each row's values in the header's
 * order, any value `toCsvCell` takes), CRLF between lines and no line end after the last.
 */
export function writeCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return Papa.unparse(
    { fields: [...header], data: rows.map((row) => row.map(toCsvCell)) },
    { newline: "\r\n", quotes: false, header: true, escapeFormulae: CSV_FORMULA_START },
  );
}
