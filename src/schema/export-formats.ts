/**
 * Export formats without the schema library (the embed imports this; the zod schemas of the
 * grant are in export-grants.ts): which formats hold rows, and what an embed offers.
 */
/**
 * The formats the product exports: rows as CSV or XLSX, pictures as PNG or PDF. The same list
 * as the protocol's `DOWNLOAD_FORMATS` (the `download` event's formats; a test holds them equal).
 */
export const EXPORT_FORMATS = ["csv", "xlsx", "png", "pdf"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Formats whose file holds rows the server sends for the export (the others are pictures of the screen). */
export const DATA_EXPORT_FORMATS = ["csv", "xlsx"] as const satisfies readonly ExportFormat[];
export type DataExportFormat = (typeof DATA_EXPORT_FORMATS)[number];

/**
 * The formats an embed offers: the session's grant when the URL says `allowExport=true` and the
 * dashboard does not restrict data download; else none. The URL and the dashboard only narrow.
 */
export function offeredExportFormats(input: {
  granted: readonly ExportFormat[];
  urlAllowsExport: boolean;
  restrictDataDownload?: boolean | null;
}): ExportFormat[] {
  if (!input.urlAllowsExport || input.restrictDataDownload === true) return [];
  return [...input.granted];
}
