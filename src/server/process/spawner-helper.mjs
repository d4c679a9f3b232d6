// @ts-check
/**
 * The spawner's helper (src/server/process/spawner.ts): a small process that starts the
 * platform's short-lived commands (git, the Python wall's probes) for it. Node starts a child
 * with fork(), which copies the whole process's page tables while the event loop waits: cheap
 * from this process, costly from a server holding hundreds of megabytes.
 *
 * - `{ op: "run", id, file, args, cwd, env, timeoutMs, maxBuffer }` runs one command to its end;
 *   the answer `{ op: "ran", id, stdout, stderr, code, signal, timedOut, overflow, error }`.
 * - `{ op: "fork", id, module, args, execPath, execArgv, env, firstMessage }` starts a Node
 *   process with an IPC channel (the Python sandbox's), whose messages are relayed both ways
 *   (`{ op: "send", id, message }` → it, `{ op: "message", id, message }` ← it); its stderr
 *   comes back as `{ op: "stderr", id, text }`, its end as `{ op: "exit", id, code, signal }`;
 *   `{ op: "kill", id, signal }` stops it. `firstMessage` `{ type, kept }` sends it
 *   `{ type, bytes }` of bytes kept here by `{ op: "keep", key, bytes }` before anything else (the
 *   interpreter's snapshot: sent to the helper once, not once a process).
 * The helper ends with its parent (the channel closing), and ends what it started.
 */
import { fork, spawn } from "node:child_process";

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

/** Processes started by `fork`, by id. */
const forked = new Map();
/** Bytes kept for the processes to come, by key. */
const kept = new Map();

/** @param {{ id: number, module: string, args: string[], execPath: string, execArgv: string[], env?: Record<string, string>, firstMessage?: { type: string, kept: string } }} request */
function start(request) {
  let child;
  try {
    child = fork(request.module, request.args, {
      execPath: request.execPath,
      execArgv: request.execArgv,
      env: request.env ?? {},
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
  } catch (e) {
    reply({ op: "exit", id: request.id, code: null, signal: null, error: String(/** @type {Error} */ (e).message) });
    return;
  }
  forked.set(request.id, child);
  reply({ op: "forked", id: request.id, pid: child.pid ?? null });
  child.on("message", (message) => reply({ op: "message", id: request.id, message }));
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text) => reply({ op: "stderr", id: request.id, text: String(text).slice(-4096) }));
  // A failed send to a process that has gone is answered by its exit.
  child.on("error", () => undefined);
  child.on("exit", (code, signal) => {
    forked.delete(request.id);
    reply({ op: "exit", id: request.id, code, signal });
  });
  if (request.firstMessage) {
    const bytes = kept.get(request.firstMessage.kept);
    child.send({ type: request.firstMessage.type, bytes: bytes ?? null });
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
    reply({ op: "ran", id: request.id, stdout: "", stderr: "", code: null, signal: null, timedOut, overflow, error: String(/** @type {Error} */ (e).message) });
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
      op: "ran",
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

process.on("message", (/** @type {any} */ message) => {
  switch (message?.op) {
    case "run":
      run(message);
      return;
    case "fork":
      start(message);
      return;
    case "send":
      forked.get(message.id)?.send(message.message);
      return;
    case "kill":
      forked.get(message.id)?.kill(message.signal ?? "SIGKILL");
      return;
    case "keep":
      kept.set(message.key, message.bytes);
      return;
  }
});
process.on("disconnect", () => {
  for (const child of running) killGroup(child);
  for (const child of forked.values()) child.kill("SIGKILL");
  process.exit(0);
});
