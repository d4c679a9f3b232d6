import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "./demo/seed";
import { silentLogger } from "./logger";
import { createTestPlatform, type TestPlatform } from "./testing/test-platform";

/**
 * Read-modify-write: every PUT takes back what the matching GET answered (read-only fields
 * ignored, write-only ones shown as set meaning "unchanged"), answers 200, and the next GET
 * answers the same. One row per resource that has GET and PUT on the same path; the PUTs
 * without a GET of the same shape are listed in docs/decisions.md ("API behaviour").
 */
let t: TestPlatform;
let dir: string;
let demo: { deploymentId: number; workbookId: number; dashboardPublicId: string };

/** What may differ between two reads without a change: the write time. */
const stable = (body: unknown): unknown => JSON.parse(JSON.stringify(body), (key, value) => (key === "updatedAt" || key === "nextRunAt" ? undefined : value));

interface Row {
  name: string;
  /** Creates the resource; resolves with its path. */
  setup: () => Promise<string>;
  /** The GET's body → the PUT's body, when the two differ only in wrapping (e.g. a list answer). */
  body?: (read: unknown) => unknown;
}

const post = async (p: string, body: unknown) => {
  const res = await t.api("POST", p, body);
  if (res.status !== 201 && res.status !== 200) throw new Error(`POST ${p} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { id: number };
};

const rows: Row[] = [
  {
    name: "tenant settings (updatedAt, write-only credentials)",
    setup: async () => {
      const res = await t.api("PUT", "/api/v1/tenant/settings", { defaultLocale: "de", ai: { model: "m", agentsConfigCredentials: { apiKey: "sk-secret" } } });
      expect(res.status).toBe(200);
      return "/api/v1/tenant/settings";
    },
  },
  { name: "allowed origins", setup: async () => "/api/v1/embed/allowed-origins" },
  { name: "user", setup: async () => `/api/v1/users/${(await t.addUser("rmw@example.com", "developer")).id}` },
  {
    name: "deployment (Postgres password write-only)",
    setup: async () => {
      const dep = await post("/build/api/v1/deployments/", {
        name: "rmw",
        dataSource: { type: "postgres", host: "db.example.com", database: "shop", user: "reader", password: "pw-secret" },
      });
      return `/api/v1/deployments/${dep.id}`;
    },
  },
  {
    name: "deployment without a data source",
    setup: async () => `/api/v1/deployments/${(await post("/build/api/v1/deployments/", { name: "bare" })).id}`,
  },
  {
    name: "env vars (secret values write-only)",
    setup: async () => {
      const p = `/api/v1/deployments/${demo.deploymentId}/env-vars`;
      expect(
        (
          await t.api("PUT", p, [
            { name: "PLAIN", value: "1" },
            { name: "TOKEN", value: "s3cret", secret: true },
          ])
        ).status,
      ).toBe(200);
      return p;
    },
  },
  {
    name: "folder",
    setup: async () => {
      const parent = await post(`/api/v1/deployments/${demo.deploymentId}/folders`, { name: "Parent" });
      const folder = await post(`/api/v1/deployments/${demo.deploymentId}/folders`, { name: "Child", parentId: parent.id });
      return `/api/v1/deployments/${demo.deploymentId}/folders/${folder.id}`;
    },
  },
  {
    name: "workbook",
    setup: async () => {
      const wb = await post(`/api/v1/deployments/${demo.deploymentId}/workbooks`, { name: "RMW", meta: { a: 1 } });
      return `/api/v1/deployments/${demo.deploymentId}/workbooks/${wb.id}`;
    },
  },
  { name: "embed access", setup: async () => `/api/v1/deployments/${demo.deploymentId}/workbooks/${demo.workbookId}/embed-access` },
  {
    name: "OIDC token config",
    setup: async () => {
      const c = await post("/api/v1/oidc-token-configs/", {
        name: "ci",
        issuer: "https://issuer.example.com",
        audience: "svc",
        claims: { repo: "a/b" },
        role: "developer",
      });
      return `/api/v1/oidc-token-configs/${c.id}`;
    },
  },
  {
    name: "OAuth integration (client secret write-only)",
    setup: async () => {
      const c = await post("/api/v1/oauth-integrations/", {
        name: "gh",
        provider: "github",
        clientId: "cid",
        clientSecret: "client-secret",
        authorizationUrl: "https://github.example.com/login/oauth/authorize",
        tokenUrl: "https://github.example.com/login/oauth/access_token",
        scopes: ["repo"],
      });
      return `/api/v1/oauth-integrations/${c.id}`;
    },
  },
  {
    name: "notification (created by dashboardPublicId)",
    setup: async () => {
      const n = await post("/api/v1/notifications", {
        dashboardPublicId: demo.dashboardPublicId,
        name: "Daily",
        schedule: { cron: "0 8 * * *", timezone: "Europe/Paris" },
        recipients: [{ email: "a@example.com" }],
      });
      return `/api/v1/notifications/${n.id}`;
    },
  },
];

beforeAll(async () => {
  t = await createTestPlatform();
  dir = await mkdtemp(path.join(os.tmpdir(), "svc-rmw-"));
  const seeded = await seedDemo({ db: t.database.db, dataDir: dir, rows: 1000, adminUserId: t.adminUserId, demoHostOrigin: null, logger: silentLogger });
  demo = seeded!;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("every PUT takes back what its GET answered", () => {
  it.each(rows.map((r) => [r.name, r] as const))("%s", async (_name, row) => {
    const p = await row.setup();
    const read = await t.api("GET", p);
    expect(read.status).toBe(200);
    const before = await read.json();
    const put = await t.api("PUT", p, row.body ? row.body(before) : before);
    expect(put.status, await put.clone().text()).toBe(200);
    const after = await (await t.api("GET", p)).json();
    expect(stable(after)).toEqual(stable(before));
  });

  it("keeps write-only secrets when their read form is sent back", async () => {
    const settings = await (await t.api("GET", "/api/v1/tenant/settings")).json();
    expect(settings.ai.agentsConfigCredentials).toEqual({ configured: true, names: ["apiKey"] });
    const envVars = await (await t.api("GET", `/api/v1/deployments/${demo.deploymentId}/env-vars`)).json();
    // A notification's PUT takes its create body too (the dashboard cannot change; it is ignored).
    const create = {
      dashboardPublicId: demo.dashboardPublicId,
      schedule: { cron: "0 9 * * 1", timezone: "UTC" },
      recipients: [{ email: "b@example.com" }],
    };
    const n = await post("/api/v1/notifications", create);
    const put = await t.api("PUT", `/api/v1/notifications/${n.id}`, { ...create, schedule: { cron: "0 10 * * 1", timezone: "UTC" } });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ dashboardPublicId: demo.dashboardPublicId, schedule: { cron: "0 10 * * 1" } });
    expect(envVars).toContainEqual(expect.objectContaining({ name: "TOKEN", value: null, secret: true }));
  });
});
