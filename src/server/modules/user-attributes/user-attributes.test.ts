import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../db/schema";
import { createApiKey } from "../api-keys/service";
import { securityContextOf } from "../embed-access/service";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

describe.each(storageKinds)("user attributes API (%s)", (storage) => {
  let t: TestPlatform;
  let userId: number;
  let userKey: string;

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    const [u] = await t.database.db.insert(users).values({ email: "ua@example.com", role: "developer" }).returning();
    userId = u!.id;
    userKey = (await createApiKey(t.database.db, { userId, name: "ua" })).token;
  });
  afterAll(() => t?.close());

  it("defines the five types, with defaults checked by type", async () => {
    const defs = [
      { name: "region", type: "string", defaultValue: "none" },
      { name: "level", type: "number", defaultValue: 1 },
      { name: "beta", type: "boolean" },
      { name: "regions", type: "string_array", defaultValue: [] },
      { name: "ids", type: "number_array" },
    ];
    for (const d of defs) expect((await t.api("POST", "/api/v1/user-attributes/", d)).status, d.name).toBe(201);
    const list = await (await t.api("GET", "/api/v1/user-attributes/")).json();
    expect(list.items.map((a: { name: string; type: string }) => `${a.name}:${a.type}`)).toEqual(defs.map((d) => `${d.name}:${d.type}`));
    expect((await t.api("POST", "/api/v1/user-attributes/", { name: "region", type: "string" })).status).toBe(409);
    expect((await t.api("POST", "/api/v1/user-attributes/", { name: "x", type: "date" })).status).toBe(400);
    expect((await t.api("POST", "/api/v1/user-attributes/", { name: "bad-name", type: "string" })).status).toBe(400);
    const badDefault = await t.api("POST", "/api/v1/user-attributes/", { name: "n2", type: "number", defaultValue: "3" });
    expect(badDefault.status).toBe(400);
    expect((await badDefault.json()).details[0].path).toEqual(["defaultValue"]);
  });

  it("answers without the trailing slash too, with the same checks, and documents each operation once", async () => {
    const slashless = await (await t.api("GET", "/api/v1/user-attributes")).json();
    expect(slashless).toEqual(await (await t.api("GET", "/api/v1/user-attributes/")).json());
    expect((await t.api("POST", "/api/v1/user-attributes", { name: "region", type: "string" })).status).toBe(409);
    expect((await t.api("POST", "/api/v1/user-attribute-values", { userId, values: { level: "high" } })).status).toBe(400);
    const viewerKey = (await createApiKey(t.database.db, { userId, name: "ua-alias" })).token;
    expect((await t.api("POST", "/api/v1/user-attributes", { name: "mine", type: "string" }, viewerKey)).status).toBe(403);
    const paths = Object.keys((await (await t.app.request("/api/v1/openapi.json")).json()).paths as Record<string, unknown>);
    expect(paths.filter((p) => p.startsWith("/api/v1/user-attribute"))).not.toContain("/api/v1/user-attributes");
    expect(paths).not.toContain("/api/v1/user-attribute-values");
  });

  it("keeps the type immutable once set", async () => {
    const list = await (await t.api("GET", "/api/v1/user-attributes/")).json();
    const level = list.items.find((a: { name: string }) => a.name === "level");
    const changed = await t.api("PUT", `/api/v1/user-attributes/${level.id}`, { type: "string" });
    expect(changed.status).toBe(400);
    expect((await changed.json()).details[0].path).toEqual(["type"]);
    const relabelled = await t.api("PUT", `/api/v1/user-attributes/${level.id}`, { type: "number", displayName: "Level", defaultValue: 2 });
    expect(await relabelled.json()).toMatchObject({ type: "number", displayName: "Level", defaultValue: 2 });
    expect((await t.api("PUT", `/api/v1/user-attributes/${level.id}`, { defaultValue: "high" })).status).toBe(400);
    expect((await t.api("PUT", "/api/v1/user-attributes/99999", { displayName: "x" })).status).toBe(404);
  });

  it("validates values by type, all or nothing, and fills defaults", async () => {
    const bad = await t.api("POST", "/api/v1/user-attribute-values/", {
      userId,
      values: [
        { name: "region", value: "emea" },
        { name: "ids", value: ["1", "2"] },
        { name: "beta", value: "yes" },
        { name: "unknown", value: 1 },
      ],
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).details.map((d: { path: unknown[] }) => d.path)).toEqual([
      ["values", 1, "value"],
      ["values", 2, "value"],
      ["values", 3, "name"],
    ]);
    expect(
      (await (await t.api("GET", `/api/v1/user-attribute-values/${userId}`)).json()).values.find((v: { name: string }) => v.name === "region"),
    ).toMatchObject({
      value: "none",
      isDefault: true,
    });
    const ok = await t.api("POST", "/api/v1/user-attribute-values/", {
      userId,
      values: [
        { name: "region", value: "emea" },
        { name: "beta", value: true },
        { name: "regions", value: ["emea", "apac"] },
        { name: "ids", value: [4, 5] },
      ],
    });
    expect(ok.status).toBe(200);
    const ctx = await securityContextOf({ kind: "user", userId, email: "ua@example.com", role: "developer", via: "api_key" }, t.database.db);
    expect(ctx).toEqual({
      userId,
      externalId: null,
      embedTenant: null,
      groups: [],
      userAttributes: { region: "emea", level: 2, beta: true, regions: ["emea", "apac"], ids: [4, 5] },
      role: "developer",
    });
    // The context is cached between requests; a change of value shows at once all the same.
    const principal = { kind: "user" as const, userId, email: "ua@example.com", role: "developer" as const, via: "api_key" as const };
    await securityContextOf(principal, t.database.db);
    expect((await t.api("POST", "/api/v1/user-attribute-values/", { userId, values: [{ name: "region", value: "apac" }] })).status).toBe(200);
    expect((await securityContextOf(principal, t.database.db)).userAttributes.region).toBe("apac");
  });

  it("lets users read their own values but never set them", async () => {
    expect((await t.api("GET", `/api/v1/user-attribute-values/${userId}`, undefined, userKey)).status).toBe(200);
    expect((await t.api("GET", `/api/v1/user-attribute-values/${t.adminUserId}`, undefined, userKey)).status).toBe(403);
    const self = await t.api("POST", "/api/v1/user-attribute-values/", { userId, values: [{ name: "region", value: "all" }] }, userKey);
    expect(self.status).toBe(403);
    expect((await t.api("POST", "/api/v1/user-attributes/", { name: "mine", type: "string" }, userKey)).status).toBe(403);
    expect((await t.api("GET", "/api/v1/user-attribute-values/99999")).status).toBe(404);
  });
});
