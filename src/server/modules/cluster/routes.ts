import { createRoute, z } from "@hono/zod-openapi";
import { requireUser } from "../../http/auth";
import { commonErrors, jsonContent, security, type Router } from "../../http/openapi";
import { listClusterNodes } from "../../cluster/node";
import { Timestamp } from "../../../schema/common";

const tags = ["Operations"];

// No node id, host or version here: the check is public, and only admins see the node list.
const NodeHealth = z
  .object({
    status: z.enum(["ready", "draining", "stopped"]).meta({ description: "`draining`: the node is shutting down and takes no new requests." }),
  })
  .meta({ id: "NodeHealth" });

const ClusterNode = z
  .object({
    id: z.string(),
    host: z.string(),
    pid: z.number().int(),
    version: z.string(),
    address: z.string().nullable(),
    status: z.enum(["starting", "ready", "draining", "stopped"]),
    startedAt: Timestamp,
    lastSeenAt: Timestamp,
  })
  .meta({ id: "ClusterNode" });

const health = createRoute({
  operationId: "getNodeHealth",
  method: "get",
  path: "/api/v1/health",
  tags,
  summary: "Whether this node takes requests (for load balancers); 503 while it drains",
  // Public: no credentials needed (the OpenAPI document says so with an empty security list).
  security: [],
  responses: {
    200: jsonContent(NodeHealth, "The node takes requests."),
    503: jsonContent(NodeHealth, "The node is draining: send new requests elsewhere."),
  },
});

const nodes = createRoute({
  operationId: "listClusterNodes",
  method: "get",
  path: "/api/v1/cluster/nodes",
  tags,
  summary: "The API nodes serving this database, seen within three heartbeats (admin)",
  security,
  responses: { 200: jsonContent(z.object({ items: z.array(ClusterNode) }), "The live nodes, newest first."), ...commonErrors },
});

export function registerClusterRoutes(app: Router) {
  app.openapi(health, (c) => {
    const node = c.get("deps").clusterNode;
    const status = node?.status ?? "ready";
    c.header("Cache-Control", "no-store");
    return c.json({ status }, status === "ready" ? 200 : 503);
  });

  app.openapi(nodes, async (c) => {
    requireUser(c, "admin");
    const rows = await listClusterNodes(c.get("deps").db);
    return c.json(
      {
        items: rows.map((r) => ({
          id: r.id,
          host: r.host,
          pid: r.pid,
          version: r.version,
          address: r.address,
          status: r.status,
          startedAt: r.startedAt.toISOString(),
          lastSeenAt: r.lastSeenAt.toISOString(),
        })),
      },
      200,
    );
  });
}
