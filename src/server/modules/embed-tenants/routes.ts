import { createRoute, z } from "@hono/zod-openapi";
import { listResponse, PageQuery } from "../../../schema/common";
import {
  CreateEmbedGroupInput,
  EmbedGroup,
  EmbedGroupMembersInput,
  EmbedTenant,
  EmbedTenantNameParam,
  EmbedUser,
  UpdateEmbedGroupInput,
} from "../../../schema/embed-tenant";
import { requireUser } from "../../http/auth";
import { commonErrors, conflictError, IdParam, jsonBody, jsonContent, notFoundError, openapiWithAlias, security, type Router } from "../../http/openapi";
import { decodeCursor, DEFAULT_PAGE_SIZE, isIdCursor, pageOf } from "../../domain/pagination";
import {
  addEmbedGroupUsers,
  createEmbedGroup,
  deleteEmbedGroup,
  deleteEmbedTenant,
  embedUserView,
  getEmbedGroup,
  listEmbedGroupUsers,
  listEmbedTenants,
  listEmbedTenantUsers,
  removeEmbedGroupUsers,
  updateEmbedGroup,
} from "./service";

const tags = ["Embed Tenants"];
const EmbedTenantsListResponse = listResponse(EmbedTenant, "EmbedTenantsListResponse");
const EmbedUsersListResponse = listResponse(EmbedUser, "EmbedUsersListResponse");
const EmbedGroupUsersResponse = z.object({ items: z.array(EmbedUser) }).meta({ id: "EmbedGroupUsersResponse" });
const TenantParam = z.object({ embedTenantName: EmbedTenantNameParam });
const GroupParam = TenantParam.extend({ id: IdParam });

const listTenants = createRoute({
  operationId: "listEmbedTenants",
  method: "get",
  path: "/api/v1/embed-tenants/",
  tags,
  summary: "List embed tenants (admin)",
  security,
  request: { query: PageQuery },
  responses: { 200: jsonContent(EmbedTenantsListResponse, "A page of embed tenants."), ...commonErrors },
});

const listUsers = createRoute({
  operationId: "listEmbedTenantUsers",
  method: "get",
  path: "/api/v1/embed-tenants/{embedTenantName}/users",
  tags,
  summary: "List the embed users of a tenant (admin)",
  security,
  request: { params: TenantParam, query: PageQuery },
  responses: { 200: jsonContent(EmbedUsersListResponse, "A page of embed users."), ...commonErrors, ...notFoundError },
});

const deleteTenant = createRoute({
  operationId: "deleteEmbedTenant",
  method: "delete",
  path: "/api/v1/embed-tenants/{embedTenantName}",
  tags,
  summary: "Delete an embed tenant with its users, groups and access rules; its sessions stop working (admin)",
  security,
  request: { params: TenantParam },
  responses: { 204: { description: "Deleted." }, ...commonErrors, ...notFoundError },
});

const createGroup = createRoute({
  operationId: "createEmbedGroup",
  method: "post",
  path: "/api/v1/embed-tenants/{embedTenantName}/groups",
  tags,
  summary: "Create an embed group in a tenant (names cannot start with 'system:')",
  security,
  request: { params: TenantParam, ...jsonBody(CreateEmbedGroupInput) },
  responses: { 201: jsonContent(EmbedGroup, "The group."), ...commonErrors, ...notFoundError, ...conflictError },
});

const getGroup = createRoute({
  operationId: "getEmbedGroup",
  method: "get",
  path: "/api/v1/embed-tenants/{embedTenantName}/groups/{id}",
  tags,
  summary: "Read an embed group",
  security,
  request: { params: GroupParam },
  responses: { 200: jsonContent(EmbedGroup, "The group."), ...commonErrors, ...notFoundError },
});

const patchGroup = createRoute({
  operationId: "updateEmbedGroup",
  method: "patch",
  path: "/api/v1/embed-tenants/{embedTenantName}/groups/{id}",
  tags,
  summary: "Rename or relabel an embed group",
  security,
  request: { params: GroupParam, ...jsonBody(UpdateEmbedGroupInput) },
  responses: { 200: jsonContent(EmbedGroup, "The group."), ...commonErrors, ...notFoundError, ...conflictError },
});

const deleteGroup = createRoute({
  operationId: "deleteEmbedGroup",
  method: "delete",
  path: "/api/v1/embed-tenants/{embedTenantName}/groups/{id}",
  tags,
  summary: "Delete an embed group",
  security,
  request: { params: GroupParam },
  responses: { 204: { description: "Deleted." }, ...commonErrors, ...notFoundError },
});

const listGroupUsers = createRoute({
  operationId: "listEmbedGroupUsers",
  method: "get",
  path: "/api/v1/embed-tenants/{embedTenantName}/groups/{id}/users",
  tags,
  summary: "List the members of an embed group",
  security,
  request: { params: GroupParam },
  responses: { 200: jsonContent(EmbedGroupUsersResponse, "The members."), ...commonErrors, ...notFoundError },
});

const addGroupUsers = createRoute({
  operationId: "addEmbedGroupUsers",
  method: "post",
  path: "/api/v1/embed-tenants/{embedTenantName}/groups/{id}/users",
  tags,
  summary: "Add embed users of the tenant to a group (by externalId; idempotent)",
  security,
  request: { params: GroupParam, ...jsonBody(EmbedGroupMembersInput) },
  responses: { 200: jsonContent(EmbedGroupUsersResponse, "The members after the change."), ...commonErrors, ...notFoundError },
});

const removeGroupUsers = createRoute({
  operationId: "removeEmbedGroupUsers",
  method: "delete",
  path: "/api/v1/embed-tenants/{embedTenantName}/groups/{id}/users",
  tags,
  summary: "Remove embed users from a group (by externalId; idempotent)",
  security,
  request: { params: GroupParam, ...jsonBody(EmbedGroupMembersInput) },
  responses: { 204: { description: "Removed." }, ...commonErrors, ...notFoundError },
});

export function registerEmbedTenantRoutes(app: Router) {
  const tenantsHandler = async (c: Parameters<Parameters<typeof app.openapi<typeof listTenants>>[1]>[0]) => {
    requireUser(c, "admin");
    const { first = DEFAULT_PAGE_SIZE, after } = c.req.valid("query");
    const afterId = after ? decodeCursor(after, isIdCursor).id : null;
    const { rows, total } = await listEmbedTenants(c.get("deps").db, { afterId, limit: first + 1 });
    return c.json(pageOf(rows, { first, hasPrevious: afterId !== null, total, cursorOf: (r) => ({ id: r.id }), map: (r) => r }), 200);
  };
  openapiWithAlias(app, listTenants, "/api/v1/embed-tenants", tenantsHandler);

  app.openapi(listUsers, async (c) => {
    requireUser(c, "admin");
    const { embedTenantName } = c.req.valid("param");
    const { first = DEFAULT_PAGE_SIZE, after } = c.req.valid("query");
    const afterId = after ? decodeCursor(after, isIdCursor).id : null;
    const { rows, total } = await listEmbedTenantUsers(c.get("deps").db, embedTenantName, { afterId, limit: first + 1 });
    return c.json(pageOf(rows, { first, hasPrevious: afterId !== null, total, cursorOf: (r) => ({ id: r.id }), map: embedUserView }), 200);
  });

  app.openapi(deleteTenant, async (c) => {
    requireUser(c, "admin");
    await deleteEmbedTenant(c.get("deps").db, c.req.valid("param").embedTenantName);
    return c.body(null, 204);
  });

  app.openapi(createGroup, async (c) => {
    requireUser(c, "admin");
    const group = await createEmbedGroup(c.get("deps").db, c.req.valid("param").embedTenantName, c.req.valid("json"));
    return c.json(group, 201);
  });

  app.openapi(getGroup, async (c) => {
    requireUser(c, "admin");
    const { embedTenantName, id } = c.req.valid("param");
    return c.json(await getEmbedGroup(c.get("deps").db, embedTenantName, id), 200);
  });

  app.openapi(patchGroup, async (c) => {
    requireUser(c, "admin");
    const { embedTenantName, id } = c.req.valid("param");
    return c.json(await updateEmbedGroup(c.get("deps").db, embedTenantName, id, c.req.valid("json")), 200);
  });

  app.openapi(deleteGroup, async (c) => {
    requireUser(c, "admin");
    const { embedTenantName, id } = c.req.valid("param");
    await deleteEmbedGroup(c.get("deps").db, embedTenantName, id);
    return c.body(null, 204);
  });

  app.openapi(listGroupUsers, async (c) => {
    requireUser(c, "admin");
    const { embedTenantName, id } = c.req.valid("param");
    return c.json({ items: (await listEmbedGroupUsers(c.get("deps").db, embedTenantName, id)).map(embedUserView) }, 200);
  });

  app.openapi(addGroupUsers, async (c) => {
    requireUser(c, "admin");
    const { embedTenantName, id } = c.req.valid("param");
    const members = await addEmbedGroupUsers(c.get("deps").db, embedTenantName, id, c.req.valid("json").externalIds);
    return c.json({ items: members.map(embedUserView) }, 200);
  });

  app.openapi(removeGroupUsers, async (c) => {
    requireUser(c, "admin");
    const { embedTenantName, id } = c.req.valid("param");
    await removeEmbedGroupUsers(c.get("deps").db, embedTenantName, id, c.req.valid("json").externalIds);
    return c.body(null, 204);
  });
}
