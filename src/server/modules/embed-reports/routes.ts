import { createRoute, z } from "@hono/zod-openapi";
import { Dashboard } from "../../../schema/dashboard";
import { requirePrincipal } from "../../http/auth";
import type { Principal } from "../../domain/actor";
import { commonErrors, IdParam, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import type { Db } from "../../db/connection";
import { viewerOf } from "../embed-access/service";
import { PublicIdParam } from "../embed-access/routes";
import { contentLocaleOf, dashboardInLocale } from "../content-translation/apply";
import { EmbedViewer } from "../dashboards/routes";
import { exportFormatsOf } from "../embed-exports/service";
import { resolveViewableReport, type ReportReference } from "./service";

export const EmbedReportResponse = z
  .object({
    report: z.object({
      publicId: z.string(),
      reportId: z.number().int(),
      deploymentId: z.number().int(),
      dashboardPublicId: z.string().meta({ description: "The published dashboard that shows the report: its embedding settings and access decide." }),
      widgetId: z.string().meta({ description: "The dashboard's widget that shows the report (the only CHART widget of `dashboard`)." }),
    }),
    dashboard: Dashboard.meta({
      description:
        "The report's dashboard reduced to the report's widget, the dashboard's FILTER widgets (their members and wiring: which filters the report takes) and the report's snapshot.",
    }),
    viewer: EmbedViewer,
    contentLocale: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "The locale the titles and labels were translated for (docs/translation.md); null: as written." }),
  })
  .meta({ id: "EmbedReportResponse" });

const Locale = z.object({
  locale: z
    .string()
    .max(35)
    .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/, "must be a locale tag such as de-DE")
    .optional()
    .meta({ description: "Show titles and labels in this locale (docs/translation.md); default the session's locale." }),
});

const ACCESS =
  "Embed token: 404 outside the session's deployment; the checks of the report's dashboard (the published dashboard of the report's workbook): 403 `forbidden` unless it allows embedding and embed access grants `read` to the viewer's tenant or all embed users. Login cookie or API key: read access to the workbook. 404 when the published dashboard does not show the report.";

const byPublicId = createRoute({
  operationId: "getEmbedReport",
  method: "get",
  path: "/api/v1/embed/report/{publicId}",
  tags: ["Embed"],
  summary: "One report of a published dashboard as the report surface shows it, with who is viewing",
  description: ACCESS,
  security,
  request: { params: z.object({ publicId: PublicIdParam }), query: Locale },
  responses: { 200: jsonContent(EmbedReportResponse, "The report and its viewer."), ...commonErrors, ...notFoundError },
});

const byId = createRoute({
  operationId: "getEmbedDeploymentReport",
  method: "get",
  path: "/api/v1/embed/deployments/{deploymentId}/reports/{reportId}",
  tags: ["Embed"],
  summary: "One report of a published dashboard by its id in a deployment (the signed report surface's `/embed/d/{deploymentId}/report/{reportId}`)",
  description: ACCESS,
  security,
  request: { params: z.object({ deploymentId: IdParam, reportId: IdParam }), query: Locale },
  responses: { 200: jsonContent(EmbedReportResponse, "The report and its viewer."), ...commonErrors, ...notFoundError },
});

async function embedReport(db: Db, principal: Principal, ref: ReportReference, locale: string | undefined) {
  const { report, dashboard } = await resolveViewableReport(db, principal, ref);
  const contentLocale = contentLocaleOf(principal, locale);
  const viewer = await viewerOf(db, principal);
  return {
    report,
    dashboard: await dashboardInLocale(db, dashboard, contentLocale),
    viewer: {
      ...viewer,
      deploymentId: viewer.deploymentId ?? dashboard.deploymentId,
      // The dashboard's download restriction holds for its report.
      exportFormats: dashboard.restrictDataDownload === true ? [] : exportFormatsOf(principal),
    },
    contentLocale,
  };
}

export function registerEmbedReportRoutes(app: Router) {
  app.openapi(byPublicId, async (c) => {
    const body = await embedReport(c.get("deps").db, requirePrincipal(c), { publicId: c.req.valid("param").publicId }, c.req.valid("query").locale);
    c.header("Cache-Control", "no-store");
    return c.json(body as z.infer<typeof EmbedReportResponse>, 200);
  });
  app.openapi(byId, async (c) => {
    const { deploymentId, reportId } = c.req.valid("param");
    const body = await embedReport(c.get("deps").db, requirePrincipal(c), { deploymentId, reportId }, c.req.valid("query").locale);
    c.header("Cache-Control", "no-store");
    return c.json(body as z.infer<typeof EmbedReportResponse>, 200);
  });
}
