import type { Db } from "../../db/connection";
import { listClusterNodes } from "../../cluster/node";

export interface PlatformNode {
  id: string;
  host: string;
  pid: number;
  version: string;
  startedAt: string;
  lastSeenAt: string;
  status: "running" | "stopped";
}

/**
 * The pods of a deployment: the live rows of `cluster_nodes`, the one node registry every
 * process heartbeats into (src/server/cluster/node.ts), newest first. A node that is starting,
 * ready or draining still serves requests, so it is `running`; stopped and silent nodes are left out.
 */
export async function listLiveNodes(db: Db): Promise<PlatformNode[]> {
  const rows = await listClusterNodes(db);
  return rows.map((r) => ({
    id: r.id,
    host: r.host,
    pid: r.pid,
    version: r.version,
    startedAt: r.startedAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    status: r.status === "stopped" ? "stopped" : "running",
  }));
}
