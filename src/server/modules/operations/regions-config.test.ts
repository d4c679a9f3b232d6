import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config";

describe("SVC_REGIONS and SVC_LOG_RETENTION_DAYS", () => {
  it("default to one local region and 14 days", () => {
    const c = loadConfig({});
    expect(c.SVC_REGIONS).toEqual([{ id: "local", name: null }]);
    expect(c.SVC_LOG_RETENTION_DAYS).toBe(14);
  });
  it("read a comma list or a JSON array", () => {
    expect(loadConfig({ SVC_REGIONS: "eu-west, us-east" }).SVC_REGIONS).toEqual([
      { id: "eu-west", name: null },
      { id: "us-east", name: null },
    ]);
    expect(loadConfig({ SVC_REGIONS: '[{"id":"eu","name":"Europe"}]' }).SVC_REGIONS).toEqual([{ id: "eu", name: "Europe" }]);
  });
  it("refuse a bad list at start-up", () => {
    for (const bad of ["[]", "EU WEST", '[{"id":"eu","zone":1}]', "[not json"]) expect(() => loadConfig({ SVC_REGIONS: bad }), bad).toThrow(ConfigError);
    expect(() => loadConfig({ SVC_LOG_RETENTION_DAYS: "0" })).toThrow(ConfigError);
  });
});
