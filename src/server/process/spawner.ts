/**
 * Short-lived commands (git, the Python wall's probes) started from a small helper process
 * instead of the server. Node starts a child with fork(), which copies the calling process's page
 * tables while its event loop waits: from a server holding a few hundred megabytes that held
 * every request for 100–350 ms a command on a busy two-core machine, where the helper (tens of
 * megabytes) forks in a fraction of it (`npx tsx bench/spawn-cost.ts`). The helper
 * (spawner-helper.mjs) is started on first use, holds no secret of its own (an empty
 * environment; each command gets only the environment its caller gives), ends with this process,
 * and is started again if it ends.
 */
import { fork, type ChildProcess } from "node:child_process";
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
}

let helper: Helper | null = null;
let nextId = 1;

const ended = (error: string): CommandResult => ({ stdout: "", stderr: "", code: null, signal: null, timedOut: false, overflow: false, error });

function startHelper(): Helper {
  const child = fork(HELPER_FILE, [], { execArgv: [], env: {}, stdio: ["ignore", "ignore", "ignore", "ipc"], serialization: "json" });
  const state: Helper = { child, pending: new Map() };
  child.on("message", (message: CommandResult & { id: number }) => {
    const done = state.pending.get(message.id);
    if (!done) return;
    state.pending.delete(message.id);
    if (state.pending.size === 0) child.channel?.unref();
    done(message);
  });
  const gone = () => {
    if (helper === state) helper = null;
    for (const done of state.pending.values()) done(ended("the spawner's helper process ended"));
    state.pending.clear();
  };
  child.on("exit", gone);
  child.on("error", gone);
  // Neither the helper nor its channel keeps this process alive while no command runs.
  child.unref();
  child.channel?.unref();
  return state;
}

/** Runs `file` with `args` to its end from the helper process; never throws (see `code`, `error`). */
export function runCommand(file: string, args: readonly string[], opts: CommandOptions = {}): Promise<CommandResult> {
  let current: Helper;
  try {
    current = helper ??= startHelper();
  } catch (error) {
    // The helper could not be forked (no memory, no process slot): this command fails, the next one tries again.
    return Promise.resolve(ended(`the spawner's helper process could not start: ${error instanceof Error ? error.message : String(error)}`));
  }
  const id = nextId++;
  const env = Object.fromEntries(Object.entries(opts.env ?? {}).filter((e): e is [string, string] => e[1] !== undefined));
  return new Promise((resolve) => {
    current.pending.set(id, resolve);
    current.child.channel?.ref();
    const sent = current.child.send({ id, file, args, cwd: opts.cwd, env, timeoutMs: opts.timeoutMs, maxBuffer: opts.maxBuffer }, (error) => {
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
