import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploymentLogs, signInLinks, users } from "../../db/schema";
import { createLogger } from "../../logger";
import { seedDeployment, seedPublishedDashboard, type SeededDashboard } from "../../testing/embed-access-fixtures";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";
import { createSignInLink, SIGN_IN_LINK_TTL_MS, signInUrl } from "./service";

describe.each(storageKinds)("one-time sign-in links (%s)", (storage) => {
  let t: TestPlatform;
  let dash: SeededDashboard;
  let viewerId: number;
  let viewer: { id: number; token: string };
  // Every line the platform logs, at the most talkative level.
  const logLines: string[] = [];
  const tokensSeen: string[] = [];

  function browser(method: string, path: string, opts: { cookie?: string; body?: unknown } = {}) {
    const headers: Record<string, string> = {};
    if (opts.cookie) headers.cookie = opts.cookie;
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    return Promise.resolve(t.app.request(path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) }));
  }
  const signInWith = (token: string) => browser("POST", "/api/v1/auth/sign-in-link", { body: { token } });

  beforeAll(async () => {
    const logger = createLogger("debug", (line) => logLines.push(line));
    t = await createTestPlatform({ storage, mutateDeps: (deps) => ({ ...deps, logger }) });
    const dep = await seedDeployment(t.database.db, "private");
    dash = await seedPublishedDashboard(t.database.db, { deploymentId: dep, publicId: "LinkDash0001", title: "Private sales", allowEmbed: false });
    viewer = await t.addUser("linked@example.com", "viewer");
    viewerId = viewer.id;
  });
  afterAll(() => t?.close());

  it("signs in once: the cookie opens private mode, the same link a second time is refused", async () => {
    const { token, expiresAt } = await createSignInLink(t.database.db, t.adminUserId);
    tokensSeen.push(token);
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(SIGN_IN_LINK_TTL_MS - 60_000);
    const res = await signInWith(token);
    expect(res.status).toBe(200);
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^svc_session=[A-Za-z0-9_-]{40,};/);
    for (const attr of ["HttpOnly", "Secure", "SameSite=None", "Partitioned"]) expect(setCookie).toContain(attr);
    const body = await res.json();
    expect(body).toMatchObject({ user: { id: t.adminUserId, role: "admin" }, csrfToken: expect.any(String) });
    const cookie = setCookie.split(";")[0]!;
    expect((await browser("GET", "/api/v1/auth/me", { cookie })).status).toBe(200);
    const page = await browser("GET", `/api/v1/embed/dashboard/${dash.publicId}`, { cookie });
    expect(page.status).toBe(200);
    expect((await page.json()).viewer).toMatchObject({ mode: "private" });

    const again = await signInWith(token);
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ code: "unauthorized", message: "This sign-in link is unknown, was already used or has expired" });
    expect(again.headers.get("set-cookie")).toBeNull();
    // The session the link opened goes on.
    expect((await browser("GET", "/api/v1/auth/me", { cookie })).status).toBe(200);
  });

  it("lets exactly one of two simultaneous uses through", async () => {
    const { token } = await createSignInLink(t.database.db, viewerId);
    tokensSeen.push(token);
    const statuses = (await Promise.all([signInWith(token), signInWith(token), signInWith(token)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 401, 401]);
  });

  it("refuses an expired link, a link of an inactive user, and tokens that never were", async () => {
    const expired = await createSignInLink(t.database.db, viewerId, { now: new Date(Date.now() - SIGN_IN_LINK_TTL_MS - 1000) });
    tokensSeen.push(expired.token);
    expect((await signInWith(expired.token)).status).toBe(401);

    const [inactive] = await t.database.db.insert(users).values({ email: "gone@example.com", role: "viewer", status: "inactive" }).returning();
    const gone = await createSignInLink(t.database.db, inactive!.id);
    tokensSeen.push(gone.token);
    expect((await signInWith(gone.token)).status).toBe(401);

    for (const token of ["x", "A".repeat(43), expired.token.slice(0, -1)]) expect((await signInWith(token)).status, token).toBe(401);
    expect((await signInWith("A".repeat(201))).status).toBe(400);
  });

  it("stores only the token's hash", async () => {
    const { token } = await createSignInLink(t.database.db, viewerId);
    tokensSeen.push(token);
    const rows = await t.database.db.select().from(signInLinks).where(eq(signInLinks.userId, viewerId));
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("lets an admin create a link for a user, opening a dashboard; nobody else", async () => {
    const res = await t.api("POST", `/api/v1/users/${viewerId}/sign-in-links`, { dashboardPublicId: dash.publicId });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const link = await res.json();
    tokensSeen.push(link.token);
    expect(link.url).toBe(signInUrl(`http://localhost/embed/dashboard/${dash.publicId}`, link.token));
    expect(link.url).toMatch(/\/embed\/dashboard\/LinkDash0001#sign-in=[A-Za-z0-9_-]{43}$/);
    const signedIn = await signInWith(link.token);
    expect(signedIn.status).toBe(200);
    expect((await signedIn.json()).user).toMatchObject({ id: viewerId, role: "viewer" });

    // Without a dashboard named: the first published one.
    const first = await (await t.api("POST", `/api/v1/users/${viewerId}/sign-in-links`)).json();
    tokensSeen.push(first.token);
    expect(first.url).toContain(`/embed/dashboard/${dash.publicId}#sign-in=`);

    // Audited, without the token.
    const audit = await t.database.db.select().from(deploymentLogs).where(eq(deploymentLogs.message, "sign-in link created"));
    expect(audit.map((l) => l.details)).toContainEqual(expect.objectContaining({ actorUserId: t.adminUserId, userId: viewerId }));
    expect(JSON.stringify(audit)).not.toContain(link.token);

    expect((await t.api("POST", `/api/v1/users/${viewerId}/sign-in-links`, { dashboardPublicId: "NoSuchDash00" })).status).toBe(404);
    expect((await t.api("POST", "/api/v1/users/999999/sign-in-links", {})).status).toBe(404);
    // A viewer may not make links, for others or for themself.
    expect((await t.api("POST", `/api/v1/users/${t.adminUserId}/sign-in-links`, {}, viewer.token)).status).toBe(403);
    expect((await t.api("POST", `/api/v1/users/${viewerId}/sign-in-links`, {}, viewer.token)).status).toBe(403);
  });

  it("never writes a link's token into the logs", () => {
    expect(tokensSeen.length).toBeGreaterThanOrEqual(7);
    expect(logLines.length).toBeGreaterThan(10);
    const all = logLines.join("\n");
    for (const token of tokensSeen) expect(all).not.toContain(token);
  });
});
