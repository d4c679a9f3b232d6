// @ts-check
/**
 * The spawner's helper (src/server/process/spawner.ts): a small process that starts the
 * platform's short-lived commands (git, the Python wall's probes) for it. Node starts a child
 * with fork(), which copies the whole process's page tables while the event loop waits: cheap
 * from this process, costly from a server holding hundreds of megabytes.
 *
 * Each message `{ id, file, args, cwd, env, timeoutMs, maxBuffer }` runs one command to its end;
 * the answer `{ id, stdout, stderr, code, signal, timedOut, overflow, error }` goes back over the
 * IPC channel. The helper ends with its parent (the channel closing).
 */
import { spawn } from "node:child_process";

/** Commands running now: each leads a process group of its own, ended whole (a shell's children too). */
const running = new Set();

/** @param {import("node:child_process").ChildProcess} child */
function killGroup(child) {
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

/** @param {{ id: number, file: string, args: string[], cwd?: string, env?: Record<string, string>, timeoutMs?: number, maxBuffer?: number }} request */
function run(request) {
  const maxBuffer = request.maxBuffer ?? 16 * 1024 * 1024;
  /** @type {Buffer[]} */
  const out = [];
  /** @type {Buffer[]} */
  const err = [];
  let size = 0;
  let timedOut = false;
  let overflow = false;
  /** @type {string | null} */
  let startError = null;
  let child;
  try {
    child = spawn(request.file, request.args, { cwd: request.cwd, env: request.env ?? {}, stdio: ["ignore", "pipe", "pipe"], detached: true });
  } catch (e) {
    reply({ id: request.id, stdout: "", stderr: "", code: null, signal: null, timedOut, overflow, error: String(/** @type {Error} */ (e).message) });
    return;
  }
  const collect = (/** @type {Buffer[]} */ into) => (/** @type {Buffer} */ chunk) => {
    size += chunk.length;
    if (size > maxBuffer) {
      overflow = true;
      killGroup(child);
      return;
    }
    into.push(chunk);
  };
  child.stdout?.on("data", collect(out));
  child.stderr?.on("data", collect(err));
  const timer =
    request.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          killGroup(child);
        }, request.timeoutMs);
  running.add(child);
  child.on("error", (e) => (startError = e.message));
  child.on("close", (code, signal) => {
    running.delete(child);
    if (timer) clearTimeout(timer);
    reply({
      id: request.id,
      stdout: Buffer.concat(out).toString("utf8"),
      stderr: Buffer.concat(err).toString("utf8"),
      code: startError ? null : code,
      signal,
      timedOut,
      overflow,
      error: startError,
    });
  });
}

/** @param {unknown} message */
function reply(message) {
  process.send?.(message);
}

process.on("message", (message) => run(/** @type {Parameters<typeof run>[0]} */ (message)));
process.on("disconnect", () => {
  for (const child of running) killGroup(child);
  process.exit(0);
});
