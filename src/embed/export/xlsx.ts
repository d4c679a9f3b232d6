/** XLSX export of a widget's rows: typed cells (numbers stay numbers, times become dates). */
import type { SheetData } from "write-excel-file/universal";
import { shownValue, type ExportColumn } from "./export-columns";

const TIME_TEXT = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

type XlsxCell = SheetData[number][number];

function xlsxCell(value: unknown, column: ExportColumn): XlsxCell {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return { value, type: Number };
  if (typeof value === "boolean") return { value, type: Boolean };
  if (column.type === "time" && typeof value === "string" && TIME_TEXT.test(value)) {
    // Wall-clock time of the query's time zone: keep the digits, don't shift them.
    const [date, time = "00:00:00"] = value.replace("Z", "").split(/[T ]/);
    const [y, mo, d] = date!.split("-").map(Number);
    const [h, mi, s] = time.split(":").map((p) => Number.parseFloat(p));
    const utc = new Date(Date.UTC(y!, mo! - 1, d!, h || 0, mi || 0, Math.floor(s || 0)));
    return { value: utc, type: Date, format: time === "00:00:00" ? "yyyy-mm-dd" : "yyyy-mm-dd hh:mm:ss" };
  }
  if (column.type === "number" && typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) {
    return { value: Number(value), type: Number };
  }
  return { value: typeof value === "object" ? JSON.stringify(value) : String(value), type: String };
}

/** Sheet data: a bold header row of titles, then the rows. */
export function buildXlsxSheet(columns: readonly ExportColumn[], rows: readonly Record<string, unknown>[]): SheetData {
  const header: XlsxCell[] = columns.map((c) => ({ value: c.title, type: String, fontWeight: "bold" }));
  return [header, ...rows.map((row) => columns.map((c) => xlsxCell(shownValue(row[c.key], c), c)))];
}

/** The XLSX file as a Blob. The writer is loaded on demand so it never weighs on start-up. */
export async function buildXlsxBlob(columns: readonly ExportColumn[], rows: readonly Record<string, unknown>[], sheetName = "Data"): Promise<Blob> {
  const { default: writeXlsxFile } = await import("write-excel-file/universal");
  const safeSheetName = sheetName.replace(/[\\/?*[\]:]/g, " ").slice(0, 31) || "Data";
  return writeXlsxFile(buildXlsxSheet(columns, rows), { sheet: safeSheetName }).toBlob();
}
