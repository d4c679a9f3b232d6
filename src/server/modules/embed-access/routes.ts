import { createRoute, z } from "@hono/zod-openapi";
import { EmbedAccess, EmbedDashboardSettings, SetEmbedAccessInput, UpdateEmbedDashboardInput } from "../../../schema/embed-tenant";
import { requireUser } from "../../http/auth";
import { commonErrors, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { getEmbedAccess, setDashboardAllowEmbed, setEmbedAccess } from "./service";

const Params = z.object({ deploymentId: IdParam, workbookId: IdParam });
export const PublicIdParam = z.string().regex(/^[0-9A-Za-z]{12}$/, "a public id is 12 characters [0-9A-Za-z]");

const getAccess = createRoute({
  operationId: "getDashboardEmbedAccess",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/embed-access",
  tags: ["Dashboard Embed Access"],
  summary: "Read who among embed users may view the workbook's dashboard (read access to the workbook)",
  security,
  request: { params: Params },
  responses: { 200: jsonContent(EmbedAccess, "The rules."), ...commonErrors, ...notFoundError },
});

const putAccess = createRoute({
  operationId: "setDashboardEmbedAccess",
  method: "put",
  path: "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/embed-access",
  tags: ["Dashboard Embed Access"],
  summary: "Set dashboard access per embed tenant or for all embed users: read or none (manage access)",
  security,
  request: { params: Params, ...jsonBody(SetEmbedAccessInput) },
  responses: { 200: jsonContent(EmbedAccess, "The rules after the change."), ...commonErrors, ...notFoundError },
});

const patchDashboard = createRoute({
  operationId: "updateEmbedDashboard",
  method: "patch",
  path: "/api/v1/embed/dashboard/{publicId}",
  tags: ["Embed"],
  summary: "Enable or disable signed embedding of a dashboard (manage access)",
  security,
  request: { params: z.object({ publicId: PublicIdParam }), ...jsonBody(UpdateEmbedDashboardInput) },
  responses: { 200: jsonContent(EmbedDashboardSettings, "The dashboard's embedding switch."), ...commonErrors, ...notFoundError },
});

export function registerEmbedAccessRoutes(app: Router) {
  app.openapi(getAccess, async (c) => {
    const user = requireUser(c);
    const { deploymentId, workbookId } = c.req.valid("param");
    return c.json(await getEmbedAccess(c.get("deps").db, user, deploymentId, workbookId), 200);
  });

  app.openapi(putAccess, async (c) => {
    const user = requireUser(c);
    const { deploymentId, workbookId } = c.req.valid("param");
    return c.json(await setEmbedAccess(c.get("deps").db, user, deploymentId, workbookId, c.req.valid("json")), 200);
  });

  app.openapi(patchDashboard, async (c) => {
    const user = requireUser(c);
    const { publicId } = c.req.valid("param");
    return c.json(await setDashboardAllowEmbed(c.get("deps").db, user, publicId, c.req.valid("json").allowEmbed), 200);
  });
}
