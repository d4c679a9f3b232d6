import { describe, expect, it } from "vitest";
import { runCommand, spawnerHelperPid } from "./spawner";

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
});
