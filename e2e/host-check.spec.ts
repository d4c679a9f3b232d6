import { runCli } from "../src/cli/main";
import { expect, test } from "../src/cli/host-check/fixture";
import type { HostCheckReport } from "../src/cli/host-check";
import { E2E } from "./support/env";

/** `svc host-check` against the demo host page (every check passes) and against host pages with one fault each. */
const statusOf = (report: HostCheckReport) => Object.fromEntries(report.results.map((r) => [r.id, r.status]));
const failed = (report: HostCheckReport) => report.results.filter((r) => r.status === "fail").map((r) => r.id);

test.describe("svc host-check", () => {
  // Each check opens its own context (the first its own browser): independent, and the longest
  // file of the suite, so its tests run side by side on the workers rather than one after another
  // at the end of the run.
  test.describe.configure({ mode: "parallel" });

  test("passes the demo host page from the command line, as JSON, exit code 0", async () => {
    let stdout = "";
    const code = await runCli(["host-check", `${E2E.demoHostUrl}/`, "--json", "--platform-origin", E2E.platformUrl], {
      stdout: (s) => void (stdout += s),
      stderr: () => undefined,
      env: { ...process.env },
    });
    const report = JSON.parse(stdout) as HostCheckReport;
    expect(failed(report), JSON.stringify(report.results, null, 2)).toEqual([]);
    expect(code).toBe(0);
    expect(statusOf(report)).toMatchObject({
      "frames-found": "pass",
      "frame-allowed": "pass",
      listens: "pass",
      resize: "pass",
      "resize-settles": "pass",
      "posts-to-platform-only": "pass",
      "checks-origin": "pass",
      "renews-session": "pass",
    });
  });

  test("passes a raw postMessage host without faults", async ({ hostCheck }) => {
    const report = await hostCheck(`${E2E.hostUrl}/host-check.html?fault=none`);
    expect(failed(report), JSON.stringify(report.results, null, 2)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  const faults: Array<[string, string, string, RegExp]> = [
    ["posts to *", `${E2E.hostUrl}/host-check.html?fault=star`, "posts-to-platform-only", /"\*"/],
    ["no resize handling", `${E2E.hostUrl}/host-check.html?fault=no-resize`, "resize", /300 px tall but its content is \d+ px/],
    ["no token refresh", `${E2E.hostUrl}/host-check.html?fault=no-renew`, "renews-session", /no svc:action:set-session/],
    ["messages from any origin", `${E2E.hostUrl}/host-check.html?fault=any-origin`, "checks-origin", /any origin/],
    ["an origin the deployment does not allow", `${E2E.attackerUrl}/host-check.html?fault=none`, "frame-allowed", /refused to be framed/],
    // An AI context is an action like any other: ignored by a dashboard's frame before it shows the chat.
    [
      "an AI context before the chat is shown",
      `${E2E.hostUrl}/host-check.html?fault=ai-context-early`,
      "actions-applied",
      /set-ai-context: ignored \(chat-not-shown\)/,
    ],
  ];
  for (const [name, url, rule, reason] of faults) {
    test(`names the fault: ${name}`, async ({ hostCheck }) => {
      const report = await hostCheck(url, { timeoutMs: rule === "frame-allowed" ? 8000 : 20_000 });
      expect(report.ok).toBe(false);
      expect(failed(report), JSON.stringify(report.results, null, 2)).toEqual([rule]);
      const result = report.results.find((r) => r.id === rule)!;
      expect(result.reason).toMatch(reason);
      expect(result.fix).toBeTruthy();
    });
  }
});
