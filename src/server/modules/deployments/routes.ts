import { publishInvalidation } from "../../cluster/invalidation-bus";
import { createRoute, z } from "@hono/zod-openapi";
import { listResponse, PageQuery } from "../../../schema/common";
import { CreateDeploymentInput, Deployment, UpdateDeploymentInput } from "../../../schema/deployment";
import { requirePrincipal, requireUser } from "../../http/auth";
import { notFound } from "../../domain/errors";
import { commonErrors, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { decodeCursor, DEFAULT_PAGE_SIZE, isIdCursor, pageOf } from "../../domain/pagination";
import { createDeployment, deleteDeployment, deploymentView, getDeployment, listDeployments, updateDeployment } from "./service";

const DeploymentsListResponse = listResponse(Deployment, "DeploymentsListResponse");
const params = z.object({ deploymentId: IdParam });

const list = createRoute({
  operationId: "listDeployments",
  method: "get",
  path: "/api/v1/deployments",
  tags: ["Deployments"],
  summary: "List deployments",
  security,
  request: { query: PageQuery },
  responses: { 200: jsonContent(DeploymentsListResponse, "A page of deployments."), ...commonErrors },
});

const get = createRoute({
  operationId: "getDeployment",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}",
  tags: ["Deployments"],
  summary: "Read a deployment",
  security,
  request: { params },
  responses: { 200: jsonContent(Deployment, "The deployment."), ...commonErrors, ...notFoundError },
});

const create = createRoute({
  operationId: "createDeployment",
  method: "post",
  path: "/build/api/v1/deployments/",
  tags: ["Deployment Creation"],
  summary: "Create a deployment with its data source and, optionally, its data model files (developer or admin; a DuckDB file needs admin)",
  security,
  request: jsonBody(CreateDeploymentInput),
  responses: { 201: jsonContent(Deployment, "The new deployment."), ...commonErrors },
});

const update = createRoute({
  operationId: "updateDeployment",
  method: "put",
  path: "/api/v1/deployments/{deploymentId}",
  tags: ["Deployments"],
  summary: "Update a deployment's name or data source (developer or admin; a DuckDB file needs admin)",
  security,
  request: { params, ...jsonBody(UpdateDeploymentInput) },
  responses: { 200: jsonContent(Deployment, "The updated deployment."), ...commonErrors, ...notFoundError },
});

const remove = createRoute({
  operationId: "deleteDeployment",
  method: "delete",
  path: "/api/v1/deployments/{deploymentId}",
  tags: ["Deployments"],
  summary: "Delete a deployment and everything in it (admin)",
  security,
  request: { params },
  responses: { 204: { description: "Deleted." }, ...commonErrors, ...notFoundError },
});

export function registerDeploymentRoutes(app: Router) {
  app.openapi(list, async (c) => {
    const principal = requirePrincipal(c);
    const { first = DEFAULT_PAGE_SIZE, after } = c.req.valid("query");
    const afterId = after ? decodeCursor(after, isIdCursor).id : null;
    // An embed viewer sees only the deployment its session is for.
    const onlyId = principal.kind === "embed" ? principal.deploymentId : undefined;
    const { rows, total } = await listDeployments(c.get("deps").db, { afterId, limit: first + 1, onlyId });
    return c.json(
      pageOf(rows, { first, hasPrevious: afterId !== null, total, cursorOf: (r) => ({ id: r.id }), map: (r) => deploymentView(r, principal) }),
      200,
    );
  });

  app.openapi(get, async (c) => {
    const principal = requirePrincipal(c);
    const { deploymentId } = c.req.valid("param");
    if (principal.kind === "embed" && principal.deploymentId !== deploymentId) throw notFound("Deployment");
    const row = await getDeployment(c.get("deps").db, deploymentId);
    if (!row) throw notFound("Deployment");
    return c.json(deploymentView(row, principal), 200);
  });

  app.openapi(create, async (c) => {
    const principal = requireUser(c, "developer");
    const deps = c.get("deps");
    const row = await createDeployment(deps.db, c.req.valid("json"), { principal, secretBox: deps.secretBox });
    deps.logger.info("deployment created", { deploymentId: row.id, dataSourceType: row.dataSource?.type ?? null, by: principal.userId });
    return c.json(deploymentView(row, principal), 201);
  });

  app.openapi(update, async (c) => {
    const principal = requireUser(c, "developer");
    const { deploymentId } = c.req.valid("param");
    const deps = c.get("deps");
    const row = await updateDeployment(deps.db, deploymentId, c.req.valid("json"), { principal, secretBox: deps.secretBox });
    if (!row) throw notFound("Deployment");
    // Every node's next query opens the new data source (and closes the old pool).
    await publishInvalidation(deps.db, "deployment", deploymentId);
    deps.logger.info("deployment updated", { deploymentId, dataSourceType: row.dataSource?.type ?? null, by: principal.userId });
    return c.json(deploymentView(row, principal), 200);
  });

  app.openapi(remove, async (c) => {
    const principal = requireUser(c, "admin");
    const { deploymentId } = c.req.valid("param");
    const deps = c.get("deps");
    if (!(await deleteDeployment(deps.db, deploymentId))) throw notFound("Deployment");
    await publishInvalidation(deps.db, "deployment", deploymentId);
    deps.logger.info("deployment deleted", { deploymentId, by: principal.userId });
    return c.body(null, 204);
  });
}
