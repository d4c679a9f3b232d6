import { describe, expect, it } from "vitest";
import { aiSettingsOf, ConfigError, ConfigSchema, DEFAULT_AI_SETTINGS, describeListenAddress, loadConfig, runsInContainer } from "./config";

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ PORT: 8080, SVC_DATA_DIR: ".data", SVC_DEMO_HOST_PORT: 8081, SVC_DEMO_ROWS: 100_000 });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.publicUrl).toBe("http://localhost:8080");
    expect(c.demoHostOrigin).toBe("http://127.0.0.1:8081");
  });

  it("listens on 127.0.0.1 by default, on every interface in a container, and where HOST says", () => {
    expect(loadConfig({}, { inContainer: false }).HOST).toBe("127.0.0.1");
    expect(loadConfig({}, { inContainer: true }).HOST).toBeUndefined();
    expect(loadConfig({ HOST: "0.0.0.0" }, { inContainer: false }).HOST).toBe("0.0.0.0");
    expect(loadConfig({ HOST: "127.0.0.1" }, { inContainer: true }).HOST).toBe("127.0.0.1");
    // The demo's URLs stay: the host page on 127.0.0.1 frames localhost, which reaches 127.0.0.1.
    const c = loadConfig({}, { inContainer: false });
    expect([c.publicUrl, c.demoHostOrigin]).toEqual(["http://localhost:8080", "http://127.0.0.1:8081"]);
  });

  it("knows a container by the marks the runtimes leave", () => {
    const none = () => false;
    expect(runsInContainer({}, none)).toBe(false);
    expect(runsInContainer({ container: "podman" }, none)).toBe(true);
    expect(runsInContainer({ KUBERNETES_SERVICE_HOST: "10.0.0.1" }, none)).toBe(true);
    expect(runsInContainer({}, (file) => file === "/.dockerenv")).toBe(true);
    expect(runsInContainer({}, (file) => file === "/run/.containerenv")).toBe(true);
  });

  it("says in the banner where it listens", () => {
    expect(describeListenAddress({ HOST: undefined, PORT: 8080 })).toBe(
      "every interface, port 8080 (reachable from other machines; HOST=127.0.0.1 keeps it on this one)",
    );
    expect(describeListenAddress({ HOST: "0.0.0.0", PORT: 8080 })).toMatch(/^every interface/);
    expect(describeListenAddress({ HOST: "127.0.0.1", PORT: 8080 })).toBe("127.0.0.1:8080 (this machine only; HOST=0.0.0.0 listens on every interface)");
    expect(describeListenAddress({ HOST: "::1", PORT: 9 })).toBe("[::1]:9 (this machine only; HOST=0.0.0.0 listens on every interface)");
    expect(describeListenAddress({ HOST: "10.1.2.3", PORT: 8080 })).toBe("10.1.2.3:8080");
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

  it("treats an empty value of every key as unset, the AI ones too (SVC_AI_BASE_URL= as docker-compose writes it)", () => {
    const defaults = loadConfig({}, { inContainer: false });
    for (const key of Object.keys(ConfigSchema.shape)) expect(loadConfig({ [key]: "" }, { inContainer: false }), key).toEqual(defaults);
    const all = Object.fromEntries(Object.keys(ConfigSchema.shape).map((k) => [k, ""]));
    expect(aiSettingsOf(loadConfig(all, { inContainer: false }))).toEqual({ ...DEFAULT_AI_SETTINGS, baseUrl: undefined, apiKey: undefined, model: undefined });
  });

  it("checks the AI settings at start-up, each bad key listed with the others", () => {
    try {
      loadConfig({ PORT: "abc", SVC_AI_PROVIDER: "gpt", SVC_AI_BASE_URL: "not a url", SVC_AI_TIME_BUDGET_MS: "5" });
      expect.unreachable();
    } catch (err) {
      expect((err as ConfigError).problems.map((p) => p.split(":")[0]).sort()).toEqual(["PORT", "SVC_AI_BASE_URL", "SVC_AI_PROVIDER", "SVC_AI_TIME_BUDGET_MS"]);
    }
    expect(() => loadConfig({ SVC_AI_PROVIDER: "openai-compatible", SVC_AI_BASE_URL: "" })).toThrow(
      /SVC_AI_BASE_URL: is required when SVC_AI_PROVIDER is openai-compatible/,
    );
    const c = loadConfig({ SVC_AI_PROVIDER: "openai-compatible", SVC_AI_BASE_URL: "http://127.0.0.1:11434", SVC_AI_MODEL: "llama", SVC_AI_API_KEY: "" });
    expect(aiSettingsOf(c)).toEqual({
      provider: "openai-compatible",
      baseUrl: "http://127.0.0.1:11434",
      apiKey: undefined,
      model: "llama",
      timeBudgetMs: 60_000,
    });
  });
});
