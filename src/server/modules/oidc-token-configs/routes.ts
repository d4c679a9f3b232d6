import { createRoute, z } from "@hono/zod-openapi";
import { OidcTokenConfig, OidcTokenConfigInput, OidcTokenConfigUpdate } from "../../../schema/oidc-token-config";
import { requireUser } from "../../http/auth";
import { commonErrors, conflictError, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { writeLog } from "../deployment-logs/service";
import { createOidcTokenConfig, deleteOidcTokenConfig, getOidcTokenConfig, listOidcTokenConfigs, updateOidcTokenConfig } from "./service";

const tags = ["OIDC Token Configs"];
const params = z.object({ id: IdParam });
const List = z.object({ items: z.array(OidcTokenConfig) }).meta({ id: "OidcTokenConfigsResponse" });

const list = createRoute({
  operationId: "listOidcTokenConfigs",
  method: "get",
  path: "/api/v1/oidc-token-configs/",
  tags,
  summary: "OIDC issuers whose ID tokens workloads may call the API with (admin)",
  security,
  responses: { 200: jsonContent(List, "The configs."), ...commonErrors },
});
const create = createRoute({
  operationId: "createOidcTokenConfig",
  method: "post",
  path: "/api/v1/oidc-token-configs/",
  tags,
  summary: "Trust an issuer's ID tokens for an audience and claims, with a role (admin)",
  security,
  request: jsonBody(OidcTokenConfigInput),
  responses: { 201: jsonContent(OidcTokenConfig, "The config."), ...commonErrors, ...conflictError },
});
const get = createRoute({
  operationId: "getOidcTokenConfig",
  method: "get",
  path: "/api/v1/oidc-token-configs/{id}",
  tags,
  summary: "Read an OIDC token config (admin)",
  security,
  request: { params },
  responses: { 200: jsonContent(OidcTokenConfig, "The config."), ...commonErrors, ...notFoundError },
});
const update = createRoute({
  operationId: "updateOidcTokenConfig",
  method: "put",
  path: "/api/v1/oidc-token-configs/{id}",
  tags,
  summary: "Change an OIDC token config (admin); applies to the next request",
  security,
  request: { params, ...jsonBody(OidcTokenConfigUpdate) },
  responses: { 200: jsonContent(OidcTokenConfig, "The config."), ...commonErrors, ...notFoundError, ...conflictError },
});
const remove = createRoute({
  operationId: "deleteOidcTokenConfig",
  method: "delete",
  path: "/api/v1/oidc-token-configs/{id}",
  tags,
  summary: "Stop trusting the issuer's tokens for this config (admin)",
  security,
  request: { params },
  responses: { 204: { description: "Deleted." }, ...commonErrors, ...notFoundError },
});

export function registerOidcTokenConfigRoutes(app: Router) {
  app.openapi(list, async (c) => {
    requireUser(c, "admin");
    return c.json({ items: await listOidcTokenConfigs(c.get("deps").db) }, 200);
  });
  app.openapi(create, async (c) => {
    const actor = requireUser(c, "admin");
    const config = await createOidcTokenConfig(c.get("deps").db, c.req.valid("json"));
    await writeLog(c.get("deps").db, {
      deploymentId: null,
      container: "MAIN",
      message: "OIDC token config created",
      details: { actorUserId: actor.userId, id: config.id },
    });
    return c.json(config, 201);
  });
  app.openapi(get, async (c) => {
    requireUser(c, "admin");
    return c.json(await getOidcTokenConfig(c.get("deps").db, c.req.valid("param").id), 200);
  });
  app.openapi(update, async (c) => {
    const actor = requireUser(c, "admin");
    const { id } = c.req.valid("param");
    const input = c.req.valid("json");
    const config = await updateOidcTokenConfig(c.get("deps").db, id, input);
    await writeLog(c.get("deps").db, {
      deploymentId: null,
      container: "MAIN",
      message: "OIDC token config updated",
      details: { actorUserId: actor.userId, id, changed: Object.keys(input) },
    });
    return c.json(config, 200);
  });
  app.openapi(remove, async (c) => {
    const actor = requireUser(c, "admin");
    const { id } = c.req.valid("param");
    await deleteOidcTokenConfig(c.get("deps").db, id);
    await writeLog(c.get("deps").db, {
      deploymentId: null,
      container: "MAIN",
      message: "OIDC token config deleted",
      details: { actorUserId: actor.userId, id },
    });
    return c.body(null, 204);
  });
}
