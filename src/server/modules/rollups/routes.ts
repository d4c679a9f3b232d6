import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { RollupBuildQueuedSchema, RollupListSchema } from "../../../schema/rollups";
import { requireUser } from "../../http/auth";
import type { AppEnv } from "../../http/app-env";
import { commonErrors, IdParam, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { listRollups, requestRollupBuild } from "./service";

const params = z.object({ deploymentId: IdParam });

const list = createRoute({
  operationId: "listRollups",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/rollups",
  tags: ["Data Model"],
  summary: "The rollups of the production model with their state, size, last and next build (developers and admins)",
  security,
  request: { params },
  responses: { 200: jsonContent(RollupListSchema, "Rollups in model order."), ...commonErrors, ...notFoundError },
});

const build = createRoute({
  operationId: "buildRollup",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/rollups/{name}/build",
  tags: ["Data Model"],
  summary: "Build one rollup now (developers and admins); one node of the cluster runs the build",
  security,
  request: {
    params: params.extend({
      name: z
        .string()
        .regex(/^[_a-zA-Z][_a-zA-Z0-9]*$/)
        .max(40),
    }),
  },
  responses: { 202: jsonContent(RollupBuildQueuedSchema, "The build is queued."), ...commonErrors, ...notFoundError },
});

/** The production model and data source of the deployment, for a developer or an admin. */
async function sourceFor(c: Context<AppEnv>, deploymentId: number) {
  requireUser(c, "developer");
  return c.get("deps").queryEngines.source(deploymentId);
}

export function registerRollupRoutes(app: Router) {
  app.openapi(list, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const { model, dataSource } = await sourceFor(c, deploymentId);
    return c.json({ rollups: await listRollups(c.get("deps").db, deploymentId, model, dataSource.dialect) }, 200);
  });
  app.openapi(build, async (c) => {
    const { deploymentId, name } = c.req.valid("param");
    const { model } = await sourceFor(c, deploymentId);
    return c.json({ jobId: await requestRollupBuild(c.get("deps").db, deploymentId, model, name) }, 202);
  });
}
