import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processBundle } from "../../scripts/build-server.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** src/server/main.ts bundled as `npm start` runs the platform (scripts/build-server.mjs). */
let bundle = "";

function run(env: Record<string, string>, opts: { untilStdout?: RegExp; thenSignal?: NodeJS.Signals } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    // Node itself on the bundle, as `npm start` runs it (not the tsx command: that relays a signal
    // to its child and kills it when the child has not said within 30 ms that it handles it).
    const child = spawn(process.execPath, [bundle], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    });
    let stdout = "";
    let stderr = "";
    let signalled = false;
    child.stdout.on("data", (d) => {
      stdout += d;
      if (opts.untilStdout && !signalled && opts.untilStdout.test(stdout)) {
        signalled = true;
        child.kill(opts.thenSignal ?? "SIGTERM");
      }
    });
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("svc server process", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-main-"));
  beforeAll(async () => {
    bundle = await processBundle(path.join(root, "src/server/main.ts"));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("stops at start-up listing every bad setting", async () => {
    const r = await run({ PORT: "nope", SVC_DEMO_ROWS: "1", SVC_EMBED_ALLOWED_ORIGINS: "*" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("PORT");
    expect(r.stderr).toContain("SVC_DEMO_ROWS");
    expect(r.stderr).toContain("SVC_EMBED_ALLOWED_ORIGINS");
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it("fails with one line, not a stack trace, when DATABASE_URL cannot be reached", async () => {
    const r = await run({ DATABASE_URL: "postgresql://nobody@127.0.0.1:1/none", SVC_DATA_DIR: dir, PORT: "18991", SVC_DEMO: "off" });
    expect(r.code).toBe(1);
    const lines = r.stderr
      .trim()
      .split("\n")
      .filter((l) => !l.includes("npm warn"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^svc: cannot connect to DATABASE_URL/);
  });

  it("prints the admin's one-time private-mode sign-in link on first start only, never in a log line", async () => {
    const first = mkdtempSync(path.join(tmpdir(), "svc-main-link-"));
    try {
      const env = { SVC_DATA_DIR: first, PORT: "18993", SVC_DEMO_ROWS: "1000", SVC_DEMO_HOST_PORT: "0", SVC_LOG_LEVEL: "debug" };
      const r = await run(env, { untilStdout: /svc is running[\s\S]*Admin API key[^\n]*\n/, thenSignal: "SIGTERM" });
      const link =
        /Admin sign-in link for private mode \(one use, valid 60 minutes, shown once\):\n {4}(http:\/\/localhost:18993\/embed\/dashboard\/\w+#sign-in=([A-Za-z0-9_-]{43}))\n/.exec(
          r.stdout,
        );
      expect(link, r.stdout).not.toBeNull();
      const token = link![2]!;
      const logLines = r.stdout.split("\n").filter((l) => l.startsWith("{"));
      expect(logLines.length).toBeGreaterThan(3);
      for (const line of logLines) expect(line).not.toContain(token);
      expect(r.stdout.split(token)).toHaveLength(2);

      const again = await run(env, { untilStdout: /svc is running[\s\S]*Admin API key[^\n]*\n/, thenSignal: "SIGTERM" });
      expect(again.stdout).not.toContain("#sign-in=");
      expect(again.stdout).toMatch(
        /Private-mode sign-in: the admin's password, or a new one-time link[^\n]*\n {4}curl -X POST -H "Authorization: Bearer <admin key>" http:\/\/localhost:18993\/api\/v1\/users\/1\/sign-in-links/,
      );
    } finally {
      rmSync(first, { recursive: true, force: true });
    }
  }, 120_000);

  it("serves, then shuts down cleanly on SIGTERM", async () => {
    const r = await run(
      { SVC_DATA_DIR: dir, PORT: "18992", SVC_DEMO: "off", SVC_DEMO_HOST_PORT: "0", SVC_LOG_LEVEL: "info" },
      { untilStdout: /svc is running/, thenSignal: "SIGTERM" },
    );
    expect(r.stdout).toContain("http://localhost:18992/api/v1");
    expect(r.stdout).toMatch(/Admin API key \(shown once, store it now\): svc_/);
    expect(r.stdout).toContain('"msg":"stopped"');
    expect(r.code).toBe(0);
  }, 60_000);
});
