import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountSettings, deploymentLogs, tenantSecrets } from "../../db/schema";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";
import { readAiSettingsWithCredentials, readStoredAppConfig, readTenantSettings } from "./service";

describe.each(storageKinds)("tenant settings (%s)", (storage) => {
  let t: TestPlatform;
  const SECRET = "sk-live-3f9a0c7e-never-shown";

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
  });
  afterAll(() => t?.close());

  it("reads defaults before anything is set", async () => {
    const res = await t.api("GET", "/api/v1/tenant/settings");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      defaultLocale: null,
      defaultTimeZone: "UTC",
      appConfig: {},
      ai: { provider: null, model: null, chatThreadPolicies: [], agentsConfigCredentials: { configured: false, names: [] } },
      embedTokenLifetimeSeconds: 86400,
      passwordRules: { minLength: 10, requireDigit: false },
    });
  });

  it("writes the document, keeps fields not sent, and never returns a secret", async () => {
    const res = await t.api("PUT", "/api/v1/tenant/settings", {
      allowedOrigins: ["https://app.example.com", "https://app.example.com/"],
      defaultLocale: "fr-CA",
      defaultTimeZone: "Europe/Paris",
      appConfig: { appTheme: "ocean", creatorMode: { showGeneratedSql: true, localizedTitles: [{ locale: "fr", value: "Analyses" }] } },
      ai: {
        provider: "openai",
        model: "gpt-4.1",
        chatThreadPolicies: [{ actions: ["read"], effect: "deny", resourceType: "chatThread", resources: ["sales"] }],
        agentsConfigCredentials: { openai: SECRET, "search.key": "s3cond-secret" },
      },
      embedTokenLifetimeSeconds: 900,
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("s3cond-secret");
    const body = JSON.parse(text);
    expect(body).toMatchObject({
      allowedOrigins: ["https://app.example.com"],
      defaultLocale: "fr-CA",
      defaultTimeZone: "Europe/Paris",
      ai: { provider: "openai", agentsConfigCredentials: { configured: true, names: ["openai", "search.key"] } },
      embedTokenLifetimeSeconds: 900,
    });
    const again = await (await t.api("PUT", "/api/v1/tenant/settings", { defaultLocale: "de" })).json();
    expect(again).toMatchObject({
      defaultLocale: "de",
      defaultTimeZone: "Europe/Paris",
      ai: { model: "gpt-4.1", agentsConfigCredentials: { configured: true } },
    });
    // The allowed origins are the ones the embed checks.
    expect(await (await t.api("GET", "/api/v1/embed/allowed-origins")).json()).toEqual({ origins: ["https://app.example.com"] });
  });

  it("keeps the credentials sealed at rest, readable by the server only", async () => {
    const rows = await t.database.db.select().from(tenantSecrets);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.valueEncrypted).toMatch(/^v1\./);
    const stored = JSON.stringify(await t.database.db.select().from(accountSettings));
    expect(stored).not.toContain(SECRET);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    const ai = await readAiSettingsWithCredentials(t.database.db, t.deps.secretBox);
    expect(ai.agentsConfigCredentials).toEqual({ openai: SECRET, "search.key": "s3cond-secret" });
    expect(await readStoredAppConfig(t.database.db)).toMatchObject({ appTheme: "ocean" });
    expect((await readTenantSettings(t.database.db)).ai.chatThreadPolicies[0]!.effect).toBe("deny");
  });

  it("audits each change by field name, never by value", async () => {
    const lines = await t.database.db.select().from(deploymentLogs);
    const audits = lines.filter((l) => l.message === "tenant settings changed");
    expect(audits).toHaveLength(2);
    expect(audits[0]!.details).toMatchObject({ actorUserId: t.adminUserId, changed: expect.arrayContaining(["ai.agentsConfigCredentials", "appConfig"]) });
    expect(audits[0]!.container).toBe("MAIN");
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it("refuses a bad document whole, writing nothing", async () => {
    const before = await (await t.api("GET", "/api/v1/tenant/settings")).json();
    const cases: [unknown, (string | number)[]][] = [
      [{ defaultTimeZone: "Mars/Olympus" }, ["defaultTimeZone"]],
      [{ defaultLocale: "not a locale!" }, ["defaultLocale"]],
      [{ allowedOrigins: ["*"] }, ["allowedOrigins", 0]],
      [{ appConfig: { unknownKey: true } }, ["appConfig"]],
      [{ ai: { chatThreadPolicies: [{ actions: ["read"], effect: "maybe", resourceType: "x", resources: [] }] } }, ["ai", "chatThreadPolicies", 0, "effect"]],
      [{ embedTokenLifetimeSeconds: 5 }, ["embedTokenLifetimeSeconds"]],
      [{ passwordRules: { minLength: 4 } }, ["passwordRules", "minLength"]],
      [{ defaultLocale: "en", tokens: 1 }, []],
    ];
    for (const [input, path] of cases) {
      const res = await t.api("PUT", "/api/v1/tenant/settings", input);
      expect(res.status, JSON.stringify(input)).toBe(400);
      const body = await res.json();
      expect(body.code).toBe("validation_failed");
      expect(body.details[0].path, JSON.stringify(input)).toEqual(path);
    }
    expect(await (await t.api("GET", "/api/v1/tenant/settings")).json()).toEqual(before);
  });

  it("is admin only, for reads too", async () => {
    const dev = await t.addUser("ts-dev@example.com", "developer");
    expect((await t.api("GET", "/api/v1/tenant/settings", undefined, dev.token)).status).toBe(403);
    expect((await t.api("PUT", "/api/v1/tenant/settings", { defaultLocale: "en" }, dev.token)).status).toBe(403);
    expect((await t.api("GET", "/api/v1/tenant/settings", undefined, null)).status).toBe(401);
  });

  it("clears the credentials with null", async () => {
    const res = await (await t.api("PUT", "/api/v1/tenant/settings", { ai: { agentsConfigCredentials: null } })).json();
    expect(res.ai.agentsConfigCredentials).toEqual({ configured: false, names: [] });
    expect(await t.database.db.select().from(tenantSecrets)).toHaveLength(0);
  });

  it("gives embed tokens the tenant's lifetime", async () => {
    const [dep] = await t.addDeployments("ts-embed");
    await t.api("PUT", "/api/v1/tenant/settings", { embedTokenLifetimeSeconds: 600 });
    const { sessionId } = await (await t.api("POST", "/api/v1/embed/generate-session", { deploymentId: dep })).json();
    const exchanged = await t.deps.embedSessions.exchange(sessionId);
    const seconds = (Date.parse(exchanged.expiresAt) - Date.now()) / 1000;
    expect(seconds).toBeGreaterThan(500);
    expect(seconds).toBeLessThanOrEqual(600);
  });

  it("is what the app and the chat read: app config for the caller, AI provider, key and thread policies", async () => {
    await t.api("PUT", "/api/v1/tenant/settings", {
      appConfig: { creatorMode: { showGeneratedSql: true, showSemanticSql: false }, embedding: { showDashboardChat: true } },
      ai: {
        provider: "builtin",
        model: "tenant-model",
        chatThreadPolicies: [{ actions: ["create"], effect: "deny", resourceType: "chatThread", resources: ["*"] }],
        agentsConfigCredentials: { apiKey: SECRET },
      },
    });
    const config = await (await t.api("GET", "/api/v1/app-config")).json();
    expect(config.creatorMode).toMatchObject({ showGeneratedSql: true, showSemanticSql: false });
    expect(config.embedding.showDashboardChat).toBe(true);
    expect(config.sheetsUi.showAppliedFilters).toBe(true);

    const { readAiSettings } = await import("../../ai/settings");
    const admin = { kind: "user", userId: 1, email: "admin@example.com", role: "admin", via: "api_key" } as const;
    const ai = await readAiSettings(t.deps, admin);
    expect(ai).toMatchObject({ provider: "builtin", model: "tenant-model", apiKey: SECRET });
    expect(ai.chatThreadPolicies).toEqual([{ actions: ["create"], effect: "deny", resourceType: "chatThread", resources: ["*"] }]);

    // The chat API applies the stored policy: creating a thread is refused for everyone.
    const [dep] = await t.addDeployments("ts-chat");
    const created = await t.api("POST", `/api/v1/deployments/${dep}/chat/threads`, {});
    expect(created.status, await created.clone().text()).toBe(403);
    await t.api("PUT", "/api/v1/tenant/settings", { ai: { chatThreadPolicies: [] } });
    expect((await t.api("POST", `/api/v1/deployments/${dep}/chat/threads`, {})).status).toBe(201);
  });
});
