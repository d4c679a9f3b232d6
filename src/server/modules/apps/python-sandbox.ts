/**
 * Runs report Python in Pyodide, one child process per run (python-worker.mjs), inside two
 * walls:
 * - the operating system's (python-wall.ts): a network namespace with no interface, and a
 *   kernel limit on the whole process's writable memory — verified once, at start;
 * - Node's permission model: the process may read the Pyodide package and its own file and
 *   nothing else — no other file, no writing, no child processes, no worker threads, no native
 *   addons — and it starts with an empty environment.
 * Nothing from one run (variables, files, modules) is left for the next, which may be another
 * tenant's: each process runs once and is killed. The processes form a fixed pool (at most
 * `workers` alive, one kept loaded and waiting because loading takes seconds); runs beyond it
 * wait in a queue of bounded length, and one tenant runs at most `perTenant` at a time, so
 * neither a burst nor one tenant can starve the machine or the others.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DomainError } from "../../domain/errors";
import { forkRelayed, keepForProcesses, type RelayedProcess } from "../../process/spawner";
import { establishPythonWall, type PythonReportsSetting, type PythonWall } from "./python-wall";

export interface PythonLimits {
  /** Wall time of one run, from the job being handed over to its answer. */
  timeoutMs: number;
  /** Cap of the interpreter's wasm memory; the whole process gets this plus a fixed overhead. */
  memoryLimitBytes: number;
}

export const DEFAULT_PYTHON_LIMITS: PythonLimits = { timeoutMs: 10_000, memoryLimitBytes: 256 * 1024 * 1024 };

export interface PythonSandboxOptions {
  limits?: PythonLimits;
  /** `on`: only inside a verified network wall; `unisolated`: without one; `off`. */
  reports?: PythonReportsSetting;
  /** Sandbox processes alive at most (running and loaded). */
  workers?: number;
  /** Runs of one tenant at the same time. */
  perTenant?: number;
  /** Runs waiting at most, all tenants; a tenant may fill a quarter of it. */
  maxQueue?: number;
  /** How long a run may wait for a process before it is refused as busy. */
  queueTimeoutMs?: number;
  /**
   * V8's default tiering of the interpreter's WebAssembly (its optimising compiler on hot
   * code) instead of the baseline compiler only: the baseline of bench/python-start.ts.
   */
  wasmTierUp?: boolean;
}

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

export interface PythonRunContext {
  /** Whose run this is, for the per-tenant limit. */
  tenant?: string;
  signal?: AbortSignal;
}

const LOAD_TIMEOUT_MS = 60_000;

function pyodideDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve("pyodide/package.json")) + path.sep;
}

const WORKER_FILE = fileURLToPath(new URL("./python-worker.mjs", import.meta.url));

/**
 * The interpreter's memory just after it started, before any report code ran: made once per
 * server process by its first sandbox process and handed to each later one, which starts from
 * it instead of running Python's start-up again (~0.6 s of CPU instead of ~3.5 s). ~30 MB, kept
 * for the life of the process once Python has been used.
 */
let interpreterSnapshot: { kind: "none" | "making" | "failed" } | { kind: "ready"; bytes: Uint8Array } = { kind: "none" };
const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;
/** The snapshot's key among what the spawner's helper keeps for the processes it forks. */
const SNAPSHOT_KEY = "python-interpreter-snapshot";

/** How the next sandbox process will start (for tests). */
export function interpreterSnapshotState(): "none" | "making" | "failed" | "ready" {
  return interpreterSnapshot.kind;
}

/**
 * The Node options of a sandbox process: the permission model with reads of the Pyodide
 * package and the worker file only, and a capped heap (`--experimental-permission` on Node 20,
 * `--permission` where Node has it). The process checks the wall itself before it says ready.
 *
 * The interpreter's WebAssembly (~10 MB) is compiled by V8's baseline compiler only
 * (`--liftoff-only`): a process runs one report and exits, so the optimising compiler's work
 * on hot functions, on background threads, never paid for itself — a run took ~30 % less CPU
 * and less wall time without it, a two-million-step Python loop included (bench/python-start.ts,
 * docs/benchmarks.md).
 */
export function pythonProcessExecArgv(indexURL: string = pyodideDir(), opts: { wasmTierUp?: boolean } = {}): string[] {
  return [
    ...(opts.wasmTierUp ? [] : ["--liftoff-only"]),
    process.allowedNodeEnvironmentFlags.has("--permission") ? "--permission" : "--experimental-permission",
    `--allow-fs-read=${indexURL}`,
    `--allow-fs-read=${WORKER_FILE}`,
    "--max-old-space-size=256",
    "--max-semi-space-size=16",
    "--disable-warning=ExperimentalWarning",
  ];
}

interface LoadedWorker {
  worker: RelayedProcess;
  ready: Promise<void>;
  /** The last of what the process wrote to stderr (a V8 out-of-memory report, say). */
  stderr: () => string;
}

interface Waiter {
  tenant: string;
  grant: (w: LoadedWorker) => void;
  fail: (e: Error) => void;
}

const busy = (message: string) => new DomainError("rate_limited", message, { retryAfterSeconds: 5 });

export class PythonSandbox {
  readonly limits: PythonLimits;
  private readonly options: Required<Omit<PythonSandboxOptions, "limits">>;
  private wall: Promise<PythonWall> | null = null;
  private closed = false;
  private readonly indexURL = pyodideDir();
  /** Every process alive, loading, waiting or running. */
  private readonly alive = new Set<RelayedProcess>();
  /** Loaded (or loading) processes nobody has taken yet. */
  private readonly idle: LoadedWorker[] = [];
  private readonly queue: Waiter[] = [];
  private readonly running = new Map<string, number>();
  private wantSpare = false;

  constructor(limits: PythonLimits = DEFAULT_PYTHON_LIMITS, options: Omit<PythonSandboxOptions, "limits"> = {}) {
    this.limits = limits;
    this.options = {
      reports: options.reports ?? "on",
      workers: Math.max(1, options.workers ?? 2),
      perTenant: Math.max(1, options.perTenant ?? 1),
      maxQueue: Math.max(1, options.maxQueue ?? 32),
      queueTimeoutMs: options.queueTimeoutMs ?? 60_000,
      wasmTierUp: options.wasmTierUp ?? false,
    };
  }

  /** The operating-system wall, found and verified on first use (python-wall.ts). */
  verifyWall(): Promise<PythonWall> {
    this.wall ??= establishPythonWall(this.options.reports, this.limits.memoryLimitBytes);
    return this.wall;
  }

  /** Runs going on now, by tenant. */
  get runningByTenant(): ReadonlyMap<string, number> {
    return this.running;
  }

  /** How many sandbox processes are alive now (loading, waiting or running). */
  get processCount(): number {
    return this.alive.size;
  }

  private start(wall: PythonWall): LoadedWorker {
    const [execPath, ...wrapper] = wall.prefix.length ? wall.prefix : [process.execPath];
    const mode = interpreterSnapshot.kind === "ready" ? "restore" : interpreterSnapshot.kind === "none" ? "make" : "fresh";
    if (mode === "make") interpreterSnapshot = { kind: "making" };
    // Forked by the spawner's small helper, its channel relayed: a fork of the server would hold
    // the server's event loop while its memory's page tables are copied (src/server/process/spawner.ts).
    const worker = forkRelayed(WORKER_FILE, [this.indexURL, String(this.limits.memoryLimitBytes), wall.network === "namespace" ? "isolated" : "open", mode], {
      execPath,
      execArgv: [
        ...(wall.prefix.length ? [...wrapper, process.execPath] : []),
        ...pythonProcessExecArgv(this.indexURL, { wasmTierUp: this.options.wasmTierUp }),
      ],
      env: {},
      // A restored process's first message: the interpreter's snapshot, kept in the helper once.
      ...(mode === "restore" ? { firstMessage: { type: "snapshot", kept: SNAPSHOT_KEY } } : {}),
    });
    this.alive.add(worker);
    let stderr = "";
    worker.on("stderr", (chunk: string) => {
      stderr = (stderr + chunk).slice(-4096);
    });
    // A failed start is answered by its exit; never an unhandled error.
    worker.on("error", () => undefined);
    const loaded: LoadedWorker = { worker, ready: Promise.resolve(), stderr: () => stderr };
    worker.once("exit", () => {
      // A snapshot maker that stopped before sending one: killed (the sandbox closed, a limit) →
      // the next process tries again; stopped on its own → processes load afresh from now on.
      if (mode === "make" && interpreterSnapshot.kind === "making") interpreterSnapshot = { kind: worker.signalCode ? "none" : "failed" };
      this.alive.delete(worker);
      const i = this.idle.indexOf(loaded);
      if (i >= 0) this.idle.splice(i, 1);
      this.dispatch();
    });
    loaded.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the Python sandbox did not start in time")), LOAD_TIMEOUT_MS);
      const onMessage = (m: { type?: string; bytes?: unknown }) => {
        // Only a process started to make the snapshot may send one, and only before it is ready
        // (before any report code has run in it).
        if (m?.type === "snapshot" && mode === "make" && interpreterSnapshot.kind === "making") {
          if (m.bytes instanceof Uint8Array && m.bytes.byteLength <= MAX_SNAPSHOT_BYTES) {
            interpreterSnapshot = { kind: "ready", bytes: m.bytes };
            keepForProcesses(SNAPSHOT_KEY, m.bytes);
          }
          return;
        }
        worker.off("message", onMessage);
        clearTimeout(timer);
        if (m?.type === "ready") resolve();
        else reject(new Error("the Python sandbox did not start"));
      };
      worker.on("message", onMessage);
      worker.once("exit", () => {
        clearTimeout(timer);
        reject(new Error(`the Python sandbox stopped while starting${stderr ? ": " + stderr.trim().split("\n").pop() : ""}`));
      });
    });
    loaded.ready.catch(() => worker.kill("SIGKILL"));
    return loaded;
  }

  /** Hands free processes to waiting runs, in order, skipping tenants at their limit; keeps one loaded. */
  private dispatch(): void {
    if (this.closed) return;
    void this.wall?.then((wall) => {
      if (this.closed || !wall.enabled) return;
      for (let i = 0; i < this.queue.length;) {
        const waiter = this.queue[i];
        if ((this.running.get(waiter.tenant) ?? 0) >= this.options.perTenant) {
          i++;
          continue;
        }
        const free = this.idle.shift() ?? (this.alive.size < this.options.workers ? this.start(wall) : null);
        if (!free) break;
        this.queue.splice(i, 1);
        this.running.set(waiter.tenant, (this.running.get(waiter.tenant) ?? 0) + 1);
        waiter.grant(free);
      }
      if (this.wantSpare && this.idle.length === 0 && this.alive.size < this.options.workers) this.idle.push(this.start(wall));
    });
  }

  /** Starts loading a process now, so the first run does not wait for it. */
  async warm(): Promise<void> {
    if (this.closed) return;
    const wall = await this.verifyWall();
    if (!wall.enabled) return;
    this.wantSpare = true;
    this.dispatch();
    await this.wall;
    await this.idle[0]?.ready.catch(() => undefined);
  }

  private async acquire(tenant: string, signal: AbortSignal | undefined): Promise<LoadedWorker> {
    const wall = await this.verifyWall();
    if (!wall.enabled) throw new DomainError("python_unavailable", wall.message);
    if (this.queue.length >= this.options.maxQueue) throw busy("Too many Python reports are waiting to run; try again shortly");
    const own = this.queue.filter((w) => w.tenant === tenant).length;
    if (own >= Math.max(1, Math.floor(this.options.maxQueue / 4))) throw busy("Too many Python reports of this tenant are waiting to run; try again shortly");
    this.wantSpare = true;
    return new Promise<LoadedWorker>((resolve, reject) => {
      const timer = setTimeout(() => leave(busy("The Python sandbox is busy; try again shortly")), this.options.queueTimeoutMs);
      const onAbort = () => leave(new DomainError("query_cancelled", "The request was cancelled"));
      const leave = (error: Error) => {
        const i = this.queue.indexOf(waiter);
        if (i < 0) return;
        this.queue.splice(i, 1);
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        reject(error);
      };
      const waiter: Waiter = {
        tenant,
        grant: (w) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve(w);
        },
        fail: leave,
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
      this.dispatch();
    });
  }

  private release(tenant: string, loaded: LoadedWorker): void {
    const n = (this.running.get(tenant) ?? 1) - 1;
    if (n > 0) this.running.set(tenant, n);
    else this.running.delete(tenant);
    // Each process runs once: killing it frees its slot (its exit dispatches the queue).
    if (loaded.worker.exitCode === null && loaded.worker.signalCode === null) loaded.worker.kill("SIGKILL");
    else this.dispatch();
  }

  async run(job: PythonJob, context: PythonRunContext = {}): Promise<PythonRunResult> {
    if (this.closed) throw new Error("the Python sandbox is closed");
    const tenant = context.tenant ?? "default";
    let loaded = await this.acquire(tenant, context.signal);
    try {
      try {
        await loaded.ready;
      } catch {
        // A process that died while loading: one fresh attempt in the same slot.
        loaded.worker.kill("SIGKILL");
        loaded = this.start(await this.verifyWall());
        await loaded.ready;
      }
      return await this.exchange(loaded, job);
    } finally {
      this.release(tenant, loaded);
    }
  }

  private exchange(loaded: LoadedWorker, job: PythonJob): Promise<PythonRunResult> {
    const { worker, stderr } = loaded;
    return new Promise<PythonRunResult>((resolve) => {
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
        } else if (/^MemoryError|allocation failed/.test(m.error ?? "")) {
          resolve({ ok: false, reason: "memory", message: this.memoryMessage(), stdout });
        } else {
          resolve({ ok: false, reason: "error", message: m.error ?? "Python error", stdout });
        }
      });
      const stopped = () => {
        clearTimeout(timer);
        const memory = /heap out of memory|allocation failed|memory/i.test(stderr());
        resolve({ ok: false, reason: memory ? "memory" : "crashed", message: memory ? this.memoryMessage() : "The Python sandbox stopped", stdout: "" });
      };
      worker.once("exit", stopped);
      worker.send(job);
    });
  }

  private memoryMessage(): string {
    return `The Python code needed more than the ${Math.round(this.limits.memoryLimitBytes / 1048576)} MiB memory limit`;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of [...this.queue]) waiter.fail(new Error("the Python sandbox is closed"));
    for (const worker of this.alive) worker.kill("SIGKILL");
  }
}

let shared: PythonSandbox | null = null;
let sharedOptions: PythonSandboxOptions = {};

/** The process's sandbox (created on first use, with the options of `configurePythonSandbox`). */
export function pythonSandbox(): PythonSandbox {
  shared ??= new PythonSandbox(sharedOptions.limits, sharedOptions);
  return shared;
}

/** Sets the installation's options (from the configuration) before the first run. */
export function configurePythonSandbox(options: PythonSandboxOptions): PythonSandbox {
  sharedOptions = options;
  void shared?.close();
  shared = null;
  return pythonSandbox();
}

/** Tests run with short limits. */
export function setPythonSandboxForTests(sandbox: PythonSandbox): void {
  void shared?.close();
  shared = sandbox;
}
