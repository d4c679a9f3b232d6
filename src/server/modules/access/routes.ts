import { createRoute, z } from "@hono/zod-openapi";
import { Grant, GrantInput, GrantObjectType, GrantPrincipalType } from "../../../schema/user";
import type { Db } from "../../db/connection";
import { groups, users } from "../../db/schema";
import { requireUser } from "../../http/auth";
import { notFound } from "../../domain/errors";
import { commonErrors, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import type { UserPrincipal } from "../../domain/actor";
import { listGrants, requireObjectAccess, revokeGrant, setGrant } from "./service";
import { eq } from "drizzle-orm";

const tags = ["Workspace"];
const ObjectParams = z.object({ deploymentId: IdParam, objectType: GrantObjectType, objectId: IdParam });
const GrantsListResponse = z.object({ items: z.array(Grant) }).meta({ id: "GrantsListResponse" });

const set = createRoute({
  operationId: "setGrant",
  method: "put",
  path: "/api/v1/deployments/{deploymentId}/grants",
  tags,
  summary: "Grant read, edit or manage on a folder, workbook or report to a user or group (manage access)",
  security,
  request: { params: z.object({ deploymentId: IdParam }), ...jsonBody(GrantInput) },
  responses: { 200: jsonContent(Grant, "The grant."), ...commonErrors, ...notFoundError },
});

const list = createRoute({
  operationId: "listGrants",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/grants/{objectType}/{objectId}",
  tags,
  summary: "List the grants on an object (manage access)",
  security,
  request: { params: ObjectParams },
  responses: { 200: jsonContent(GrantsListResponse, "The grants."), ...commonErrors, ...notFoundError },
});

const revoke = createRoute({
  operationId: "revokeGrant",
  method: "delete",
  path: "/api/v1/deployments/{deploymentId}/grants/{objectType}/{objectId}/{principalType}/{principalId}",
  tags,
  summary: "Revoke a grant (manage access; idempotent)",
  security,
  request: { params: ObjectParams.extend({ principalType: GrantPrincipalType, principalId: IdParam }) },
  responses: { 204: { description: "Revoked (or there was none)." }, ...commonErrors, ...notFoundError },
});

/** Grants are managed by whoever manages the object; one out of the actor's sight answers 404. */
function requireObject(db: Db, deploymentId: number, type: GrantObjectType, id: number, actor: UserPrincipal) {
  return requireObjectAccess(db, actor, deploymentId, type, id, "manage");
}

const grantView = (g: {
  objectType: GrantObjectType;
  objectId: number;
  principalType: "user" | "group";
  principalId: number;
  level: "read" | "edit" | "manage";
  createdAt: Date;
}) => ({
  objectType: g.objectType,
  objectId: g.objectId,
  principalType: g.principalType,
  principalId: g.principalId,
  level: g.level,
  createdAt: g.createdAt.toISOString(),
});

export function registerGrantRoutes(app: Router) {
  app.openapi(set, async (c) => {
    const actor = requireUser(c);
    const { deploymentId } = c.req.valid("param");
    const input = c.req.valid("json");
    const db = c.get("deps").db;
    await requireObject(db, deploymentId, input.objectType, input.objectId, actor);
    const principalTable = input.principalType === "user" ? users : groups;
    const [p] = await db.select({ id: principalTable.id }).from(principalTable).where(eq(principalTable.id, input.principalId));
    if (!p) throw notFound(input.principalType === "user" ? "User" : "Group");
    return c.json(grantView(await setGrant(db, input)), 200);
  });

  app.openapi(list, async (c) => {
    const actor = requireUser(c);
    const { deploymentId, objectType, objectId } = c.req.valid("param");
    const db = c.get("deps").db;
    await requireObject(db, deploymentId, objectType, objectId, actor);
    return c.json({ items: (await listGrants(db, objectType, objectId)).map(grantView) }, 200);
  });

  app.openapi(revoke, async (c) => {
    const actor = requireUser(c);
    const { deploymentId, objectType, objectId, principalType, principalId } = c.req.valid("param");
    const db = c.get("deps").db;
    await requireObject(db, deploymentId, objectType, objectId, actor);
    await revokeGrant(db, { objectType, objectId, principalType, principalId });
    return c.body(null, 204);
  });
}
