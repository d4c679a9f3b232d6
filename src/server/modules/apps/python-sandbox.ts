/**
 * Runs report Python in Pyodide, one child process per run (python-worker.mjs) under Node's
 * permission model: the process may read the Pyodide package and its own file and nothing else
 * — no other file, no writing, no child processes, no worker threads, no native addons — and it
 * starts with an empty environment. Nothing from one run (variables, files, modules) is left for
 * the next, which may be another tenant's. Loading Pyodide takes seconds, so one process is
 * kept loaded and waiting ("warm"); each run takes it and a new one starts loading behind it.
 * The time limit kills the process; the memory limit caps its wasm memory (MemoryError in
 * Python) and its JS heap (`--max-old-space-size`).
 */
import { fork, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";

export interface PythonLimits {
  /** Wall time of one run, from the job being handed over to its answer. */
  timeoutMs: number;
  /** Cap of the interpreter's wasm memory. */
  memoryLimitBytes: number;
}

export const DEFAULT_PYTHON_LIMITS: PythonLimits = { timeoutMs: 10_000, memoryLimitBytes: 256 * 1024 * 1024 };

export interface PythonJob {
  code: string;
  rows: Record<string, unknown>[];
  columns: string[];
}

export interface PythonOutput {
  stdout: string;
  table?: Record<string, unknown>[];
  html?: string;
  image?: string;
}

export type PythonRunResult =
  { ok: true; output: PythonOutput } | { ok: false; reason: "error" | "timeout" | "memory" | "crashed"; message: string; stdout: string };

const LOAD_TIMEOUT_MS = 60_000;

function pyodideDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve("pyodide/package.json")) + path.sep;
}

const WORKER_FILE = fileURLToPath(new URL("./python-worker.mjs", import.meta.url));

/**
 * The Node options of a sandbox process: the permission model with reads of the Pyodide
 * package and the worker file only, and a capped heap (`--experimental-permission` on Node 20,
 * `--permission` where Node has it). The process checks the wall itself before it says ready.
 */
export function pythonProcessExecArgv(indexURL: string = pyodideDir()): string[] {
  return [
    process.allowedNodeEnvironmentFlags.has("--permission") ? "--permission" : "--experimental-permission",
    `--allow-fs-read=${indexURL}`,
    `--allow-fs-read=${WORKER_FILE}`,
    "--max-old-space-size=256",
    "--max-semi-space-size=16",
    "--disable-warning=ExperimentalWarning",
  ];
}

interface LoadedWorker {
  worker: ChildProcess;
  ready: Promise<void>;
  /** The last of what the process wrote to stderr (a V8 out-of-memory report, say). */
  stderr: () => string;
}

export class PythonSandbox {
  private spare: LoadedWorker | null = null;
  private closed = false;
  private readonly indexURL = pyodideDir();

  constructor(readonly limits: PythonLimits = DEFAULT_PYTHON_LIMITS) {}

  private start(): LoadedWorker {
    const worker = fork(WORKER_FILE, [this.indexURL, String(this.limits.memoryLimitBytes)], {
      execPath: process.execPath,
      execArgv: pythonProcessExecArgv(this.indexURL),
      env: {},
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    let stderr = "";
    worker.stderr?.setEncoding("utf8");
    worker.stderr?.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-4096);
    });
    // A failed send to a process that has gone is answered by its exit; never an unhandled error.
    worker.on("error", () => undefined);
    // Never let an idle spare hold the server's process open: not the child, its IPC channel
    // or its stderr pipe.
    worker.unref();
    worker.channel?.unref();
    (worker.stderr as (Readable & { unref?: () => void }) | null)?.unref?.();
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the Python sandbox did not start in time")), LOAD_TIMEOUT_MS);
      worker.once("message", (m: { type?: string }) => {
        clearTimeout(timer);
        if (m?.type === "ready") resolve();
        else reject(new Error("the Python sandbox did not start"));
      });
      worker.once("error", (e) => {
        clearTimeout(timer);
        reject(e);
      });
      worker.once("exit", () => {
        clearTimeout(timer);
        reject(new Error(`the Python sandbox stopped while starting${stderr ? ": " + stderr.trim().split("\n").pop() : ""}`));
      });
    });
    ready.catch(() => undefined);
    return { worker, ready, stderr: () => stderr };
  }

  /** Starts loading a worker now, so the first run does not wait for it. */
  warm(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.spare ??= this.start();
    return this.spare.ready.catch(() => undefined);
  }

  async run(job: PythonJob): Promise<PythonRunResult> {
    if (this.closed) throw new Error("the Python sandbox is closed");
    let loaded = this.spare ?? this.start();
    this.spare = null;
    try {
      await loaded.ready;
    } catch {
      // A spare that died while waiting: one fresh attempt.
      loaded.worker.kill("SIGKILL");
      loaded = this.start();
      await loaded.ready;
    }
    // The next run's worker loads while this one runs.
    this.spare = this.start();
    const { worker, stderr } = loaded;
    try {
      return await new Promise<PythonRunResult>((resolve) => {
        const timer = setTimeout(
          () => resolve({ ok: false, reason: "timeout", message: `The Python code ran longer than ${this.limits.timeoutMs} ms and was stopped`, stdout: "" }),
          this.limits.timeoutMs,
        );
        worker.once("message", (m: { type: string; stdout: string; truncated: boolean; output?: string; error?: string }) => {
          clearTimeout(timer);
          const stdout = m.truncated ? m.stdout + "… (output truncated)\n" : m.stdout;
          if (m.type === "done") {
            const out = JSON.parse(m.output ?? "{}") as Omit<PythonOutput, "stdout">;
            resolve({ ok: true, output: { stdout, ...out } });
          } else if (/^MemoryError/.test(m.error ?? "")) {
            resolve({
              ok: false,
              reason: "memory",
              message: `The Python code needed more than the ${Math.round(this.limits.memoryLimitBytes / 1048576)} MiB memory limit`,
              stdout,
            });
          } else {
            resolve({ ok: false, reason: "error", message: m.error ?? "Python error", stdout });
          }
        });
        const stopped = () => {
          clearTimeout(timer);
          const memory = /heap out of memory|allocation failed|memory/i.test(stderr());
          resolve({
            ok: false,
            reason: memory ? "memory" : "crashed",
            message: memory ? "The Python code ran out of memory" : "The Python sandbox stopped",
            stdout: "",
          });
        };
        worker.once("error", stopped);
        worker.once("exit", stopped);
        worker.send(job);
      });
    } finally {
      worker.kill("SIGKILL");
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const spare = this.spare;
    this.spare = null;
    if (spare) spare.worker.kill("SIGKILL");
  }
}

let shared: PythonSandbox | null = null;

/** The process's sandbox (created on first use). */
export function pythonSandbox(): PythonSandbox {
  shared ??= new PythonSandbox();
  return shared;
}

/** Tests run with short limits. */
export function setPythonSandboxForTests(sandbox: PythonSandbox): void {
  void shared?.close();
  shared = sandbox;
}
