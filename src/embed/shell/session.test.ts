import { describe, expect, it } from "vitest";
import { ApiError, createEmbedApi } from "./api";
import { EARLY_SESSION_EXCHANGE_PROPERTY, earlyExchangeResult, startEmbedAuth, takeEarlySessionExchange } from "./session";

function tokenResponse(status: number, body: unknown): Promise<Response> {
  return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
}

function fakeLocation(href: string): Location {
  const url = new URL(href);
  return { href: url.href, search: url.search } as Location;
}

describe("early session exchange", () => {
  it("is taken once, and only for the session id of the URL", () => {
    const win: Record<string, unknown> = { [EARLY_SESSION_EXCHANGE_PROPERTY]: { sessionId: "abc", response: tokenResponse(200, {}) } };
    expect(takeEarlySessionExchange(win, "other")).toBeNull();
    expect(EARLY_SESSION_EXCHANGE_PROPERTY in win).toBe(false);
    win[EARLY_SESSION_EXCHANGE_PROPERTY] = { sessionId: "abc", response: tokenResponse(200, {}) };
    expect(takeEarlySessionExchange(win, "abc")?.sessionId).toBe("abc");
    expect(takeEarlySessionExchange(win, "abc")).toBeNull();
    win[EARLY_SESSION_EXCHANGE_PROPERTY] = { sessionId: "abc", response: "not a promise" };
    expect(takeEarlySessionExchange(win, "abc")).toBeNull();
  });

  it("fails like the typed client: 401 as an ApiError with the platform's code, a lost connection as status 0", async () => {
    const refused = earlyExchangeResult({ sessionId: "s", response: tokenResponse(401, { code: "session_used", message: "used" }) });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 401, code: "session_used" });
    await expect(earlyExchangeResult({ sessionId: "s", response: Promise.reject(new TypeError("Failed to fetch")) })).rejects.toMatchObject({
      status: 0,
      code: "network_error",
    });
    await expect(earlyExchangeResult({ sessionId: "s", response: tokenResponse(200, { nope: true }) })).rejects.toMatchObject({ status: 502 });
  });
});

describe("startEmbedAuth", () => {
  it("uses the early exchange instead of exchanging the single-use session again, and strips the session from the URL", async () => {
    const requests: Request[] = [];
    const api = createEmbedApi({ baseUrl: "https://p.example", mode: "signed", fetch: async (r) => (requests.push(r), new Response("{}", { status: 500 })) });
    const replaced: string[] = [];
    const history = { state: null, replaceState: (_s: unknown, _t: string, url: string) => replaced.push(url) } as unknown as History;
    const win: Record<string, unknown> = {
      [EARLY_SESSION_EXCHANGE_PROPERTY]: {
        sessionId: "sess-1",
        response: tokenResponse(200, { token: "tok", expiresAt: "2030-01-01T00:00:00Z", deploymentId: 7, embedTenant: "acme-corp", exportFormats: ["csv"] }),
      },
    };
    const auth = await startEmbedAuth(api, fakeLocation("https://p.example/embed/dashboard/abc?session=sess-1&locale=de"), history, win);
    expect(auth).toEqual({ mode: "signed", token: "tok", expiresAt: Date.UTC(2030, 0, 1), deploymentId: 7, embedTenant: "acme-corp", exportFormats: ["csv"] });
    expect(api.hasToken()).toBe(true);
    expect(requests).toHaveLength(0);
    expect(replaced).toEqual(["/embed/dashboard/abc?locale=de"]);
  });

  it("exchanges the session itself when nothing was started early", async () => {
    const requests: Request[] = [];
    const api = createEmbedApi({
      baseUrl: "https://p.example",
      mode: "signed",
      fetch: async (r) => {
        requests.push(r);
        return new Response(JSON.stringify({ token: "own", expiresAt: 1_900_000_000_000, deploymentId: 3, embedTenant: null }), {
          status: 200,
          headers: { "Content-Type": "application/json" },
        });
      },
    });
    const history = { state: null, replaceState: () => {} } as unknown as History;
    const auth = await startEmbedAuth(api, fakeLocation("https://p.example/embed/chat?sessionId=s2"), history, {});
    expect(auth).toMatchObject({ mode: "signed", token: "own", deploymentId: 3, embedTenant: null });
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual(["/api/v1/embed/session/token"]);
    expect(await requests[0]!.json()).toEqual({ sessionId: "s2" });
  });
});
