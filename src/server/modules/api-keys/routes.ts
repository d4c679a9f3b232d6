import { createRoute, z } from "@hono/zod-openapi";
import { SafeText, Timestamp } from "../../../schema/common";
import { requireUser } from "../../http/auth";
import { notFound } from "../../domain/errors";
import { commonErrors, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { createApiKey, listApiKeys, revokeApiKey } from "./service";

export const ApiKey = z
  .object({
    id: z.number().int(),
    name: z.string(),
    prefix: z.string().meta({ description: "First characters of the token, to recognise it." }),
    userId: z.number().int(),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable(),
    expiresAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
  })
  .meta({ id: "ApiKey" });

const CreateApiKeyInput = z
  .object({
    name: SafeText.trim().min(1).max(100),
    // A key that is expired when created could never be used: refused rather than stored.
    expiresAt: z.iso
      .datetime({ offset: true })
      .refine((v) => Date.parse(v) > Date.now(), "must be in the future")
      .nullable()
      .optional()
      .meta({ description: "When the key stops working; must be in the future. Absent or null: never." }),
  })
  .strict()
  .meta({ id: "CreateApiKeyInput" });

const CreatedApiKey = z
  .object({ key: ApiKey, token: z.string().meta({ description: "The secret token. Shown once; only its hash is stored." }) })
  .meta({ id: "CreatedApiKey" });

const create = createRoute({
  operationId: "createApiKey",
  method: "post",
  path: "/api/v1/api-keys",
  tags: ["Users Admin"],
  summary: "Create an API key for the caller (shown once)",
  security,
  request: jsonBody(CreateApiKeyInput),
  responses: { 201: jsonContent(CreatedApiKey, "The key and its token."), ...commonErrors },
});

const list = createRoute({
  operationId: "listApiKeys",
  method: "get",
  path: "/api/v1/api-keys",
  tags: ["Users Admin"],
  summary: "List API keys (an admin sees every key, others their own)",
  security,
  responses: { 200: jsonContent(z.object({ items: z.array(ApiKey) }).meta({ id: "ApiKeysListResponse" }), "The keys, newest first."), ...commonErrors },
});

const revoke = createRoute({
  operationId: "revokeApiKey",
  method: "delete",
  path: "/api/v1/api-keys/{id}",
  tags: ["Users Admin"],
  summary: "Revoke an API key (idempotent)",
  security,
  request: { params: z.object({ id: IdParam }) },
  responses: { 204: { description: "Revoked." }, ...commonErrors, ...notFoundError },
});

export function registerApiKeyRoutes(app: Router) {
  app.openapi(create, async (c) => {
    const user = requireUser(c);
    const body = c.req.valid("json");
    const { token, key } = await createApiKey(c.get("deps").db, {
      userId: user.userId,
      name: body.name,
      expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
    });
    return c.json({ key, token }, 201);
  });

  app.openapi(list, async (c) => {
    const user = requireUser(c);
    const items = await listApiKeys(c.get("deps").db, user.role === "admin" ? null : user.userId);
    return c.json({ items }, 200);
  });

  app.openapi(revoke, async (c) => {
    const user = requireUser(c);
    const { id } = c.req.valid("param");
    const found = await revokeApiKey(c.get("deps").db, id, user.role === "admin" ? null : user.userId);
    if (!found) throw notFound("API key");
    return c.body(null, 204);
  });
}
