import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { eq } from "drizzle-orm";
import { simpleParser, type ParsedMail } from "mailparser";
import Papa from "papaparse";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embedTenants, embedUsers, notificationDeliveries, notifications } from "../../db/schema";
import { seedDemo } from "../../demo/seed";
import { silentLogger } from "../../logger";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";
import { runDueNotifications } from "./service";

/** A real SMTP server started by the test: every message parsed and kept. */
async function startSmtp() {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => (received.push(mail), callback()))
        .catch(callback);
    },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const ORDERS_BY_STATUS = { measures: ["sales.count"], dimensions: ["sales.status"], order: { "sales.count": "desc" } };

describe.each(storageKinds)("notifications (%s)", (storage) => {
  let t: TestPlatform;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let dir: string;
  let publicId: string;
  let deploymentId: number;

  const mailTo = (address: string) => smtp.received.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.text.includes(address)));
  const csvOf = (mail: ParsedMail, name: string) => {
    const a = mail.attachments.find((x) => x.filename?.includes(name));
    if (!a) throw new Error(`no ${name} attachment in ${mail.attachments.map((x) => x.filename).join(", ")}`);
    const [head, ...rows] = a.content.toString("utf8").split("\r\n");
    const cols = head!.split(",");
    return rows.map((r) => Object.fromEntries(r.split(",").map((v, i) => [cols[i]!, v])));
  };
  async function queryAs(externalId: string, tenant: string, query: unknown) {
    const email = externalId === "ann" ? "ann@acme.test" : "gus@globex.test";
    const gen = await (await t.api("POST", "/api/v1/embed/generate-session", { deploymentId, externalId, embedTenantName: tenant, email })).json();
    const { token } = await (await t.api("POST", "/api/v1/embed/session/token", { sessionId: gen.sessionId }, null)).json();
    const res = await t.api("POST", `/api/v1/deployments/${deploymentId}/query`, { query }, token);
    return ((await res.json()) as { data: Record<string, unknown>[] }).data;
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestPlatform({ storage, mutateDeps: (d) => ({ ...d, smtp: { url: smtp.url, from: "svc <reports@svc.test>" } }) });
    dir = await mkdtemp(path.join(os.tmpdir(), "svc-notify-"));
    const seeded = await seedDemo({ db: t.database.db, dataDir: dir, rows: 400, adminUserId: t.adminUserId, demoHostOrigin: null, logger: silentLogger });
    publicId = seeded!.dashboardPublicId;
    deploymentId = seeded!.deploymentId;
    for (const [tenant, externalId, email] of [
      ["acme-corp", "ann", "ann@acme.test"],
      ["globex-inc", "gus", "gus@globex.test"],
    ] as const) {
      const [row] = await t.database.db.select().from(embedTenants).where(eq(embedTenants.name, tenant));
      await t.database.db.insert(embedUsers).values({ tenantId: row!.id, externalId, email });
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await rm(dir, { recursive: true, force: true });
  });

  let id: number;

  it("creates a notification on a time zone's schedule, admin only", async () => {
    const res = await t.api("POST", "/api/v1/notifications", {
      dashboardPublicId: publicId,
      name: "Morning sales",
      schedule: { cron: "0 8 * * *", timezone: "Asia/Tokyo" },
      recipients: [
        { embedTenantName: "acme-corp", externalId: "ann" },
        { embedTenantName: "globex-inc", externalId: "gus", username: "Gus" },
        { email: "outsider@example.org" },
      ],
      format: "csv",
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    id = body.id;
    // 08:00 in Tokyo is 23:00 UTC.
    expect(new Date(body.nextRunAt).getUTCHours()).toBe(23);
    const bad: [unknown, (string | number)[]][] = [
      [{ dashboardPublicId: publicId, schedule: { cron: "not cron", timezone: "UTC" }, recipients: [{ email: "a@b.co" }] }, ["schedule", "cron"]],
      [{ dashboardPublicId: publicId, schedule: { cron: "0 8 * * *", timezone: "Moon/Base" }, recipients: [{ email: "a@b.co" }] }, ["schedule", "timezone"]],
      [{ dashboardPublicId: publicId, dashboardId: 1, schedule: { cron: "0 8 * * *", timezone: "UTC" }, recipients: [{ email: "a@b.co" }] }, ["dashboardId"]],
      [{ dashboardPublicId: publicId, schedule: { cron: "0 8 * * *", timezone: "UTC" }, recipients: [] }, ["recipients"]],
      [{ dashboardPublicId: publicId, schedule: { cron: "0 8 * * *", timezone: "UTC" }, recipients: [{ userId: 424242 }] }, ["recipients", 0, "userId"]],
    ];
    for (const [input, p] of bad) {
      const r = await t.api("POST", "/api/v1/notifications", input);
      expect(r.status, JSON.stringify(input)).toBe(400);
      expect((await r.json()).details[0].path).toEqual(p);
    }
    const dev = await t.addUser("notify-dev@example.com", "developer");
    expect((await t.api("GET", "/api/v1/notifications", undefined, dev.token)).status).toBe(403);
  });

  it("lists with the spec's filters", async () => {
    const ids = async (q: string) => ((await (await t.api("GET", `/api/v1/notifications${q}`)).json()).items as { id: number }[]).map((n) => n.id);
    expect(await ids("")).toEqual([id]);
    expect(await ids(`?dashboardPublicId=${publicId}`)).toEqual([id]);
    expect(await ids("?recipientEmail=outsider@example.org")).toEqual([id]);
    expect(await ids("?recipientEmail=nobody@example.org")).toEqual([]);
    expect(await ids("?recipientEmbedTenantName=globex-inc&recipientExternalId=gus")).toEqual([id]);
    expect(await ids("?recipientEmbedTenantName=globex-inc&recipientExternalId=ann")).toEqual([]);
    expect(await ids(`?recipientUserId=${t.adminUserId}`)).toEqual([]);
  });

  it("runs now, each recipient's data under their own row-level security, as the query API gives it", async () => {
    const res = await t.api("POST", `/api/v1/notifications/${id}/run`);
    const delivery = await res.json();
    expect(res.status, JSON.stringify(delivery)).toBe(200);
    expect(delivery.results).toEqual([
      { recipient: "acme-corp/ann", status: "sent" },
      { recipient: "globex-inc/gus", status: "sent" },
      { recipient: "outsider@example.org", status: "sent" },
    ]);
    expect(delivery.status).toBe("sent");
    for (const [externalId, tenant, address] of [
      ["ann", "acme-corp", "ann@acme.test"],
      ["gus", "globex-inc", "gus@globex.test"],
    ] as const) {
      const [mail] = mailTo(address);
      expect(mail!.from!.text).toContain("reports@svc.test");
      const mailed = csvOf(mail!, "Orders_by_status");
      const api = await queryAs(externalId, tenant, ORDERS_BY_STATUS);
      expect(mailed.map((r) => [r["sales.status"], Number(r["sales.count"])])).toEqual(api.map((r) => [r["sales.status"], Number(r["sales.count"])]));
      expect(mailed.length).toBeGreaterThan(0);
    }
    const acme = csvOf(mailTo("ann@acme.test")[0]!, "Orders_by_status").reduce((n, r) => n + Number(r["sales.count"]), 0);
    const globex = csvOf(mailTo("gus@globex.test")[0]!, "Orders_by_status").reduce((n, r) => n + Number(r["sales.count"]), 0);
    expect(acme).not.toBe(globex);
    // An address with no identity has no tenant: row-level security leaves it no rows.
    expect(csvOf(mailTo("outsider@example.org")[0]!, "Orders_by_status")).toEqual([]);
    const history = await (await t.api("GET", `/api/v1/notifications/${id}/deliveries`)).json();
    expect(history.items.map((d: { trigger: string }) => d.trigger)).toEqual(["manual"]);
  });

  it("applies the notification's filters and time grains", async () => {
    const statuses = await queryAs("ann", "acme-corp", ORDERS_BY_STATUS);
    const status = String(statuses[0]!["sales.status"]);
    await t.api("PUT", `/api/v1/notifications/${id}`, {
      recipients: [{ embedTenantName: "acme-corp", externalId: "ann" }],
      filters: [{ member: "sales.status", operator: "equals", value: status }],
      timeGrains: { "sales.created_at": "year" },
    });
    smtp.received.length = 0;
    const run = await (await t.api("POST", `/api/v1/notifications/${id}/run`)).json();
    expect(run.status, JSON.stringify(run.results)).toBe("sent");
    const [mail] = mailTo("ann@acme.test");
    expect(csvOf(mail!, "Orders_by_status").map((r) => r["sales.status"])).toEqual([status]);
    const trend = csvOf(mail!, "Revenue_over_time");
    expect(trend.length).toBeGreaterThan(0);
    expect(trend.length).toBeLessThanOrEqual(4);
  });

  it("sends a scheduled occurrence once, however many nodes run the schedule", async () => {
    const due = new Date(Date.now() - 60_000);
    await t.database.db.update(notifications).set({ nextRunAt: due }).where(eq(notifications.id, id));
    smtp.received.length = 0;
    const [a, b] = await Promise.all([runDueNotifications(t.deps), runDueNotifications(t.deps)]);
    expect(a.length + b.length).toBe(1);
    expect(smtp.received).toHaveLength(1);
    const scheduled = await t.database.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.trigger, "schedule"));
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]!.occurrence!.getTime()).toBe(due.getTime());
    const [n] = await t.database.db.select().from(notifications).where(eq(notifications.id, id));
    expect(n!.nextRunAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await runDueNotifications(t.deps)).toEqual([]);
  });

  it("records a recipient who cannot receive without stopping the others", async () => {
    await t.api("PUT", `/api/v1/notifications/${id}`, {
      recipients: [{ embedTenantName: "acme-corp", externalId: "nobody" }, { email: "second@example.org" }],
    });
    const d = await (await t.api("POST", `/api/v1/notifications/${id}/run`)).json();
    expect(d.status).toBe("partial");
    expect(d.results[0]).toMatchObject({ recipient: "acme-corp/nobody", status: "failed" });
    expect(d.results[1]).toMatchObject({ status: "sent" });
    expect((await t.api("DELETE", `/api/v1/notifications/${id}`)).status).toBe(204);
    expect((await t.api("GET", `/api/v1/notifications/${id}`)).status).toBe(404);
  });
});

/** The cells a spreadsheet would run as formulas, one per leading character OWASP names. */
const HOSTILE_STATUSES = ['=HYPERLINK("http://x","y")', "+1+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0", "@SUM(A1:A9)", "\t=1+1", "\r=1+1"];

describe("notification CSV attachments", () => {
  let t: TestPlatform;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let dir: string;
  let publicId: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestPlatform({ mutateDeps: (d) => ({ ...d, smtp: { url: smtp.url, from: "svc <reports@svc.test>" } }) });
    dir = await mkdtemp(path.join(os.tmpdir(), "svc-notify-csv-"));
    const seeded = await seedDemo({ db: t.database.db, dataDir: dir, rows: 400, adminUserId: t.adminUserId, demoHostOrigin: null, logger: silentLogger });
    publicId = seeded!.dashboardPublicId;
    // Data a tenant's own systems could have written: statuses that read as formulas, and
    // amounts that make every revenue figure negative. Written before any query opens the file.
    const instance = await DuckDBInstance.create(path.join(dir, "demo", "shop-400.duckdb"));
    const conn = await instance.connect();
    const cases = HOSTILE_STATUSES.map((s, i) => `WHEN ${i} THEN '${s.replace(/'/g, "''")}'`).join(" ");
    await conn.run(`UPDATE orders SET status = CASE order_id % ${HOSTILE_STATUSES.length} ${cases} END, amount = -5`);
    conn.closeSync();
    instance.closeSync();
    const [acme] = await t.database.db.select().from(embedTenants).where(eq(embedTenants.name, "acme-corp"));
    await t.database.db.insert(embedUsers).values({ tenantId: acme!.id, externalId: "ann", email: "ann@acme.test" });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("arrives with formula cells neutralised and negative numbers kept as numbers", async () => {
    const created = await t.api("POST", "/api/v1/notifications", {
      dashboardPublicId: publicId,
      schedule: { cron: "0 8 * * *", timezone: "UTC" },
      recipients: [{ embedTenantName: "acme-corp", externalId: "ann" }],
      format: "csv",
    });
    expect(created.status).toBe(201);
    const run = await (await t.api("POST", `/api/v1/notifications/${(await created.json()).id}/run`)).json();
    expect(run.status, JSON.stringify(run.results)).toBe("sent");
    const [mail] = smtp.received;
    const attachment = (name: string) => {
      const a = mail!.attachments.find((x) => x.filename?.includes(name));
      if (!a) throw new Error(`no ${name} attachment in ${mail!.attachments.map((x) => x.filename).join(", ")}`);
      const parsed = Papa.parse<string[]>(a.content.toString("utf8"), { newline: "\r\n" });
      expect(parsed.errors).toEqual([]);
      return { text: a.content.toString("utf8"), rows: parsed.data };
    };

    const statuses = attachment("Orders_by_status");
    const statusColumn = statuses.rows[0]!.indexOf("sales.status");
    expect(
      statuses.rows
        .slice(1)
        .map((r) => r[statusColumn])
        .sort(),
    ).toEqual(HOSTILE_STATUSES.map((s) => `'${s}`).sort());
    expect(statuses.text).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);

    const revenue = attachment("Revenue_over_time");
    const revenueColumn = revenue.rows[0]!.indexOf("sales.revenue");
    const figures = revenue.rows.slice(1).map((r) => r[revenueColumn]!);
    expect(figures.length).toBeGreaterThan(0);
    // A negative number is a number: written bare, never prefixed.
    for (const figure of figures) expect(figure).toMatch(/^-\d+(\.\d+)?$/);
  });
});
