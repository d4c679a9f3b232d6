import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { base64url, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

/** A local OpenID issuer (outside the product): discovery and JWKS over HTTP, tokens signed with its key. */
async function startIssuer() {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "issuer-key-1", alg: "RS256", use: "sig" };
  let issuer = "";
  const server: Server = createServer((req, res) => {
    if (req.url === "/.well-known/openid-configuration") {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks`, id_token_signing_alg_values_supported: ["RS256"] }));
    } else if (req.url === "/jwks") {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ keys: [jwk] }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sign = (claims: Record<string, unknown>, opts: { key?: CryptoKey; kid?: string; exp?: string | number | null; iss?: string } = {}) => {
    const jwt = new SignJWT({ sub: "repo:acme/shop:ref:refs/heads/main", ...claims })
      .setProtectedHeader({ alg: "RS256", kid: opts.kid ?? "issuer-key-1" })
      .setIssuer(opts.iss ?? issuer)
      .setIssuedAt();
    if (opts.exp !== null) jwt.setExpirationTime(opts.exp ?? "5m");
    return jwt.sign(opts.key ?? privateKey);
  };
  return {
    get url() {
      return issuer;
    },
    sign,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(storageKinds)("OIDC token configs (%s)", (storage) => {
  let t: TestPlatform;
  let issuer: Awaited<ReturnType<typeof startIssuer>>;
  let configId: number;
  const me = (token: string) => t.api("GET", "/api/v1/auth/me", undefined, token);

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    issuer = await startIssuer();
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  it("creates a config, admin only, validating the issuer", async () => {
    const res = await t.api("POST", "/api/v1/oidc-token-configs/", {
      name: "CI deploys",
      issuer: issuer.url + "/",
      audience: "svc-ci",
      claims: { repository: "acme/shop", ref: "refs/heads/main" },
      role: "developer",
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ name: "CI deploys", issuer: issuer.url, audience: "svc-ci", role: "developer", userId: expect.any(Number) });
    configId = body.id;
    expect((await t.api("GET", "/api/v1/oidc-token-configs/")).status).toBe(200);
    expect((await (await t.api("GET", "/api/v1/oidc-token-configs/")).json()).items).toHaveLength(1);
    const dup = await t.api("POST", "/api/v1/oidc-token-configs/", { name: "ci DEPLOYS", issuer: issuer.url, audience: "x", role: "viewer" });
    expect(dup.status).toBe(409);
    for (const bad of ["http://idp.example.com", "ftp://127.0.0.1", "https://idp.example.com/?q=1", "not a url"]) {
      const r = await t.api("POST", "/api/v1/oidc-token-configs/", { name: "x", issuer: bad, audience: "a", role: "viewer" });
      expect(r.status, bad).toBe(400);
      expect((await r.json()).details[0].path).toEqual(["issuer"]);
    }
    expect((await t.api("POST", "/api/v1/oidc-token-configs/", { name: "x", issuer: issuer.url, audience: "a", role: "owner" })).status).toBe(400);
    const dev = await t.addUser("oidc-dev@example.com", "developer");
    expect((await t.api("GET", "/api/v1/oidc-token-configs/", undefined, dev.token)).status).toBe(403);
    expect((await t.api("POST", "/api/v1/oidc-token-configs/", { name: "y", issuer: issuer.url, audience: "a", role: "admin" }, dev.token)).status).toBe(403);
  });

  it("lets a workload call the API with a matching ID token, with the config's role", async () => {
    const token = await issuer.sign({ aud: "svc-ci", repository: "acme/shop", ref: "refs/heads/main" });
    const res = await me(token);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ via: "oidc_token", user: { role: "developer", firstName: "CI deploys" } });
    // A developer may create deployments, not administer users.
    expect((await t.api("POST", "/api/v1/users/", { email: "w@example.com" }, token)).status).toBe(403);
    // An array audience that includes ours is accepted too.
    expect((await me(await issuer.sign({ aud: ["other", "svc-ci"], repository: "acme/shop", ref: "refs/heads/main" }))).status).toBe(200);
  });

  it("refuses alg none, foreign keys, shared secrets, expired, unexpiring and mismatched tokens with 401", async () => {
    const claims = { aud: "svc-ci", repository: "acme/shop", ref: "refs/heads/main" };
    const now = Math.floor(Date.now() / 1000);
    const enc = (o: unknown) => base64url.encode(JSON.stringify(o));
    const unsigned = `${enc({ alg: "none", typ: "JWT" })}.${enc({ ...claims, iss: issuer.url, sub: "x", iat: now, exp: now + 300 })}.`;
    const foreign = (await generateKeyPair("RS256")).privateKey;
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", kid: "issuer-key-1" })
      .setIssuer(issuer.url)
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode("a-shared-secret-of-thirty-two-bytes!"));
    const cases: [string, string][] = [
      ["alg none", unsigned],
      ["foreign key, issuer's kid", await issuer.sign(claims, { key: foreign })],
      ["foreign key, unknown kid", await issuer.sign(claims, { key: foreign, kid: "attacker" })],
      ["HS256", hs],
      ["expired", await issuer.sign(claims, { exp: now - 120 })],
      ["wrong audience", await issuer.sign({ ...claims, aud: "another-api" })],
      ["claim mismatch", await issuer.sign({ ...claims, ref: "refs/heads/feature" })],
      ["claim missing", await issuer.sign({ aud: "svc-ci", repository: "acme/shop" })],
      ["unknown issuer", await issuer.sign(claims, { iss: "https://idp.example.com" })],
      ["not a JWT", "definitely-not-a-token"],
    ];
    for (const [what, token] of cases) {
      const res = await me(token);
      expect(res.status, what).toBe(401);
      expect((await res.json()).code, what).toBe("unauthorized");
    }
    // A token without exp never verifies, even signed by the issuer.
    expect((await me(await issuer.sign(claims, { exp: null }))).status).toBe(401);
    expect((await me(await issuer.sign(claims))).status).toBe(200);
  });

  it("applies a changed role and a deletion to the next request", async () => {
    const token = await issuer.sign({ aud: "svc-ci", repository: "acme/shop", ref: "refs/heads/main" });
    const up = await t.api("PUT", `/api/v1/oidc-token-configs/${configId}`, { role: "viewer" });
    expect(await up.json()).toMatchObject({ role: "viewer" });
    expect(await (await me(token)).json()).toMatchObject({ user: { role: "viewer" } });
    expect((await t.api("PUT", `/api/v1/oidc-token-configs/${configId}`, { claims: { repository: "acme/other" } })).status).toBe(200);
    expect((await me(token)).status).toBe(401);
    expect((await t.api("DELETE", `/api/v1/oidc-token-configs/${configId}`)).status).toBe(204);
    expect((await t.api("GET", `/api/v1/oidc-token-configs/${configId}`)).status).toBe(404);
    expect((await t.api("DELETE", `/api/v1/oidc-token-configs/${configId}`)).status).toBe(404);
    expect((await me(token)).status).toBe(401);
  });
});
