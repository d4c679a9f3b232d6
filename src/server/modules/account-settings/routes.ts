import { publishInvalidation } from "../../cluster/invalidation-bus";
import { createRoute, z } from "@hono/zod-openapi";
import { SafeText } from "../../../schema/common";
import { requireUser } from "../../http/auth";
import { commonErrors, jsonBody, jsonContent, security, type Router } from "../../http/openapi";
import { getAllowedOrigins, setAllowedOrigins } from "./service";

/** An exact origin (scheme, host, optional port); no path, no wildcard, never `*`. */
const Origin = SafeText.max(300).transform((value, ctx) => {
  try {
    const url = new URL(value);
    if ((url.protocol === "http:" || url.protocol === "https:") && url.origin === value.replace(/\/$/, "")) return url.origin;
  } catch {
    // reported below
  }
  ctx.addIssue({ code: "custom", message: `"${value}" is not an origin like https://app.example.com` });
  return z.NEVER;
});

const AllowedOrigins = z
  .object({
    origins: z.array(Origin).max(100).meta({ description: "Host origins allowed to frame the embed (frame-ancestors) and receive its events." }),
  })
  .meta({ id: "AllowedOrigins" });

const get = createRoute({
  operationId: "getEmbedAllowedOrigins",
  method: "get",
  path: "/api/v1/embed/allowed-origins",
  tags: ["Embed"],
  summary: "Host origins allowed to embed (admin)",
  security,
  responses: { 200: jsonContent(AllowedOrigins, "The allowed origins."), ...commonErrors },
});

const put = createRoute({
  operationId: "setEmbedAllowedOrigins",
  method: "put",
  path: "/api/v1/embed/allowed-origins",
  tags: ["Embed"],
  summary: "Replace the host origins allowed to embed (admin); applies to the next embed load",
  security,
  request: jsonBody(AllowedOrigins.strict()),
  responses: { 200: jsonContent(AllowedOrigins, "The allowed origins."), ...commonErrors },
});

export function registerAllowedOriginRoutes(app: Router) {
  app.openapi(get, async (c) => {
    requireUser(c, "admin");
    return c.json({ origins: await getAllowedOrigins(c.get("deps").db) }, 200);
  });
  app.openapi(put, async (c) => {
    requireUser(c, "admin");
    const origins = await setAllowedOrigins(c.get("deps").db, c.req.valid("json").origins);
    await publishInvalidation(c.get("deps").db, "settings");
    return c.json({ origins }, 200);
  });
}
