/**
 * Export grants per format (docs/embedding.md "Export grants per format"). The host's backend
 * says in the embed session which formats its viewer may export (`settings.allowExport`); the
 * server refuses every other format, and the embed URL's `allowExport=true` only turns the
 * controls on within that grant.
 */
import { z } from "zod";
import { DATA_EXPORT_FORMATS, EXPORT_FORMATS, offeredExportFormats } from "./export-formats";

/** The formats the product exports: rows as CSV or XLSX, pictures as PNG or PDF. */
export const ExportFormat = z.enum(EXPORT_FORMATS).meta({ id: "ExportFormat" });
export type ExportFormat = z.infer<typeof ExportFormat>;
/** Formats whose file holds rows the server sends for the export (the others are pictures of the screen). */
export const DataExportFormat = z.enum(DATA_EXPORT_FORMATS).meta({ id: "DataExportFormat" });
export type DataExportFormat = z.infer<typeof DataExportFormat>;
export { DATA_EXPORT_FORMATS, EXPORT_FORMATS, offeredExportFormats };

/** `settings.allowExport` of an embed session: every format (`true`), none (`false`) or the ones listed. */
export const ExportGrant = z
  .union([
    z.boolean(),
    z
      .array(ExportFormat)
      .max(EXPORT_FORMATS.length)
      .refine((formats) => new Set(formats).size === formats.length, "each format once"),
  ])
  .meta({
    id: "ExportGrant",
    description:
      "Which export formats the viewer may use: `true` every format (csv, xlsx, png, pdf), `false` or `[]` none, or a list such as " +
      '`["csv","xlsx"]`. The server refuses any other format with 403 `export_format_not_allowed`; the embed URL\'s `allowExport=true` ' +
      "turns the export controls on within this grant. Not set: every format (the URL alone decides, as before the setting existed).",
  });
export type ExportGrant = z.infer<typeof ExportGrant>;

/**
 * The formats a session's grant allows, in the product's order. Not set means every format
 * (sessions from before the setting keep what the URL gave them); a value that is not a grant
 * (a token signed by an older server cannot hold one, but the claim is read defensively) allows none.
 */
export function grantedExportFormats(setting: unknown): ExportFormat[] {
  if (setting === undefined) return [...EXPORT_FORMATS];
  const grant = ExportGrant.safeParse(setting);
  if (!grant.success || grant.data === false) return [];
  if (grant.data === true) return [...EXPORT_FORMATS];
  const listed = new Set<ExportFormat>(grant.data);
  return EXPORT_FORMATS.filter((f) => listed.has(f));
}
