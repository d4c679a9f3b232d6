import type { Command } from "commander";
import type { SvcPlatformClient } from "../client";
import type { MissingTranslationReport } from "../schema/content-translation";
import { callApi, CliError } from "./platform-calls";

type Connect = () => Promise<{ client: SvcPlatformClient; baseUrl: string }>;

function parseId(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new CliError(`not a positive integer id: ${value}`, undefined, "usage");
  return n;
}

/** One line of the missing report: what lacks a translation and where it appears. */
export function missingLine(m: MissingTranslationReport["missing"][number]): string {
  const what =
    m.kind === "text"
      ? JSON.stringify(m.source)
      : m.kind === "member"
        ? `${m.member} (${JSON.stringify(m.source)})`
        : `${m.member} = ${JSON.stringify(m.source)}`;
  return `${m.kind}\t${what}\t${m.where.join(", ")}`;
}

/**
 * `svc translations missing`: what a locale's dictionary lacks for the deployment's content
 * (docs/translation.md); exit code 1 when anything is missing, so CI can require complete
 * dictionaries. Dictionaries themselves travel with `svc model push` (translations/<locale>.yml).
 */
export function registerTranslationCommands(
  program: Command,
  ctx: { connect: Connect; out: (line?: string) => void; err: (line: string) => void; fail: () => void },
) {
  const translations = program.command("translations").description("content dictionaries: what a locale lacks");
  translations
    .command("missing")
    .description("list the deployment's texts, member titles and values a locale's dictionary lacks (exit code 1 when any)")
    .requiredOption("--deployment <id>", "deployment id", parseId)
    .requiredOption("--locale <tag>", "locale of the dictionary, e.g. de-DE")
    .option("--json", "print JSON")
    .action(async (opts: { deployment: number; locale: string; json?: boolean }) => {
      const { client, baseUrl } = await ctx.connect();
      const report = await callApi<MissingTranslationReport>(client, baseUrl, "get", "/api/v1/deployments/{deploymentId}/translations/{locale}/missing", {
        params: { path: { deploymentId: opts.deployment, locale: opts.locale } },
      });
      if (opts.json) ctx.out(JSON.stringify(report, null, 2));
      else {
        for (const m of report.missing) ctx.out(missingLine(m));
        ctx.out(`${report.locale}: ${report.translated} of ${report.total} translated, ${report.missing.length} missing`);
      }
      if (report.missing.length) ctx.fail();
    });
}
