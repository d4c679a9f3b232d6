/**
 * One Python run, in a child process of its own (python-sandbox.ts starts it inside the
 * operating system's wall of python-wall.ts — a network namespace without interfaces and a
 * kernel memory limit — and under Node's permission model with reads of the Pyodide package and
 * this file only, sends one job over the IPC channel, and kills it afterwards or when the time
 * limit passes). Pyodide loads its wasm and standard library from node_modules: nothing is
 * fetched. The process refuses to start if the permission model is not in force as expected,
 * or, when it was started to be isolated, if it can see any network interface.
 *
 * Before any report code runs, the process takes away what could reach out of the sandbox (a
 * second wall behind the operating system's):
 * - the `js` module sees an empty object, not this process's globals (no fetch, no process);
 * - JavaScript code generation is gone (`Function`, `eval`), so no JS object reachable from
 *   Python can be turned into new code;
 * - Pyodide's bridges to the host file system (NODEFS, mountNodeFS) are removed: Python's
 *   files are an in-memory file system holding only the standard library;
 * - imports of the network, process and FFI modules fail with a clear ImportError;
 * - Pyodide's socket bridge (`useNodeSockFS`, `_api`), its module handle (`_module`) and its
 *   file system handle (`FS`) are taken off the API object Python can import as `pyodide_js`;
 * - the wasm memory cannot grow past the memory limit (Python then raises MemoryError).
 */
import { constants as fsConstants } from "node:fs";
import os, { constants as osConstants } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const indexURL = process.argv[2];
const memoryLimitBytes = Number(process.argv[3]);
const network = process.argv[4];
const mode = process.argv[5] ?? "fresh";

// The wall this process relies on: no file outside Pyodide's folder, no writes, no processes,
// no threads. Anything else means it was started without it, and it does not start.
const permission = process.permission;
const walled =
  permission &&
  !permission.has("fs.read", path.resolve(indexURL, "..", "..", "package.json")) &&
  !permission.has("fs.read", "/etc/passwd") &&
  !permission.has("fs.write") &&
  !permission.has("child") &&
  !permission.has("worker") &&
  permission.has("fs.read", indexURL);
if (!walled || !Number.isFinite(memoryLimitBytes) || Object.keys(process.env).some((name) => !name.startsWith("NODE_CHANNEL_"))) {
  process.stderr.write("python-worker: not started inside its permission wall\n");
  process.exit(1);
}
// Started to be isolated: no interface at all (a fresh network namespace has only a loopback
// that is down). Anything else means the wall is missing, and the process does not start.
if (network !== "open" && (network !== "isolated" || Object.keys(os.networkInterfaces()).length > 0)) {
  process.stderr.write("python-worker: not started inside its network wall\n");
  process.exit(1);
}
// Pyodide's host file system bridge reads fs flag constants through process.binding at start-up,
// which the permission model refuses; the bridge itself is removed below. The constants are the
// public ones.
process.binding = (name) => {
  if (name === "constants") return { fs: fsConstants, os: osConstants };
  throw new Error(`process.binding('${name}') is not available in the report sandbox`);
};
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);

const BLOCKED_ROOTS = [
  "js",
  "pyodide_js",
  "_pyodide_core",
  "socket",
  "_socket",
  "select",
  "selectors",
  "ssl",
  "_ssl",
  "subprocess",
  "_posixsubprocess",
  "multiprocessing",
  "ctypes",
  "_ctypes",
  "urllib",
  "http",
  "ftplib",
  "smtplib",
  "asyncio",
  "micropip",
];
const BLOCKED_NAMES = ["pyodide.http", "pyodide.ffi", "pyodide.code", "pyodide.webloop", "os.system"];

const SETUP = `
import sys, json
_blocked_roots = frozenset(${JSON.stringify(BLOCKED_ROOTS)})
_blocked_names = frozenset(${JSON.stringify(BLOCKED_NAMES)})
class _SandboxImports:
    roots = _blocked_roots
    names = _blocked_names
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.roots or name in self.names:
            raise ImportError(f"module '{name}' is not available in the report sandbox (no network, no processes)")
        return None
sys.meta_path.insert(0, _SandboxImports())
for _m in list(sys.modules):
    if _m.split(".")[0] in _blocked_roots or _m in _blocked_names:
        del sys.modules[_m]
import os as _os
for _name in ("system", "popen", "fork", "execv", "execve", "spawnv", "kill"):
    if hasattr(_os, _name):
        delattr(_os, _name)
_os.environ.clear()
del _os, _m, _name, _SandboxImports, _blocked_roots, _blocked_names
`;

const RUN = `
import json as _json, base64 as _base64
class _Report:
    def __init__(self, rows, columns):
        self.rows = rows
        self.columns = columns
        self._out = {}
    def table(self, rows):
        """Show a table: a list of dicts (or of lists with report.columns)."""
        self._out["table"] = [dict(r) if not isinstance(r, (list, tuple)) else dict(zip(self.columns, r)) for r in rows]
    def html(self, text):
        """Show HTML (sanitised by the widget before it is drawn)."""
        self._out["html"] = str(text)
    def image(self, data, mime="image/png"):
        """Show an image: bytes, or an SVG string."""
        if isinstance(data, str):
            data = data.encode("utf-8")
            mime = "image/svg+xml"
        self._out["image"] = "data:" + mime + ";base64," + _base64.b64encode(bytes(data)).decode("ascii")
_input = _json.loads(_svc_input)
report = _Report(_input["rows"], _input["columns"])
rows, columns = report.rows, report.columns
del _input, _svc_input
`;

function blockCodeGeneration() {
  const ctors = [Function, Object.getPrototypeOf(async function () {}).constructor, Object.getPrototypeOf(function* () {}).constructor];
  ctors.push(Object.getPrototypeOf(async function* () {}).constructor);
  for (const ctor of ctors) Object.defineProperty(ctor.prototype, "constructor", { value: undefined, writable: false, configurable: false });
  for (const name of ["eval", "fetch", "WebSocket", "EventSource", "XMLHttpRequest", "require"]) {
    try {
      Object.defineProperty(globalThis, name, { value: undefined, writable: false, configurable: false });
    } catch {
      // not configurable here: already absent
    }
  }
}

function capMemory(limit) {
  const grow = WebAssembly.Memory.prototype.grow;
  Object.defineProperty(WebAssembly.Memory.prototype, "grow", {
    value: function (pages) {
      if (this.buffer.byteLength + pages * 65536 > limit) throw new RangeError("memory limit");
      return grow.call(this, pages);
    },
    writable: false,
    configurable: false,
  });
}

/**
 * What Python reaches as `pyodide_js` is this API object: the socket bridge, the Emscripten
 * module, the file system and the internal API go; what Pyodide's own Python needs at run time
 * (`loadedPackages`) stays.
 */
function removeHandles(api) {
  const internal = api._api;
  if (internal) {
    for (const name of ["initializeNodeSockFS", "_nodeSock"]) {
      try {
        delete internal[name];
      } catch {
        internal[name] = undefined;
      }
    }
  }
  for (const name of [
    "_api",
    "_module",
    "FS",
    "PATH",
    "ERRNO_CODES",
    "useNodeSockFS",
    "mountNodeFS",
    "mountNativeFS",
    "registerJsModule",
    "loadPackage",
    "loadPackagesFromImports",
    "pyimport",
    "runPython",
    "runPythonAsync",
  ]) {
    try {
      Object.defineProperty(api, name, { value: undefined, writable: false, configurable: false });
    } catch {
      // a getter of the class: shadowed below
    }
  }
  const proto = Object.getPrototypeOf(api);
  if (proto && proto !== Object.prototype && typeof proto === "function") {
    try {
      Object.defineProperty(proto, "useNodeSockFS", { value: undefined, writable: false, configurable: false });
    } catch {
      // not configurable: already absent
    }
  }
}

const MAX_STDOUT = 256 * 1024;
const MAX_OUTPUT = 8 * 1024 * 1024;

// How the interpreter starts: `make` loads it afresh and sends the server a snapshot of its
// memory before anything else runs in it; `restore` waits for that snapshot (the first message)
// and starts from it, which skips Python's own start-up (~3 s of CPU down to ~0.5 s); `fresh`
// loads afresh without a snapshot. Either way the walls below are put up after the interpreter
// starts and before the process says it is ready, so no run ever sees it without them.
const loadOptions = { indexURL, packages: [], jsglobals: Object.create(null), env: {}, stdout: () => {}, stderr: () => {} };
let py;
if (mode === "restore") {
  const snapshot = await new Promise((resolve) => process.once("message", (m) => resolve(m && m.type === "snapshot" ? m.bytes : null)));
  if (!(snapshot instanceof Uint8Array)) {
    process.stderr.write("python-worker: no snapshot to start from\n");
    process.exit(1);
  }
  // A copy: the message's view may start at an offset the snapshot's reader cannot use.
  py = await loadPyodide({ ...loadOptions, _loadSnapshot: snapshot.slice() });
} else if (mode === "make") {
  py = await loadPyodide({ ...loadOptions, _makeSnapshot: true });
  process.send({ type: "snapshot", bytes: py.makeMemorySnapshot() });
} else {
  py = await loadPyodide(loadOptions);
}
py.runPython(SETUP);
const runPy = py.runPython.bind(py);
const runPyAsync = py.runPythonAsync.bind(py);
if (py.FS.filesystems) {
  delete py.FS.filesystems.NODEFS;
  delete py.FS.filesystems.PROXYFS;
}
py.mountNodeFS = undefined;
removeHandles(py);
capMemory(memoryLimitBytes);
const hostPost = process.send.bind(process);
const hostOnce = process.once.bind(process);
blockCodeGeneration();

let stdout = "";
let truncated = false;
const write = (text) => {
  if (stdout.length + text.length + 1 > MAX_STDOUT) {
    truncated = true;
    return;
  }
  stdout += text + "\n";
};
py.setStdout({ batched: write });
py.setStderr({ batched: write });

// The server gone (or its channel closed): this process goes too, never left behind.
process.once("disconnect", () => process.exit(0));
hostPost({ type: "ready" });
hostOnce("message", async (job) => {
  try {
    py.globals.set("_svc_input", JSON.stringify({ rows: job.rows, columns: job.columns }));
    runPy(RUN);
    await runPyAsync(job.code);
    const out = runPy("_json.dumps(report._out, default=str)");
    if (out.length > MAX_OUTPUT) throw new Error(`OutputTooLarge: the report's output is larger than ${MAX_OUTPUT / 1048576} MiB`);
    hostPost({ type: "done", stdout, truncated, output: out });
  } catch (error) {
    const text = String(error && error.message ? error.message : error);
    // The last line of a Python traceback names the error; the frames inside Pyodide are noise.
    const lines = text.trim().split("\n");
    const last = lines[lines.length - 1] || "Python error";
    hostPost({ type: "failed", stdout, truncated, error: last.slice(0, 2000) });
  }
});
