import { createRoute, z } from "@hono/zod-openapi";
import { DOWNLOAD_TARGETS } from "../../../protocol/constants";
import { ExportFormat } from "../../../schema/export-grants";
import { ErrorBody } from "../../../schema/common";
import { requirePrincipal } from "../../http/auth";
import { commonErrors, jsonBody, jsonContent, security, type Router } from "../../http/openapi";
import { assertExportAllowed, exportFormatsOf } from "./service";

export const EmbedExportInput = z
  .object({
    format: ExportFormat,
    target: z.enum(DOWNLOAD_TARGETS).meta({ description: "A widget's export or the whole dashboard's." }),
  })
  .strict()
  .meta({ id: "EmbedExportInput" });

export const EmbedExportGrant = z
  .object({
    format: ExportFormat,
    exportFormats: z.array(ExportFormat).meta({ description: "Every format the caller may export." }),
  })
  .meta({ id: "EmbedExportGrant" });

const authorize = createRoute({
  operationId: "authorizeEmbedExport",
  method: "post",
  path: "/api/v1/embed/exports",
  tags: ["Embed"],
  summary: "Ask to export in a format (the embed session's export grant)",
  description:
    "The embed asks before it draws a PNG or PDF (CSV and XLSX are asked with the query that fetches their rows, `export.format`). " +
    "An embed session whose `settings.allowExport` does not grant the format gets 403 `export_format_not_allowed`; platform users may export every format.",
  security,
  request: jsonBody(EmbedExportInput),
  responses: {
    200: jsonContent(EmbedExportGrant, "The format is granted."),
    ...commonErrors,
    403: jsonContent(ErrorBody, "Not allowed: `export_format_not_allowed` when the session's grant leaves the format out."),
  },
});

export function registerEmbedExportRoutes(app: Router) {
  app.openapi(authorize, async (c) => {
    const principal = requirePrincipal(c);
    const { format, target } = c.req.valid("json");
    assertExportAllowed(principal, format);
    if (principal.kind === "embed") c.get("deps").logger.info("embed export", { sessionId: principal.sessionId, format, target });
    c.header("Cache-Control", "no-store");
    return c.json({ format, exportFormats: exportFormatsOf(principal) }, 200);
  });
}
