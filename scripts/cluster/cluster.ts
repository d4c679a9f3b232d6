/**
 * Several platform nodes on one Postgres database behind Debian's haproxy, on this machine:
 * what `npm run start:cluster`, the two-node tests and the cluster bench start. Each node is a
 * real process (`node <entry bundled>`, as `npm start` runs the platform), so a test can SIGKILL
 * one or restart it.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { processBundle } from "../build-server.mjs";

export const root = fileURLToPath(new URL("../..", import.meta.url));

/** The haproxy binary, installed with apt-get when it is missing (as root). Throws with what to do otherwise. */
export function ensureHaproxy(log: (line: string) => void = () => {}): string {
  const found = spawnSync("sh", ["-c", "command -v haproxy"], { encoding: "utf8" });
  if (found.status === 0 && found.stdout.trim()) return found.stdout.trim();
  if (process.getuid?.() !== 0) throw new Error("haproxy is not installed; install it with: sudo apt-get install -y haproxy");
  log("haproxy is missing: installing it with apt-get…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  let r = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "haproxy"], { stdio: "inherit", env });
  if (r.status !== 0) {
    spawnSync("apt-get", ["update"], { stdio: "inherit", env });
    r = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "haproxy"], { stdio: "inherit", env });
  }
  if (r.status !== 0) throw new Error("apt-get could not install haproxy");
  return "haproxy";
}

/** Creates the database of `url` on its server when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1));
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`database name ${JSON.stringify(name)} must be a plain identifier`);
  u.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: u.toString() });
  await admin.connect();
  try {
    const exists = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (!exists.rowCount) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `url` answers 200 (or the process exits, or `timeoutMs` passes). */
export async function waitForHealth(url: string, opts: { timeoutMs?: number; proc?: ChildProcess } = {}): Promise<void> {
  const until = Date.now() + (opts.timeoutMs ?? 60_000);
  while (Date.now() < until) {
    if (opts.proc && opts.proc.exitCode !== null) throw new Error(`node exited with status ${opts.proc.exitCode} before it was ready`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} was not healthy within the time allowed`);
}

/** One node of the cluster: a process on its own port. */
export interface ClusterNodeProcess {
  name: string;
  port: number;
  url: string;
  proc: ChildProcess;
  /** Output of the process so far (for a test that fails). */
  output(): string;
  /** Sends a signal; resolves when the process has exited. */
  kill(signal: NodeJS.Signals): Promise<number | null>;
  /** Starts the process again on the same port and waits until it is healthy. */
  restart(): Promise<void>;
}

/** Options of `startCluster`. */
export interface ClusterOptions {
  databaseUrl: string;
  /** Nodes to start; default 2. */
  nodes?: number;
  /** The balancer's port; default a free one. */
  port?: number;
  /** The nodes' ports; default free ones. */
  nodePorts?: number[];
  /** Folder for the shared data dir, the haproxy config and logs. */
  workDir: string;
  /** The script each node runs; default src/server/main.ts. */
  entry?: string;
  /** Environment of every node (over the defaults: shared admin token and secret key, demo off). */
  env?: Record<string, string>;
  /** Environment of the first node only (it seeds the demo in `npm run start:cluster`). */
  firstNodeEnv?: Record<string, string>;
  /** Inherit the nodes' output instead of buffering it. */
  inheritOutput?: boolean;
  /** Start a node again when it exits (a rolling restart is then one `kill -TERM <pid>`). */
  supervise?: boolean;
  log?: (line: string) => void;
}

export interface RunningCluster {
  url: string;
  nodes: ClusterNodeProcess[];
  haproxy: ChildProcess;
  /** Stops the nodes (SIGTERM, graceful) and the balancer. */
  stop(): Promise<void>;
}

function haproxyConfig(port: number, nodes: { name: string; port: number }[]): string {
  return `# Written by scripts/cluster/cluster.ts: two or more svc nodes behind one balancer.
global
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout http-keep-alive 5s
  # A node busy with a burst answers its health check late, not never: give it time before
  # calling it down, or a single busy node leaves the balancer with nothing to send to.
  timeout check 5s
  # A request that could not reach a node (refused, reset, closed without an answer) goes to
  # another node: together with the nodes' drain this makes a rolling restart lose nothing.
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response
  option http-buffer-request

frontend svc
  bind 127.0.0.1:${port}
  default_backend svc_nodes

backend svc_nodes
  balance roundrobin
  # A draining node answers 503 here, before it stops listening.
  option httpchk GET /api/v1/health
  http-check expect status 200
  default-server inter 500ms fall 3 rise 2
${nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.port} check`).join("\n")}
`;
}

/** Starts `nodes` platform processes on one database (one after the other, the first migrates and seeds) and haproxy in front. */
export async function startCluster(opts: ClusterOptions): Promise<RunningCluster> {
  const log = opts.log ?? (() => {});
  const haproxyBin = ensureHaproxy(log);
  await ensureDatabase(opts.databaseUrl);
  const count = opts.nodes ?? 2;
  const port = opts.port ?? (await freePort());
  const ports = opts.nodePorts ?? (await Promise.all(Array.from({ length: count }, () => freePort())));
  const dataDir = path.join(opts.workDir, "data");
  mkdirSync(dataDir, { recursive: true });
  const bundle = await processBundle(opts.entry ?? path.join(root, "src/server/main.ts"));
  const url = `http://127.0.0.1:${port}`;
  const baseEnv: Record<string, string> = {
    DATABASE_URL: opts.databaseUrl,
    HOST: "127.0.0.1",
    SVC_DATA_DIR: dataDir,
    SVC_PUBLIC_URL: url,
    SVC_DEMO: "off",
    SVC_DEMO_HOST_PORT: "0",
    SVC_LOG_LEVEL: "warn",
    SVC_DRAIN_DELAY_MS: "2500",
    ...opts.env,
  };

  const nodes: ClusterNodeProcess[] = [];
  let stopping = false;
  for (let i = 0; i < count; i++) {
    const name = `node${String.fromCharCode(97 + i)}`;
    const nodePort = ports[i]!;
    const env = { ...process.env, ...baseEnv, ...(i === 0 ? opts.firstNodeEnv : {}), PORT: String(nodePort) };
    let output = "";
    const spawnNode = () => {
      const proc = spawn(process.execPath, [bundle], { cwd: root, env, stdio: opts.inheritOutput ? "inherit" : ["ignore", "pipe", "pipe"] });
      proc.stdout?.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
      proc.stderr?.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
      if (opts.supervise) {
        proc.once("exit", (code, signal) => {
          if (stopping) return;
          log(`${name} exited (${signal ?? `status ${code}`}); starting it again…`);
          setTimeout(() => {
            if (stopping) return;
            void node.restart().then(
              () => log(`${name} is back (pid ${node.proc.pid})`),
              (err: Error) => log(`${name} did not come back: ${err.message}`),
            );
          }, 500);
        });
      }
      return proc;
    };
    const node: ClusterNodeProcess = {
      name,
      port: nodePort,
      url: `http://127.0.0.1:${nodePort}`,
      proc: spawnNode(),
      output: () => output,
      kill(signal) {
        const p = node.proc;
        if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve(p.exitCode);
        return new Promise((resolve) => {
          p.once("exit", (code) => resolve(code));
          p.kill(signal);
        });
      },
      async restart() {
        node.proc = spawnNode();
        await waitForHealth(`${node.url}/api/v1/health`, { proc: node.proc });
      },
    };
    nodes.push(node);
    log(`starting ${name} on 127.0.0.1:${nodePort}…`);
    // One after the other: the first applies the migrations (and seeds the demo) alone.
    await waitForHealth(`${node.url}/api/v1/health`, { proc: node.proc, timeoutMs: 180_000 }).catch((err: Error) => {
      throw new Error(`${err.message}\n${output}`);
    });
  }

  const cfg = path.join(opts.workDir, "haproxy.cfg");
  writeFileSync(cfg, haproxyConfig(port, nodes));
  const check = spawnSync(haproxyBin, ["-c", "-q", "-f", cfg], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`haproxy refused its configuration: ${check.stderr}`);
  const haproxy = spawn(haproxyBin, ["-db", "-f", cfg], { stdio: opts.inheritOutput ? "inherit" : "ignore" });
  log(`starting haproxy on ${url}…`);
  await waitForHealth(`${url}/api/v1/health`, { proc: haproxy, timeoutMs: 15_000 });

  return {
    url,
    nodes,
    haproxy,
    async stop() {
      stopping = true;
      await Promise.all(nodes.map((n) => n.kill("SIGTERM")));
      if (haproxy.exitCode === null) {
        await new Promise<void>((resolve) => {
          haproxy.once("exit", () => resolve());
          haproxy.kill("SIGTERM");
        });
      }
    },
  };
}
