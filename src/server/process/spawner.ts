/**
 * Commands (git, the Python wall's probes) and the Python sandbox's processes started from a
 * small helper process instead of the server. Node starts a child with fork(), which copies the calling process's page
 * tables while its event loop waits: from a server holding a few hundred megabytes that held
 * every request for 100–350 ms a command on a busy two-core machine, where the helper (tens of
 * megabytes) forks in a fraction of it (`npx tsx bench/spawn-cost.ts`). The helper
 * (spawner-helper.mjs) is started on first use, holds no secret of its own (an empty
 * environment; each command gets only the environment its caller gives), ends with this process,
 * and is started again if it ends.
 */
import { fork, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { fileURLToPath } from "node:url";

const HELPER_FILE = fileURLToPath(new URL("./spawner-helper.mjs", import.meta.url));

export interface CommandOptions {
  cwd?: string;
  /** The command's whole environment (nothing of this process's is passed on); undefined values are left out. */
  env?: Record<string, string | undefined>;
  /** Killed (SIGKILL) after this long: `timedOut`. */
  timeoutMs?: number;
  /** Killed when stdout and stderr together pass this many bytes: `overflow` (16 MB when not given). */
  maxBuffer?: number;
}

export interface CommandResult {
  stdout: string;
  stderr: string;
  /** The exit code; null when a signal ended it or it did not start. */
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  overflow: boolean;
  /** Why the command did not start (not found, not allowed), or the helper ended under it. */
  error: string | null;
}

interface Helper {
  child: ChildProcess;
  pending: Map<number, (result: CommandResult) => void>;
  relayed: Map<number, RelayedProcess>;
}

let helper: Helper | null = null;
let nextId = 1;
/** Bytes kept in the helper for the processes it forks (`keepForProcesses`), sent again to a new helper. */
const kept = new Map<string, Uint8Array>();

/**
 * A Node process the helper forked with an IPC channel, seen from here: its messages both ways,
 * its stderr (`stderr` events of text), its end (`exit` with code and signal), `kill`. Events:
 * `message`, `stderr`, `exit`, `error`.
 */
export class RelayedProcess extends EventEmitter {
  pid: number | null = null;
  exitCode: number | null = null;
  signalCode: string | null = null;

  /** `link`: the helper's channel; null for a process that could not be started. */
  constructor(
    private readonly link: ChildProcess | null,
    readonly id: number,
  ) {
    super();
  }

  get exited(): boolean {
    return this.exitCode !== null || this.signalCode !== null;
  }

  /** Sends a message (structured clone); false when the process has ended. */
  send(message: unknown): boolean {
    if (this.exited || !this.link?.connected) return false;
    this.link.send({ op: "send", id: this.id, message }, () => undefined);
    return true;
  }

  kill(signal: NodeJS.Signals = "SIGTERM"): boolean {
    if (this.exited || !this.link?.connected) return false;
    this.link.send({ op: "kill", id: this.id, signal }, () => undefined);
    return true;
  }

  /** Called by the relay: the process ended (or the helper under it did). */
  ended(code: number | null, signal: string | null): void {
    if (this.exited) return;
    this.exitCode = code;
    this.signalCode = code === null && signal === null ? "SIGKILL" : signal;
    this.emit("exit", this.exitCode, this.signalCode);
  }
}

type HelperMessage =
  | (CommandResult & { op: "ran"; id: number })
  | { op: "forked"; id: number; pid: number | null }
  | { op: "message"; id: number; message: unknown }
  | { op: "stderr"; id: number; text: string }
  | { op: "exit"; id: number; code: number | null; signal: string | null };

const ended = (error: string): CommandResult => ({ stdout: "", stderr: "", code: null, signal: null, timedOut: false, overflow: false, error });

function startHelper(): Helper {
  const child = fork(HELPER_FILE, [], { execArgv: [], env: {}, stdio: ["ignore", "ignore", "ignore", "ipc"], serialization: "advanced" });
  const state: Helper = { child, pending: new Map(), relayed: new Map() };
  child.on("message", (message: HelperMessage) => {
    if (message.op === "ran") {
      const done = state.pending.get(message.id);
      if (!done) return;
      state.pending.delete(message.id);
      if (state.pending.size === 0) child.channel?.unref();
      done(message);
      return;
    }
    const target = state.relayed.get(message.id);
    if (!target) return;
    if (message.op === "forked") target.pid = message.pid;
    else if (message.op === "message") target.emit("message", message.message);
    else if (message.op === "stderr") target.emit("stderr", message.text);
    else if (message.op === "exit") {
      state.relayed.delete(message.id);
      target.ended(message.code, message.signal);
    }
  });
  const gone = () => {
    if (helper === state) helper = null;
    for (const done of state.pending.values()) done(ended("the spawner's helper process ended"));
    state.pending.clear();
    for (const target of state.relayed.values()) target.ended(null, "SIGKILL");
    state.relayed.clear();
  };
  child.on("exit", gone);
  child.on("error", gone);
  for (const [key, bytes] of kept) child.send({ op: "keep", key, bytes }, () => undefined);
  // Neither the helper nor its channel keeps this process alive while no command runs (a process
  // the helper forked does not either, as a forked child's unreferenced channel would not).
  child.unref();
  child.channel?.unref();
  return state;
}

/** The helper, started if none runs; the reason, when it cannot be forked. */
function currentHelper(): Helper | string {
  try {
    return (helper ??= startHelper());
  } catch (error) {
    return `the spawner's helper process could not start: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Keeps `bytes` in the helper under `key`, for the processes it forks with `firstMessage`
 * (sent once, not once a process; kept here too, for a helper started later).
 */
export function keepForProcesses(key: string, bytes: Uint8Array): void {
  kept.set(key, bytes);
  if (helper?.child.connected) helper.child.send({ op: "keep", key, bytes }, () => undefined);
}

export interface RelayedForkOptions {
  /** The program that runs the module: node, or a wrapper (prlimit, unshare) that ends by running node. */
  execPath: string;
  execArgv: string[];
  /** The process's whole environment. */
  env?: Record<string, string>;
  /** Sent before anything else: `{ type, bytes }` of what `keepForProcesses` kept under `kept`. */
  firstMessage?: { type: string; kept: string };
}

/** Forks `module` from the helper with an IPC channel relayed through it. */
export function forkRelayed(module: string, args: readonly string[], opts: RelayedForkOptions): RelayedProcess {
  const current = currentHelper();
  if (typeof current === "string") {
    const failed = new RelayedProcess(null, nextId++);
    queueMicrotask(() => {
      failed.emit("error", new Error(current));
      failed.ended(null, "SIGKILL");
    });
    return failed;
  }
  const id = nextId++;
  const target = new RelayedProcess(current.child, id);
  current.relayed.set(id, target);
  current.child.send(
    { op: "fork", id, module, args, execPath: opts.execPath, execArgv: opts.execArgv, env: opts.env ?? {}, firstMessage: opts.firstMessage },
    (error) => {
      if (!error) return;
      current.relayed.delete(id);
      target.ended(null, "SIGKILL");
    },
  );
  return target;
}

/** Runs `file` with `args` to its end from the helper process; never throws (see `code`, `error`). */
export function runCommand(file: string, args: readonly string[], opts: CommandOptions = {}): Promise<CommandResult> {
  const current = currentHelper();
  // The helper could not be forked (no memory, no process slot): this command fails, the next one tries again.
  if (typeof current === "string") return Promise.resolve(ended(current));
  const id = nextId++;
  const env = Object.fromEntries(Object.entries(opts.env ?? {}).filter((e): e is [string, string] => e[1] !== undefined));
  return new Promise((resolve) => {
    current.pending.set(id, resolve);
    current.child.channel?.ref();
    const sent = current.child.send({ op: "run", id, file, args, cwd: opts.cwd, env, timeoutMs: opts.timeoutMs, maxBuffer: opts.maxBuffer }, (error) => {
      if (!error) return;
      current.pending.delete(id);
      resolve(ended(`the spawner's helper process could not be reached: ${error.message}`));
    });
    if (!sent && !current.child.connected) {
      current.pending.delete(id);
      resolve(ended("the spawner's helper process ended"));
    }
  });
}

/** The helper's process id while it runs (diagnostics and tests). */
export function spawnerHelperPid(): number | null {
  return helper?.child.pid ?? null;
}
