import { createRoute } from "@hono/zod-openapi";
import { TenantSettings, TenantSettingsInput } from "../../../schema/tenant-settings";
import { requireUser } from "../../http/auth";
import { commonErrors, jsonBody, jsonContent, security, type Router } from "../../http/openapi";
import { readTenantSettings, writeTenantSettings } from "./service";

const tags = ["Tenant Settings"];

const get = createRoute({
  operationId: "getTenantSettings",
  method: "get",
  path: "/api/v1/tenant/settings",
  tags,
  summary: "Tenant settings (admin); secrets are reported by name only",
  security,
  responses: { 200: jsonContent(TenantSettings, "The settings."), ...commonErrors },
});

const put = createRoute({
  operationId: "updateTenantSettings",
  method: "put",
  path: "/api/v1/tenant/settings",
  tags,
  summary: "Change tenant settings (admin): the fields sent replace the stored ones, in one transaction, audited in the logs",
  security,
  request: jsonBody(TenantSettingsInput),
  responses: { 200: jsonContent(TenantSettings, "The settings after the change."), ...commonErrors },
});

export function registerTenantSettingsRoutes(app: Router) {
  app.openapi(get, async (c) => {
    requireUser(c, "admin");
    return c.json(await readTenantSettings(c.get("deps").db), 200);
  });
  app.openapi(put, async (c) => {
    const actor = requireUser(c, "admin");
    return c.json(await writeTenantSettings(c.get("deps"), actor.userId, c.req.valid("json")), 200);
  });
}
