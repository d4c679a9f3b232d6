import { Cron } from "croner";
import { and, asc, desc, eq, isNotNull, lte, sql } from "drizzle-orm";
import { writeCsv } from "../../../schema/csv";
import { toQueryFilter, type DashboardFilter } from "../../../schema/dashboard-filters";
import type { CreateNotificationInput, Notification, NotificationDelivery, UpdateNotificationInput } from "../../../schema/notification";
import type { AppDeps } from "../../context";
import type { Db } from "../../db/connection";
import {
  dashboards,
  embedGroupMembers,
  embedGroups,
  embedTenants,
  embedUsers,
  notificationDeliveries,
  notifications,
  users,
  type NotificationRecipient,
} from "../../db/schema";
import type { EmbedPrincipal, Principal } from "../../domain/actor";
import { badRequest, conflict, notFound } from "../../domain/errors";
import { resolveViewableDashboard, securityContextOf } from "../embed-access/service";
import { writeLog } from "../deployment-logs/service";

type Row = typeof notifications.$inferSelect;
type Deps = Pick<AppDeps, "db" | "queryEngines" | "logger" | "smtp" | "clusterNode">;

/** The next occurrence of a schedule after `from`, in its time zone. */
export function nextOccurrence(cron: string, timezone: string, from: Date): Date | null {
  return new Cron(cron, { timezone, paused: true }).nextRun(from) ?? null;
}

async function view(db: Db, r: Row): Promise<Notification> {
  const [d] = await db.select({ publicId: dashboards.publicId }).from(dashboards).where(eq(dashboards.id, r.dashboardId));
  return {
    id: r.id,
    name: r.name,
    dashboardId: r.dashboardId,
    dashboardPublicId: d?.publicId ?? "",
    schedule: { cron: r.cron, timezone: r.timezone },
    recipients: r.recipients as Record<string, unknown>[],
    filters: r.filters as Record<string, unknown>[],
    timeGrains: r.timeGrains,
    format: r.format,
    enabled: r.enabled,
    nextRunAt: r.nextRunAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

async function checkRecipients(db: Db, recipients: NotificationRecipient[]) {
  for (const [i, r] of recipients.entries()) {
    if ("userId" in r) {
      const [u] = await db.select({ id: users.id }).from(users).where(eq(users.id, r.userId));
      if (!u) throw badRequest(`Recipient ${i}: no user ${r.userId}`, [{ path: ["recipients", i, "userId"], message: "no such user" }]);
    }
    if ("embedTenantName" in r) {
      const [t] = await db.select({ id: embedTenants.id }).from(embedTenants).where(eq(embedTenants.name, r.embedTenantName));
      if (!t)
        throw badRequest(`Recipient ${i}: no embed tenant ${r.embedTenantName}`, [
          { path: ["recipients", i, "embedTenantName"], message: "no such embed tenant" },
        ]);
    }
  }
}

export async function createNotification(db: Db, actorId: number, input: CreateNotificationInput): Promise<Notification> {
  const [dash] = await db
    .select({ id: dashboards.id })
    .from(dashboards)
    .where(input.dashboardId !== undefined ? eq(dashboards.id, input.dashboardId) : eq(dashboards.publicId, input.dashboardPublicId!));
  if (!dash) throw notFound("Dashboard");
  await checkRecipients(db, input.recipients);
  const [row] = await db
    .insert(notifications)
    .values({
      name: input.name ?? null,
      dashboardId: dash.id,
      cron: input.schedule.cron,
      timezone: input.schedule.timezone,
      recipients: input.recipients,
      filters: input.filters,
      timeGrains: input.timeGrains,
      format: input.format,
      enabled: input.enabled,
      nextRunAt: input.enabled ? nextOccurrence(input.schedule.cron, input.schedule.timezone, new Date()) : null,
      createdBy: actorId,
    })
    .returning();
  return view(db, row!);
}

async function row(db: Db, id: number): Promise<Row> {
  const [r] = await db.select().from(notifications).where(eq(notifications.id, id));
  if (!r) throw notFound("Notification");
  return r;
}

export const getNotification = async (db: Db, id: number) => view(db, await row(db, id));

export async function updateNotification(db: Db, id: number, input: UpdateNotificationInput): Promise<Notification> {
  const current = await row(db, id);
  if (input.recipients) await checkRecipients(db, input.recipients);
  const cron = input.schedule?.cron ?? current.cron;
  const timezone = input.schedule?.timezone ?? current.timezone;
  const enabled = input.enabled ?? current.enabled;
  const [updated] = await db
    .update(notifications)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.recipients ? { recipients: input.recipients } : {}),
      ...(input.filters ? { filters: input.filters } : {}),
      ...(input.timeGrains ? { timeGrains: input.timeGrains } : {}),
      ...(input.format ? { format: input.format } : {}),
      cron,
      timezone,
      enabled,
      nextRunAt: enabled ? nextOccurrence(cron, timezone, new Date()) : null,
      updatedAt: new Date(),
    })
    .where(eq(notifications.id, id))
    .returning();
  return view(db, updated!);
}

export async function deleteNotification(db: Db, id: number) {
  const rows = await db.delete(notifications).where(eq(notifications.id, id)).returning({ id: notifications.id });
  if (!rows.length) throw notFound("Notification");
}

/** The spec's list filters; recipient filters match inside the recipients list. */
export async function listNotifications(
  db: Db,
  f: { dashboardPublicId?: string; recipientUserId?: number; recipientEmail?: string; recipientEmbedTenantName?: string; recipientExternalId?: string },
) {
  const where = [];
  if (f.dashboardPublicId) {
    const [d] = await db.select({ id: dashboards.id }).from(dashboards).where(eq(dashboards.publicId, f.dashboardPublicId));
    if (!d) return [];
    where.push(eq(notifications.dashboardId, d.id));
  }
  const contains = (obj: Record<string, unknown>) => sql`${notifications.recipients} @> ${JSON.stringify([obj])}::jsonb`;
  if (f.recipientUserId !== undefined) where.push(contains({ userId: f.recipientUserId }));
  if (f.recipientEmail) where.push(contains({ email: f.recipientEmail }));
  if (f.recipientEmbedTenantName) {
    where.push(contains({ embedTenantName: f.recipientEmbedTenantName, ...(f.recipientExternalId ? { externalId: f.recipientExternalId } : {}) }));
  }
  const rows = await db
    .select()
    .from(notifications)
    .where(and(...where))
    .orderBy(asc(notifications.id));
  return Promise.all(rows.map((r) => view(db, r)));
}

function deliveryView(d: typeof notificationDeliveries.$inferSelect): NotificationDelivery {
  return {
    id: d.id,
    notificationId: d.notificationId,
    trigger: d.trigger,
    occurrence: d.occurrence?.toISOString() ?? null,
    status: d.status,
    results: d.results,
    startedAt: d.startedAt.toISOString(),
    finishedAt: d.finishedAt?.toISOString() ?? null,
  };
}

export async function listDeliveries(db: Db, id: number) {
  await row(db, id);
  const rows = await db
    .select()
    .from(notificationDeliveries)
    .where(eq(notificationDeliveries.notificationId, id))
    .orderBy(desc(notificationDeliveries.id))
    .limit(100);
  return rows.map(deliveryView);
}

/** Who a recipient is for the data, and where the mail goes; null address: cannot be delivered. */
async function resolveRecipient(
  db: Db,
  deploymentId: number,
  r: NotificationRecipient,
): Promise<{ label: string; address: string | null; principal: Principal | null }> {
  if ("userId" in r) {
    const [u] = await db.select().from(users).where(eq(users.id, r.userId));
    if (!u || u.status !== "active") return { label: `user ${r.userId}`, address: null, principal: null };
    return { label: `user ${u.id}`, address: u.email, principal: { kind: "user", userId: u.id, email: u.email, role: u.role, via: "api_key" } };
  }
  if ("email" in r) {
    // An address of a platform user gets that user's data; any other address has no identity: no tenant, no attributes.
    const [u] = await db
      .select()
      .from(users)
      .where(and(sql`lower(${users.email}) = ${r.email.toLowerCase()}`, eq(users.status, "active")));
    if (u) return { label: r.email, address: r.email, principal: { kind: "user", userId: u.id, email: u.email, role: u.role, via: "api_key" } };
    return { label: r.email, address: r.email, principal: anonymousEmbed(deploymentId, null, null, null, [], {}) };
  }
  const [eu] = await db
    .select({ user: embedUsers, tenant: embedTenants.name })
    .from(embedUsers)
    .innerJoin(embedTenants, eq(embedTenants.id, embedUsers.tenantId))
    .where(and(eq(embedTenants.name, r.embedTenantName), eq(embedUsers.externalId, r.externalId)));
  const label = `${r.embedTenantName}/${r.externalId}`;
  if (!eu) return { label, address: null, principal: null };
  const groupRows = await db
    .select({ name: embedGroups.name })
    .from(embedGroupMembers)
    .innerJoin(embedGroups, eq(embedGroups.id, embedGroupMembers.groupId))
    .where(eq(embedGroupMembers.embedUserId, eu.user.id));
  const principal = anonymousEmbed(
    deploymentId,
    eu.tenant,
    eu.user.id,
    eu.user.externalId,
    groupRows.map((g) => g.name),
    eu.user.userAttributes as EmbedPrincipal["userAttributes"],
  );
  return { label, address: eu.user.email, principal };
}

function anonymousEmbed(
  deploymentId: number,
  tenant: string | null,
  embedUserId: number | null,
  externalId: string | null,
  groups: string[],
  attrs: EmbedPrincipal["userAttributes"],
): EmbedPrincipal {
  return {
    kind: "embed",
    sessionId: 0,
    deploymentId,
    embedTenant: tenant,
    embedUserId,
    externalId,
    groups,
    userAttributes: attrs,
    securityContext: {},
    settings: {},
    expiresAt: Date.now() + 60_000,
  };
}

const escapeHtml = (v: unknown) => String(v ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The dashboard's reports computed for one recipient under their own row-level security. */
async function renderFor(deps: Deps, n: Row, publicId: string, principal: Principal) {
  const dash = await resolveViewableDashboard(deps.db, principal, publicId);
  const engine = await deps.queryEngines.get(dash.deploymentId);
  const securityContext = await securityContextOf(principal, deps.db);
  const sections: { title: string; rows: Record<string, unknown>[] }[] = [];
  for (const snap of dash.reportSnapshots as { title?: string | null; name?: string | null; meta?: { query?: Record<string, unknown> | null } | null }[]) {
    const base = snap.meta?.query;
    if (!base) continue;
    const query: Record<string, unknown> = { ...base };
    if (n.filters.length) query.filters = [...((base.filters as unknown[]) ?? []), ...n.filters.map((f) => toQueryFilter(f as DashboardFilter))];
    if (Object.keys(n.timeGrains).length && Array.isArray(base.timeDimensions)) {
      query.timeDimensions = (base.timeDimensions as { dimension: string; granularity?: string }[]).map((td) =>
        n.timeGrains[td.dimension] ? { ...td, granularity: n.timeGrains[td.dimension] } : td,
      );
    }
    const result = await engine.load(query, { securityContext });
    sections.push({ title: snap.title ?? snap.name ?? "Report", rows: result.data as Record<string, unknown>[] });
  }
  const title = dash.title ?? "Dashboard";
  const html = [
    `<h1>${escapeHtml(title)}</h1>`,
    ...sections.map((s) => {
      const cols = s.rows.length ? Object.keys(s.rows[0]!) : [];
      const head = cols.map((c) => `<th>${escapeHtml(c)}</th>`).join("");
      const body = s.rows.map((r) => `<tr>${cols.map((c) => `<td>${escapeHtml(r[c])}</td>`).join("")}</tr>`).join("");
      return `<h2>${escapeHtml(s.title)}</h2><table border="1" cellpadding="4"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
    }),
  ].join("\n");
  const text = sections.map((s) => `${s.title}\n${s.rows.map((r) => Object.values(r).join("\t")).join("\n")}`).join("\n\n");
  const attachments =
    n.format === "csv"
      ? sections.map((s, i) => {
          const cols = s.rows.length ? Object.keys(s.rows[0]!) : [];
          // The platform's one CSV writer: formulas neutralised, numbers kept (src/schema/csv.ts).
          const csv = writeCsv(
            cols,
            s.rows.map((r) => cols.map((c) => r[c])),
          );
          return { filename: `${i + 1}-${s.title.replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 60)}.csv`, content: csv, contentType: "text/csv" };
        })
      : [];
  return { subject: title, html, text, attachments };
}

/** Sends one delivery (its row already claimed) to every recipient; each failure is recorded, the others still go. */
async function deliver(deps: Deps, n: Row, deliveryId: number) {
  if (!deps.smtp) throw noSmtp();
  // Loaded with the first delivery a process sends, not with the server.
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport(deps.smtp.url);
  const [dash] = await deps.db.select().from(dashboards).where(eq(dashboards.id, n.dashboardId));
  const results: NotificationDelivery["results"] = [];
  for (const r of n.recipients) {
    const who = await resolveRecipient(deps.db, dash?.deploymentId ?? 0, r);
    try {
      if (!dash) throw notFound("Dashboard");
      if (!who.address || !who.principal) throw new Error("the recipient has no e-mail address or is inactive");
      const mail = await renderFor(deps, n, dash.publicId, who.principal);
      await transport.sendMail({ from: deps.smtp.from, to: who.address, ...mail });
      results.push({ recipient: who.label, status: "sent" });
    } catch (err) {
      results.push({ recipient: who.label, status: "failed", error: err instanceof Error ? err.message.slice(0, 300) : "failed" });
    }
  }
  transport.close();
  const sent = results.filter((x) => x.status === "sent").length;
  const status = sent === results.length ? "sent" : sent === 0 ? "failed" : "partial";
  const [done] = await deps.db
    .update(notificationDeliveries)
    .set({ status, results, finishedAt: new Date() })
    .where(eq(notificationDeliveries.id, deliveryId))
    .returning();
  await writeLog(deps.db, {
    deploymentId: dash?.deploymentId ?? null,
    container: "vector",
    level: status === "sent" ? "info" : "warn",
    message: `notification ${n.id} delivery ${status}`,
    details: { notificationId: n.id, deliveryId, sent, failed: results.length - sent },
  }).catch(() => {});
  return deliveryView(done!);
}

// A state of this installation the caller can see and an operator can change: a conflict, not a failure.
const noSmtp = () => conflict("No SMTP server is configured (SVC_SMTP_URL); nothing was sent");

/** Run now: a delivery outside the schedule. */
export async function runNow(deps: Deps, id: number): Promise<NotificationDelivery> {
  const n = await row(deps.db, id);
  if (!deps.smtp) throw noSmtp();
  const [d] = await deps.db
    .insert(notificationDeliveries)
    .values({ notificationId: id, trigger: "manual", nodeId: deps.clusterNode?.nodeId ?? null })
    .returning();
  return deliver(deps, n, d!.id);
}

/**
 * Sends every occurrence that is due. Each occurrence is claimed by inserting its delivery row
 * (unique per notification and occurrence), so with several nodes exactly one sends it.
 */
export async function runDueNotifications(deps: Deps, now = new Date()): Promise<NotificationDelivery[]> {
  // Without a mail server nothing is claimed: occurrences wait until one is configured.
  if (!deps.smtp) return [];
  const due = await deps.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.enabled, true), isNotNull(notifications.nextRunAt), lte(notifications.nextRunAt, now)));
  const sent: NotificationDelivery[] = [];
  for (const n of due) {
    const occurrence = n.nextRunAt!;
    const [claimed] = await deps.db
      .insert(notificationDeliveries)
      .values({ notificationId: n.id, trigger: "schedule", occurrence, nodeId: deps.clusterNode?.nodeId ?? null })
      .onConflictDoNothing()
      .returning();
    await deps.db
      .update(notifications)
      .set({ nextRunAt: nextOccurrence(n.cron, n.timezone, now) })
      .where(and(eq(notifications.id, n.id), eq(notifications.nextRunAt, occurrence)));
    if (claimed) sent.push(await deliver(deps, n, claimed.id));
  }
  return sent;
}

/** Checks for due notifications every `intervalMs` (default 30 s). */
export function startNotificationScheduler(deps: Deps, intervalMs = 30_000) {
  const timer = setInterval(() => {
    runDueNotifications(deps).catch((err: unknown) => deps.logger.warn("notification run failed", { error: err instanceof Error ? err.message : String(err) }));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
