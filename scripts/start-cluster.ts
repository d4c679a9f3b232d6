/**
 * `npm run start:cluster`: two platform nodes on one Postgres database behind haproxy, on this
 * machine, for trying the scaled-out set-up (docs/scaling.md has the container recipe for
 * production). haproxy is installed with apt-get when it is missing.
 *
 *   DATABASE_URL   the shared database (default postgresql://postgres@127.0.0.1:5432/svc_cluster,
 *                  created when missing)
 *   PORT           the balancer's port (default 8080); the nodes listen on PORT+11 and PORT+12
 *   SVC_NODES      how many nodes (default 2)
 *   REDIS_URL      when set, the rate-limit counters live in Redis
 * The admin key and the secret key are generated once and kept in .data/cluster/ so every node
 * (and every restart) shares them; the first node seeds the demo.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { buildIsStale } from "./build-freshness.mjs";
import { root, startCluster } from "./cluster/cluster";

const databaseUrl = process.env.DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/svc_cluster";
const port = Number(process.env.PORT || 8080);
const count = Number(process.env.SVC_NODES || 2);
const workDir = path.join(root, ".data", "cluster");
mkdirSync(workDir, { recursive: true });

/** A secret kept in the work dir: the nodes must share it, and so must the next start. */
function kept(name: string, make: () => string): string {
  const file = path.join(workDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const value = make();
  writeFileSync(file, value + "\n", { mode: 0o600 });
  return value;
}
const adminToken = process.env.SVC_ADMIN_TOKEN || kept("admin-token", () => "svc_" + randomBytes(24).toString("base64url"));
const secretKey = process.env.SVC_SECRET_KEY || kept("secret-key", () => randomBytes(32).toString("base64url"));

if (buildIsStale(root)) {
  process.stdout.write("Building the embed app and the demo host page…\n");
  const r = spawnSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const cluster = await startCluster({
  databaseUrl,
  nodes: count,
  port,
  nodePorts: Array.from({ length: count }, (_, i) => port + 11 + i),
  workDir,
  inheritOutput: true,
  supervise: true,
  env: {
    SVC_ADMIN_TOKEN: adminToken,
    SVC_SECRET_KEY: secretKey,
    SVC_LOG_LEVEL: process.env.SVC_LOG_LEVEL || "info",
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  },
  firstNodeEnv: { SVC_DEMO: "on" },
  log: (line) => process.stdout.write(line + "\n"),
});

process.stdout.write(
  [
    "",
    `  svc cluster: ${cluster.nodes.length} nodes on ${new URL(databaseUrl).pathname.slice(1)} behind haproxy`,
    `  Balancer:  ${cluster.url}/api/v1   (health: ${cluster.url}/api/v1/health)`,
    ...cluster.nodes.map((n) => `  ${n.name}:     ${n.url}  (pid ${n.proc.pid})`),
    `  Admin key: kept in ${path.join(workDir, "admin-token")}`,
    `  Nodes:     curl -H "Authorization: Bearer $(cat ${path.join(workDir, "admin-token")})" ${cluster.url}/api/v1/cluster/nodes`,
    "  Rolling restart: kill -TERM <pid> of one node (it drains, stops and is started again); Ctrl-C stops everything.",
    "",
  ].join("\n") + "\n",
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await cluster.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
