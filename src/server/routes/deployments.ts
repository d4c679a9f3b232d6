import { createRoute, z } from "@hono/zod-openapi";
import { listResponse, PageQuery } from "../../schema/common";
import { Deployment } from "../../schema/deployment";
import { requirePrincipal } from "../http/auth";
import { notFound } from "../http/errors";
import { commonErrors, IdParam, jsonContent, notFoundError, security, type Router } from "../http/openapi";
import { decodeCursor, DEFAULT_PAGE_SIZE, isIdCursor, pageOf } from "../http/pagination";
import { deploymentView, getDeployment, listDeployments } from "../services/deployments";

const DeploymentsListResponse = listResponse(Deployment, "DeploymentsListResponse");

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
  request: { params: z.object({ deploymentId: IdParam }) },
  responses: { 200: jsonContent(Deployment, "The deployment."), ...commonErrors, ...notFoundError },
});

export function registerDeploymentRoutes(app: Router) {
  app.openapi(list, async (c) => {
    const principal = requirePrincipal(c);
    const { first = DEFAULT_PAGE_SIZE, after } = c.req.valid("query");
    const afterId = after ? decodeCursor(after, isIdCursor).id : null;
    // An embed viewer sees only the deployment its session is for.
    const onlyId = principal.kind === "embed" ? principal.deploymentId : undefined;
    const { rows, total } = await listDeployments(c.get("deps").db, { afterId, limit: first + 1, onlyId });
    return c.json(pageOf(rows, { first, hasPrevious: afterId !== null, total, cursorOf: (r) => ({ id: r.id }), map: deploymentView }), 200);
  });

  app.openapi(get, async (c) => {
    const principal = requirePrincipal(c);
    const { deploymentId } = c.req.valid("param");
    if (principal.kind === "embed" && principal.deploymentId !== deploymentId) throw notFound("Deployment");
    const row = await getDeployment(c.get("deps").db, deploymentId);
    if (!row) throw notFound("Deployment");
    return c.json(deploymentView(row), 200);
  });
}
