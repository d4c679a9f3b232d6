import { eq, isNull } from "drizzle-orm";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embedGroupMembers, embedGroups, embedSessions, embedTenants, embedUsers } from "../../db/schema";
import { seedDeployment, seedPublishedDashboard } from "../../testing/embed-access-fixtures";
import { createSigningKeyRing } from "./signing-keys";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

describe.each(storageKinds)("embed sessions API (%s)", (storage) => {
  let t: TestPlatform;
  let other: TestPlatform;
  let deploymentId: number;
  const publicId = "SessDash0001";

  const generate = (body: Record<string, unknown>) => t.api("POST", "/api/v1/embed/generate-session", { deploymentId, ...body });
  async function tokenFor(body: Record<string, unknown> = {}) {
    const gen = await generate({ externalId: "viewer-1", embedTenantName: "acme-corp", ...body });
    expect(gen.status).toBe(200);
    const { sessionId } = await gen.json();
    const ex = await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null);
    expect(ex.status).toBe(200);
    return { sessionId: sessionId as string, ...(await ex.json()) } as { sessionId: string; token: string; expiresAt: string };
  }
  const read = (token: string | null, app = t) => app.api("GET", `/api/v1/embed/dashboard/${publicId}`, undefined, token);

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    other = await createTestPlatform({ storage: "pglite" });
    deploymentId = await seedDeployment(t.database.db, "sessions");
    const d = await seedPublishedDashboard(t.database.db, { deploymentId, publicId, title: "Sales" });
    await t.api("PUT", `/api/v1/deployments/${deploymentId}/workbooks/${d.workbookId}/embed-access`, { rules: [{ embedTenantName: null, action: "read" }] });
    await seedDeployment(other.database.db, "elsewhere");
    await seedPublishedDashboard(other.database.db, { deploymentId: 1, publicId, title: "Sales elsewhere" });
    await t.api("POST", "/api/v1/user-attributes/", { name: "region", type: "string" });
    await t.api("POST", "/api/v1/user-attributes/", { name: "level", type: "number" });
    await t.api("POST", "/api/v1/user-attributes/", { name: "beta", type: "boolean" });
    await t.api("POST", "/api/v1/user-attributes/", { name: "regions", type: "string_array" });
    await t.api("POST", "/api/v1/user-attributes/", { name: "ids", type: "number_array" });
  });
  afterAll(async () => {
    await t?.close();
    await other?.close();
  });

  it("generates a session from every field and creates the tenant, user and groups", async () => {
    const res = await generate({
      externalId: "  Alice@Example.COM ",
      email: "alice@example.com",
      userProfile: { displayName: "Alice", picture: "https://img.example.com/a.png" },
      embedTenantName: "globex-inc",
      embedTenantProfile: { displayName: "Globex Inc." },
      groups: ["analysts"],
      tenantGroups: ["finance"],
      tenantGroupDefinitions: [{ name: "finance", displayName: "Finance" }, { name: "ops" }],
      userAttributes: [
        { name: "region", value: "emea" },
        { name: "level", value: 3 },
        { name: "beta", value: true },
        { name: "regions", value: ["emea", "apac"] },
        { name: "ids", value: [1, 2] },
      ],
      securityContext: { customerId: 42 },
      settings: { allowAi: false, showDashboardChat: true, showWorkbookChat: false, showAiWidgets: true, locale: "de-DE", timezone: "Europe/Berlin" },
      embedTheme: { primaryColor: "#ff0000", borderRadius: 8 },
      creatorMode: false,
    });
    expect(res.status).toBe(200);
    const { sessionId, expiresAt } = await res.json();
    expect(sessionId.length).toBeGreaterThanOrEqual(40);
    expect(new Date(expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(5 * 60 * 1000 + 1000);
    const db = t.database.db;
    const [tenant] = await db.select().from(embedTenants).where(eq(embedTenants.name, "globex-inc"));
    expect(tenant!.displayName).toBe("Globex Inc.");
    const [user] = await db.select().from(embedUsers).where(eq(embedUsers.externalId, "alice@example.com"));
    expect(user).toMatchObject({ tenantId: tenant!.id, displayName: "Alice", email: "alice@example.com", userAttributes: { region: "emea", level: 3 } });
    const groups = await db.select().from(embedGroups).where(eq(embedGroups.tenantId, tenant!.id));
    expect(groups.map((g) => g.name).sort()).toEqual(["finance", "ops"]);
    const members = await db.select().from(embedGroupMembers).where(eq(embedGroupMembers.embedUserId, user!.id));
    expect(members.map((m) => m.groupId)).toEqual([groups.find((g) => g.name === "finance")!.id]);
    expect(JSON.stringify(await db.select().from(embedSessions))).not.toContain(sessionId);

    const { token } = await (await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null)).json();
    const body = await (await read(token)).json();
    expect(body.viewer).toMatchObject({
      mode: "signed",
      deploymentId,
      embedTenant: "globex-inc",
      externalId: "alice@example.com",
      settings: { locale: "de-DE", timezone: "Europe/Berlin", showDashboardChat: true },
      embedTheme: { primaryColor: "#ff0000", borderRadius: 8 },
    });
  });

  it("rejects ephemeralTtlSeconds with a 400 naming the removed field", async () => {
    const res = await generate({ externalId: "x", ephemeralTtlSeconds: 60 });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe("validation_failed");
    expect(body.message).toContain("ephemeralTtlSeconds");
    expect(body.details[0].path).toEqual(["ephemeralTtlSeconds"]);
  });

  it("refuses a bad tenant name, a system: group, unknown keys and a missing deployment", async () => {
    for (const [body, path] of [
      [{ embedTenantName: "Acme" }, "embedTenantName"],
      [{ embedTenantName: "ab" }, "embedTenantName"],
      [{ embedTenantName: "acme-" }, "embedTenantName"],
      [{ tenantGroups: ["system:admins"] }, "tenantGroups"],
      [{ userRole: "admin" }, ""],
    ] as const) {
      const res = await generate(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (path) expect((await res.json()).details[0].path[0]).toBe(path);
    }
    const missing = await t.api("POST", "/api/v1/embed/generate-session", { deploymentId: 999999 });
    expect(missing.status).toBe(404);
  });

  it("checks user attributes against their definitions and writes nothing when one is wrong", async () => {
    const bad = await generate({
      externalId: "mallory",
      embedTenantName: "never-created",
      userAttributes: [
        { name: "level", value: "high" },
        { name: "undefined_attr", value: "x" },
        { name: "ids", value: ["1"] },
      ],
    });
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.details.map((d: { path: unknown[] }) => d.path)).toEqual([
      ["userAttributes", 0, "value"],
      ["userAttributes", 1, "name"],
      ["userAttributes", 2, "value"],
    ]);
    expect(await t.database.db.select().from(embedTenants).where(eq(embedTenants.name, "never-created"))).toEqual([]);
  });

  it("exchanges a session once: a replayed session id is a 401", async () => {
    const { sessionId } = await (await generate({ externalId: "once" })).json();
    expect((await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null)).status).toBe(200);
    const replay = await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null);
    expect(replay.status).toBe(401);
    expect((await replay.json()).code).toBe("unauthorized");
    expect((await t.api("POST", "/api/v1/embed/session/token", { sessionId: "x".repeat(43) }, null)).status).toBe(401);
  });

  it("refuses a session id older than 5 minutes", async () => {
    const { sessionId } = await (await generate({ externalId: "late" })).json();
    await t.database.db
      .update(embedSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(isNull(embedSessions.exchangedAt));
    const res = await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null);
    expect(res.status).toBe(401);
  });

  it("bounds the token's life to the server's TTL and at most 24 hours", async () => {
    const { token, expiresAt } = await tokenFor();
    const exp = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).exp * 1000;
    expect(exp).toBe(new Date(expiresAt).getTime());
    expect(exp - Date.now()).toBeLessThanOrEqual(24 * 3600 * 1000);
    expect(exp - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
  });

  it("carries the settings and security context in the signed token", async () => {
    const { token } = await tokenFor({ settings: { locale: "fr-FR" }, securityContext: { customerId: 7 } });
    const payload = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
    expect(payload).toMatchObject({ set: { locale: "fr-FR" }, ctx: { customerId: 7 }, dep: deploymentId, ten: "acme-corp" });
    expect(JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString())).toMatchObject({ alg: "HS256" });
  });

  it("revokes with 204, idempotently, and the token stops working at once", async () => {
    const { sessionId, token } = await tokenFor();
    expect((await read(token)).status).toBe(200);
    expect((await t.api("POST", "/api/v1/embed/session/revoke", { sessionId })).status).toBe(204);
    expect((await t.api("POST", "/api/v1/embed/session/revoke", { sessionId })).status).toBe(204);
    const after = await read(token);
    expect(after.status).toBe(401);
    expect((await after.json()).code).toBe("unauthorized");
  });

  // Two nodes share a Postgres server only: on embedded PGlite one process holds the database.
  // Each case is defined for the storage it is about only (no skipped test in the other run).
  const onServer: (name: string, fn: () => Promise<void>) => void = storage === "postgres" ? it : () => {};
  const embedded: (name: string, fn: () => Promise<void>) => void = storage === "pglite" ? it : () => {};
  onServer("refuses a token whose session another node revoked on the very next request, though this node had just accepted it", async () => {
    const { token } = await tokenFor();
    expect((await read(token)).status).toBe(200);
    const sid = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).sid as number;
    // Another node's revocation reaches this one through the shared database only, before any
    // announcement: no node may keep trusting a token it checked a moment ago.
    await t.database.db.update(embedSessions).set({ revokedAt: new Date() }).where(eq(embedSessions.id, sid));
    expect((await read(token)).status).toBe(401);
  });

  embedded("keeps a session's state per process on embedded storage, and drops it on every revocation or removal", async () => {
    const { token, sessionId } = await tokenFor();
    expect((await read(token)).status).toBe(200);
    const sid = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).sid as number;
    // A write that bypasses the platform is not read again: the state is this process's cache,
    // exact because only this process writes to embedded storage.
    await t.database.db.update(embedSessions).set({ revokedAt: new Date() }).where(eq(embedSessions.id, sid));
    expect((await read(token)).status).toBe(200);
    await t.database.db.update(embedSessions).set({ revokedAt: null }).where(eq(embedSessions.id, sid));
    // The platform's own revocation is refused on the very next request.
    expect((await t.api("POST", "/api/v1/embed/session/revoke", { sessionId })).status).toBe(204);
    expect((await read(token)).status).toBe(401);
  });

  it("refuses a token at once when its deployment is deleted", async () => {
    const gone = await seedDeployment(t.database.db, "short-lived");
    const d = await seedPublishedDashboard(t.database.db, { deploymentId: gone, publicId: "GoneDash0001", title: "Gone" });
    await t.api("PUT", `/api/v1/deployments/${gone}/workbooks/${d.workbookId}/embed-access`, { rules: [{ embedTenantName: null, action: "read" }] });
    const gen = await t.api("POST", "/api/v1/embed/generate-session", { deploymentId: gone, externalId: "viewer-9" });
    const ex = await t.api("POST", "/api/v1/embed/session/token", { sessionId: (await gen.json()).sessionId }, null);
    const { token } = await ex.json();
    const readGone = () => t.api("GET", "/api/v1/embed/dashboard/GoneDash0001", undefined, token);
    expect((await readGone()).status).toBe(200);
    expect((await t.api("DELETE", `/api/v1/deployments/${gone}`)).status).toBe(204);
    expect((await readGone()).status).toBe(401);
  });

  it("refuses tampered, wrong-key, alg:none, expired and foreign tokens with 401 and no data", async () => {
    const { token } = await tokenFor();
    const [h, p, s] = token.split(".") as [string, string, string];
    const payload = JSON.parse(Buffer.from(p, "base64url").toString());
    const header = JSON.parse(Buffer.from(h, "base64url").toString());
    const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const key = await createSigningKeyRing(t.database.db, t.deps.secretBox).current();
    const now = Math.floor(Date.now() / 1000);
    const signWith = (secret: Uint8Array, claims: Record<string, unknown>, kid = key.id) =>
      new SignJWT(claims).setProtectedHeader({ alg: "HS256", kid }).setIssuer("svc").setAudience("svc-embed").setSubject("viewer-1").sign(secret);
    const foreign = await tokenForOther();
    const cases: Record<string, string> = {
      tampered: `${h}.${enc({ ...payload, ten: "other-tenant" })}.${s}`,
      "wrong key": await signWith(new Uint8Array(32).fill(7), { ...payload }),
      "unknown kid": await signWith(key.secret, { ...payload }, "00000000-0000-4000-8000-000000000000"),
      "alg none": `${enc({ ...header, alg: "none" })}.${p}.`,
      "alg none with signature": `${enc({ ...header, alg: "none" })}.${p}.${s}`,
      expired: await signWith(key.secret, { ...payload, iat: now - 7200, exp: now - 60 }),
      "other deployment claim": await signWith(key.secret, { ...payload, dep: payload.dep + 1, exp: now + 600 }),
      "from another installation": foreign,
      garbage: "a.b.c",
    };
    for (const [name, bad] of Object.entries(cases)) {
      const res = await read(bad);
      expect(res.status, name).toBe(401);
      const body = await res.text();
      expect(body, name).not.toContain("Sales");
    }
    // The forged-with-the-right-key control proves the cases above fail for the reason named.
    expect((await read(await signWith(key.secret, { ...payload, exp: now + 600 }))).status).toBe(200);
  });

  async function tokenForOther() {
    const gen = await other.api("POST", "/api/v1/embed/generate-session", { deploymentId: 1, externalId: "viewer-1", embedTenantName: "acme-corp" });
    const { sessionId } = await gen.json();
    const { token } = await (await other.api("POST", "/api/v1/embed/session/token", { sessionId }, null)).json();
    expect((await read(token, other)).status).not.toBe(401);
    return token as string;
  }

  it("rotates keys: the new key signs, old tokens verify until their key is retired", async () => {
    const before = await tokenFor();
    const rotated = await t.api("POST", "/api/v1/embed/signing-keys/rotate");
    expect(rotated.status).toBe(201);
    const newKey = await rotated.json();
    expect(newKey.current).toBe(true);
    const after = await tokenFor();
    const kidOf = (tok: string) => JSON.parse(Buffer.from(tok.split(".")[0]!, "base64url").toString()).kid;
    expect(kidOf(after.token)).toBe(newKey.id);
    expect(kidOf(before.token)).not.toBe(newKey.id);
    expect((await read(before.token)).status).toBe(200);
    const list = await (await t.api("GET", "/api/v1/embed/signing-keys")).json();
    expect(JSON.stringify(list)).not.toMatch(/secret/i);
    expect((await t.api("DELETE", `/api/v1/embed/signing-keys/${kidOf(before.token)}`)).status).toBe(204);
    expect((await read(before.token)).status).toBe(401);
    expect((await read(after.token)).status).toBe(200);
    expect((await t.api("DELETE", "/api/v1/embed/signing-keys/00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });

  it("lets only admins generate, revoke and rotate", async () => {
    const { token } = await tokenFor();
    expect((await t.api("POST", "/api/v1/embed/generate-session", { deploymentId }, token)).status).toBe(403);
    expect((await t.api("POST", "/api/v1/embed/signing-keys/rotate", undefined, token)).status).toBe(403);
    expect((await t.api("POST", "/api/v1/embed/generate-session", { deploymentId }, null)).status).toBe(401);
  });
});
