import { createRoute, z } from "@hono/zod-openapi";
import { AdvanceSetupInput, DeploymentSetup } from "../../../schema/deployment-setup";
import { requireUser } from "../../http/auth";
import { commonErrors, conflictError, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { advanceSetup, getSetup, resetSetup } from "./service";

const params = z.object({ deploymentId: IdParam });
const errors = { ...commonErrors, ...notFoundError };

const get = createRoute({
  operationId: "getCreationStep",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/creation-step",
  tags: ["Deployment Creation"],
  summary: "Where the deployment's set-up wizard stands",
  security,
  request: { params },
  responses: { 200: jsonContent(DeploymentSetup, "The set-up."), ...errors },
});
const advance = createRoute({
  operationId: "advanceCreationStep",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/creation-step/advance",
  tags: ["Deployment Creation"],
  summary: "Complete the current set-up step (data-source, data-model, embedding) with its input and move on",
  security,
  request: { params, ...jsonBody(AdvanceSetupInput) },
  responses: { 200: jsonContent(DeploymentSetup, "The set-up."), ...errors, ...conflictError },
});
const reset = createRoute({
  operationId: "resetCreationStep",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/creation-step/reset",
  tags: ["Deployment Creation"],
  summary: "Start the set-up wizard over",
  security,
  request: { params },
  responses: { 200: jsonContent(DeploymentSetup, "The set-up."), ...errors },
});

export function registerDeploymentSetupRoutes(app: Router) {
  app.openapi(get, async (c) => {
    requireUser(c, "developer");
    return c.json(await getSetup(c.get("deps").db, c.req.valid("param").deploymentId), 200);
  });
  app.openapi(advance, async (c) => {
    const actor = requireUser(c, "developer");
    const deps = c.get("deps");
    const body = c.req.valid("json");
    const setup = await advanceSetup(
      { db: deps.db, secretBox: deps.secretBox, invalidateEngine: (id) => deps.queryEngines.invalidateDeploymentModel(id) },
      c.req.valid("param").deploymentId,
      actor,
      body.step,
      body.input ?? {},
    );
    return c.json(setup, 200);
  });
  app.openapi(reset, async (c) => {
    requireUser(c, "developer");
    return c.json(await resetSetup(c.get("deps").db, c.req.valid("param").deploymentId), 200);
  });
}
