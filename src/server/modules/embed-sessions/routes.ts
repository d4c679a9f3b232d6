import { createRoute, z } from "@hono/zod-openapi";
import { SafeText, Timestamp } from "../../../schema/common";
import { GenerateSessionInput } from "../../../schema/embed-session";
import { ExportFormat } from "../../../schema/export-grants";
import { requireUser } from "../../http/auth";
import { notFound } from "../../domain/errors";
import { commonErrors, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";

const REMOVED_FIELDS: Record<string, string> = {
  ephemeralTtlSeconds: "ephemeralTtlSeconds is no longer accepted (removed in 0.2.0); tokens live at most 24 hours",
};

const GenerateSessionResponse = z
  .object({
    sessionId: z.string().meta({ description: "Single use; exchange it within 5 minutes. Put it in the iframe URL as `session=`." }),
    expiresAt: Timestamp.meta({ description: "When the session id stops being exchangeable." }),
  })
  .meta({ id: "GenerateSessionResponse" });

const SessionIdInput = z.object({ sessionId: SafeText.min(16).max(200) }).strict();

const EmbedTokenResponse = z
  .object({
    token: z.string().meta({ description: "Bearer token for the embed's API calls." }),
    expiresAt: Timestamp,
    deploymentId: z.number().int(),
    embedTenant: z.string().nullable(),
    exportFormats: z.array(ExportFormat).meta({
      description: "The export formats the session grants (`settings.allowExport`; every format when not set). The embed's `ready` event lists them.",
    }),
  })
  .meta({ id: "EmbedTokenResponse" });

// The removed field gets its own message before the schema's strict check names it generically.
const GenerateSessionBody = z.preprocess((body, ctx) => {
  if (body && typeof body === "object") {
    for (const [field, message] of Object.entries(REMOVED_FIELDS)) {
      if (field in body) ctx.addIssue({ code: "custom", path: [field], message, input: body });
    }
  }
  return body;
}, GenerateSessionInput);

const generate = createRoute({
  operationId: "generateEmbedSession",
  method: "post",
  path: "/api/v1/embed/generate-session",
  tags: ["Embed"],
  summary: "Generate a signed-embedding session (admin key)",
  security,
  request: jsonBody(GenerateSessionInput),
  responses: { 200: jsonContent(GenerateSessionResponse, "A single-use session id."), ...commonErrors, ...notFoundError },
});

const exchange = createRoute({
  operationId: "exchangeEmbedSession",
  method: "post",
  path: "/api/v1/embed/session/token",
  tags: ["Embed"],
  summary: "Exchange a session id for an embed token (once, within 5 minutes; no key needed)",
  // Public: no credentials needed (the OpenAPI document says so with an empty security list).
  security: [],
  request: jsonBody(SessionIdInput),
  responses: { 200: jsonContent(EmbedTokenResponse, "The embed token."), ...commonErrors },
});

const revoke = createRoute({
  operationId: "revokeEmbedSession",
  method: "post",
  path: "/api/v1/embed/session/revoke",
  tags: ["Embed"],
  summary: "Revoke a session and its token (idempotent)",
  security,
  request: jsonBody(SessionIdInput),
  responses: { 204: { description: "Revoked." }, ...commonErrors },
});

const SigningKeyInfo = z
  .object({
    id: z.string(),
    createdAt: Timestamp,
    retiredAt: Timestamp.nullable(),
    current: z.boolean().meta({ description: "True for the key that signs new tokens." }),
  })
  .meta({ id: "SigningKeyInfo" });

const listKeys = createRoute({
  operationId: "listEmbedSigningKeys",
  method: "get",
  path: "/api/v1/embed/signing-keys",
  tags: ["Embed"],
  summary: "List the keys that sign embed tokens (never their secrets; admin)",
  security,
  responses: { 200: jsonContent(z.object({ items: z.array(SigningKeyInfo) }), "The keys, newest first."), ...commonErrors },
});

const rotateKey = createRoute({
  operationId: "rotateEmbedSigningKey",
  method: "post",
  path: "/api/v1/embed/signing-keys/rotate",
  tags: ["Embed"],
  summary: "Make a new key sign embed tokens; older keys keep verifying until retired (admin)",
  security,
  responses: { 201: jsonContent(SigningKeyInfo, "The new signing key."), ...commonErrors },
});

const retireKey = createRoute({
  operationId: "retireEmbedSigningKey",
  method: "delete",
  path: "/api/v1/embed/signing-keys/{keyId}",
  tags: ["Embed"],
  summary: "Retire a key: tokens it signed stop working at once (admin)",
  security,
  request: { params: z.object({ keyId: z.uuid() }) },
  responses: { 204: { description: "Retired." }, ...commonErrors, ...notFoundError },
});

export function registerEmbedSessionRoutes(app: Router) {
  app.openapi(listKeys, async (c) => {
    requireUser(c, "admin");
    return c.json({ items: await c.get("deps").embedSessions.keys.list() }, 200);
  });

  app.openapi(rotateKey, async (c) => {
    requireUser(c, "admin");
    const ring = c.get("deps").embedSessions.keys;
    const key = await ring.rotate();
    const info = (await ring.list()).find((k) => k.id === key.id)!;
    return c.json(info, 201);
  });

  app.openapi(retireKey, async (c) => {
    requireUser(c, "admin");
    const { keyId } = c.req.valid("param");
    if (!(await c.get("deps").embedSessions.keys.retire(keyId))) throw notFound("Signing key");
    return c.body(null, 204);
  });

  app.openapi(
    {
      ...generate,
      request: { body: { required: true, content: { "application/json": { schema: GenerateSessionBody as unknown as typeof GenerateSessionInput } } } },
    },
    async (c) => {
      requireUser(c, "admin");
      const input = c.req.valid("json");
      const result = await c.get("deps").embedSessions.generate(input);
      return c.json(result, 200);
    },
  );

  app.openapi(exchange, async (c) => {
    const { sessionId } = c.req.valid("json");
    return c.json(await c.get("deps").embedSessions.exchange(sessionId), 200);
  });

  app.openapi(revoke, async (c) => {
    requireUser(c, "admin");
    const { sessionId } = c.req.valid("json");
    await c.get("deps").embedSessions.revoke(sessionId);
    return c.body(null, 204);
  });
}
