import { describe, expect, it } from "vitest";
import { ApiError, apiError, createEmbedApi, errorNameOf } from "./api";
import { fetchDistinctValues, runQuery } from "./platform-api";
import { parseEmbedRuntimeConfig } from "./runtime-config";
import { readSessionParameter, toEpochMs, withoutSessionParameters } from "./session";
import { scheduleSessionTimers } from "./session-lifecycle";
import { surfaceOfPath } from "./surface-paths";

describe("runtime config", () => {
  it("keeps allowed origins but never the wildcard", () => {
    expect(parseEmbedRuntimeConfig({ allowedOrigins: ["https://host.example", "*", 3] })).toEqual({ allowedOrigins: ["https://host.example"] });
    expect(parseEmbedRuntimeConfig("nope")).toEqual({ allowedOrigins: [] });
  });
});

describe("session parameters", () => {
  it("reads session= or sessionId= and removes both from the URL", () => {
    expect(readSessionParameter("?sessionId=abc")).toBe("abc");
    expect(readSessionParameter("?session=one&sessionId=two")).toBe("one");
    expect(withoutSessionParameters("https://p.example/embed/chat?session=x&locale=de#top")).toBe("/embed/chat?locale=de#top");
    expect(toEpochMs("2025-01-01T00:00:00Z")).toBe(Date.UTC(2025, 0, 1));
  });
});

describe("surfaceOfPath", () => {
  it("maps paths to surfaces", () => {
    expect(surfaceOfPath("/embed/dashboard/abc")).toBe("dashboard");
    expect(surfaceOfPath("/embed/d/3/app/workbooks")).toBe("app");
    expect(surfaceOfPath("/embed/chat")).toBe("chat");
    expect(surfaceOfPath("/embed/report/AbCdEfGh1234")).toBe("report");
    expect(surfaceOfPath("/embed/d/3/report/17")).toBe("report");
    // Below a report there is nothing: not a report path.
    expect(surfaceOfPath("/embed/report/AbCdEfGh1234/more")).toBe("dashboard");
  });
});

describe("createEmbedApi", () => {
  it("sends the bearer token without cookies in signed mode and turns error bodies into ApiError with a protocol name", async () => {
    const seen: Request[] = [];
    const api = createEmbedApi({
      baseUrl: "https://platform.example",
      mode: "signed",
      fetch: async (request) => {
        seen.push(request);
        return new Response(JSON.stringify({ code: "forbidden", message: "no" }), { status: 403, headers: { "content-type": "application/json" } });
      },
    });
    api.setToken("tok");
    const error = await runQuery(api, 7, { query: { measures: ["sales.count"] } }).catch((e: unknown) => e);
    expect(seen[0]!.url).toBe("https://platform.example/api/v1/deployments/7/query");
    expect(seen[0]!.headers.get("authorization")).toBe("Bearer tok");
    expect(seen[0]!.credentials).toBe("omit");
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("forbidden");
    expect(errorNameOf(error)).toBe("Forbidden");
  });

  it("swaps the token for the next call and reports an unreachable platform as NetworkError", async () => {
    const seen: Request[] = [];
    let fail = false;
    const api = createEmbedApi({
      baseUrl: "https://platform.example",
      mode: "private",
      fetch: async (request) => {
        seen.push(request);
        if (fail) throw new TypeError("Failed to fetch");
        return new Response(JSON.stringify({ values: ["a"] }), { status: 200, headers: { "content-type": "application/json" } });
      },
    });
    expect(await fetchDistinctValues(api, 1, { member: "sales.status" })).toEqual({ values: ["a"] });
    const writes = () => seen.filter((r) => !r.url.endsWith("/api/v1/auth/me"));
    expect(writes()[0]!.headers.get("authorization")).toBeNull();
    expect(writes()[0]!.credentials).toBe("same-origin");
    api.setToken("next");
    fail = true;
    const error = await fetchDistinctValues(api, 1, { member: "sales.status" }).catch((e: unknown) => e);
    expect(writes()[1]!.headers.get("authorization")).toBe("Bearer next");
    expect(errorNameOf(error)).toBe("NetworkError");
    expect(errorNameOf(apiError(401, "token_expired", "x"))).toBe("SessionExpired");
  });
});

describe("private mode's CSRF token", () => {
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  it("sends the login session's token with every write, read once from auth/me, and again after a refusal", async () => {
    const seen: Request[] = [];
    let session = "csrf-1";
    const api = createEmbedApi({
      baseUrl: "https://platform.example",
      mode: "private",
      fetch: async (request) => {
        seen.push(request);
        const path = new URL(request.url).pathname;
        if (path === "/api/v1/auth/me") return json({ csrfToken: session });
        if (request.method !== "GET" && request.headers.get("x-csrf-token") !== session) return json({ code: "csrf_failed", message: "no" }, 403);
        return json({ values: ["a"] });
      },
    });
    for (let i = 0; i < 2; i++) expect(await fetchDistinctValues(api, 1, { member: "sales.status" })).toEqual({ values: ["a"] });
    expect(seen.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.headers.get("x-csrf-token")}`)).toEqual([
      "GET /api/v1/auth/me null",
      "POST /api/v1/deployments/1/query/values csrf-1",
      "POST /api/v1/deployments/1/query/values csrf-1",
    ]);
    // A raw write (a chat question's stream) carries the same token.
    seen.length = 0;
    expect((await api.fetch("/api/v1/deployments/1/chat/threads", { method: "POST", body: "{}" })).status).toBe(200);
    expect(seen.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.headers.get("x-csrf-token")}`)).toEqual([
      "POST /api/v1/deployments/1/chat/threads csrf-1",
    ]);
    // Signed in again elsewhere: the token changed; one refusal, a new read, the same request again.
    session = "csrf-2";
    seen.length = 0;
    expect(await fetchDistinctValues(api, 1, { member: "sales.status", search: "x" })).toEqual({ values: ["a"] });
    expect(seen.map((r) => `${r.method} ${r.headers.get("x-csrf-token")}`)).toEqual(["POST csrf-1", "GET null", "POST csrf-2"]);
    expect(await seen[2]!.json()).toEqual({ member: "sales.status", search: "x" });
  });

  it("is fetched before a raw write that is the first write of the page", async () => {
    const seen: string[] = [];
    const api = createEmbedApi({
      baseUrl: "https://platform.example",
      mode: "private",
      fetch: async (request) => {
        seen.push(`${request.method} ${new URL(request.url).pathname} ${request.headers.get("x-csrf-token")} ${request.credentials}`);
        if (new URL(request.url).pathname === "/api/v1/auth/me") return json({ csrfToken: "csrf-9" });
        return request.headers.get("x-csrf-token") === "csrf-9" ? json({ id: "t1" }, 201) : json({ code: "csrf_failed" }, 403);
      },
    });
    const res = await api.fetch("/api/v1/deployments/1/chat/threads", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(201);
    expect(seen).toEqual(["GET /api/v1/auth/me null same-origin", "POST /api/v1/deployments/1/chat/threads csrf-9 same-origin"]);
  });

  it("is never sent in signed mode, and a refusal that is not about the token is answered as it is", async () => {
    const seen: Request[] = [];
    const signed = createEmbedApi({ baseUrl: "https://platform.example", mode: "signed", fetch: async (r) => (seen.push(r), json({ values: [] })) });
    signed.setToken("tok");
    await fetchDistinctValues(signed, 1, { member: "sales.status" });
    expect(seen.map((r) => new URL(r.url).pathname)).toEqual(["/api/v1/deployments/1/query/values"]);
    expect(seen[0]!.headers.get("x-csrf-token")).toBeNull();
    await signed.fetch("/api/v1/deployments/1/chat/threads", { method: "POST", body: "{}" });
    expect([seen[1]!.headers.get("authorization"), seen[1]!.headers.get("x-csrf-token"), seen[1]!.credentials]).toEqual(["Bearer tok", null, "omit"]);

    const calls: string[] = [];
    const priv = createEmbedApi({
      baseUrl: "https://platform.example",
      mode: "private",
      fetch: async (r) => (
        calls.push(new URL(r.url).pathname),
        new URL(r.url).pathname === "/api/v1/auth/me" ? json({ csrfToken: "t" }) : json({ code: "forbidden", message: "no" }, 403)
      ),
    });
    const error = await fetchDistinctValues(priv, 1, { member: "sales.status" }).catch((e: unknown) => e);
    expect(errorNameOf(error)).toBe("Forbidden");
    expect(calls).toEqual(["/api/v1/auth/me", "/api/v1/deployments/1/query/values"]);
  });
});

describe("scheduleSessionTimers", () => {
  it("warns a minute before expiry and then expires", async () => {
    const events: string[] = [];
    const now = Date.now();
    const cancel = scheduleSessionTimers(now + 60_050, { onExpiring: (_at, left) => events.push(`expiring:${left}`), onExpired: () => events.push("expired") });
    await new Promise((r) => setTimeout(r, 150));
    expect(events).toEqual(["expiring:60"]);
    cancel();
  });
});
