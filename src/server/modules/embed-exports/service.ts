/**
 * Export grants per format on the server: an embed session exports only the formats its
 * `settings.allowExport` grants (docs/embedding.md "Export grants per format"). Platform users
 * (login, API key) export every format.
 */
import { EXPORT_FORMATS, grantedExportFormats, type ExportFormat } from "../../../schema/export-grants";
import type { Principal } from "../../domain/actor";
import { DomainError } from "../../domain/errors";

/** The formats this caller may export, in the product's order. */
export function exportFormatsOf(principal: Principal): ExportFormat[] {
  return principal.kind === "embed" ? grantedExportFormats(principal.settings.allowExport) : [...EXPORT_FORMATS];
}

/** Throws 403 `export_format_not_allowed` unless the caller may export `format`; nothing has been run or written then. */
export function assertExportAllowed(principal: Principal, format: ExportFormat): void {
  const allowed = exportFormatsOf(principal);
  if (allowed.includes(format)) return;
  const may = allowed.length ? `it may export ${allowed.map((f) => f.toUpperCase()).join(", ")}` : "it may not export at all";
  throw new DomainError("export_format_not_allowed", `This embed session may not export ${format.toUpperCase()}; ${may}`, {
    details: { format, allowed },
  });
}
