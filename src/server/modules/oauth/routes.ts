import { createRoute, z } from "@hono/zod-openapi";
import { ErrorBody, SafeText } from "../../../schema/common";
import { OAuthIntegration, OAuthIntegrationInput, OAuthIntegrationUpdate, UserOAuthConnection } from "../../../schema/oauth";
import { requireUser } from "../../http/auth";
import { badRequest } from "../../domain/errors";
import { commonErrors, conflictError, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { writeLog } from "../deployment-logs/service";
import {
  completeCallback,
  createIntegration,
  deleteIntegration,
  getConnection,
  getIntegration,
  initiate,
  listConnections,
  listIntegrations,
  revokeConnection,
  updateIntegration,
} from "./service";

const itags = ["OAuth Integrations"];
const ttags = ["User OAuth Tokens"];
const params = z.object({ id: IdParam });
const integrationParams = z.object({ integrationId: IdParam });
const IntegrationList = z.object({ items: z.array(OAuthIntegration) }).meta({ id: "OAuthIntegrationsResponse" });
const ConnectionList = z.object({ items: z.array(UserOAuthConnection) }).meta({ id: "UserOAuthConnectionsResponse" });
const upstreamError = { 502: jsonContent(ErrorBody, "The authorization server refused or failed.") } as const;

const listI = createRoute({
  operationId: "listOAuthIntegrations",
  method: "get",
  path: "/api/v1/oauth-integrations/",
  tags: itags,
  summary: "OAuth integrations (admin)",
  security,
  responses: { 200: jsonContent(IntegrationList, "The integrations."), ...commonErrors },
});
const createI = createRoute({
  operationId: "createOAuthIntegration",
  method: "post",
  path: "/api/v1/oauth-integrations/",
  tags: itags,
  summary: "Add an OAuth integration (admin); the client secret is write-only",
  security,
  request: jsonBody(OAuthIntegrationInput),
  responses: { 201: jsonContent(OAuthIntegration, "The integration."), ...commonErrors, ...conflictError },
});
const getI = createRoute({
  operationId: "getOAuthIntegration",
  method: "get",
  path: "/api/v1/oauth-integrations/{id}",
  tags: itags,
  summary: "Read an OAuth integration (admin)",
  security,
  request: { params },
  responses: { 200: jsonContent(OAuthIntegration, "The integration."), ...commonErrors, ...notFoundError },
});
const updateI = createRoute({
  operationId: "updateOAuthIntegration",
  method: "put",
  path: "/api/v1/oauth-integrations/{id}",
  tags: itags,
  summary: "Change an OAuth integration (admin)",
  security,
  request: { params, ...jsonBody(OAuthIntegrationUpdate) },
  responses: { 200: jsonContent(OAuthIntegration, "The integration."), ...commonErrors, ...notFoundError, ...conflictError },
});
const deleteI = createRoute({
  operationId: "deleteOAuthIntegration",
  method: "delete",
  path: "/api/v1/oauth-integrations/{id}",
  tags: itags,
  summary: "Delete an OAuth integration and every user's tokens for it (admin)",
  security,
  request: { params },
  responses: { 204: { description: "Deleted." }, ...commonErrors, ...notFoundError },
});

const listT = createRoute({
  operationId: "listUserOAuthTokens",
  method: "get",
  path: "/api/v1/user-oauth-tokens/",
  tags: ttags,
  summary: "The caller's OAuth connections (never the tokens)",
  security,
  responses: { 200: jsonContent(ConnectionList, "The connections."), ...commonErrors },
});
const callback = createRoute({
  operationId: "completeUserOAuthToken",
  method: "get",
  path: "/api/v1/user-oauth-tokens/callback",
  tags: ttags,
  summary: "Where the authorization server sends the caller back: the state must be one the same caller initiated",
  security,
  request: {
    query: z.object({
      state: SafeText.max(512).optional(),
      code: SafeText.max(4096).optional(),
      iss: SafeText.max(2048).optional(),
      error: SafeText.max(256).optional(),
      error_description: SafeText.max(2048).optional(),
    }),
  },
  responses: { 200: jsonContent(UserOAuthConnection, "The connection."), ...commonErrors, ...upstreamError },
});
const getT = createRoute({
  operationId: "getUserOAuthToken",
  method: "get",
  path: "/api/v1/user-oauth-tokens/{integrationId}",
  tags: ttags,
  summary: "The caller's connection to an integration (never the tokens)",
  security,
  request: { params: integrationParams },
  responses: { 200: jsonContent(UserOAuthConnection, "The connection."), ...commonErrors, ...notFoundError },
});
const deleteT = createRoute({
  operationId: "revokeUserOAuthToken",
  method: "delete",
  path: "/api/v1/user-oauth-tokens/{integrationId}",
  tags: ttags,
  summary: "Revoke the caller's tokens at the server and forget them",
  security,
  request: { params: integrationParams },
  responses: { 204: { description: "Revoked." }, ...commonErrors, ...notFoundError },
});
const initiateT = createRoute({
  operationId: "initiateUserOAuthToken",
  method: "post",
  path: "/api/v1/user-oauth-tokens/{integrationId}/initiate",
  tags: ttags,
  summary: "Start connecting the caller's account: an authorization URL (code flow with PKCE, state bound to the caller, valid 10 minutes)",
  security,
  request: { params: integrationParams },
  responses: {
    200: jsonContent(z.object({ authorizationUrl: z.string() }).meta({ id: "OAuthInitiateResponse" }), "Where to send the user."),
    ...commonErrors,
    ...notFoundError,
  },
});

export function registerOAuthRoutes(app: Router) {
  app.openapi(listI, async (c) => {
    requireUser(c, "admin");
    return c.json({ items: await listIntegrations(c.get("deps").db) }, 200);
  });
  app.openapi(createI, async (c) => {
    const actor = requireUser(c, "admin");
    const created = await createIntegration(c.get("deps"), c.req.valid("json"));
    await writeLog(c.get("deps").db, {
      deploymentId: null,
      container: "MAIN",
      message: "OAuth integration created",
      details: { actorUserId: actor.userId, id: created.id },
    });
    return c.json(created, 201);
  });
  app.openapi(getI, async (c) => {
    requireUser(c, "admin");
    return c.json(await getIntegration(c.get("deps").db, c.req.valid("param").id), 200);
  });
  app.openapi(updateI, async (c) => {
    const actor = requireUser(c, "admin");
    const { id } = c.req.valid("param");
    const input = c.req.valid("json");
    const updated = await updateIntegration(c.get("deps"), id, input);
    await writeLog(c.get("deps").db, {
      deploymentId: null,
      container: "MAIN",
      message: "OAuth integration updated",
      details: { actorUserId: actor.userId, id, changed: Object.keys(input) },
    });
    return c.json(updated, 200);
  });
  app.openapi(deleteI, async (c) => {
    const actor = requireUser(c, "admin");
    const { id } = c.req.valid("param");
    await deleteIntegration(c.get("deps").db, id);
    await writeLog(c.get("deps").db, {
      deploymentId: null,
      container: "MAIN",
      message: "OAuth integration deleted",
      details: { actorUserId: actor.userId, id },
    });
    return c.body(null, 204);
  });

  app.openapi(listT, async (c) => {
    const actor = requireUser(c);
    return c.json({ items: await listConnections(c.get("deps").db, actor.userId) }, 200);
  });
  // Before /{integrationId}, which would take "callback" for an id.
  app.openapi(callback, async (c) => {
    const actor = requireUser(c);
    const query = c.req.valid("query");
    if (query.error) throw badUpstream(query.error);
    const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === "string"));
    return c.json(await completeCallback(c.get("deps"), actor.userId, params), 200);
  });
  app.openapi(getT, async (c) => {
    const actor = requireUser(c);
    return c.json(await getConnection(c.get("deps").db, actor.userId, c.req.valid("param").integrationId), 200);
  });
  app.openapi(deleteT, async (c) => {
    const actor = requireUser(c);
    await revokeConnection(c.get("deps"), actor.userId, c.req.valid("param").integrationId);
    return c.body(null, 204);
  });
  app.openapi(initiateT, async (c) => {
    const actor = requireUser(c);
    return c.json(await initiate(c.get("deps"), actor.userId, c.req.valid("param").integrationId), 200);
  });
}

/** The authorization server sent the user back with an error (they declined, or the request was bad): nothing to store. */
function badUpstream(error: string) {
  const code = /^[a-z_]{1,64}$/.test(error) ? error : "an error";
  return badRequest(`The authorization was not granted (${code}); initiate it again`, [{ path: ["error"], message: code }]);
}
