import { writeFile } from "node:fs/promises";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { createSvcPlatformClient, type SvcPlatformClient } from "../client";
import { configPath, resolveCredentials, writeConfig } from "./config";
import { callApi, CliError } from "./platform-calls";
import { registerAdminCommands } from "./admin-commands";
import { listWorkbookFiles, loadWorkbookFile, serializeWorkbookFile, type FileProblem, type WorkbookFile } from "./workbook-file";
import { applyWorkbookFiles, exportWorkbook, type FileOutcome } from "./workbooks-as-code";
import { registerModelCommands } from "./models-as-code";
import { registerTranslationCommands } from "./translation-commands";
import { registerHostCheckCommand } from "./host-check-command";

/** Where the CLI reads and writes; the bin passes the process's, tests their own. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** The `fetch` the platform client uses (default: global fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** Reads standard input (for `svc login` without --api-key). */
  readStdin?: () => Promise<string>;
}

/** Exit codes: 0 success, 1 a failed operation, 2 bad usage or invalid files (nothing sent). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const VERSION = "0.3.0";

/** Runs `svc` with the arguments after the program name; resolves to the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const out = (line = "") => io.stdout(line + "\n");
  const err = (line: string) => io.stderr(line + "\n");
  const cfgFile = configPath(io.env);

  async function connect(): Promise<{ client: SvcPlatformClient; baseUrl: string }> {
    const { baseUrl, apiKey } = await resolveCredentials(io.env, cfgFile);
    if (!baseUrl || !apiKey) throw new CliError("not logged in: run svc login --base-url <url> --api-key <key>, or set SVC_BASE_URL and SVC_API_KEY");
    return { client: createSvcPlatformClient({ baseUrl, token: apiKey, credentials: "omit", fetch: io.fetch }), baseUrl };
  }

  const program = new Command("svc")
    .description("svc platform command line: workbooks as code, API keys, embed sessions, users, settings, logs")
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError();

  program
    .command("login")
    .description("check and store the base URL and API key in the user's config (mode 0600)")
    .requiredOption("--base-url <url>", "platform origin, e.g. https://acme.example.com")
    .option("--api-key <key>", "API key (svc_…); read from standard input when left out")
    .action(async (opts: { baseUrl: string; apiKey?: string }) => {
      let baseUrl: string;
      try {
        baseUrl = new URL(opts.baseUrl).origin;
      } catch {
        throw new CliError(`--base-url ${opts.baseUrl} is not a URL`, undefined, "usage");
      }
      const apiKey = (opts.apiKey ?? (io.readStdin ? await io.readStdin() : "")).trim();
      if (!apiKey) throw new CliError("give the API key with --api-key or on standard input", undefined, "usage");
      const client = createSvcPlatformClient({ baseUrl, token: apiKey, credentials: "omit", fetch: io.fetch });
      await callApi(client, baseUrl, "get", "/api/v1/deployments", { params: { query: { first: 1 } } });
      await writeConfig(cfgFile, { baseUrl, apiKey });
      out(`logged in to ${baseUrl}; saved to ${cfgFile}`);
    });

  const workbooks = program.command("workbooks").description("workbooks as code");
  workbooks
    .command("apply")
    .description("create or update workbooks and their reports from YAML or JSON files")
    .argument("<path>", "a workbook file, or a folder of them (.yml, .yaml, .json)")
    .option("--deployment <id>", "deployment id (overrides the files' deploymentId)", parseId)
    .option("--publish", "publish each dashboard after applying (also: publish: true in a file)")
    .option("--dry-run", "show what would change, and change nothing")
    .option("--json", "print one JSON document for scripts")
    .action(async (target: string, opts: { deployment?: number; publish?: boolean; dryRun?: boolean; json?: boolean }) => {
      let files: string[];
      try {
        files = await listWorkbookFiles(target);
      } catch {
        throw new CliError(`${target}: no such file or folder`, undefined, "usage");
      }
      if (!files.length) throw new CliError(`${target}: no .yml, .yaml or .json files`, undefined, "usage");
      const loaded = await Promise.all(files.map(loadWorkbookFile));
      const problems = loaded.flatMap((l) => (l.ok ? [] : l.problems));
      if (problems.length) {
        reportProblems(problems, opts.json);
        exitCode = EXIT.usage;
        return;
      }
      const { client, baseUrl } = await connect();
      const result = await applyWorkbookFiles(
        loaded.map((l) => ({ file: l.file, workbook: (l as { workbook: WorkbookFile }).workbook })),
        {
          client,
          baseUrl,
          deploymentId: opts.deployment,
          publish: opts.publish ? true : undefined,
          dryRun: opts.dryRun,
          onProgress: (i, n, file) => {
            if (n > 1 && !opts.json) err(`[${i}/${n}] ${file}`);
          },
        },
      );
      if (result.problems.length) {
        reportProblems(result.problems, opts.json);
        exitCode = EXIT.usage;
        return;
      }
      if (opts.json) out(JSON.stringify({ ok: result.ok, dryRun: !!opts.dryRun, files: result.files }, null, 2));
      else printOutcomes(result.files, !!opts.dryRun);
      if (!result.ok) exitCode = EXIT.failed;
    });

  workbooks
    .command("export")
    .description("write a workbook, the reports it names and its dashboard as a file apply reads back")
    .argument("<slug>", "workbook slug")
    .option("--deployment <id>", "deployment id (default: the only deployment)", parseId)
    .option("-o, --output <file>", "file to write (default: standard output)")
    .addOption(new Option("--format <format>", "yaml or json (default: from the output file's extension, else yaml)").choices(["yaml", "json"]))
    .action(async (slug: string, opts: { deployment?: number; output?: string; format?: "yaml" | "json" }) => {
      const { client, baseUrl } = await connect();
      const file = await exportWorkbook(client, baseUrl, slug, opts.deployment);
      const format = opts.format ?? (opts.output?.toLowerCase().endsWith(".json") ? "json" : "yaml");
      const text = serializeWorkbookFile(file, format);
      if (opts.output) {
        await writeFile(opts.output, text);
        out(`wrote ${opts.output} (${file.reports.length} reports)`);
      } else io.stdout(text);
    });

  registerModelCommands(program, { connect, out, err, fail: () => void (exitCode = EXIT.failed) });
  registerTranslationCommands(program, { connect, out, err, fail: () => void (exitCode = EXIT.failed) });

  const embed = program.command("embed").description("signed embedding");
  embed
    .command("session")
    .description("mint a signed embed session (for testing an embed)")
    .requiredOption("--deployment <id>", "deployment id", parseId)
    .requiredOption("--external-id <id>", "the viewer's id in the host application")
    .option("--tenant <name>", "embed tenant name")
    .option("--email <email>", "viewer email")
    .option("--group <name...>", "groups of the viewer")
    .option("--attribute <name=value...>", "user attributes (value parsed as JSON when it can be)")
    .option("--dashboard <publicId>", "print the iframe URL of this dashboard")
    .option("--json", "print JSON")
    .action(
      async (opts: {
        deployment: number;
        externalId: string;
        tenant?: string;
        email?: string;
        group?: string[];
        attribute?: string[];
        dashboard?: string;
        json?: boolean;
      }) => {
        const { client, baseUrl } = await connect();
        const body = {
          deploymentId: opts.deployment,
          externalId: opts.externalId,
          ...(opts.tenant ? { embedTenantName: opts.tenant } : {}),
          ...(opts.email ? { email: opts.email } : {}),
          ...(opts.group ? { groups: opts.group } : {}),
          ...(opts.attribute ? { userAttributes: opts.attribute.map(parseAttribute) } : {}),
        };
        const session = await callApi<{ sessionId: string; expiresAt: string }>(client, baseUrl, "post", "/api/v1/embed/generate-session", { body });
        const url = opts.dashboard
          ? `${baseUrl}/embed/dashboard/${encodeURIComponent(opts.dashboard)}?session=${encodeURIComponent(session.sessionId)}`
          : undefined;
        if (opts.json) out(JSON.stringify({ ...session, ...(url ? { url } : {}) }, null, 2));
        else {
          out(`session ${session.sessionId} (single use, exchange before ${session.expiresAt})`);
          if (url) out(url);
        }
      },
    );

  const keys = program.command("api-keys").description("API keys of the platform");
  keys
    .command("create")
    .description("create an API key (the token is shown once)")
    .argument("<name>", "a name to recognise the key by")
    .option("--expires-at <iso>", "expiry, ISO 8601 with offset")
    .option("--json", "print JSON")
    .action(async (name: string, opts: { expiresAt?: string; json?: boolean }) => {
      const { client, baseUrl } = await connect();
      const created = await callApi<{ key: { id: number; name: string }; token: string }>(client, baseUrl, "post", "/api/v1/api-keys", {
        body: { name, ...(opts.expiresAt ? { expiresAt: opts.expiresAt } : {}) },
      });
      if (opts.json) out(JSON.stringify(created, null, 2));
      else {
        out(`created key ${created.key.id} (${created.key.name}); the token is shown once:`);
        out(created.token);
      }
    });
  keys
    .command("list")
    .description("list API keys")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const { client, baseUrl } = await connect();
      const { items } = await callApi<{
        items: { id: number; name: string; prefix: string; createdAt: string; lastUsedAt: string | null; expiresAt: string | null; revokedAt: string | null }[];
      }>(client, baseUrl, "get", "/api/v1/api-keys");
      if (opts.json) return out(JSON.stringify(items, null, 2));
      for (const k of items) {
        const state = k.revokedAt ? "revoked" : k.expiresAt && Date.parse(k.expiresAt) < Date.now() ? "expired" : "active";
        out(`${String(k.id).padStart(5)}  ${k.prefix.padEnd(12)}  ${state.padEnd(7)}  ${k.name}${k.lastUsedAt ? `  (last used ${k.lastUsedAt})` : ""}`);
      }
    });
  keys
    .command("revoke")
    .description("revoke an API key")
    .argument("<id>", "key id", parseId)
    .action(async (id: number) => {
      const { client, baseUrl } = await connect();
      await callApi(client, baseUrl, "delete", "/api/v1/api-keys/{id}", { params: { path: { id } } });
      out(`revoked key ${id}`);
    });

  registerAdminCommands(program, { connect, out, err, fail: () => void (exitCode = EXIT.failed) });
  registerHostCheckCommand(program, { out, fail: () => void (exitCode = EXIT.failed) });

  function reportProblems(problems: FileProblem[], json?: boolean) {
    if (json) out(JSON.stringify({ ok: false, sent: false, problems }, null, 2));
    for (const p of problems) err(`${p.file}${p.path ? `: ${p.path}` : ""}: ${p.message}`);
    err(`${problems.length} problem(s); nothing was sent`);
  }

  function printOutcomes(files: FileOutcome[], dryRun: boolean) {
    for (const f of files) {
      out(`${f.file} (workbook ${f.slug}, deployment ${f.deploymentId})${dryRun ? " [dry run]" : ""}`);
      for (const item of f.items) {
        out(
          `  ${(dryRun && item.status !== "unchanged" ? "would be " + item.status : item.status).padEnd(18)} ${item.kind} ${item.key}${item.error ? `: ${item.error}` : ""}`,
        );
        if (dryRun) for (const c of item.changes ?? []) out(`      ${c.path}: ${short(c.before)} -> ${short(c.after)}`);
      }
    }
    const all = files.flatMap((f) => f.items);
    const count = (s: string) => all.filter((i) => i.status === s).length;
    out(
      `${count("created")} created, ${count("updated")} updated, ${count("unchanged")} unchanged, ${count("published")} published${count("failed") ? `, ${count("failed")} failed, ${count("skipped")} skipped` : ""}`,
    );
    const failed = files.filter((f) => !f.ok);
    if (failed.length) {
      for (const f of failed) {
        const landed = f.items.filter((i) => i.status === "created" || i.status === "updated" || i.status === "published").map((i) => `${i.kind} ${i.key}`);
        err(`failed: ${f.file}: ${f.items.find((i) => i.status === "failed")?.error}`);
        err(`  landed before the failure: ${landed.length ? landed.join(", ") : "nothing"}`);
      }
    }
  }

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (e instanceof CliError) {
      err(`svc: ${e.message}`);
      return e.code === "usage" ? EXIT.usage : EXIT.failed;
    }
    err(`svc: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT.failed;
  }
  return exitCode;
}

function parseId(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`not a positive integer id: ${value}`);
  return n;
}

function parseAttribute(pair: string): { name: string; value: unknown } {
  const i = pair.indexOf("=");
  if (i <= 0) throw new CliError(`--attribute ${pair}: expected name=value`, undefined, "usage");
  const raw = pair.slice(i + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // A bare word is a string value.
  }
  return { name: pair.slice(0, i), value };
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 80 ? text.slice(0, 77) + "..." : text;
}
