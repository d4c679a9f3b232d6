import { createRoute, z } from "@hono/zod-openapi";
import { QueryInt } from "../../../schema/common";
import { EnvVarsInput, EnvVarsResponse, LogContainer, LogSource, LogsResponse, PodsResponse, RegionsResponse } from "../../../schema/operations";
import { requireUser } from "../../http/auth";
import { notFound } from "../../domain/errors";
import { commonErrors, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { eq } from "drizzle-orm";
import { deployments } from "../../db/schema";
import type { Db } from "../../db/connection";
import { listLogs, writeLog } from "../deployment-logs/service";
import { listEnvVars, setEnvVars } from "../env-vars/service";
import { listLiveNodes } from "./node-registry";

const params = z.object({ deploymentId: IdParam });

async function requireDeployment(db: Db, deploymentId: number) {
  const [dep] = await db.select({ id: deployments.id }).from(deployments).where(eq(deployments.id, deploymentId));
  if (!dep) throw notFound("Deployment");
}

const Instant = z.iso.datetime({ offset: true }).transform((v) => new Date(v));

const regions = createRoute({
  operationId: "listRegions",
  method: "get",
  path: "/api/v1/regions/",
  tags: ["Regions"],
  summary: "Regions this installation offers the tenant (SVC_REGIONS); the first is the default",
  security,
  responses: { 200: jsonContent(RegionsResponse, "The regions."), ...commonErrors },
});

const pods = createRoute({
  operationId: "listDeploymentPods",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/pods",
  tags: ["Deployments"],
  summary: "The platform nodes serving the deployment (admin): every node heartbeating into storage",
  security,
  request: { params },
  responses: { 200: jsonContent(PodsResponse, "The live nodes."), ...commonErrors, ...notFoundError },
});

const logs = createRoute({
  operationId: "listDeploymentLogs",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/logs",
  tags: ["Deployments"],
  summary: "The deployment's logs kept in storage, newest first (admin); filter by source and container",
  security,
  request: {
    params,
    query: z.object({
      source: LogSource.optional(),
      container: LogContainer.optional(),
      since: Instant.optional().meta({ description: "ISO 8601 instant; lines at or after it." }),
      until: Instant.optional().meta({ description: "ISO 8601 instant; lines at or before it." }),
      limit: QueryInt(1, 1000).optional().meta({ description: "At most this many lines (default 200)." }),
    }),
  },
  responses: { 200: jsonContent(LogsResponse, "The lines."), ...commonErrors, ...notFoundError },
});

const getEnv = createRoute({
  operationId: "getDeploymentEnvVars",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/env-vars",
  tags: ["Env Variables"],
  summary: "The deployment's environment variables (admin); secrets are listed without their value",
  security,
  request: { params },
  responses: { 200: jsonContent(EnvVarsResponse, "The variables."), ...commonErrors, ...notFoundError },
});

const putEnv = createRoute({
  operationId: "setDeploymentEnvVars",
  method: "put",
  path: "/api/v1/deployments/{deploymentId}/env-vars",
  tags: ["Env Variables"],
  summary: "Replace the deployment's environment variables (admin); a change rebuilds its query engine",
  security,
  request: { params, ...jsonBody(EnvVarsInput) },
  responses: { 200: jsonContent(EnvVarsResponse, "The variables."), ...commonErrors, ...notFoundError },
});

export function registerOperationsRoutes(app: Router) {
  app.openapi(regions, (c) => {
    requireUser(c, "admin");
    const list = c.get("deps").regions ?? [{ id: "local", name: null }];
    return c.json({ items: list.map((r, i) => ({ id: r.id, name: r.name, default: i === 0 })) }, 200);
  });

  app.openapi(pods, async (c) => {
    requireUser(c, "admin");
    const { deploymentId } = c.req.valid("param");
    await requireDeployment(c.get("deps").db, deploymentId);
    return c.json({ items: await listLiveNodes(c.get("deps").db) }, 200);
  });

  app.openapi(logs, async (c) => {
    requireUser(c, "admin");
    const { deploymentId } = c.req.valid("param");
    const q = c.req.valid("query");
    await requireDeployment(c.get("deps").db, deploymentId);
    const items = await listLogs(c.get("deps").db, deploymentId, {
      source: q.source,
      containers: q.container ? [q.container] : undefined,
      since: q.since,
      until: q.until,
      limit: q.limit ?? 200,
    });
    return c.json({ items }, 200);
  });

  app.openapi(getEnv, async (c) => {
    requireUser(c, "admin");
    return c.json(await listEnvVars(c.get("deps").db, c.req.valid("param").deploymentId), 200);
  });

  app.openapi(putEnv, async (c) => {
    const actor = requireUser(c, "admin");
    const deps = c.get("deps");
    const { deploymentId } = c.req.valid("param");
    const changed = await setEnvVars(deps.db, deps.secretBox, deploymentId, c.req.valid("json"));
    if (changed.length) {
      await deps.queryEngines.invalidate(deploymentId);
      await writeLog(deps.db, {
        deploymentId,
        container: "INIT",
        message: "environment variables changed; the query engine is rebuilt on its next use",
        details: { actorUserId: actor.userId, changed },
      });
    }
    return c.json(await listEnvVars(deps.db, deploymentId), 200);
  });
}
