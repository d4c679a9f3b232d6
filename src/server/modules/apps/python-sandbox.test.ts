import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interpreterSnapshotState, PythonSandbox, pythonProcessExecArgv } from "./python-sandbox";
import { establishPythonWall, type PythonWall } from "./python-wall";
import { spawnerHelperPid } from "../../process/spawner";

const WORKER_FILE = fileURLToPath(new URL("./python-worker.mjs", import.meta.url));
const PYODIDE_DIR = path.dirname(createRequire(import.meta.url).resolve("pyodide/package.json")) + path.sep;

// What the sandbox process itself could do, whatever Python got hold of: the same Node options,
// with a script that tries each way out.
const ATTEMPTS = `
import fs from "node:fs";
const out = {};
const attempt = async (key, fn) => { try { await fn(); out[key] = "allowed"; } catch (e) { out[key] = e.code || e.name; } };
await attempt("readPlatformFile", () => fs.readFileSync(${JSON.stringify(path.resolve("package.json"))}));
await attempt("readSystemFile", () => fs.readFileSync("/etc/passwd"));
await attempt("listPlatformFolder", () => fs.readdirSync(${JSON.stringify(path.resolve("src"))}));
await attempt("writeFile", () => fs.writeFileSync(${JSON.stringify(path.join(PYODIDE_DIR, "written-by-report"))}, "x"));
await attempt("childProcess", async () => (await import("node:child_process")).execFileSync("/bin/true"));
await attempt("workerThread", async () => new (await import("node:worker_threads")).Worker("0", { eval: true }));
await attempt("readPyodide", () => fs.readFileSync(${JSON.stringify(path.join(PYODIDE_DIR, "package.json"))}));
console.log(JSON.stringify(out));
`;

describe("the Python sandbox process", () => {
  it("compiles the interpreter with V8's baseline compiler only, unless asked for V8's default tiering", () => {
    expect(pythonProcessExecArgv(PYODIDE_DIR)).toContain("--liftoff-only");
    expect(pythonProcessExecArgv(PYODIDE_DIR, { wasmTierUp: true })).not.toContain("--liftoff-only");
    // This Node takes the flag (an unknown V8 flag would stop the process before it ran anything).
    const run = spawnSync(process.execPath, [...pythonProcessExecArgv(PYODIDE_DIR), "-e", "console.log(process.execArgv.includes('--liftoff-only'))"], {
      env: {},
      encoding: "utf8",
    });
    expect(run.stdout.trim(), run.stderr).toBe("true");
  });

  it("can read Pyodide and nothing else, write nothing, and start no process or thread", () => {
    const run = spawnSync(process.execPath, [...pythonProcessExecArgv(PYODIDE_DIR), "--input-type=module", "-e", ATTEMPTS], { env: {}, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      readPlatformFile: "ERR_ACCESS_DENIED",
      readSystemFile: "ERR_ACCESS_DENIED",
      listPlatformFolder: "ERR_ACCESS_DENIED",
      writeFile: "ERR_ACCESS_DENIED",
      childProcess: "ERR_ACCESS_DENIED",
      workerThread: "ERR_ACCESS_DENIED",
      readPyodide: "allowed",
    });
  });

  it("leaves the server free to exit while a loaded process waits", () => {
    // A process that warms the sandbox, runs once (a new spare starts loading) and ends its
    // script: it must exit without close(), as a server does on shutdown.
    const script = `
      import { PythonSandbox } from ${JSON.stringify(fileURLToPath(new URL("./python-sandbox.ts", import.meta.url)))};
      const sandbox = new PythonSandbox();
      await sandbox.warm();
      const result = await sandbox.run({ code: "print(6 * 7)", rows: [], columns: [] });
      console.log(JSON.stringify(result));
    `;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 120_000 });
    expect(run.signal, "still running after its script ended").toBeNull();
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ ok: true, output: { stdout: "42\n" } });
  }, 130_000);

  it("does not start outside its wall", () => {
    // Plain node, no permission model: the worker refuses before loading anything.
    const run = spawnSync(process.execPath, [WORKER_FILE, PYODIDE_DIR, String(64 * 1024 * 1024), "isolated"], { env: {}, encoding: "utf8", timeout: 30_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("not started inside its permission wall");
  });

  it("does not start as isolated where it sees a network interface", () => {
    // The permission model, but no network namespace: the worker refuses.
    const run = spawnSync(process.execPath, [...pythonProcessExecArgv(PYODIDE_DIR), WORKER_FILE, PYODIDE_DIR, String(64 * 1024 * 1024), "isolated"], {
      env: {},
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("not started inside its network wall");
  });
});

/** A local HTTP server standing for everything the server can reach: it counts who reached it. */
async function listener(): Promise<{ server: Server; port: number; hits: () => number }> {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits += 1;
    res.end("reached");
  });
  server.on("connection", () => (hits += 1));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, hits: () => hits };
}

/** Sandbox processes that are children of this process, as the OS lists them. */
function workerProcesses(): number {
  let n = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      // Forked by the spawner's helper (src/server/process/spawner.ts), or by this process.
      if ((ppid === process.pid || ppid === spawnerHelperPid()) && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("python-worker.mjs")) n += 1;
    } catch {
      // gone meanwhile
    }
  }
  return n;
}

describe.skipIf(process.platform !== "linux")("the operating system's wall (Linux)", () => {
  let wall: PythonWall;
  let target: Awaited<ReturnType<typeof listener>>;

  beforeAll(async () => {
    wall = await establishPythonWall("on", 128 * 1024 * 1024);
    target = await listener();
  }, 60_000);
  afterAll(() => target.server.close());

  it("is a verified network namespace and a kernel memory limit", () => {
    expect(wall).toMatchObject({ enabled: true, network: "namespace", memory: "rlimit" });
    expect(wall.prefix.join(" ")).toMatch(/prlimit --data=\d+ .*unshare .*--net --$/);
  });

  it("lets the sandbox process itself reach no address and allocate no memory beyond the limit", () => {
    // Whatever Python got hold of, the process cannot do more than this script does.
    const script = `
      const net = require("node:net");
      const out = {};
      const s = net.connect(${target.port}, "127.0.0.1");
      s.on("connect", () => finish("connected"));
      s.on("error", (e) => finish(e.code));
      function finish(connect) {
        out.connect = connect;
        const kept = [];
        try { for (let i = 0; i < 12; i++) kept.push(new ArrayBuffer(256 * 1024 * 1024)); out.allocated = kept.length * 256; }
        catch (e) { out.allocated = e.name; }
        console.log(JSON.stringify(out));
        process.exit(0);
      }`;
    const [cmd, ...rest] = wall.prefix;
    const out = execFileSync(cmd, [...rest, process.execPath, ...pythonProcessExecArgv(PYODIDE_DIR), "-e", script], { env: {}, encoding: "utf8" });
    expect(JSON.parse(out)).toEqual({ connect: "ENETUNREACH", allocated: "RangeError" });
    expect(target.hits()).toBe(0);
  });

  it("is off where the system offers none, unless an admin accepts the risk", async () => {
    const none = { unshare: null, prlimit: null };
    const off = await establishPythonWall("on", 1 << 27, none);
    expect(off).toMatchObject({ enabled: false, network: "none" });
    expect(off.message).toMatch(/Python reports are off.*SVC_PYTHON_REPORTS=unisolated/);
    const risk = await establishPythonWall("unisolated", 1 << 27, none);
    expect(risk).toMatchObject({ enabled: true, network: "none" });
    expect(risk.message).toMatch(/WITHOUT network isolation.*every address/);
    expect(await establishPythonWall("off", 1 << 27)).toMatchObject({ enabled: false });
  });
});

describe.skipIf(process.platform !== "linux")("Python reports trying to get out", () => {
  let sandbox: PythonSandbox;
  let target: Awaited<ReturnType<typeof listener>>;
  const run = (code: string, tenant?: string) => sandbox.run({ code, rows: [], columns: [] }, { tenant });

  beforeAll(async () => {
    sandbox = new PythonSandbox({ timeoutMs: 20_000, memoryLimitBytes: 128 * 1024 * 1024 }, { workers: 2, perTenant: 1, queueTimeoutMs: 300_000 });
    target = await listener();
    await sandbox.warm();
  }, 60_000);
  afterAll(async () => {
    await sandbox.close();
    target.server.close();
  });

  it("cannot open a TCP connection through Pyodide's socket bridge", async () => {
    // The path of the report: the import blocker removed, Pyodide's node socket layer started,
    // a raw HTTP request to a port of this machine.
    const code = [
      "import sys",
      "sys.meta_path.pop(0)",
      "import pyodide_js",
      "api = pyodide_js._api",
      "await api.initializeNodeSockFS()",
      "import socket",
      `s = socket.create_connection(("127.0.0.1", ${target.port}))`,
      "s.send(b'GET / HTTP/1.0\\r\\n\\r\\n')",
      "print(s.recv(100))",
    ].join("\n");
    const result = await run(code);
    expect(result.ok).toBe(false);
    const direct = await run(["import sys", "sys.meta_path.pop(0)", "import pyodide_js", "await pyodide_js.useNodeSockFS()"].join("\n"));
    expect(direct.ok).toBe(false);
    expect(target.hits()).toBe(0);
  }, 60_000);

  it("starts later processes from a snapshot of the interpreter made before any report ran, with every wall in place", async () => {
    expect(interpreterSnapshotState()).toBe("ready");
    const attempts = ["import socket", "import js", "import subprocess", "import os\nos.system('true')"];
    const results = [];
    for (const code of attempts) results.push(await run(`leftover = 1\n${code}`));
    expect(results.map((r) => (r.ok ? "ran" : r.message.split(":")[0]))).toEqual(["ImportError", "ImportError", "ImportError", "AttributeError"]);
    const next = await run("try:\n    print(leftover)\nexcept NameError:\n    print('fresh')");
    expect(next).toEqual({ ok: true, output: { stdout: "fresh\n" } });
  }, 60_000);

  it("cannot allocate memory outside the wasm heap past the limit", async () => {
    // ArrayBuffers made with the heap view's constructor live outside the wasm memory.
    const code = [
      "import sys",
      "sys.meta_path.pop(0)",
      "import pyodide_js",
      "C = pyodide_js._module.HEAPU8.constructor",
      "kept = [C.new(100 * 1024 * 1024) for i in range(30)]",
      "print('allocated', len(kept))",
    ].join("\n");
    const result = await run(code);
    expect(result.ok).toBe(false);
  }, 60_000);

  it("runs a burst from many viewers on a fixed pool, one run per tenant at a time, and leaves no process behind", async () => {
    let most = 0;
    let mostOfOneTenant = 0;
    const sampler = setInterval(() => {
      most = Math.max(most, workerProcesses(), sandbox.processCount);
      for (const n of sandbox.runningByTenant.values()) mostOfOneTenant = Math.max(mostOfOneTenant, n);
    }, 20);
    const results = await Promise.all([...Array(6)].map((_, i) => run(`import time\ntime.sleep(0.2)\nprint(${i})`, i % 2 ? "acme" : "globex")));
    clearInterval(sampler);
    expect(results.map((r) => (r.ok ? r.output.stdout : r.message))).toEqual([...Array(6)].map((_, i) => `${i}\n`));
    expect(most).toBeLessThanOrEqual(2);
    expect(mostOfOneTenant).toBe(1);
    // Back to the one loaded process kept waiting, whatever the burst was.
    await expect.poll(() => [workerProcesses(), sandbox.processCount], { timeout: 30_000 }).toEqual([1, 1]);
  }, 300_000);
});
