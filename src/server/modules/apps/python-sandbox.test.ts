import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { pythonProcessExecArgv } from "./python-sandbox";

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
    const run = spawnSync(process.execPath, [WORKER_FILE, PYODIDE_DIR, String(64 * 1024 * 1024)], { env: {}, encoding: "utf8", timeout: 30_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("not started inside its permission wall");
  });
});
