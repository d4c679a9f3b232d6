import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploymentLogs, loginSessions, users, workbooks } from "../../db/schema";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

describe.each(storageKinds)("users administration (%s)", (storage) => {
  let t: TestPlatform;
  const PASSWORD = "Tr0ub4dor&3-horse";

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
  });
  afterAll(() => t?.close());

  async function login(email: string, password = PASSWORD) {
    const res = await t.app.request("/api/v1/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    return { status: res.status, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0]! };
  }
  const me = (cookie: string) => Promise.resolve(t.app.request("/api/v1/auth/me", { headers: { cookie } }));

  it("creates a user with a password kept only as a hash, and never returns it", async () => {
    const res = await t.api("POST", "/api/v1/users/", { email: "pw@example.com", role: "developer", password: PASSWORD });
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toMatch(/password/i);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, "pw@example.com"));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await login("pw@example.com")).status).toBe(200);
  });

  it("checks passwords against the tenant's rules", async () => {
    expect((await t.api("PUT", "/api/v1/tenant/settings", { passwordRules: { minLength: 16, requireDigit: true, requireSymbol: true } })).status).toBe(200);
    const weak = await t.api("POST", "/api/v1/users/", { email: "weak@example.com", password: "longbutnodigitsatall" });
    expect(weak.status).toBe(400);
    const body = await weak.json();
    expect(body.code).toBe("validation_failed");
    expect(body.details.map((d: { message: string }) => d.message)).toEqual(["must contain a digit", "must contain a symbol"]);
    expect(JSON.stringify(body)).not.toContain("longbutnodigitsatall");
    const [missing] = await t.database.db.select().from(users).where(eq(users.email, "weak@example.com"));
    expect(missing).toBeUndefined();
    const { id } = (await (await t.api("POST", "/api/v1/users/", { email: "strong@example.com" })).json()) as { id: number };
    expect((await t.api("PUT", `/api/v1/users/${id}/password`, { password: "short1!short1!" })).status).toBe(400);
    expect((await t.api("PUT", `/api/v1/users/${id}/password`, { password: "sixteen chars 1!" })).status).toBe(204);
    await t.api("PUT", "/api/v1/tenant/settings", { passwordRules: { minLength: 10 } });
  });

  it("updates with PUT and POST alike, admin only", async () => {
    const u = await t.addUser("upd@example.com", "viewer");
    const put = await t.api("PUT", `/api/v1/users/${u.id}`, { firstName: "Ada", role: "ai_bi_user" });
    expect(await put.json()).toMatchObject({ firstName: "Ada", role: "ai_bi_user" });
    const post = await t.api("POST", `/api/v1/users/${u.id}`, { lastName: "Lovelace" });
    expect(post.status).toBe(200);
    expect(await post.json()).toMatchObject({ firstName: "Ada", lastName: "Lovelace", role: "ai_bi_user" });
    expect((await t.api("POST", `/api/v1/users/${u.id}`, { role: "admin" }, u.token)).status).toBe(403);
    expect((await t.api("POST", `/api/v1/users/${u.id}`, { password: "x" })).status).toBe(400);
    expect((await t.api("POST", "/api/v1/users/99999", { firstName: "x" })).status).toBe(404);
  });

  it("deactivation ends the user's keys and login sessions on the next request; activation restores the keys only", async () => {
    const res = await t.api("POST", "/api/v1/users/", { email: "deact@example.com", role: "developer", password: PASSWORD });
    const { id } = (await res.json()) as { id: number };
    const { createApiKey } = await import("../api-keys/service");
    const { token } = await createApiKey(t.database.db, { userId: id, name: "k" });
    const { cookie } = await login("deact@example.com");
    expect((await me(cookie)).status).toBe(200);
    expect((await t.api("GET", "/api/v1/auth/me", undefined, token)).status).toBe(200);

    expect((await t.api("PUT", `/api/v1/users/${id}`, { status: "inactive" })).status).toBe(200);
    expect((await t.api("GET", "/api/v1/auth/me", undefined, token)).status).toBe(401);
    expect((await me(cookie)).status).toBe(401);
    expect((await login("deact@example.com")).status).toBe(401);
    const sessions = await t.database.db.select().from(loginSessions).where(eq(loginSessions.userId, id));
    expect(sessions.every((s) => s.revokedAt !== null)).toBe(true);

    expect((await t.api("PUT", `/api/v1/users/${id}`, { status: "active" })).status).toBe(200);
    expect((await t.api("GET", "/api/v1/auth/me", undefined, token)).status).toBe(200);
    expect((await me(cookie)).status).toBe(401);
  });

  it("never lets an admin lock themself out or leave the tenant without an admin", async () => {
    const self = await t.api("PUT", `/api/v1/users/${t.adminUserId}`, { status: "inactive" });
    expect(self.status).toBe(403);
    expect((await t.api("PUT", `/api/v1/users/${t.adminUserId}`, { role: "viewer" })).status).toBe(403);
    expect((await t.api("DELETE", `/api/v1/users/${t.adminUserId}`)).status).toBe(403);
    const other = await t.addUser("admin2@example.com", "admin");
    // The second admin may demote the first: one active admin remains.
    expect((await t.api("PUT", `/api/v1/users/${t.adminUserId}`, { role: "developer" }, other.token)).status).toBe(200);
    // Now the second is the only admin; the first (a developer) cannot act, and the second cannot step down.
    expect((await t.api("PUT", `/api/v1/users/${other.id}`, { role: "viewer" }, other.token)).status).toBe(403);
    expect((await t.api("PUT", `/api/v1/users/${t.adminUserId}`, { role: "admin" }, other.token)).status).toBe(200);
    expect((await t.api("PUT", `/api/v1/users/${other.id}`, { status: "inactive" })).status).toBe(200);
  });

  it("deletes a user without content, and deactivates one who owns content, keeping it", async () => {
    const plain = await t.addUser("plain@example.com", "viewer");
    expect((await t.api("DELETE", `/api/v1/users/${plain.id}`)).status).toBe(204);
    expect((await t.api("GET", `/api/v1/users/${plain.id}`)).status).toBe(404);

    const owner = await t.addUser("owner@example.com", "developer");
    const [dep] = await t.addDeployments("users-owned");
    const [wb] = await t.database.db.insert(workbooks).values({ deploymentId: dep!, name: "Owned", createdBy: owner.id }).returning();
    expect((await t.api("DELETE", `/api/v1/users/${owner.id}`)).status).toBe(204);
    expect(await (await t.api("GET", `/api/v1/users/${owner.id}`)).json()).toMatchObject({ status: "inactive" });
    const [kept] = await t.database.db.select().from(workbooks).where(eq(workbooks.id, wb!.id));
    expect(kept!.createdBy).toBe(owner.id);
    expect((await t.api("GET", "/api/v1/auth/me", undefined, owner.token)).status).toBe(401);
    // Deleting the deactivated owner removes them; the workbook stays, without an owner.
    expect((await t.api("DELETE", `/api/v1/users/${owner.id}`)).status).toBe(204);
    expect((await t.api("GET", `/api/v1/users/${owner.id}`)).status).toBe(404);
    const [orphan] = await t.database.db.select().from(workbooks).where(eq(workbooks.id, wb!.id));
    expect(orphan!.createdBy).toBeNull();
  });

  it("bulk actions report each user's failure and apply the rest", async () => {
    const a = await t.addUser("bulk-a@example.com", "viewer");
    const b = await t.addUser("bulk-b@example.com", "viewer");
    const deact = await t.api("POST", "/api/v1/users/bulk", { action: "DEACTIVATE", userIds: [a.id, t.adminUserId, 424242, b.id] });
    expect(deact.status).toBe(200);
    const body = await deact.json();
    expect(body.succeeded).toEqual([a.id, b.id]);
    expect(body.failed).toEqual([
      { userId: t.adminUserId, code: "forbidden", message: expect.any(String) },
      { userId: 424242, code: "not_found", message: "User not found" },
    ]);
    expect((await t.api("GET", "/api/v1/auth/me", undefined, a.token)).status).toBe(401);
    const act = await (await t.api("POST", "/api/v1/users/bulk", { action: "ACTIVATE", userIds: [a.id] })).json();
    expect(act).toEqual({ succeeded: [a.id], failed: [] });
    expect((await t.api("GET", "/api/v1/auth/me", undefined, a.token)).status).toBe(200);
    const del = await (await t.api("POST", "/api/v1/users/bulk", { action: "DELETE", userIds: [a.id, b.id] })).json();
    expect(del.succeeded).toEqual([a.id, b.id]);
    expect((await t.api("GET", `/api/v1/users/${b.id}`)).status).toBe(404);
  });

  it("refuses bad bulk input and non-admins, and audits every change in the logs", async () => {
    const v = await t.addUser("bulk-v@example.com", "developer");
    expect((await t.api("POST", "/api/v1/users/bulk", { action: "DEACTIVATE", userIds: [v.id] }, v.token)).status).toBe(403);
    expect((await t.api("POST", "/api/v1/users/bulk", { action: "PURGE", userIds: [v.id] })).status).toBe(400);
    expect((await t.api("POST", "/api/v1/users/bulk", { action: "DELETE", userIds: [] })).status).toBe(400);
    expect((await t.api("POST", "/api/v1/users/bulk", { action: "DELETE", userIds: [0] })).status).toBe(400);
    const lines = await t.database.db.select().from(deploymentLogs);
    const messages = lines.map((l) => l.message);
    expect(messages).toEqual(expect.arrayContaining(["user created", "user updated", "user deleted", "user deactivated", "users bulk action"]));
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);
  });
});
