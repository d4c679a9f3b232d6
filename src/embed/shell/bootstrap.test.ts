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
    expect(seen[0]!.headers.get("authorization")).toBeNull();
    expect(seen[0]!.credentials).toBe("same-origin");
    api.setToken("next");
    fail = true;
    const error = await fetchDistinctValues(api, 1, { member: "sales.status" }).catch((e: unknown) => e);
    expect(seen[1]!.headers.get("authorization")).toBe("Bearer next");
    expect(errorNameOf(error)).toBe("NetworkError");
    expect(errorNameOf(apiError(401, "token_expired", "x"))).toBe("SessionExpired");
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
