/**
 * Runs report Python in Pyodide, one worker thread per run (python-worker.mjs): nothing from
 * one run (variables, files, modules) is left for the next, which may be another tenant's.
 * Loading Pyodide takes seconds, so one worker is kept loaded and waiting ("warm"); each run
 * takes it and a new one starts loading behind it. The time limit terminates the worker; the
 * memory limit caps its wasm memory (MemoryError in Python) and its JS heap (resourceLimits).
 */
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

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

interface LoadedWorker {
  worker: Worker;
  ready: Promise<void>;
}

export class PythonSandbox {
  private spare: LoadedWorker | null = null;
  private closed = false;
  private readonly indexURL = pyodideDir();

  constructor(readonly limits: PythonLimits = DEFAULT_PYTHON_LIMITS) {}

  private start(): LoadedWorker {
    const worker = new Worker(WORKER_FILE, {
      workerData: { indexURL: this.indexURL, memoryLimitBytes: this.limits.memoryLimitBytes },
      // The JS side holds only the input and output JSON: a small heap is plenty.
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 8 },
      stdout: true,
      stderr: true,
      env: {},
    });
    // Never let an idle spare hold the process open.
    worker.unref();
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
        reject(new Error("the Python sandbox stopped while starting"));
      });
    });
    ready.catch(() => undefined);
    return { worker, ready };
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
      void loaded.worker.terminate();
      loaded = this.start();
      await loaded.ready;
    }
    // The next run's worker loads while this one runs.
    this.spare = this.start();
    const { worker } = loaded;
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
        worker.once("error", (e: Error) => {
          clearTimeout(timer);
          const memory = /memory|heap/i.test(e.message);
          resolve({
            ok: false,
            reason: memory ? "memory" : "crashed",
            message: memory ? "The Python code ran out of memory" : "The Python sandbox stopped",
            stdout: "",
          });
        });
        worker.once("exit", () => {
          clearTimeout(timer);
          resolve({ ok: false, reason: "crashed", message: "The Python sandbox stopped", stdout: "" });
        });
        worker.postMessage(job);
      });
    } finally {
      void worker.terminate();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const spare = this.spare;
    this.spare = null;
    if (spare) await spare.worker.terminate();
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
