import { InvalidArgumentError, type Command } from "commander";
import { CliError } from "./platform-calls";
import type { HostCheckReport } from "./host-check/check-host-page";

type Run = (url: string, options: { timeoutMs?: number; platformOrigin?: string; chromium?: string }) => Promise<HostCheckReport>;

function positiveMs(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1000 || n > 300_000) throw new InvalidArgumentError("a whole number of milliseconds from 1000 to 300000");
  return n;
}

/**
 * `svc host-check <url>`: runs the host checklist (docs/embedding.md "Host checklist") against a
 * host's own page in Chromium; exit code 1 when any check fails, 2 when the check cannot run.
 */
export function registerHostCheckCommand(program: Command, ctx: { out: (line?: string) => void; fail: () => void; run?: Run }) {
  program
    .command("host-check")
    .description("open a host page in Chromium and check its svc embedding: origins, resize, session renewal, actions (exit code 1 on a failure)")
    .argument("<url>", "the host page, e.g. https://app.example.com/analytics")
    .option("--json", "print the report as JSON")
    .option("--timeout <ms>", "how long to wait for the embed to be ready", positiveMs)
    .option("--platform-origin <origin>", "only frames of this origin are svc frames")
    .option("--chromium <path>", "Chromium to run (default SVC_CHROMIUM_PATH or /usr/bin/chromium)")
    .action(async (url: string, o: { json?: boolean; timeout?: number; platformOrigin?: string; chromium?: string }) => {
      const hostCheck = await import("./host-check");
      const run: Run = ctx.run ?? hostCheck.runHostCheck;
      let report: HostCheckReport;
      try {
        report = await run(url, { timeoutMs: o.timeout, platformOrigin: o.platformOrigin, chromium: o.chromium });
      } catch (error) {
        if (error instanceof hostCheck.HostCheckSetupError) throw new CliError(error.message, undefined, "usage");
        throw error;
      }
      ctx.out(o.json ? JSON.stringify(report, null, 2) : hostCheck.formatHostCheck(report));
      if (!report.ok) ctx.fail();
    });
}
