import { createRoute, z } from "@hono/zod-openapi";
import { listResponse, PageQuery } from "../../../schema/common";
import { CreateFolderInput, Folder, UpdateFolderInput } from "../../../schema/folder";
import { requireActor } from "../../http/auth";
import { commonErrors, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { decodeCursor, DEFAULT_PAGE_SIZE, isIdCursor, pageOf } from "../../domain/pagination";
import { createFolder, deleteFolder, getFolder, listFolders, updateFolder } from "./service";

const tags = ["Folders"];
const DeploymentParams = z.object({ deploymentId: IdParam });
const FolderParams = z.object({ deploymentId: IdParam, folderId: IdParam });
const FoldersListResponse = listResponse(Folder, "FoldersListResponse");

const create = createRoute({
  operationId: "createFolder",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/folders",
  tags,
  summary: "Create a folder (role ai_bi_user or higher; edit on the parent)",
  security,
  request: { params: DeploymentParams, ...jsonBody(CreateFolderInput) },
  responses: { 201: jsonContent(Folder, "The folder."), ...commonErrors, ...notFoundError },
});

const list = createRoute({
  operationId: "listFolders",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/folders",
  tags,
  summary: "List folders the caller can read",
  security,
  request: {
    params: DeploymentParams,
    query: PageQuery.extend({
      parentId: z
        .union([IdParam, z.literal("root")])
        .optional()
        .meta({ description: "Only children of this folder; `root` for top-level folders." }),
    }),
  },
  responses: { 200: jsonContent(FoldersListResponse, "A page of folders."), ...commonErrors, ...notFoundError },
});

const get = createRoute({
  operationId: "getFolder",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/folders/{folderId}",
  tags,
  summary: "Read a folder",
  security,
  request: { params: FolderParams },
  responses: { 200: jsonContent(Folder, "The folder."), ...commonErrors, ...notFoundError },
});

const update = createRoute({
  operationId: "updateFolder",
  method: "put",
  path: "/api/v1/deployments/{deploymentId}/folders/{folderId}",
  tags,
  summary: "Rename or move a folder (never into itself or a descendant)",
  security,
  request: { params: FolderParams, ...jsonBody(UpdateFolderInput) },
  responses: { 200: jsonContent(Folder, "The folder."), ...commonErrors, ...notFoundError },
});

const remove = createRoute({
  operationId: "deleteFolder",
  method: "delete",
  path: "/api/v1/deployments/{deploymentId}/folders/{folderId}",
  tags,
  summary: "Delete a folder and everything in it (manage access)",
  security,
  request: { params: FolderParams },
  responses: { 204: { description: "Deleted." }, ...commonErrors, ...notFoundError },
});

export function registerFolderRoutes(app: Router) {
  app.openapi(create, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json(await createFolder(c.get("deps").db, deploymentId, c.req.valid("json"), actor), 201);
  });

  app.openapi(list, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    const { first = DEFAULT_PAGE_SIZE, after, parentId } = c.req.valid("query");
    const afterId = after ? decodeCursor(after, isIdCursor).id : null;
    const { rows, total } = await listFolders(
      c.get("deps").db,
      deploymentId,
      { afterId, limit: first + 1, parentId: parentId === "root" ? null : parentId },
      actor,
    );
    return c.json(pageOf(rows, { first, hasPrevious: afterId !== null, total, cursorOf: (r) => ({ id: r.id }), map: (r) => r }), 200);
  });

  app.openapi(get, async (c) => {
    const { deploymentId, folderId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json(await getFolder(c.get("deps").db, deploymentId, folderId, actor), 200);
  });

  app.openapi(update, async (c) => {
    const { deploymentId, folderId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json(await updateFolder(c.get("deps").db, deploymentId, folderId, c.req.valid("json"), actor), 200);
  });

  app.openapi(remove, async (c) => {
    const { deploymentId, folderId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    await deleteFolder(c.get("deps").db, deploymentId, folderId, actor);
    return c.body(null, 204);
  });
}
