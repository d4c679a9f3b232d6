import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDuckDbDataSource } from "../../datasources/duckdb-data-source";
import { shopModelYaml, shopSeedSql } from "../../semantic/test-support/shop-fixture";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";

/** A workbook's calculatedFields (docs/data-model.md, "Calculated fields"): written whole, checked against the deployment's model. */
describe("workbook calculated fields", () => {
  let t: TestPlatform;
  let dir: string;
  let withModel: number;
  let withoutModel: number;
  const workbook = async (deploymentId: number) => {
    const res = await t.api("PUT", `/api/v1/deployments/${deploymentId}/workbooks/by-slug/fields-${Math.random().toString(36).slice(2, 8)}`, {});
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: number }).id;
  };
  const update = (deploymentId: number, id: number, body: unknown) => t.api("PUT", `/api/v1/deployments/${deploymentId}/workbooks/${id}`, body);

  beforeAll(async () => {
    t = await createTestPlatform({ storage: "pglite" });
    dir = mkdtempSync(path.join(tmpdir(), "svc-fields-"));
    const file = path.join(dir, "shop.duckdb");
    const seed = createDuckDbDataSource({ path: file, poolSize: 1 });
    for (const stmt of shopSeedSql("main")) await seed.query(stmt, []);
    await seed.close();
    const res = await t.api("POST", "/build/api/v1/deployments/", {
      name: "shop",
      dataSource: { type: "duckdb", path: file },
      dataModelFiles: [{ path: "shop.yml", content: shopModelYaml("main") }],
    });
    expect(res.status, await res.clone().text()).toBe(201);
    withModel = ((await res.json()) as { id: number }).id;
    [withoutModel] = await t.addDeployments("bare");
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("stores fields whose formulas compile, replaces them whole and clears them with null", async () => {
    const id = await workbook(withModel);
    const fields = {
      "sales.returned_share": { formula: "count(where status = 'returned') / count", title: "Returned share", format: "percent" },
      "sales.with_tax": { formula: "amount * 1.2" },
    };
    const res = await update(withModel, id, { calculatedFields: fields });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { calculatedFields: unknown }).calculatedFields).toEqual(fields);
    const replaced = await update(withModel, id, { calculatedFields: { "sales.aov": { formula: "revenue / nullif(count, 0)" } } });
    expect(((await replaced.json()) as { calculatedFields: unknown }).calculatedFields).toEqual({ "sales.aov": { formula: "revenue / nullif(count, 0)" } });
    const read = await t.api("GET", `/api/v1/deployments/${withModel}/workbooks/${id}`);
    expect(((await read.json()) as { calculatedFields: unknown }).calculatedFields).toEqual({ "sales.aov": { formula: "revenue / nullif(count, 0)" } });
    const cleared = await update(withModel, id, { calculatedFields: null });
    expect(((await cleared.json()) as { calculatedFields: unknown }).calculatedFields).toEqual({});
  });

  it("applies calculatedFieldChanges to the stored fields: writers of different fields at once both keep theirs", async () => {
    const id = await workbook(withModel);
    await update(withModel, id, { calculatedFields: { "sales.kept": { formula: "count * 2" } } });
    // Ten writers at once, each adding its own field (a whole-map write would keep only the last one read).
    const writes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => update(withModel, id, { calculatedFieldChanges: { set: { [`sales.f${i}`]: { formula: `count * ${i + 1}` } } } })),
    );
    expect(writes.map((r) => r.status)).toEqual(Array(10).fill(200));
    const read = async () =>
      ((await (await t.api("GET", `/api/v1/deployments/${withModel}/workbooks/${id}`)).json()) as { calculatedFields: Record<string, unknown> })
        .calculatedFields;
    expect(Object.keys(await read()).sort()).toEqual([
      "sales.f0",
      "sales.f1",
      "sales.f2",
      "sales.f3",
      "sales.f4",
      "sales.f5",
      "sales.f6",
      "sales.f7",
      "sales.f8",
      "sales.f9",
      "sales.kept",
    ]);
    // A rename: the old key removed and the new one set, in one write.
    const renamed = await update(withModel, id, {
      calculatedFieldChanges: { remove: ["sales.f0"], set: { "sales.first": { formula: "count * 1", title: "First" } } },
    });
    expect(renamed.status).toBe(200);
    const fields = await read();
    expect(fields).not.toHaveProperty("sales.f0");
    expect(fields["sales.first"]).toEqual({ formula: "count * 1", title: "First" });
    expect(fields["sales.kept"]).toEqual({ formula: "count * 2" });
  });

  it("refuses calculatedFieldChanges with a bad formula, past the limit, or beside calculatedFields, and writes nothing", async () => {
    const id = await workbook(withModel);
    await update(withModel, id, { calculatedFields: { "sales.kept": { formula: "count * 2" } } });
    const bad = await update(withModel, id, { calculatedFieldChanges: { set: { "sales.bad": { formula: "revnue / count" } } } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { details: { path: unknown[] }[] }).details[0]!.path).toEqual(["calculatedFieldChanges", "set", "sales.bad", "formula"]);
    const both = await update(withModel, id, { calculatedFields: {}, calculatedFieldChanges: { remove: ["sales.kept"] } });
    expect(both.status).toBe(400);
    // 19 more fit (20 in all); 20 more do not, and none of them is written.
    const many = (n: number, from: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`sales.m${from + i}`, { formula: "count" }]));
    expect((await update(withModel, id, { calculatedFieldChanges: { set: many(19, 0) } })).status).toBe(200);
    const over = await update(withModel, id, { calculatedFieldChanges: { set: many(1, 100) } });
    expect(over.status).toBe(400);
    expect(((await over.json()) as { message: string }).message).toContain("at most 20 calculated fields");
    const read = await t.api("GET", `/api/v1/deployments/${withModel}/workbooks/${id}`);
    const fields = ((await read.json()) as { calculatedFields: Record<string, unknown> }).calculatedFields;
    expect(Object.keys(fields)).toHaveLength(20);
    expect(fields).not.toHaveProperty("sales.m100");
  });

  it("refuses a formula that does not compile with 400 naming the key and the position, and keeps the stored fields", async () => {
    const id = await workbook(withModel);
    await update(withModel, id, { calculatedFields: { "sales.kept": { formula: "count * 2" } } });
    const res = await update(withModel, id, { calculatedFields: { "sales.bad": { formula: "revnue / count" }, "sales.ok": { formula: "count" } } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; details: unknown };
    expect(body.code).toBe("validation_failed");
    expect(body.details).toEqual([
      {
        path: ["calculatedFields", "sales.bad", "formula"],
        code: "unknown_member",
        message: 'unknown member "revnue"; did you mean "revenue"? (at character 1)',
      },
    ]);
    const read = await t.api("GET", `/api/v1/deployments/${withModel}/workbooks/${id}`);
    expect(((await read.json()) as { calculatedFields: unknown }).calculatedFields).toEqual({ "sales.kept": { formula: "count * 2" } });
  });

  it("answers a query with calculated fields over HTTP, and a bad formula with 400 naming the field and the position", async () => {
    const query = (formula: string) =>
      t.api("POST", `/api/v1/deployments/${withModel}/query`, {
        query: { measures: ["sales.completed_share"], calculatedFields: [{ name: "completed_share", formula, format: "percent" }] },
      });
    // The admin sees all ten orders: seven completed (1, 2, 4, 5, 6, 8, 9).
    const ok = await query("count(where status = 'completed') / count");
    expect(ok.status, await ok.clone().text()).toBe(200);
    const body = (await ok.json()) as { data: Record<string, unknown>[]; annotation: { measures: Record<string, unknown> } };
    expect(body.data).toEqual([{ "sales.completed_share": 0.7 }]);
    expect(body.annotation.measures["sales.completed_share"]).toMatchObject({ type: "number", format: "percent" });
    const bad = await query("count(where status = 'completed') / amount");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { details: unknown }).details).toEqual([
      expect.objectContaining({
        path: ["query", "calculatedFields", 0, "formula"],
        code: "wrong_member_kind",
        message: expect.stringContaining("(at character 37)"),
      }),
    ]);
  });

  it("checks only the shape where the deployment has no model files yet, and refuses bad keys and unknown keys everywhere", async () => {
    const id = await workbook(withoutModel);
    const ok = await update(withoutModel, id, { calculatedFields: { "sales.later": { formula: "revenue / count" } } });
    expect(ok.status, await ok.clone().text()).toBe(200);
    const badKey = await update(withoutModel, id, { calculatedFields: { later: { formula: "revenue" } } });
    expect(badKey.status).toBe(400);
    const sqlKey = await update(withModel, await workbook(withModel), { calculatedFields: { "sales.x": { formula: "count", sql: "1" } } });
    expect(sqlKey.status).toBe(400);
  });
});
