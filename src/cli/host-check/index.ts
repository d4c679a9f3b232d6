/**
 * `svc host-check <url>`: opens a host page in Chromium and reports whether its svc integration is
 * right (rules.ts), as text or JSON, pass or fail per rule with the reason and the fix.
 * Needs `playwright-core` (an optional peer dependency of the package) and a Chromium: Debian's
 * `/usr/bin/chromium` by default, `--chromium <path>` or `SVC_CHROMIUM_PATH` for another.
 */
import { existsSync } from "node:fs";
import { checkHostPage, type HostCheckOptions, type HostCheckReport } from "./check-host-page";

export { checkHostPage, type HostCheckOptions, type HostCheckReport, type HostCheckResult, type HostCheckStatus } from "./check-host-page";
export { HOST_CHECK_RULES, hostChecklistMarkdown, type HostCheckRuleId } from "./rules";

export class HostCheckSetupError extends Error {
  override name = "HostCheckSetupError";
}

/** Chromium's path: the given one, `SVC_CHROMIUM_PATH` (an empty value is unset), or Debian's. */
export function chromiumPath(given?: string, env: NodeJS.ProcessEnv = process.env): string {
  const path = given || env.SVC_CHROMIUM_PATH || "/usr/bin/chromium";
  if (!existsSync(path)) throw new HostCheckSetupError(`no Chromium at ${path}: install it (Debian: apt-get install chromium) or pass --chromium <path>`);
  return path;
}

/** Launches Chromium, checks `url`, closes the browser. */
export async function runHostCheck(url: string, options: HostCheckOptions & { chromium?: string } = {}): Promise<HostCheckReport> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HostCheckSetupError(`not an absolute URL: ${url}`);
  }
  if (!["http:", "https:"].includes(parsed.protocol)) throw new HostCheckSetupError(`not an http(s) URL: ${url}`);
  const executablePath = chromiumPath(options.chromium);
  const playwright = await import("playwright-core").catch(() => {
    throw new HostCheckSetupError("svc host-check needs playwright-core: npm install --save-dev playwright-core");
  });
  const browser = await playwright.chromium.launch({ executablePath, args: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    return await checkHostPage(context, parsed.toString(), options);
  } finally {
    await browser.close();
  }
}

const MARK = { pass: "PASS", fail: "FAIL", skip: "SKIP" } as const;

/** The report as text: a line per rule, the fix under each failure, a verdict last. */
export function formatHostCheck(report: HostCheckReport): string {
  const lines = [`svc host-check ${report.url}`];
  for (const r of report.results) {
    lines.push(`${MARK[r.status]}  ${r.id.padEnd(24)} ${r.reason}`);
    if (r.fix) lines.push(`      fix: ${r.fix}`);
  }
  const failed = report.results.filter((r) => r.status === "fail").length;
  lines.push(failed ? `${failed} of ${report.results.length} checks failed` : `all ${report.results.filter((r) => r.status === "pass").length} checks passed`);
  return lines.join("\n");
}
