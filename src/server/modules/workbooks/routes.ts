import { publishInvalidation } from "../../cluster/invalidation-bus";
import { createRoute, z } from "@hono/zod-openapi";
import { listResponse, PageQuery, SafeText } from "../../../schema/common";
import { Dashboard, DashboardConfig } from "../../../schema/dashboard";
import { CreateWorkbookInput, Workbook } from "../../../schema/workbook";
import { AiWidgetThreadInput, DuplicateWorkbookInput, Slug, UpdateWorkbookInput } from "../../../schema/workspace";
import { requireActor } from "../../http/auth";
import { commonErrors, conflictError, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { decodeCursor, DEFAULT_PAGE_SIZE, isIdCursor, pageOf } from "../../domain/pagination";
import { attachAiWidgetThread, publishDashboard } from "../dashboards/service";
import {
  createWorkbook,
  deleteWorkbook,
  duplicateWorkbook,
  getWorkbook,
  listWorkbooks,
  setFavorite,
  updateDashboardDraft,
  updateWorkbook,
  upsertWorkbookBySlug,
} from "./service";

const tags = ["Workbooks"];
const DeploymentParams = z.object({ deploymentId: IdParam });
const WorkbookParams = z.object({ deploymentId: IdParam, workbookId: IdParam });
const WorkbooksListResponse = listResponse(Workbook, "WorkbooksListResponse");
const CreateWorkbookRequest = CreateWorkbookInput.extend({ slug: Slug.nullable().optional() }).strict().meta({ id: "CreateWorkbookRequest" });
const branchChangedError = {
  409: jsonContent(
    z.object({ code: z.string(), message: z.string() }),
    "`upsert_branch_changed`: another writer created or deleted the workbook holding the slug meanwhile; transient, retry.",
  ),
};

const upsert = createRoute({
  operationId: "upsertWorkbookBySlug",
  method: "put",
  path: "/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}",
  tags,
  summary: "Create or update a workbook by slug",
  description:
    "Spec 4.1. The slug is trimmed and lowercased. An existing workbook is updated (only the fields sent; `meta` merged into the stored meta; " +
    "needs edit, and with `folderId` manage plus edit on the destination folder); otherwise one is created (role ai_bi_user or higher). " +
    "The same request again changes nothing. 409 `upsert_branch_changed` when a concurrent writer created or deleted the slug's workbook: retry.",
  security,
  request: { params: z.object({ deploymentId: IdParam, slug: SafeText.max(1000) }), ...jsonBody(CreateWorkbookInput.nullable(), { required: false }) },
  responses: { 200: jsonContent(Workbook, "The workbook, created or updated."), ...commonErrors, ...notFoundError, ...branchChangedError },
});

const create = createRoute({
  operationId: "createWorkbook",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/workbooks",
  tags,
  summary: "Create a workbook (role ai_bi_user or higher)",
  security,
  request: { params: DeploymentParams, ...jsonBody(CreateWorkbookRequest) },
  responses: { 201: jsonContent(Workbook, "The new workbook."), ...commonErrors, ...notFoundError, ...conflictError },
});

const list = createRoute({
  operationId: "listWorkbooks",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/workbooks",
  tags,
  summary: "List the workbooks the caller can read",
  security,
  request: {
    params: DeploymentParams,
    query: PageQuery.extend({
      folderId: z
        .union([IdParam, z.literal("root")])
        .optional()
        .meta({ description: "Only this folder's workbooks; `root` for those in no folder." }),
      search: SafeText.max(200).optional(),
    }),
  },
  responses: { 200: jsonContent(WorkbooksListResponse, "A page of workbooks."), ...commonErrors, ...notFoundError },
});

const get = createRoute({
  operationId: "getWorkbook",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}",
  tags,
  summary: "Read a workbook",
  security,
  request: { params: WorkbookParams },
  responses: { 200: jsonContent(Workbook, "The workbook."), ...commonErrors, ...notFoundError },
});

const update = createRoute({
  operationId: "updateWorkbook",
  method: "put",
  path: "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}",
  tags,
  summary: "Update a workbook (only the fields sent; meta merged; slug and slugTakeover)",
  security,
  request: { params: WorkbookParams, ...jsonBody(UpdateWorkbookInput) },
  responses: { 200: jsonContent(Workbook, "The workbook."), ...commonErrors, ...notFoundError, ...conflictError },
});

const remove = createRoute({
  operationId: "deleteWorkbook",
  method: "delete",
  path: "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}",
  tags,
  summary: "Delete a workbook (manage access)",
  security,
  request: { params: WorkbookParams },
  responses: { 204: { description: "Deleted." }, ...commonErrors, ...notFoundError },
});

const duplicate = createRoute({
  operationId: "duplicateWorkbook",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/duplicate",
  tags,
  summary: "Duplicate a workbook (optionally from the shared workspace)",
  security,
  request: { params: WorkbookParams, ...jsonBody(DuplicateWorkbookInput, { required: false }) },
  responses: { 201: jsonContent(Workbook, "The copy."), ...commonErrors, ...notFoundError, ...conflictError },
});

const draft = createRoute({
  operationId: "updateDashboardDraft",
  method: "put",
  path: "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/dashboard/draft",
  tags,
  summary: "Replace the dashboard draft (meta.dashboardDraft)",
  security,
  request: { params: WorkbookParams, ...jsonBody(DashboardConfig) },
  responses: { 200: jsonContent(Workbook, "The workbook."), ...commonErrors, ...notFoundError },
});

const publish = createRoute({
  operationId: "publishDashboard",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/dashboard/publish",
  tags,
  summary: "Publish the dashboard draft (idempotent; freezes report snapshots)",
  security,
  request: { params: WorkbookParams },
  responses: { 200: jsonContent(Dashboard, "The published dashboard."), ...commonErrors, ...notFoundError },
});

const aiThread = createRoute({
  operationId: "attachAiWidgetThread",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/dashboard/ai-widget-thread",
  tags,
  summary: "Attach an AI widget thread to a published dashboard",
  security,
  request: { params: WorkbookParams, ...jsonBody(AiWidgetThreadInput) },
  responses: { 200: jsonContent(Dashboard, "The dashboard."), ...commonErrors, ...notFoundError, ...conflictError },
});

const favorite = (method: "put" | "delete") =>
  createRoute({
    operationId: method === "put" ? "addWorkbookFavorite" : "removeWorkbookFavorite",
    method,
    path: "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/favorite",
    tags,
    summary: method === "put" ? "Mark the workbook as a favorite of the caller" : "Unmark the workbook as a favorite",
    security,
    request: { params: WorkbookParams },
    responses: { 200: jsonContent(Workbook, "The workbook."), ...commonErrors, ...notFoundError },
  });

export function registerWorkbookRoutes(app: Router) {
  app.openapi(upsert, async (c) => {
    const { deploymentId, slug } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    const wb = await upsertWorkbookBySlug(c.get("deps").db, deploymentId, slug, c.req.valid("json"), actor);
    return c.json(wb, 200);
  });

  app.openapi(create, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json(await createWorkbook(c.get("deps").db, deploymentId, c.req.valid("json"), actor), 201);
  });

  app.openapi(list, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    const { first = DEFAULT_PAGE_SIZE, after, folderId, search } = c.req.valid("query");
    const afterId = after ? decodeCursor(after, isIdCursor).id : null;
    const { rows, total } = await listWorkbooks(
      c.get("deps").db,
      deploymentId,
      { afterId, limit: first + 1, folderId: folderId === "root" ? null : folderId, search },
      actor,
    );
    return c.json(pageOf(rows, { first, hasPrevious: afterId !== null, total, cursorOf: (r) => ({ id: r.id }), map: (r) => r }), 200);
  });

  app.openapi(get, async (c) => {
    const { deploymentId, workbookId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json(await getWorkbook(c.get("deps").db, deploymentId, workbookId, actor), 200);
  });

  app.openapi(update, async (c) => {
    const { deploymentId, workbookId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    const deps = c.get("deps");
    // The engine holds the deployment's model; a deployment without a data source or with a broken model has none to check against.
    const model = () =>
      deps.queryEngines.get(deploymentId).then(
        (engine) => engine.model,
        () => undefined,
      );
    return c.json(await updateWorkbook(deps.db, deploymentId, workbookId, c.req.valid("json"), actor, { model }), 200);
  });

  app.openapi(remove, async (c) => {
    const { deploymentId, workbookId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    await deleteWorkbook(c.get("deps").db, deploymentId, workbookId, actor);
    return c.body(null, 204);
  });

  app.openapi(duplicate, async (c) => {
    const { deploymentId, workbookId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json(await duplicateWorkbook(c.get("deps").db, deploymentId, workbookId, c.req.valid("json") ?? {}, actor), 201);
  });

  app.openapi(draft, async (c) => {
    const { deploymentId, workbookId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json(await updateDashboardDraft(c.get("deps").db, deploymentId, workbookId, c.req.valid("json"), actor), 200);
  });

  app.openapi(publish, async (c) => {
    const { deploymentId, workbookId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    const dashboard = await publishDashboard(c.get("deps").db, workbookId, actor, { deploymentId });
    await publishInvalidation(c.get("deps").db, "dashboard", workbookId);
    return c.json(dashboard, 200);
  });

  app.openapi(aiThread, async (c) => {
    const { deploymentId, workbookId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json(await attachAiWidgetThread(c.get("deps").db, deploymentId, workbookId, c.req.valid("json"), actor), 200);
  });

  for (const method of ["put", "delete"] as const) {
    app.openapi(favorite(method), async (c) => {
      const { deploymentId, workbookId } = c.req.valid("param");
      const actor = await requireActor(c, deploymentId);
      return c.json(await setFavorite(c.get("deps").db, deploymentId, workbookId, method === "put", actor), 200);
    });
  }
}
