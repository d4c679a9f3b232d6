import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import Provider from "oidc-provider";
import * as oauth from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthIntegrations, userOauthTokens } from "../../db/schema";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";
import { accessTokenFor } from "./service";

const CLIENT_SECRET = "provider-client-secret-7f3a9d";
const REDIRECT = "http://localhost/api/v1/user-oauth-tokens/callback";

/** A real authorization server (oidc-provider) on a local port; its login and consent are granted at once for "alice". */
async function startAuthorizationServer() {
  const server: Server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: "svc-platform",
        client_secret: CLIENT_SECRET,
        redirect_uris: [REDIRECT],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    features: { revocation: { enabled: true }, devInteractions: { enabled: false } },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["test-cookie-key-1"] },
  });
  provider.use(async (ctx, next) => {
    if (ctx.path.startsWith("/interaction/")) {
      const details = await provider.interactionDetails(ctx.req, ctx.res);
      const grant = new provider.Grant({ accountId: "alice", clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(ctx.req, ctx.res, { login: { accountId: "alice" }, consent: { grantId } }, { mergeWithLastSubmission: false });
      return;
    }
    await next();
  });
  server.on("request", provider.callback());
  return { issuer, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Follows the authorization server's redirects as a browser would (cookies kept) until it sends the user back to us. */
async function authorizeInBrowser(url: string): Promise<URL> {
  const jar = new Map<string, string>();
  let next = new URL(url);
  for (let i = 0; i < 10; i++) {
    if (next.href.startsWith(REDIRECT)) return next;
    const res = await fetch(next, { redirect: "manual", headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const [k, ...v] = pair!.split("=");
      jar.set(k!, v.join("="));
    }
    const location = res.headers.get("location");
    if (!location) throw new Error(`no redirect from ${next.pathname}: ${res.status} ${await res.text()}`);
    next = new URL(location, next);
  }
  throw new Error("too many redirects");
}

describe.each(storageKinds)("OAuth integrations and user tokens (%s)", (storage) => {
  let t: TestPlatform;
  let as: Awaited<ReturnType<typeof startAuthorizationServer>>;
  let integrationId: number;
  let dev: { id: number; token: string };
  let other: { id: number; token: string };
  let callbackQuery: string;

  const userinfo = (accessToken: string) => fetch(`${as.issuer}/me`, { headers: { authorization: `Bearer ${accessToken}` } });

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    as = await startAuthorizationServer();
    dev = await t.addUser("oauth-dev@example.com", "developer");
    other = await t.addUser("oauth-other@example.com", "developer");
  });
  afterAll(async () => {
    await t?.close();
    await as?.close();
  });

  it("keeps an integration with a write-only, sealed client secret (admin only)", async () => {
    const res = await t.api("POST", "/api/v1/oauth-integrations/", {
      name: "Company SSO",
      provider: "oidc",
      clientId: "svc-platform",
      clientSecret: CLIENT_SECRET,
      authorizationUrl: `${as.issuer}/auth`,
      tokenUrl: `${as.issuer}/token`,
      revocationUrl: `${as.issuer}/token/revocation`,
      scopes: ["openid", "profile"],
      redirectUri: REDIRECT,
    });
    const text = await res.text();
    expect(res.status, text).toBe(201);
    expect(text).not.toContain(CLIENT_SECRET);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ name: "Company SSO", hasClientSecret: true, redirectUri: REDIRECT });
    integrationId = body.id;
    const [row] = await t.database.db.select().from(oauthIntegrations).where(eq(oauthIntegrations.id, integrationId));
    expect(row!.clientSecretEncrypted).toMatch(/^v1\./);
    expect(JSON.stringify(await (await t.api("GET", "/api/v1/oauth-integrations/")).json())).not.toContain(CLIENT_SECRET);
    expect((await t.api("GET", "/api/v1/oauth-integrations/", undefined, dev.token)).status).toBe(403);
    expect(
      (
        await t.api(
          "POST",
          "/api/v1/oauth-integrations/",
          { name: "x", provider: "x", clientId: "c", authorizationUrl: `${as.issuer}/auth`, tokenUrl: `${as.issuer}/token` },
          dev.token,
        )
      ).status,
    ).toBe(403);
    const bad = await t.api("POST", "/api/v1/oauth-integrations/", {
      name: "Bad",
      provider: "x",
      clientId: "c",
      authorizationUrl: "http://evil.example.com/auth",
      tokenUrl: `${as.issuer}/token`,
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).details[0].path).toEqual(["authorizationUrl"]);
    expect((await t.api("PUT", `/api/v1/oauth-integrations/${integrationId}`, { name: "company sso" })).status).toBe(200);
    expect((await t.api("PUT", "/api/v1/oauth-integrations/99999", { name: "x" })).status).toBe(404);
  });

  it("initiates with PKCE and a state bound to the caller", async () => {
    const res = await t.api("POST", `/api/v1/user-oauth-tokens/${integrationId}/initiate`, undefined, dev.token);
    expect(res.status).toBe(200);
    const url = new URL((await res.json()).authorizationUrl);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("state")).toBeTruthy();
    const back = await authorizeInBrowser(url.href);
    expect(back.searchParams.get("code")).toBeTruthy();
    callbackQuery = back.search;
    // Another user cannot complete it, and their attempt does not use it up.
    const stolen = await t.api("GET", `/api/v1/user-oauth-tokens/callback${callbackQuery}`, undefined, other.token);
    expect(stolen.status).toBe(403);
    expect((await t.api("GET", `/api/v1/user-oauth-tokens/callback${callbackQuery}`, undefined, null)).status).toBe(401);
  });

  it("stores the caller's tokens sealed and never returns them", async () => {
    const res = await t.api("GET", `/api/v1/user-oauth-tokens/callback${callbackQuery}`, undefined, dev.token);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ integrationId, integrationName: "company sso", refreshable: true, scope: expect.stringContaining("openid") });
    // The state is single-use.
    expect((await t.api("GET", `/api/v1/user-oauth-tokens/callback${callbackQuery}`, undefined, dev.token)).status).toBe(400);
    const [row] = await t.database.db.select().from(userOauthTokens).where(eq(userOauthTokens.userId, dev.id));
    const access = t.deps.secretBox.open(row!.accessTokenEncrypted);
    expect(row!.accessTokenEncrypted).not.toContain(access);
    expect((await userinfo(access)).status).toBe(200);
    expect(await (await userinfo(access)).json()).toMatchObject({ sub: "alice" });
    const list = await (await t.api("GET", "/api/v1/user-oauth-tokens/", undefined, dev.token)).text();
    expect(list).not.toContain(access);
    expect(JSON.parse(list).items).toHaveLength(1);
    expect((await (await t.api("GET", "/api/v1/user-oauth-tokens/", undefined, other.token)).json()).items).toEqual([]);
    expect((await t.api("GET", `/api/v1/user-oauth-tokens/${integrationId}`, undefined, other.token)).status).toBe(404);
  });

  it("refreshes an expired access token with the refresh token", async () => {
    const where = and(eq(userOauthTokens.userId, dev.id), eq(userOauthTokens.integrationId, integrationId));
    const [before] = await t.database.db.select().from(userOauthTokens).where(where);
    const oldAccess = t.deps.secretBox.open(before!.accessTokenEncrypted);
    // Still valid: the same token.
    expect(await accessTokenFor(t.deps, dev.id, integrationId)).toBe(oldAccess);
    await t.database.db
      .update(userOauthTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(where);
    const fresh = await accessTokenFor(t.deps, dev.id, integrationId);
    expect(fresh).not.toBe(oldAccess);
    expect((await userinfo(fresh)).status).toBe(200);
    const [after] = await t.database.db.select().from(userOauthTokens).where(where);
    expect(after!.expiresAt!.getTime()).toBeGreaterThan(Date.now());
  });

  it("revokes at the server and forgets the tokens", async () => {
    const [row] = await t.database.db.select().from(userOauthTokens).where(eq(userOauthTokens.userId, dev.id));
    const refresh = t.deps.secretBox.open(row!.refreshTokenEncrypted!);
    expect((await t.api("DELETE", `/api/v1/user-oauth-tokens/${integrationId}`, undefined, dev.token)).status).toBe(204);
    expect((await t.api("GET", `/api/v1/user-oauth-tokens/${integrationId}`, undefined, dev.token)).status).toBe(404);
    expect((await t.api("DELETE", `/api/v1/user-oauth-tokens/${integrationId}`, undefined, dev.token)).status).toBe(404);
    // The revoked refresh token no longer works at the authorization server.
    const config = new oauth.Configuration(
      { issuer: as.issuer, token_endpoint: `${as.issuer}/token` },
      "svc-platform",
      CLIENT_SECRET,
      oauth.ClientSecretPost(CLIENT_SECRET),
    );
    oauth.allowInsecureRequests(config);
    await expect(oauth.refreshTokenGrant(config, refresh)).rejects.toThrow();
    await expect(accessTokenFor(t.deps, dev.id, integrationId)).rejects.toMatchObject({ code: "oauth_reconnect_required" });
  });

  it("refuses unknown states and integrations", async () => {
    expect((await t.api("GET", "/api/v1/user-oauth-tokens/callback?state=made-up&code=x", undefined, dev.token)).status).toBe(400);
    expect((await t.api("GET", "/api/v1/user-oauth-tokens/callback?error=access_denied&state=x", undefined, dev.token)).status).toBe(400);
    expect((await t.api("POST", "/api/v1/user-oauth-tokens/99999/initiate", undefined, dev.token)).status).toBe(404);
    expect((await t.api("DELETE", `/api/v1/oauth-integrations/${integrationId}`)).status).toBe(204);
    expect((await t.api("GET", `/api/v1/oauth-integrations/${integrationId}`)).status).toBe(404);
  });
});
