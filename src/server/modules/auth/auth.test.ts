import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginSessions, users } from "../../db/schema";
import { seedDeployment, seedPublishedDashboard, type SeededDashboard } from "../../testing/embed-access-fixtures";
import { hashPassword } from "./service";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

describe.each(storageKinds)("login and private mode (%s)", (storage) => {
  let t: TestPlatform;
  let viewerId: number;
  let dash: SeededDashboard;
  let hidden: SeededDashboard;
  const PASSWORD = "correct horse battery";

  /** A request as a browser would send it: cookie, optional CSRF header, no API key. */
  function browser(method: string, path: string, opts: { cookie?: string; csrf?: string; body?: unknown } = {}) {
    const headers: Record<string, string> = {};
    if (opts.cookie) headers.cookie = opts.cookie;
    if (opts.csrf) headers["x-csrf-token"] = opts.csrf;
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    return Promise.resolve(t.app.request(path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) }));
  }

  async function login(email = "viewer@example.com", password = PASSWORD) {
    const res = await browser("POST", "/api/v1/auth/login", { body: { email, password } });
    expect(res.status).toBe(200);
    const setCookie = res.headers.get("set-cookie") ?? "";
    const cookie = setCookie.split(";")[0]!;
    const body = await res.json();
    return { cookie, csrf: body.csrfToken as string, setCookie, body };
  }

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    const db = t.database.db;
    const [u] = await db
      .insert(users)
      .values({ email: "Viewer@Example.com", role: "viewer", passwordHash: await hashPassword(PASSWORD) })
      .returning();
    viewerId = u!.id;
    await db.insert(users).values({ email: "locked@example.com", role: "viewer", status: "inactive", passwordHash: await hashPassword(PASSWORD) });
    const dep = await seedDeployment(db, "private");
    dash = await seedPublishedDashboard(db, { deploymentId: dep, publicId: "PrivDash0001", title: "Private sales", createdBy: viewerId, allowEmbed: false });
    hidden = await seedPublishedDashboard(db, { deploymentId: dep, publicId: "PrivHide0001", title: "Board only" });
  });
  afterAll(() => t?.close());

  it("logs in with a cookie that works inside a cross-site iframe", async () => {
    const { setCookie, body, csrf } = await login("  VIEWER@example.com ");
    expect(setCookie).toMatch(/^svc_session=[A-Za-z0-9_-]{40,};/);
    for (const attr of ["HttpOnly", "Secure", "SameSite=None", "Partitioned", "Path=/"]) expect(setCookie).toContain(attr);
    expect(body.user).toMatchObject({ id: viewerId, role: "viewer" });
    expect(csrf.length).toBeGreaterThanOrEqual(24);
    const rows = await t.database.db.select().from(loginSessions).where(eq(loginSessions.userId, viewerId));
    expect(JSON.stringify(rows)).not.toContain(setCookie.split(";")[0]!.split("=")[1]);
  });

  it("answers me with the user and the session's CSRF token", async () => {
    const { cookie, csrf } = await login();
    const res = await browser("GET", "/api/v1/auth/me", { cookie });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ user: { id: viewerId }, via: "login_session", csrfToken: csrf });
    expect((await browser("GET", "/api/v1/auth/me")).status).toBe(401);
  });

  it("refuses wrong passwords, unknown and inactive users alike", async () => {
    for (const [email, password] of [
      ["viewer@example.com", "wrong password!"],
      ["nobody@example.com", PASSWORD],
      ["locked@example.com", PASSWORD],
    ]) {
      const res = await browser("POST", "/api/v1/auth/login", { body: { email, password } });
      expect(res.status, email).toBe(401);
      expect(await res.json()).toEqual({ code: "unauthorized", message: "Email or password is incorrect" });
      expect(res.headers.get("set-cookie")).toBeNull();
    }
  });

  it("shows the dashboard in private mode to a user with access, and not to others", async () => {
    const { cookie } = await login();
    const res = await browser("GET", `/api/v1/embed/dashboard/${dash.publicId}`, { cookie });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.dashboard).toMatchObject({ publicId: dash.publicId, title: "Private sales", versionNumber: 1 });
    expect(body.viewer).toMatchObject({ mode: "private", deploymentId: dash.deploymentId, embedTenant: null });
    const denied = await browser("GET", `/api/v1/embed/dashboard/${hidden.publicId}`, { cookie });
    expect(denied.status).toBe(404);
    expect(await denied.text()).not.toContain("Board only");
  });

  it("requires the CSRF token on cookie-authenticated writes, not on API-key writes", async () => {
    const { cookie, csrf } = await login();
    const body = { password: "a new password 1", currentPassword: PASSWORD };
    const missing = await browser("PUT", `/api/v1/users/${viewerId}/password`, { cookie, body });
    expect(missing.status).toBe(403);
    expect((await missing.json()).code).toBe("csrf_failed");
    const wrong = await browser("PUT", `/api/v1/users/${viewerId}/password`, { cookie, csrf: csrf.slice(0, -2) + "xx", body });
    expect(wrong.status).toBe(403);
    const other = await login();
    const foreign = await browser("PUT", `/api/v1/users/${viewerId}/password`, { cookie, csrf: other.csrf, body });
    expect(foreign.status).toBe(403);
    // Reading needs no token; an API key needs none either.
    expect((await browser("GET", "/api/v1/auth/me", { cookie })).status).toBe(200);
    expect((await t.api("PUT", "/api/v1/embed/allowed-origins", { origins: [] })).status).toBe(200);
    // Still the old password: no refused write went through.
    const again = await browser("POST", "/api/v1/auth/login", { body: { email: "viewer@example.com", password: PASSWORD } });
    expect(again.status).toBe(200);
  });

  it("changes the own password with the current one and ends the other sessions", async () => {
    const mine = await login();
    const elsewhere = await login();
    const noCurrent = await browser("PUT", `/api/v1/users/${viewerId}/password`, {
      cookie: mine.cookie,
      csrf: mine.csrf,
      body: { password: "another password 2" },
    });
    expect(noCurrent.status).toBe(400);
    const short = await browser("PUT", `/api/v1/users/${viewerId}/password`, {
      cookie: mine.cookie,
      csrf: mine.csrf,
      body: { password: "short", currentPassword: PASSWORD },
    });
    expect(short.status).toBe(400);
    const ok = await browser("PUT", `/api/v1/users/${viewerId}/password`, {
      cookie: mine.cookie,
      csrf: mine.csrf,
      body: { password: "another password 2", currentPassword: PASSWORD },
    });
    expect(ok.status).toBe(204);
    expect((await browser("GET", "/api/v1/auth/me", { cookie: mine.cookie })).status).toBe(200);
    expect((await browser("GET", "/api/v1/auth/me", { cookie: elsewhere.cookie })).status).toBe(401);
    // The admin resets it without knowing the old one; a viewer cannot set someone else's.
    expect((await t.api("PUT", `/api/v1/users/${viewerId}/password`, { password: PASSWORD })).status).toBe(204);
    const admin = await browser("PUT", `/api/v1/users/${t.adminUserId}/password`, {
      cookie: mine.cookie,
      csrf: mine.csrf,
      body: { password: "take over admin" },
    });
    expect(admin.status).toBe(401); // the reset above ended this session too
  });

  it("logs out: the cookie is cleared and the session no longer works", async () => {
    const { cookie, csrf } = await login();
    const res = await browser("POST", "/api/v1/auth/logout", { cookie, csrf });
    expect(res.status).toBe(204);
    expect(res.headers.get("set-cookie")).toMatch(/svc_session=;.*Max-Age=0/);
    expect((await browser("GET", "/api/v1/auth/me", { cookie })).status).toBe(401);
    expect((await browser("POST", "/api/v1/auth/logout", { cookie })).status).toBe(204);
  });

  it("ends an expired login session", async () => {
    const { cookie } = await login();
    await t.database.db
      .update(loginSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(loginSessions.userId, viewerId));
    expect((await browser("GET", "/api/v1/auth/me", { cookie })).status).toBe(401);
    expect((await browser("GET", `/api/v1/embed/dashboard/${dash.publicId}`, { cookie })).status).toBe(401);
  });

  it("rate-limits a brute force with a clear 429 and Retry-After", async () => {
    const attempt = (password: string) => browser("POST", "/api/v1/auth/login", { body: { email: "brute@example.com", password } });
    await t.database.db.insert(users).values({ email: "brute@example.com", passwordHash: await hashPassword(PASSWORD) });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await attempt(`guess ${i}`)).status);
    expect(statuses.every((s) => s === 401)).toBe(true);
    const limited = await attempt(PASSWORD);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: "rate_limited" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Other accounts are not locked out by it.
    expect((await browser("POST", "/api/v1/auth/login", { body: { email: "viewer@example.com", password: PASSWORD } })).status).toBe(200);
  });
});
