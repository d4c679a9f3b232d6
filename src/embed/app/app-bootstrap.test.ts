import { describe, expect, it } from "vitest";
import { ApiError, createApiClient, errorNameOf } from "./api";
import { parseEmbedRuntimeConfig } from "./runtime-config";
import { readSessionParameter, toEpochMs, withoutSessionParameters } from "./session";
import { scheduleSessionTimers } from "./session-lifecycle";
import { surfaceOfPath } from "./surface-paths";

describe("runtime config", () => {
  it("keeps allowed origins but never the wildcard, and only same-origin API paths", () => {
    expect(parseEmbedRuntimeConfig({ allowedOrigins: ["https://host.example", "*", 3], apiBase: "/api/v1" })).toEqual({ allowedOrigins: ["https://host.example"], apiBase: "/api/v1" });
    expect(parseEmbedRuntimeConfig({ apiBase: "//evil.example/api" }).apiBase).toBe("/api/v1");
    expect(parseEmbedRuntimeConfig("nope")).toEqual({ allowedOrigins: [], apiBase: "/api/v1" });
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

describe("api client", () => {
  it("sends the bearer token and turns error bodies into ApiError with a protocol name", async () => {
    const seen: RequestInit[] = [];
    const api = createApiClient({
      apiBase: "/api/v1",
      fetch: async (_url, init) => {
        seen.push(init!);
        return new Response(JSON.stringify({ code: "forbidden", message: "no" }), { status: 403 });
      },
    });
    api.setToken("tok");
    const error = await api.get("/x").catch((e: unknown) => e);
    expect((seen[0]!.headers as Record<string, string>).Authorization).toBe("Bearer tok");
    expect(error).toBeInstanceOf(ApiError);
    expect(errorNameOf(error)).toBe("Forbidden");
    expect(errorNameOf(new ApiError(0, "network_error", "x"))).toBe("NetworkError");
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
