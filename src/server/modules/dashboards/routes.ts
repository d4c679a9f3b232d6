import { createRoute, z } from "@hono/zod-openapi";
import { Dashboard } from "../../../schema/dashboard";
import { EmbedTheme, EmbedSessionSettings } from "../../../schema/embed-session";
import { requirePrincipal } from "../../http/auth";
import { commonErrors, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { pythonSandbox } from "../apps/python-sandbox";
import { warmPythonFor } from "../apps/service";
import { resolveViewableDashboard, viewerOf } from "../embed-access/service";
import { PublicIdParam } from "../embed-access/routes";
import { Timestamp } from "../../../schema/common";
import { contentLocaleOf, dashboardInLocale } from "../content-translation/apply";
import { ExportFormat } from "../../../schema/export-grants";
import { exportFormatsOf } from "../embed-exports/service";

export const EmbedViewer = z
  .object({
    mode: z.enum(["signed", "private"]),
    deploymentId: z.number().int().nullable(),
    embedTenant: z.string().nullable(),
    externalId: z.string().nullable(),
    settings: EmbedSessionSettings.partial().meta({ description: "The session's settings (none for a platform user in private mode)." }),
    embedTheme: EmbedTheme.nullable(),
    expiresAt: Timestamp.nullable().meta({ description: "When the token (signed) or the login session (private) ends." }),
    exportFormats: z
      .array(ExportFormat)
      .optional()
      .meta({
        description:
          "The formats this viewer may export from this dashboard: the session's `settings.allowExport` grant (every format for platform users), " +
          "none when the dashboard restricts data download. The embed URL's `allowExport=true` turns the controls on within them.",
      }),
  })
  .meta({ id: "EmbedViewer" });

export const EmbedDashboardResponse = z
  .object({
    dashboard: Dashboard,
    viewer: EmbedViewer,
    contentLocale: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "The locale the dashboard's titles and labels were translated for (docs/translation.md); null: as written." }),
  })
  .meta({ id: "EmbedDashboardResponse" });

const getDashboard = createRoute({
  operationId: "getEmbedDashboard",
  method: "get",
  path: "/api/v1/embed/dashboard/{publicId}",
  tags: ["Embed"],
  summary: "The published dashboard as the embed shows it, with who is viewing",
  description:
    "Embed token: 404 outside the session's deployment; 403 `forbidden` unless the dashboard allows embedding and embed access grants `read` to the viewer's tenant or all embed users (a tenant's `none` wins). Login cookie or API key: read access to the workbook.",
  security,
  request: {
    params: z.object({ publicId: PublicIdParam }),
    query: z.object({
      locale: z
        .string()
        .max(35)
        .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/, "must be a locale tag such as de-DE")
        .optional()
        .meta({ description: "Show titles, descriptions and labels in this locale (docs/translation.md); default the session's locale." }),
    }),
  },
  responses: { 200: jsonContent(EmbedDashboardResponse, "The dashboard and its viewer."), ...commonErrors, ...notFoundError },
});

export function registerEmbedDashboardRoutes(app: Router) {
  app.openapi(getDashboard, async (c) => {
    const principal = requirePrincipal(c);
    const db = c.get("deps").db;
    const published = await resolveViewableDashboard(db, principal, c.req.valid("param").publicId);
    const contentLocale = contentLocaleOf(principal, c.req.valid("query").locale);
    const dashboard = await dashboardInLocale(db, published as z.infer<typeof Dashboard>, contentLocale);
    const viewer = await viewerOf(db, principal);
    warmPythonFor(pythonSandbox(), dashboard.reportSnapshots);
    c.header("Cache-Control", "no-store");
    return c.json(
      {
        dashboard: dashboard as z.infer<typeof Dashboard>,
        viewer: {
          ...viewer,
          deploymentId: viewer.deploymentId ?? dashboard.deploymentId,
          exportFormats: dashboard.restrictDataDownload === true ? [] : exportFormatsOf(principal),
        },
        contentLocale,
      },
      200,
    );
  });
}
