/**
 * The operating-system wall around a Python run: what the platform wraps each sandbox process
 * in, and the check, at start, that the wall really holds.
 *
 * - **Network**: on Linux the process starts in a network namespace of its own (`unshare
 *   --net`, inside a user namespace where the kernel allows one): no interface but a loopback
 *   that is down, so no address — not the server's own ports, not a database, not a metadata
 *   service — can be reached, whatever the code inside manages to call.
 * - **Memory**: `prlimit --data` caps every writable private mapping of the process (the wasm
 *   heap, the JS heap, ArrayBuffers allocated anywhere), so no allocation path escapes it; core
 *   dumps are off.
 *
 * Node's permission model (python-sandbox.ts) walls the file system, processes and threads;
 * the cuts inside the worker (python-worker.mjs) are a second wall, never the first.
 */
import { existsSync, readlinkSync } from "node:fs";
import net from "node:net";
import { runCommand } from "../../process/spawner";

/** What Python reports need before they run: `on` (the network wall), `off`, or `unisolated`. */
export type PythonReportsSetting = "on" | "off" | "unisolated";

export interface PythonWall {
  /** Whether Python reports run at all. */
  enabled: boolean;
  /** `namespace`: verified network namespace; `none`: the network is reachable (only with `unisolated`). */
  network: "namespace" | "none";
  /** `rlimit`: the whole process's writable memory is capped by the kernel. */
  memory: "rlimit" | "none";
  /** The command a sandbox process is started through, before `node` (empty: node itself). */
  prefix: string[];
  /** Why reports are off, or what is missing: shown to callers and in the start-up log. */
  message: string;
}

/** Memory a loaded interpreter needs beyond the wasm heap cap (Node, V8, Pyodide's runtime). */
export const PROCESS_MEMORY_OVERHEAD_BYTES = 384 * 1024 * 1024;

function findTool(name: string): string | null {
  for (const dir of ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]) {
    const file = `${dir}/${name}`;
    if (existsSync(file)) return file;
  }
  return null;
}

/** The system's tools for the wall: util-linux's `unshare` and `prlimit`, on Linux only. */
export function systemTools(): { unshare: string | null; prlimit: string | null } {
  if (process.platform !== "linux") return { unshare: null, prlimit: null };
  return { unshare: findTool("unshare"), prlimit: findTool("prlimit") };
}

// Run inside a candidate wall: the interfaces the process sees, a connection to the parent's
// probe port, its network namespace, and its data-size limit.
const PROBE = `
const os = require("node:os"), net = require("node:net"), fs = require("node:fs");
const read = (f) => { try { return f(); } catch (e) { return null; } };
const done = (connect) => {
  const limits = read(() => fs.readFileSync("/proc/self/limits", "utf8")) || "";
  const data = /^Max data size\\s+(\\S+)/m.exec(limits);
  process.stdout.write(JSON.stringify({ interfaces: Object.keys(os.networkInterfaces()), connect, netns: read(() => fs.readlinkSync("/proc/self/ns/net")), dataLimit: data ? data[1] : null }));
  process.exit(0);
};
const s = net.connect(Number(process.argv[1]), "127.0.0.1");
s.setTimeout(2000, () => done("timeout"));
s.on("connect", () => done("connected"));
s.on("error", (e) => done(e.code || "error"));
`;

interface ProbeResult {
  interfaces: string[];
  connect: string;
  netns: string | null;
  dataLimit: string | null;
}

async function probe(prefix: string[]): Promise<{ result: ProbeResult | null; reached: boolean }> {
  let reached = false;
  const server = net.createServer((socket) => {
    reached = true;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  try {
    const argv = [...prefix, process.execPath, "-e", PROBE, String(port)];
    // From the spawner's small helper process: a fork of the server would hold its event loop.
    const run = await runCommand(argv[0]!, argv.slice(1), { env: {}, timeoutMs: 10_000, maxBuffer: 64 * 1024 });
    if (run.code !== 0) return { result: null, reached };
    return { result: JSON.parse(run.stdout) as ProbeResult, reached };
  } catch {
    return { result: null, reached };
  } finally {
    server.close();
  }
}

function ownNetns(): string | null {
  try {
    return readlinkSync("/proc/self/ns/net");
  } catch {
    return null;
  }
}

/** True when the probe ran cut off from every network: no interface, nothing reached, another namespace. */
export function isolatedProbe(result: ProbeResult | null, reached: boolean, parentNetns: string | null): boolean {
  return (
    !!result &&
    !reached &&
    result.interfaces.length === 0 &&
    result.connect !== "connected" &&
    result.connect !== "timeout" &&
    !!result.netns &&
    result.netns !== parentNetns
  );
}

/**
 * Finds and verifies the wall for processes whose memory may reach `memoryLimitBytes` of wasm
 * heap: the network namespace (checked by a real connection attempt to a port of this process)
 * and the memory limit (read back from the process's own limits).
 */
export async function establishPythonWall(
  setting: PythonReportsSetting,
  memoryLimitBytes: number,
  tools: { unshare: string | null; prlimit: string | null } = systemTools(),
): Promise<PythonWall> {
  if (setting === "off")
    return {
      enabled: false,
      network: "none",
      memory: "none",
      prefix: [],
      message: "Python reports are turned off on this installation (SVC_PYTHON_REPORTS=off)",
    };
  const dataLimit = memoryLimitBytes + PROCESS_MEMORY_OVERHEAD_BYTES;
  const { prlimit, unshare } = tools;
  const memoryPrefix = prlimit ? [prlimit, `--data=${dataLimit}`, "--core=0", "--"] : [];
  let memory: PythonWall["memory"] = "none";
  if (prlimit) {
    const { result } = await probe(memoryPrefix);
    if (result && result.dataLimit === String(dataLimit)) memory = "rlimit";
  }
  const base = memory === "rlimit" ? memoryPrefix : [];
  const parentNetns = ownNetns();
  if (unshare) {
    // A user namespace first (no privilege needed where the kernel allows it), then a plain one (root).
    for (const flags of [["--user", "--map-root-user", "--net"], ["--net"]]) {
      const prefix = [...base, unshare, ...flags, "--"];
      const { result, reached } = await probe(prefix);
      if (isolatedProbe(result, reached, parentNetns)) {
        return { enabled: true, network: "namespace", memory, prefix, message: "Python reports run without network (network namespace verified)" };
      }
    }
  }
  const why = unshare
    ? "this system does not allow a network namespace for the Python sandbox (unshare --net failed)"
    : "this system offers no network namespace (Linux with util-linux's unshare is needed)";
  if (setting === "unisolated") {
    return {
      enabled: true,
      network: "none",
      memory,
      prefix: base,
      message: `Python reports run WITHOUT network isolation (SVC_PYTHON_REPORTS=unisolated): ${why}; report code can reach every address this server can`,
    };
  }
  return {
    enabled: false,
    network: "none",
    memory,
    prefix: [],
    message: `Python reports are off: ${why}. An admin may turn them on without isolation with SVC_PYTHON_REPORTS=unisolated (report code can then reach every address this server can)`,
  };
}
