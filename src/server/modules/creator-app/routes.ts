import { createRoute, z } from "@hono/zod-openapi";
import {
  AppHome,
  AppSearchResponse,
  AppShares,
  AppStartingPoints,
  CopyDashboardInput,
  CreateAppReportInput,
  SetAppSharesInput,
} from "../../../schema/creator-app";
import { Workbook } from "../../../schema/workbook";
import { Report } from "../../../schema/report";
import { GrantObjectType } from "../../../schema/user";
import { SafeText } from "../../../schema/common";
import { requireActor, requirePrincipal } from "../../http/auth";
import { commonErrors, conflictError, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { ContentLocale } from "../../../schema/semantic-query";
import { contentLocaleOf, textTranslator } from "../content-translation/apply";
import { copyPublishedDashboard, startingDashboards } from "./starting-points";
import { appHome, appSearch, createWorkbookReport, getShares, setShares, touchRecent, workbookReports } from "./service";

const tags = ["Workspace"];
const DeploymentParams = z.object({ deploymentId: IdParam });
const WorkbookParams = DeploymentParams.extend({ workbookId: IdParam });
const ShareParams = DeploymentParams.extend({ objectType: GrantObjectType, objectId: IdParam });

const home = createRoute({
  operationId: "getAppHome",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/app/home",
  tags,
  summary: "The creator app's home: who is working, recent and favourite workbooks, what was shared with the caller",
  security,
  request: { params: DeploymentParams },
  responses: { 200: jsonContent(AppHome, "The home."), ...commonErrors, ...notFoundError },
});

const search = createRoute({
  operationId: "searchApp",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/app/search",
  tags,
  summary: "Folders, workbooks and reports the caller can read whose name contains the text",
  security,
  request: { params: DeploymentParams, query: z.object({ q: SafeText.trim().min(1).max(200) }) },
  responses: { 200: jsonContent(AppSearchResponse, "Up to 50 of each kind, most recently changed first."), ...commonErrors, ...notFoundError },
});

const recent = createRoute({
  operationId: "touchAppRecent",
  method: "put",
  path: "/api/v1/deployments/{deploymentId}/app/recents/{workbookId}",
  tags,
  summary: "Record that the caller opened a workbook (read access)",
  security,
  request: { params: WorkbookParams },
  responses: { 204: { description: "Recorded." }, ...commonErrors, ...notFoundError },
});

const listReports = createRoute({
  operationId: "listWorkbookReports",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/app/workbooks/{workbookId}/reports",
  tags,
  summary: "The reports (sheets) of a workbook the caller can read",
  security,
  request: { params: WorkbookParams },
  responses: {
    200: jsonContent(z.object({ items: z.array(Report) }).meta({ id: "WorkbookReportsResponse" }), "The reports."),
    ...commonErrors,
    ...notFoundError,
  },
});

const createReport = createRoute({
  operationId: "createWorkbookReport",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/app/workbooks/{workbookId}/reports",
  tags,
  summary: "Add a report (sheet) to a workbook (edit access); it is shared where the workbook is",
  security,
  request: { params: WorkbookParams, ...jsonBody(CreateAppReportInput) },
  responses: { 201: jsonContent(Report, "The new report."), ...commonErrors, ...notFoundError },
});

const getSharesRoute = createRoute({
  operationId: "getAppShares",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/app/shares/{objectType}/{objectId}",
  tags,
  summary: "Where an object is shared in the embed creator's tenant (manage access)",
  security,
  request: { params: ShareParams },
  responses: { 200: jsonContent(AppShares, "The shares."), ...commonErrors, ...notFoundError },
});

const setSharesRoute = createRoute({
  operationId: "setAppShares",
  method: "put",
  path: "/api/v1/deployments/{deploymentId}/app/shares/{objectType}/{objectId}",
  tags,
  summary: "Share an object read-only with the tenant's embed groups or all_embed_users (manage access; replaces the set)",
  security,
  request: { params: ShareParams, ...jsonBody(SetAppSharesInput) },
  responses: { 200: jsonContent(AppShares, "The shares."), ...commonErrors, ...notFoundError },
});

const startingPoints = createRoute({
  operationId: "getAppStartingPoints",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/app/starting-points",
  tags,
  summary: "What a creator may start from: published dashboards of others they may open",
  security,
  request: {
    params: DeploymentParams,
    query: z.object({
      locale: ContentLocale.optional().meta({
        description: "Dashboard titles in this locale, from the model's translations; else the session's `settings.locale`.",
      }),
    }),
  },
  responses: { 200: jsonContent(AppStartingPoints, "The starting points."), ...commonErrors, ...notFoundError },
});

const copyDashboard = createRoute({
  operationId: "copyPublishedDashboard",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/app/starting-points/dashboards/{publicId}/copy",
  tags,
  summary: "Copy a published dashboard the caller may open into a new workbook of theirs (its reports copied, in a folder they may edit)",
  security,
  request: { params: DeploymentParams.extend({ publicId: SafeText.min(1).max(64) }), ...jsonBody(CopyDashboardInput, { required: false }) },
  responses: { 201: jsonContent(Workbook, "The new workbook, its draft dashboard the copy."), ...commonErrors, ...notFoundError, ...conflictError },
});

export function registerCreatorAppRoutes(app: Router) {
  app.openapi(startingPoints, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    const principal = requirePrincipal(c);
    const db = c.get("deps").db;
    const [dashboards, text] = await Promise.all([
      startingDashboards(db, deploymentId, principal, actor),
      textTranslator(db, deploymentId, contentLocaleOf(principal, c.req.valid("query").locale)),
    ]);
    return c.json({ dashboards: dashboards.map((d) => ({ ...d, title: text(d.title) })) }, 200);
  });

  app.openapi(copyDashboard, async (c) => {
    const { deploymentId, publicId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    const input = (c.req.valid("json") as CopyDashboardInput | undefined) ?? {};
    return c.json(await copyPublishedDashboard(c.get("deps").db, deploymentId, publicId, input, requirePrincipal(c), actor), 201);
  });

  app.openapi(home, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    const p = requirePrincipal(c);
    const settings = p.kind === "embed" ? { ...p.settings, ...(typeof p.creatorMode === "object" ? p.creatorMode : {}) } : {};
    return c.json(await appHome(c.get("deps").db, deploymentId, actor, settings), 200);
  });

  app.openapi(search, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json({ items: await appSearch(c.get("deps").db, deploymentId, c.req.valid("query").q, actor) }, 200);
  });

  app.openapi(recent, async (c) => {
    const { deploymentId, workbookId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    await touchRecent(c.get("deps").db, deploymentId, workbookId, actor);
    return c.body(null, 204);
  });

  app.openapi(listReports, async (c) => {
    const { deploymentId, workbookId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json({ items: await workbookReports(c.get("deps").db, deploymentId, workbookId, actor) }, 200);
  });

  app.openapi(createReport, async (c) => {
    const { deploymentId, workbookId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json(await createWorkbookReport(c.get("deps").db, deploymentId, workbookId, c.req.valid("json"), actor), 201);
  });

  app.openapi(getSharesRoute, async (c) => {
    const { deploymentId, objectType, objectId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json(await getShares(c.get("deps").db, deploymentId, objectType, objectId, actor), 200);
  });

  app.openapi(setSharesRoute, async (c) => {
    const { deploymentId, objectType, objectId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json(await setShares(c.get("deps").db, deploymentId, objectType, objectId, c.req.valid("json").shared, actor), 200);
  });
}
