import { readFile } from "node:fs/promises";
import { InvalidArgumentError, type Command } from "commander";
import type { SvcPlatformClient } from "../client";
import { callApi, CliError } from "./platform-calls";

/** What the administration commands need from the CLI around them. */
export interface AdminCommandContext {
  connect(): Promise<{ client: SvcPlatformClient; baseUrl: string }>;
  out(line?: string): void;
  err(line: string): void;
  /** Marks the run as failed (exit 1) without stopping it. */
  fail(): void;
}

function parseId(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`not a positive integer id: ${value}`);
  return n;
}

interface UserView {
  id: number;
  email: string;
  role: string;
  status: string;
  firstName: string | null;
}
const userLine = (u: UserView) => `${String(u.id).padStart(5)}  ${u.status.padEnd(8)}  ${u.role.padEnd(10)}  ${u.email}`;

/** `svc users`, `svc settings`, `svc notifications`, `svc logs`: what a script administering the platform needs. */
export function registerAdminCommands(program: Command, ctx: AdminCommandContext) {
  const { connect, out } = ctx;

  const users = program.command("users").description("users of the platform (admin)");
  users
    .command("create")
    .description("create a user")
    .argument("<email>")
    .option("--role <role>", "viewer, ai_bi_user, developer or admin", "viewer")
    .option("--first-name <name>")
    .option("--last-name <name>")
    .option("--json", "print JSON")
    .action(async (email: string, opts: { role: string; firstName?: string; lastName?: string; json?: boolean }) => {
      const { client, baseUrl } = await connect();
      const body = { email, role: opts.role, ...(opts.firstName ? { firstName: opts.firstName } : {}), ...(opts.lastName ? { lastName: opts.lastName } : {}) };
      const user = await callApi<UserView>(client, baseUrl, "post", "/api/v1/users/", { body });
      out(opts.json ? JSON.stringify(user, null, 2) : userLine(user));
    });
  users
    .command("update")
    .description("change a user's role, status or names")
    .argument("<id>", "user id", parseId)
    .option("--role <role>")
    .option("--status <status>", "active or inactive (inactive ends their keys and sessions)")
    .option("--first-name <name>")
    .option("--last-name <name>")
    .option("--json", "print JSON")
    .action(async (id: number, opts: { role?: string; status?: string; firstName?: string; lastName?: string; json?: boolean }) => {
      const { client, baseUrl } = await connect();
      const body = Object.fromEntries(
        Object.entries({ role: opts.role, status: opts.status, firstName: opts.firstName, lastName: opts.lastName }).filter(([, v]) => v !== undefined),
      );
      const user = await callApi<UserView>(client, baseUrl, "put", "/api/v1/users/{id}", { params: { path: { id } }, body });
      out(opts.json ? JSON.stringify(user, null, 2) : userLine(user));
    });
  users
    .command("delete")
    .description("delete a user (one who owns content is deactivated first)")
    .argument("<id>", "user id", parseId)
    .action(async (id: number) => {
      const { client, baseUrl } = await connect();
      await callApi(client, baseUrl, "delete", "/api/v1/users/{id}", { params: { path: { id } } });
      out(`deleted or deactivated user ${id}`);
    });
  users
    .command("bulk")
    .description("activate, deactivate or delete many users; exits 1 when any fails")
    .argument("<action>", "ACTIVATE, DEACTIVATE or DELETE", (v: string) => {
      const a = v.toUpperCase();
      if (!["ACTIVATE", "DEACTIVATE", "DELETE"].includes(a)) throw new InvalidArgumentError("must be ACTIVATE, DEACTIVATE or DELETE");
      return a;
    })
    .argument("<ids...>", "user ids")
    .option("--json", "print JSON")
    .action(async (action: string, ids: string[], opts: { json?: boolean }) => {
      const userIds = ids.map(parseId);
      const { client, baseUrl } = await connect();
      const result = await callApi<{ succeeded: number[]; failed: { userId: number; code: string; message: string }[] }>(
        client,
        baseUrl,
        "post",
        "/api/v1/users/bulk",
        {
          body: { action, userIds },
        },
      );
      if (opts.json) out(JSON.stringify(result, null, 2));
      else {
        for (const id of result.succeeded) out(`ok      ${id}`);
        for (const f of result.failed) out(`failed  ${f.userId}: ${f.code}: ${f.message}`);
      }
      if (result.failed.length) ctx.fail();
    });

  const settings = program.command("settings").description("tenant settings (admin)");
  settings
    .command("get")
    .description("print the tenant settings as JSON (secrets by name only)")
    .action(async () => {
      const { client, baseUrl } = await connect();
      out(JSON.stringify(await callApi(client, baseUrl, "get", "/api/v1/tenant/settings"), null, 2));
    });
  settings
    .command("set")
    .description("apply a JSON settings document from a file: the fields it has replace the stored ones, in one transaction")
    .argument("<file>", "a JSON file")
    .action(async (file: string) => {
      let body: unknown;
      try {
        body = JSON.parse(await readFile(file, "utf8"));
      } catch (e) {
        throw new CliError(`${file}: ${e instanceof Error ? e.message : String(e)}`, undefined, "usage");
      }
      const { client, baseUrl } = await connect();
      out(JSON.stringify(await callApi(client, baseUrl, "put", "/api/v1/tenant/settings", { body }), null, 2));
    });

  const notifications = program.command("notifications").description("scheduled dashboard deliveries (admin)");
  notifications
    .command("list")
    .description("list notifications")
    .option("--dashboard <publicId>", "only this dashboard's")
    .option("--recipient-email <email>", "only those sent to this address")
    .option("--json", "print JSON")
    .action(async (opts: { dashboard?: string; recipientEmail?: string; json?: boolean }) => {
      const { client, baseUrl } = await connect();
      const query = Object.fromEntries(
        Object.entries({ dashboardPublicId: opts.dashboard, recipientEmail: opts.recipientEmail }).filter(([, v]) => v !== undefined),
      );
      const { items } = await callApi<{
        items: {
          id: number;
          name: string | null;
          dashboardPublicId: string;
          schedule: { cron: string; timezone: string };
          nextRunAt: string | null;
          recipients: unknown[];
        }[];
      }>(client, baseUrl, "get", "/api/v1/notifications", { params: { query } });
      if (opts.json) return out(JSON.stringify(items, null, 2));
      for (const n of items) {
        out(
          `${String(n.id).padStart(5)}  ${n.dashboardPublicId}  ${n.schedule.cron} (${n.schedule.timezone})  next ${n.nextRunAt ?? "-"}  ${n.recipients.length} recipient(s)  ${n.name ?? ""}`,
        );
      }
    });
  notifications
    .command("run")
    .description("deliver a notification now; exits 1 unless every recipient got it")
    .argument("<id>", "notification id", parseId)
    .option("--json", "print JSON")
    .action(async (id: number, opts: { json?: boolean }) => {
      const { client, baseUrl } = await connect();
      const d = await callApi<{ status: string; results: { recipient: string; status: string; error?: string }[] }>(
        client,
        baseUrl,
        "post",
        "/api/v1/notifications/{id}/run",
        {
          params: { path: { id } },
        },
      );
      if (opts.json) out(JSON.stringify(d, null, 2));
      else for (const r of d.results) out(`${r.status.padEnd(7)} ${r.recipient}${r.error ? `: ${r.error}` : ""}`);
      if (d.status !== "sent") ctx.fail();
    });

  program
    .command("logs")
    .description("a deployment's logs kept in storage, newest first (admin)")
    .argument("<deploymentId>", "deployment id", parseId)
    .option("--source <source>", "production or dev")
    .option("--container <container>", "INIT, MAIN, cubejs-server, vector or api-proxy")
    .option("--since <iso>", "lines at or after this instant")
    .option("--limit <n>", "at most this many lines (1-1000)")
    .option("--json", "print JSON")
    .action(async (deploymentId: number, opts: { source?: string; container?: string; since?: string; limit?: string; json?: boolean }) => {
      const { client, baseUrl } = await connect();
      const query = Object.fromEntries(
        Object.entries({ source: opts.source, container: opts.container, since: opts.since, limit: opts.limit }).filter(([, v]) => v !== undefined),
      );
      const { items } = await callApi<{
        items: { time: string; source: string; container: string; level: string; message: string; details: Record<string, unknown> }[];
      }>(client, baseUrl, "get", "/api/v1/deployments/{deploymentId}/logs", { params: { path: { deploymentId }, query } });
      if (opts.json) return out(JSON.stringify(items, null, 2));
      for (const l of items)
        out(`${l.time}  ${l.source.padEnd(10)}  ${l.container.padEnd(13)}  ${l.level.padEnd(5)}  ${l.message}  ${JSON.stringify(l.details)}`);
    });
}
