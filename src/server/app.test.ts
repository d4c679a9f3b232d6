import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployments } from "./db/schema";
import { MAX_BODY_BYTES } from "./app";
import { createApiKey } from "./modules/api-keys/service";
import { createTestPlatform, storageKinds, type TestPlatform } from "./testing/test-platform";

describe.each(storageKinds)("platform app (%s)", (storage) => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    await t.database.db
      .insert(deployments)
      .values(Array.from({ length: 5 }, (_, i) => ({ name: `dep ${i + 1}`, dataSource: { type: "duckdb" as const, path: `/tmp/d${i}.duckdb` } })));
  });
  afterAll(() => t?.close());

  it("answers 401 with the error body when the key is missing", async () => {
    const res = await t.api("GET", "/api/v1/deployments", undefined, null);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: "unauthorized", message: expect.any(String) });
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("answers 401 for an unknown, malformed or non-bearer credential", async () => {
    for (const header of ["Bearer svc_nope_nope_nope_nope_nope_nope", "Basic YWRtaW46YWRtaW4=", "Bearer", "Bearer not.a.jwt"]) {
      const res = await t.app.request("/api/v1/deployments", { headers: { authorization: header } });
      expect(res.status, header).toBe(401);
      expect((await res.json()).code).toBe("unauthorized");
    }
  });

  it("answers 404 JSON for unknown routes", async () => {
    const res = await t.api("GET", "/api/v1/nothing-here");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "not_found" });
  });

  it("pages deployments with opaque cursors and fills the deprecated fields", async () => {
    const first = await t.api("GET", "/api/v1/deployments?first=2");
    expect(first.status).toBe(200);
    const p1 = await first.json();
    expect(p1.items.map((d: { name: string }) => d.name)).toEqual(["dep 1", "dep 2"]);
    expect(p1.data).toEqual(p1.items);
    expect(p1.count).toBe(5);
    expect(p1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const p2 = await (await t.api("GET", `/api/v1/deployments?first=2&after=${p1.pageInfo.endCursor}`)).json();
    expect(p2.items.map((d: { name: string }) => d.name)).toEqual(["dep 3", "dep 4"]);
    expect(p2.pageInfo.hasPreviousPage).toBe(true);
    const p3 = await (await t.api("GET", `/api/v1/deployments?first=2&after=${p2.pageInfo.endCursor}`)).json();
    expect(p3.items.map((d: { name: string }) => d.name)).toEqual(["dep 5"]);
    expect(p3.pageInfo.hasNextPage).toBe(false);
  });

  it("refuses a bad cursor and an out-of-range page size with paths", async () => {
    const bad = await t.api("GET", "/api/v1/deployments?after=garbage");
    expect(bad.status).toBe(400);
    expect((await bad.json()).details[0].path).toEqual(["after"]);
    const big = await t.api("GET", "/api/v1/deployments?first=1000");
    expect(big.status).toBe(400);
    const body = await big.json();
    expect(body.code).toBe("validation_failed");
    expect(body.details[0].path).toEqual(["first"]);
  });

  it("reads one deployment and answers 404 for a missing one", async () => {
    const list = await (await t.api("GET", "/api/v1/deployments")).json();
    const id = list.items[2].id;
    const res = await t.api("GET", `/api/v1/deployments/${id}`);
    expect(await res.json()).toMatchObject({ id, name: "dep 3", dataSource: { type: "duckdb" } });
    const missing = await t.api("GET", "/api/v1/deployments/999999");
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe("not_found");
    expect((await t.api("GET", "/api/v1/deployments/abc")).status).toBe(400);
  });

  it("rejects malformed JSON with validation_failed and the reason", async () => {
    const res = await t.api("POST", "/api/v1/api-keys", "{not json");
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe("validation_failed");
    expect(body.message).toMatch(/json/i);
  });

  it("rejects bodies over 1 MiB with 413", async () => {
    const res = await t.api("POST", "/api/v1/api-keys", JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES + 10) }));
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe("payload_too_large");
  });

  it("creates an API key shown once, lists it without the token, and revokes it", async () => {
    const created = await t.api("POST", "/api/v1/api-keys", { name: "ci" });
    expect(created.status).toBe(201);
    const { token, key } = await created.json();
    expect(token).toMatch(/^svc_/);
    const ok = await t.api("GET", "/api/v1/deployments", undefined, token);
    expect(ok.status).toBe(200);
    const list = await (await t.api("GET", "/api/v1/api-keys")).json();
    const listed = list.items.find((k: { id: number }) => k.id === key.id);
    expect(listed).toMatchObject({ name: "ci", prefix: token.slice(0, 10), revokedAt: null });
    expect(JSON.stringify(list)).not.toContain(token);
    expect((await t.api("DELETE", `/api/v1/api-keys/${key.id}`)).status).toBe(204);
    expect((await t.api("DELETE", `/api/v1/api-keys/${key.id}`)).status).toBe(204);
    expect((await t.api("GET", "/api/v1/deployments", undefined, token)).status).toBe(401);
    expect((await t.api("DELETE", "/api/v1/api-keys/424242")).status).toBe(404);
  });

  it("stores only a hash of each key", async () => {
    const { token } = await (await t.api("POST", "/api/v1/api-keys", { name: "hash-check" })).json();
    const rows = await t.database.db.query.apiKeys.findMany();
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("refuses an expired key", async () => {
    // The API cannot create a key that is already expired; one that expired since is stored like this.
    const { token } = await createApiKey(t.database.db, { userId: t.adminUserId, name: "short", expiresAt: new Date(Date.now() - 1000) });
    expect((await t.api("GET", "/api/v1/deployments", undefined, token)).status).toBe(401);
  });

  it("refuses unknown fields in a body with their path", async () => {
    const res = await t.api("POST", "/api/v1/api-keys", { name: "x", role: "admin" });
    expect(res.status).toBe(400);
    expect(JSON.stringify((await res.json()).details)).toContain("role");
  });

  it("serves an OpenAPI 3.1 document generated from the route schemas", async () => {
    const res = await t.api("GET", "/api/v1/openapi.json", undefined, null);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/v1/deployments", "/api/v1/deployments/{deploymentId}", "/api/v1/api-keys"]));
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.schemas.DeploymentsListResponse).toBeDefined();
  });
});
