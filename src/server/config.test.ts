import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ PORT: 8080, SVC_DATA_DIR: ".data", SVC_DEMO_HOST_PORT: 8081, SVC_DEMO_ROWS: 100_000 });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.publicUrl).toBe("http://localhost:8080");
    expect(c.demoHostOrigin).toBe("http://127.0.0.1:8081");
  });

  it("turns the demo host off with port 0", () => {
    expect(loadConfig({ SVC_DEMO_HOST_PORT: "0" }).demoHostOrigin).toBeNull();
  });

  it("normalises allowed origins and refuses anything that is not an origin", () => {
    expect(loadConfig({ SVC_EMBED_ALLOWED_ORIGINS: "https://a.example.com, http://127.0.0.1:3000" }).SVC_EMBED_ALLOWED_ORIGINS).toEqual([
      "https://a.example.com",
      "http://127.0.0.1:3000",
    ]);
    for (const bad of ["*", "https://a.example.com/path", "ftp://x.example", "a.example.com"]) {
      expect(() => loadConfig({ SVC_EMBED_ALLOWED_ORIGINS: bad }), bad).toThrow(ConfigError);
    }
  });

  it("lists every bad key at once", () => {
    try {
      loadConfig({ PORT: "abc", DATABASE_URL: "mysql://x", SVC_DEMO_ROWS: "5", SVC_ADMIN_TOKEN: "short", SVC_LOG_LEVEL: "loud" });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const keys = (err as ConfigError).problems.map((p) => p.split(":")[0]);
      expect(keys.sort()).toEqual(["DATABASE_URL", "PORT", "SVC_ADMIN_TOKEN", "SVC_DEMO_ROWS", "SVC_LOG_LEVEL"]);
    }
  });

  it("reads the slow-request threshold, 0 turning it off, and refuses anything else", () => {
    expect(loadConfig({}).SVC_SLOW_REQUEST_MS).toBe(1000);
    expect(loadConfig({ SVC_SLOW_REQUEST_MS: "250" }).SVC_SLOW_REQUEST_MS).toBe(250);
    expect(loadConfig({ SVC_SLOW_REQUEST_MS: "0" }).SVC_SLOW_REQUEST_MS).toBe(0);
    for (const bad of ["-1", "fast", "1.5", "3600001"]) {
      expect(() => loadConfig({ SVC_SLOW_REQUEST_MS: bad }), bad).toThrow(/SVC_SLOW_REQUEST_MS/);
    }
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ PORT: "", DATABASE_URL: "" }).PORT).toBe(8080);
  });
});
