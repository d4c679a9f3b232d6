import { createRoute, z } from "@hono/zod-openapi";
import { listResponse, PageQuery } from "../../../schema/common";
import { BulkDeleteInput, BulkMoveInput, BulkResult, WorkspaceItem } from "../../../schema/workspace";
import { requireActor } from "../../http/auth";
import { commonErrors, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { decodeCursor, DEFAULT_PAGE_SIZE, isCursorInt, pageOf } from "../../domain/pagination";
import { bulkDelete, bulkMove, listWorkspace } from "./service";

const tags = ["Workspace"];
const DeploymentParams = z.object({ deploymentId: IdParam });
const WorkspaceListResponse = listResponse(WorkspaceItem, "WorkspaceListResponse");

const list = createRoute({
  operationId: "listWorkspace",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/workspace",
  tags,
  summary: "List the folders, workbooks and reports directly inside a folder (or the root)",
  security,
  request: {
    params: DeploymentParams,
    query: PageQuery.extend({ folderId: IdParam.optional().meta({ description: "The folder to list; absent: the root." }) }),
  },
  responses: { 200: jsonContent(WorkspaceListResponse, "A page of items: folders, then workbooks, then reports."), ...commonErrors, ...notFoundError },
});

const bulkDeleteRoute = createRoute({
  operationId: "bulkDeleteWorkspaceItems",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/workspace/bulk-delete",
  tags,
  summary: "Delete up to 100 folders, workbooks and reports; per-item failures are reported",
  security,
  request: { params: DeploymentParams, ...jsonBody(BulkDeleteInput) },
  responses: { 200: jsonContent(BulkResult, "What was deleted and what failed (the rest stays deleted)."), ...commonErrors, ...notFoundError },
});

const bulkMoveRoute = createRoute({
  operationId: "bulkMoveWorkspaceItems",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/workspace/bulk-move",
  tags,
  summary: "Move up to 100 folders, workbooks and reports into a folder; per-item failures are reported",
  security,
  request: { params: DeploymentParams, ...jsonBody(BulkMoveInput) },
  responses: { 200: jsonContent(BulkResult, "What was moved and what failed."), ...commonErrors, ...notFoundError },
});

const isWorkspaceCursor = (v: unknown): v is { r: number; id: number } =>
  typeof v === "object" && v !== null && isCursorInt((v as { r: unknown }).r) && isCursorInt((v as { id: unknown }).id);

export function registerWorkspaceRoutes(app: Router) {
  app.openapi(list, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    const { first = DEFAULT_PAGE_SIZE, after, folderId } = c.req.valid("query");
    const cursor = after ? decodeCursor(after, isWorkspaceCursor) : null;
    const r = await listWorkspace(c.get("deps").db, deploymentId, { folderId: folderId ?? null, first, after: cursor }, actor);
    return c.json(pageOf(r.rows, { first, hasPrevious: cursor !== null, total: r.total, cursorOf: r.cursorOf, map: r.map }), 200);
  });

  app.openapi(bulkDeleteRoute, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json(await bulkDelete(c.get("deps").db, deploymentId, c.req.valid("json").items, actor), 200);
  });

  app.openapi(bulkMoveRoute, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    const body = c.req.valid("json");
    return c.json(await bulkMove(c.get("deps").db, deploymentId, body.items, body.targetFolderId, actor), 200);
  });
}
