import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userOauthTokens } from "../../db/schema";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

const TOKEN = "gho_userAccessToken0123456789";

/** A local double of a git host's REST API (outside the product); it records what it was asked and with which token. */
async function startHostDouble() {
  const seen: { path: string; auth: string | undefined }[] = [];
  let failNext = false;
  const routes: Record<string, unknown> = {
    "/user": { id: 7, login: "octo" },
    "/user/installations": { installations: [{ id: 42, account: { login: "acme", type: "Organization" } }] },
    "/user/installations/42/repositories?per_page=100": {
      repositories: [{ id: 1, name: "shop", full_name: "acme/shop", private: true, default_branch: "main", owner: { id: 99, login: "acme" } }],
    },
    "/repos/acme/shop/branches?per_page=100": [
      { name: "main", commit: { sha: "abc123" }, protected: true },
      { name: "dev", commit: { sha: "def456" } },
    ],
    "/user/orgs": [{ id: 99, username: "acme" }],
    "/user/repos?limit=50": [
      { id: 1, name: "shop", full_name: "acme/shop", private: false, default_branch: "main", owner: { id: 99, login: "acme" } },
      { id: 2, name: "dotfiles", full_name: "octo/dotfiles", private: false, owner: { id: 7, login: "octo" } },
    ],
  };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const path = req.url!.replace(/^\/api\/v3/, "");
    seen.push({ path, auth: req.headers.authorization });
    if (failNext) {
      failNext = false;
      res.writeHead(500).end("{}");
      return;
    }
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end("{}");
    const body = routes[path];
    if (body === undefined) return void res.writeHead(404).end("{}");
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, failOnce: () => (failNext = true), close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe.each(storageKinds)("git host discovery (%s)", (storage) => {
  let t: TestPlatform;
  let host: Awaited<ReturnType<typeof startHostDouble>>;
  let dev: { id: number; token: string };
  let stranger: { id: number; token: string };

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    host = await startHostDouble();
    dev = await t.addUser("git-dev@example.com", "developer");
    stranger = await t.addUser("git-stranger@example.com", "developer");
    for (const [provider, apiBaseUrl] of [
      ["github", `${host.url}/api/v3`],
      ["gitea", host.url],
    ]) {
      const res = await t.api("POST", "/api/v1/oauth-integrations/", {
        name: `${provider} app`,
        provider,
        clientId: "id",
        clientSecret: "secret",
        authorizationUrl: `${host.url}/login/oauth/authorize`,
        tokenUrl: `${host.url}/login/oauth/access_token`,
        apiBaseUrl,
      });
      const { id } = (await res.json()) as { id: number };
      // The user connected earlier (the OAuth flow itself is tested with oidc-provider).
      await t.database.db.insert(userOauthTokens).values({ userId: dev.id, integrationId: id, accessTokenEncrypted: t.deps.secretBox.seal(TOKEN) });
    }
  });
  afterAll(async () => {
    await t?.close();
    await host?.close();
  });

  it("reports the caller's connection through their own token", async () => {
    const res = await t.api("GET", "/api/v1/github/status", undefined, dev.token);
    expect(await res.json()).toMatchObject({ connected: true, login: "octo", apiBaseUrl: `${host.url}/api/v3` });
    expect(host.seen.at(-1)).toEqual({ path: "/user", auth: `Bearer ${TOKEN}` });
    expect(await (await t.api("GET", "/api/v1/github/status", undefined, stranger.token)).json()).toMatchObject({ connected: false, login: null });
  });

  it("lists installations, repositories and branches on a GitHub-style API base", async () => {
    expect((await (await t.api("GET", "/api/v1/github/installations", undefined, dev.token)).json()).items).toEqual([
      { id: 42, account: "acme", type: "Organization" },
    ]);
    expect((await (await t.api("GET", "/api/v1/github/installations/42/repositories", undefined, dev.token)).json()).items).toEqual([
      { id: 1, name: "shop", fullName: "acme/shop", owner: "acme", private: true, defaultBranch: "main" },
    ]);
    const branches = await (await t.api("GET", "/api/v1/github/repositories/acme/shop/branches", undefined, dev.token)).json();
    expect(branches.items).toEqual([
      { name: "main", sha: "abc123", protected: true },
      { name: "dev", sha: "def456", protected: false },
    ]);
    const text = JSON.stringify(branches);
    expect(text).not.toContain(TOKEN);
  });

  it("maps a Gitea account and its organizations to installations", async () => {
    expect((await (await t.api("GET", "/api/v1/gitea/installations", undefined, dev.token)).json()).items).toEqual([
      { id: 7, account: "octo", type: "User" },
      { id: 99, account: "acme", type: "Organization" },
    ]);
    expect(
      (await (await t.api("GET", "/api/v1/gitea/installations/99/repositories", undefined, dev.token)).json()).items.map(
        (r: { fullName: string }) => r.fullName,
      ),
    ).toEqual(["acme/shop"]);
  });

  it("refuses without a connection, on bad names, and reports the host's failures", async () => {
    const none = await t.api("GET", "/api/v1/github/installations", undefined, stranger.token);
    expect(none.status).toBe(409);
    expect((await none.json()).code).toBe("oauth_reconnect_required");
    expect((await t.api("GET", "/api/v1/github/repositories/acme/..%2F..%2Fuser/branches", undefined, dev.token)).status).toBe(400);
    expect((await t.api("GET", "/api/v1/github/repositories/acme/missing/branches", undefined, dev.token)).status).toBe(404);
    host.failOnce();
    const failed = await t.api("GET", "/api/v1/github/installations", undefined, dev.token);
    expect(failed.status).toBe(502);
    expect(JSON.stringify(await failed.json())).not.toContain(TOKEN);
    expect((await t.api("GET", "/api/v1/github/status", undefined, null)).status).toBe(401);
  });
});
