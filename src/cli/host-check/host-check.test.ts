import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DOC, withChecklist } from "../../../scripts/host-checklist";
import { runCli } from "../main";
import { registerHostCheckCommand } from "../host-check-command";
import { chromiumPath, formatHostCheck, HOST_CHECK_RULES, type HostCheckReport } from ".";
import { Command } from "commander";

const report = (failing: boolean): HostCheckReport => ({
  url: "https://app.example.com/analytics",
  ok: !failing,
  frames: [{ index: 0, src: "https://acme.svc.example/embed/dashboard/abc" }],
  results: [
    { id: "frames-found", title: "t", status: "pass", reason: "1 svc frame(s)" },
    failing
      ? { id: "resize", title: "t", status: "fail", reason: "the frame is 300 px tall but its content is 1900 px", fix: "set the height" }
      : { id: "resize", title: "t", status: "pass", reason: "ok" },
    { id: "actions-applied", title: "t", status: "skip", reason: "none" },
  ],
});

async function cli(argv: string[], result?: HostCheckReport) {
  let out = "";
  let exit = 0;
  const program = new Command("svc").exitOverride();
  registerHostCheckCommand(program, { out: (l = "") => void (out += l + "\n"), fail: () => void (exit = 1), run: async () => result! });
  await program.parseAsync(argv, { from: "user" });
  return { out, exit };
}

describe("svc host-check", () => {
  it("prints a line per rule, the fix under a failure, and fails the exit code", async () => {
    const { out, exit } = await cli(["host-check", "https://app.example.com/analytics"], report(true));
    expect(out).toContain("FAIL  resize");
    expect(out).toContain("      fix: set the height");
    expect(out).toContain("1 of 3 checks failed");
    expect(exit).toBe(1);
  });

  it("prints JSON and keeps exit code 0 when nothing failed", async () => {
    const { out, exit } = await cli(["host-check", "https://app.example.com/analytics", "--json"], report(false));
    expect(JSON.parse(out)).toMatchObject({ ok: true, results: [{ id: "frames-found" }, { id: "resize", status: "pass" }, { id: "actions-applied" }] });
    expect(exit).toBe(0);
    expect(formatHostCheck(report(false))).toContain("all 2 checks passed");
  });

  it("refuses what is not an http(s) URL, or a bad time-out, as usage (exit code 2) without opening a browser", async () => {
    const io = { stdout: () => undefined, stderr: () => undefined, env: {} };
    expect(await runCli(["host-check", "not a url"], io)).toBe(2);
    expect(await runCli(["host-check", "file:///etc/passwd"], io)).toBe(2);
    expect(await runCli(["host-check", "https://a.example", "--timeout", "5"], io)).toBe(2);
  });

  it("names the missing Chromium and how to install it", () => {
    expect(() => chromiumPath("/nonexistent/chromium")).toThrow(/apt-get install chromium/);
    expect(() => chromiumPath(undefined, { SVC_CHROMIUM_PATH: "/opt/none/chrome" })).toThrow("no Chromium at /opt/none/chrome");
    // An empty SVC_CHROMIUM_PATH is unset: Debian's Chromium is chosen (or named as missing).
    let chosen: string;
    try {
      chosen = chromiumPath(undefined, { SVC_CHROMIUM_PATH: "" });
    } catch (error) {
      chosen = String(error);
    }
    expect(chosen).toContain("/usr/bin/chromium");
  });

  it("keeps docs/embedding.md's host checklist equal to the rules it checks", () => {
    const doc = readFileSync(DOC, "utf8");
    expect(withChecklist(doc)).toBe(doc);
    for (const rule of HOST_CHECK_RULES) expect(doc).toContain(`(\`${rule.id}\`)`);
  });
});
