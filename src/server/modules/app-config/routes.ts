import { createRoute } from "@hono/zod-openapi";
import { AppConfig } from "../../../schema/app-config";
import { requirePrincipal } from "../../http/auth";
import { commonErrors, jsonContent, security, type Router } from "../../http/openapi";
import { appConfigFor } from "./service";

const get = createRoute({
  operationId: "getAppConfig",
  method: "get",
  path: "/api/v1/app-config",
  tags: ["App Theme"],
  summary: "The app configuration for the caller (embed viewer or platform user)",
  security,
  responses: { 200: jsonContent(AppConfig, "The app configuration, every field filled (defaults where nothing is stored)."), ...commonErrors },
});

export function registerAppConfigRoutes(app: Router) {
  app.openapi(get, async (c) => {
    const principal = requirePrincipal(c);
    return c.json(await appConfigFor(c.get("deps"), principal), 200);
  });
}
