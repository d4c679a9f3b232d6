import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { forkRelayed, keepForProcesses, runCommand, spawnerHelperPid, type RelayedProcess } from "./spawner";

const sh = (script: string, opts: Parameters<typeof runCommand>[2] = {}) => runCommand("/bin/sh", ["-c", script], opts);

describe("spawner", () => {
  it("runs a command to its end from the helper process, with its output and exit code", async () => {
    const result = await sh("echo out; echo err >&2; echo $PPID; exit 3");
    expect(result).toMatchObject({ stderr: "err\n", code: 3, signal: null, timedOut: false, overflow: false, error: null });
    const [out, parent] = result.stdout.trim().split("\n");
    expect(out).toBe("out");
    // Forked by the helper, not by this process (whose fork would hold its event loop).
    expect(Number(parent)).toBe(spawnerHelperPid());
    expect(Number(parent)).not.toBe(process.pid);
  });

  it("gives the command only the environment it is given, in its folder", async () => {
    process.env.SVC_SPAWNER_SECRET = "not-for-children";
    try {
      const result = await runCommand("/usr/bin/env", [], { env: { ONLY: "this", DROPPED: undefined }, cwd: "/tmp" });
      expect(result.stdout).toBe("ONLY=this\n");
      expect((await sh("pwd", { cwd: "/tmp" })).stdout).toBe("/tmp\n");
    } finally {
      delete process.env.SVC_SPAWNER_SECRET;
    }
  });

  it("kills a command at its time limit and one that writes past its buffer", async () => {
    const slow = await sh("sleep 30", { timeoutMs: 200 });
    expect(slow).toMatchObject({ timedOut: true, signal: "SIGKILL", code: null });
    const loud = await sh("head -c 100000 /dev/zero", { maxBuffer: 1000 });
    expect(loud.overflow).toBe(true);
    expect(loud.stdout.length).toBeLessThanOrEqual(1000);
  });

  it("reports a command that cannot start, and runs commands side by side", async () => {
    const missing = await runCommand("/nonexistent/command", []);
    expect(missing.code).toBeNull();
    expect(missing.error).toMatch(/ENOENT/);
    const results = await Promise.all([1, 2, 3, 4].map((n) => sh(`echo ${n}`)));
    expect(results.map((r) => r.stdout)).toEqual(["1\n", "2\n", "3\n", "4\n"]);
  });

  it("starts a new helper when the last one ended, and fails what was running on it", async () => {
    await sh("true");
    const first = spawnerHelperPid()!;
    const running = sh("sleep 30");
    process.kill(first, "SIGKILL");
    expect(await running).toMatchObject({ code: null, error: "the spawner's helper process ended" });
    const after = await sh("echo again");
    expect(after.stdout).toBe("again\n");
    expect(spawnerHelperPid()).not.toBe(first);
  });

  describe("processes with a channel, relayed", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "svc-spawner-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    // Answers each message with what it got, its parent and its environment; the first message
    // it gets is kept as `first`; "exit" ends it with code 7.
    const echo = path.join(dir, "echo.mjs");
    writeFileSync(
      echo,
      `let first = null;
      process.on("message", (m) => {
        if (first === null) first = m;
        if (m === "exit") process.exit(7);
        process.send({ got: m, first, ppid: process.ppid, env: process.env.ONLY ?? null, argv: process.argv.slice(2) });
      });`,
    );
    const next = (child: RelayedProcess) => new Promise<Record<string, unknown>>((resolve) => child.once("message", resolve));
    const exit = (child: RelayedProcess) =>
      new Promise<[number | null, string | null]>((resolve) => child.once("exit", (code, signal) => resolve([code, signal])));

    it("relays messages both ways (bytes and all), from a process the helper forked, and reports its end", async () => {
      const child = forkRelayed(echo, ["a", "b"], { execPath: process.execPath, execArgv: [], env: { ONLY: "this" } });
      const answer = next(child);
      expect(child.send({ hello: "world", bytes: new Uint8Array([1, 2, 3]) })).toBe(true);
      const got = await answer;
      expect(got).toMatchObject({ got: { hello: "world", bytes: new Uint8Array([1, 2, 3]) }, env: "this", argv: ["a", "b"] });
      expect(got.ppid).toBe(spawnerHelperPid());
      expect(child.pid).toBeGreaterThan(0);
      const ended = exit(child);
      child.send("exit");
      expect(await ended).toEqual([7, null]);
      expect(child.exitCode).toBe(7);
      expect(child.send("late")).toBe(false);
    });

    it("hands a process kept bytes as its first message, and stops it on kill", async () => {
      keepForProcesses("probe", new Uint8Array([9, 8, 7]));
      const child = forkRelayed(echo, [], { execPath: process.execPath, execArgv: [], firstMessage: { type: "snapshot", kept: "probe" } });
      const replies: unknown[] = [];
      child.on("message", (m) => replies.push(m));
      child.send("second");
      await vi.waitFor(() => expect(replies).toHaveLength(2));
      // The kept bytes came first, before what this process sent.
      const snapshot = { type: "snapshot", bytes: new Uint8Array([9, 8, 7]) };
      expect(replies).toMatchObject([
        { got: snapshot, first: snapshot },
        { got: "second", first: snapshot },
      ]);
      const ended = exit(child);
      expect(child.kill("SIGKILL")).toBe(true);
      expect(await ended).toEqual([null, "SIGKILL"]);
    });

    it("ends every relayed process with its helper", async () => {
      const child = forkRelayed(echo, [], { execPath: process.execPath, execArgv: [] });
      const answer = next(child);
      child.send("ping");
      const { ppid } = await answer;
      const ended = exit(child);
      process.kill(ppid as number, "SIGKILL");
      expect(await ended).toEqual([null, "SIGKILL"]);
      // A new helper serves the next one.
      const again = forkRelayed(echo, [], { execPath: process.execPath, execArgv: [] });
      const reply = next(again);
      again.send("pong");
      expect((await reply).ppid).not.toBe(ppid);
      again.kill("SIGKILL");
    });
  });
});
