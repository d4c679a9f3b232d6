import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDemoDataset } from "../../demo/dataset";
import { demoModelFiles } from "../../demo/seed";
import { dataModelFiles, deployments, users } from "../../db/schema";
import { publishInvalidation } from "../../cluster/invalidation-bus";
import { createApiKey } from "../api-keys/service";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

describe.each(storageKinds)("deployments API (%s)", (storage) => {
  let t: TestPlatform;
  let dir: string;
  let duckdbPath: string;
  let developerToken: string;
  const pgSource = { type: "postgres", host: "db.internal.example", port: 5433, database: "shop", user: "reader", password: "s3cret-Pa55" };

  const create = (body: unknown, token?: string) => t.api("POST", "/build/api/v1/deployments/", body, token);
  const stored = async (id: number) => (await t.database.db.select().from(deployments).where(eq(deployments.id, id)))[0]!;

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    dir = mkdtempSync(path.join(tmpdir(), "svc-deployments-"));
    duckdbPath = path.join(dir, "shop.duckdb");
    await generateDemoDataset({ path: duckdbPath, rows: 200 });
    const [dev] = await t.database.db.insert(users).values({ email: "dev@example.com", role: "developer" }).returning();
    developerToken = (await createApiKey(t.database.db, { userId: dev!.id, name: "dev" })).token;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates a deployment with its data model on the default branch and queries it", async () => {
    const res = await create({ name: "  Shop  ", dataSource: { type: "duckdb", path: duckdbPath }, dataModelFiles: demoModelFiles() });
    expect(res.status).toBe(201);
    const dep = await res.json();
    expect(dep).toMatchObject({ name: "Shop", dataSource: { type: "duckdb", path: duckdbPath } });
    const files = await t.database.db.select().from(dataModelFiles).where(eq(dataModelFiles.deploymentId, dep.id));
    expect(files.map((f) => [f.branch, f.path])).toEqual(demoModelFiles().map((f) => ["main", f.path]));
    const q = await t.api("POST", `/api/v1/deployments/${dep.id}/query`, { query: { measures: ["sales.count"] } });
    expect(q.status).toBe(200);
    expect(Number((await q.json()).data[0]["sales.count"])).toBe(200);
  });

  it("rejects an invalid data model with its problems and stores nothing", async () => {
    const before = (await t.database.db.select().from(deployments)).length;
    const res = await create({
      name: "broken",
      dataSource: pgSource,
      dataModelFiles: [
        { path: "ok.yml", content: "cubes:\n  - name: a\n    sql_table: a\n    measures:\n      - { name: count, type: count }\n" },
        { path: "bad.yml", content: "cubes:\n  - name: b\n    measures:\n      - { name: total, type: summ }\n" },
      ],
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe("validation_failed");
    expect(body.details.length).toBeGreaterThan(0);
    for (const d of body.details) {
      expect(d).toMatchObject({ code: "data_model_invalid", file: "bad.yml", path: expect.arrayContaining(["dataModelFiles", 1, "content"]) });
      expect(d.line).toBeGreaterThan(0);
    }
    const yamlError = await create({ name: "broken", dataSource: pgSource, dataModelFiles: [{ path: "x.yml", content: "cubes: [" }] });
    expect(yamlError.status).toBe(400);
    const dup = await create({
      name: "dup",
      dataSource: pgSource,
      dataModelFiles: [
        { path: "a.yml", content: "" },
        { path: "a.yml", content: "" },
      ],
    });
    expect((await dup.json()).details[0]).toMatchObject({ path: ["dataModelFiles", 1, "path"], code: "duplicate_path" });
    const traversal = await create({ name: "dup", dataSource: pgSource, dataModelFiles: [{ path: "../etc/x.yml", content: "" }] });
    expect(traversal.status).toBe(400);
    expect((await t.database.db.select().from(deployments)).length).toBe(before);
  });

  it("validates the DuckDB path and lets only admins use one", async () => {
    const relative = await create({ name: "rel", dataSource: { type: "duckdb", path: "shop.duckdb" } });
    expect((await relative.json()).details[0]).toMatchObject({ path: ["dataSource", "path"], code: "not_absolute" });
    const missing = await create({ name: "missing", dataSource: { type: "duckdb", path: path.join(dir, "nope.duckdb") } });
    expect((await missing.json()).details[0]).toMatchObject({ path: ["dataSource", "path"], code: "not_found" });
    const directory = await create({ name: "dir", dataSource: { type: "duckdb", path: dir } });
    expect((await directory.json()).details[0]).toMatchObject({ code: "not_found" });
    const byDeveloper = await create({ name: "dev", dataSource: { type: "duckdb", path: duckdbPath } }, developerToken);
    expect(byDeveloper.status).toBe(403);
    const badHost = await create({ name: "h", dataSource: { ...pgSource, host: "x host=evil" } });
    expect((await badHost.json()).details[0].path).toEqual(["dataSource", "host"]);
    const badPort = await create({ name: "p", dataSource: { ...pgSource, port: 70000 } });
    expect((await badPort.json()).details[0].path).toEqual(["dataSource", "port"]);
  });

  it("seals the Postgres password and never returns it", async () => {
    const res = await create({ name: "warehouse", dataSource: pgSource }, developerToken);
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).not.toContain(pgSource.password);
    const dep = JSON.parse(text);
    expect(dep.dataSource).toEqual({ type: "postgres", host: pgSource.host, port: 5433, database: "shop", user: "reader", ssl: false, hasPassword: true });
    const row = await stored(dep.id);
    expect(row.dataSource!.type).toBe("postgres");
    const sealed = (row.dataSource as { passwordEncrypted: string }).passwordEncrypted;
    expect(JSON.stringify(row.dataSource)).not.toContain(pgSource.password);
    expect(t.deps.secretBox.open(sealed)).toBe(pgSource.password);
    for (const r of [await t.api("GET", `/api/v1/deployments/${dep.id}`), await t.api("GET", "/api/v1/deployments?first=100")]) {
      expect(await r.text()).not.toContain(pgSource.password);
    }
  });

  it("updates name and data source, keeping the password only for the same server", async () => {
    const dep = await (await create({ name: "wh", dataSource: pgSource })).json();
    const renamed = await t.api("PUT", `/api/v1/deployments/${dep.id}`, { name: "Warehouse" }, developerToken);
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ name: "Warehouse", dataSource: { hasPassword: true } });
    const { password: _omit, ...noPassword } = pgSource;
    const sameServer = await t.api("PUT", `/api/v1/deployments/${dep.id}`, { dataSource: { ...noPassword, ssl: true } });
    expect(await sameServer.json()).toMatchObject({ dataSource: { ssl: true, hasPassword: true } });
    expect(t.deps.secretBox.open(((await stored(dep.id)).dataSource as { passwordEncrypted: string }).passwordEncrypted)).toBe(pgSource.password);
    const otherServer = await t.api("PUT", `/api/v1/deployments/${dep.id}`, { dataSource: { ...noPassword, host: "attacker.example" } });
    expect(otherServer.status).toBe(400);
    expect((await otherServer.json()).details[0]).toMatchObject({ path: ["dataSource", "password"], code: "password_required" });
    const cleared = await t.api("PUT", `/api/v1/deployments/${dep.id}`, { dataSource: { ...noPassword, host: "replica.example", password: null } });
    expect(await cleared.json()).toMatchObject({ dataSource: { host: "replica.example", hasPassword: false } });
    const unknown = await t.api("PUT", `/api/v1/deployments/999999`, { name: "x" });
    expect(unknown.status).toBe(404);
    const extra = await t.api("PUT", `/api/v1/deployments/${dep.id}`, { name: "x", owner: 1 });
    expect(extra.status).toBe(400);
  });

  it("takes a MySQL / MariaDB server: port 3306 by default, the password sealed and kept only for the same kind of server", async () => {
    const mysqlSource = { type: "mysql", host: "mysql.internal.example", database: "shop", user: "reader", password: "my-Pa55word" };
    const res = await create({ name: "mysql warehouse", dataSource: mysqlSource }, developerToken);
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).not.toContain(mysqlSource.password);
    const dep = JSON.parse(text);
    expect(dep.dataSource).toEqual({ type: "mysql", host: mysqlSource.host, port: 3306, database: "shop", user: "reader", ssl: false, hasPassword: true });
    const row = await stored(dep.id);
    expect(row.dataSource).toMatchObject({ type: "mysql", port: 3306 });
    expect(t.deps.secretBox.open((row.dataSource as { passwordEncrypted: string }).passwordEncrypted)).toBe(mysqlSource.password);
    const { password: _omit, ...noPassword } = mysqlSource;
    const sameServer = await t.api("PUT", `/api/v1/deployments/${dep.id}`, { dataSource: { ...noPassword, ssl: true } });
    expect(await sameServer.json()).toMatchObject({ dataSource: { type: "mysql", ssl: true, hasPassword: true } });
    // The same address as a Postgres server is another server: the password must be sent again.
    const otherKind = await t.api("PUT", `/api/v1/deployments/${dep.id}`, { dataSource: { ...noPassword, type: "postgres", port: 3306 } });
    expect(otherKind.status).toBe(400);
    expect((await otherKind.json()).details[0]).toMatchObject({ path: ["dataSource", "password"], code: "password_required" });
    for (const [bad, path] of [
      [{ ...mysqlSource, host: "x host=evil" }, ["dataSource", "host"]],
      [{ ...mysqlSource, port: 0 }, ["dataSource", "port"]],
      [{ ...mysqlSource, database: "" }, ["dataSource", "database"]],
      [{ ...mysqlSource, database: "d".repeat(65) }, ["dataSource", "database"]],
      [{ ...mysqlSource, path: "/tmp/x" }, ["dataSource"]],
    ] as const) {
      const refused = await create({ name: "bad", dataSource: bad });
      expect(refused.status).toBe(400);
      expect((await refused.json()).details[0].path).toEqual(path);
    }
  });

  it("switches the data source of a running deployment at once", async () => {
    const dep = await (await create({ name: "switch", dataSource: { type: "duckdb", path: duckdbPath }, dataModelFiles: demoModelFiles() })).json();
    const q = () => t.api("POST", `/api/v1/deployments/${dep.id}/query`, { query: { measures: ["sales.count"] }, cache: "bypass" });
    expect((await q()).status).toBe(200);
    await t.api("PUT", `/api/v1/deployments/${dep.id}`, { dataSource: { type: "postgres", host: "127.0.0.1", port: 1, database: "x", user: "x" } });
    const down = await q();
    expect(down.status).toBe(503);
    expect((await down.json()).code).toBe("datasource_unavailable");
    await t.api("PUT", `/api/v1/deployments/${dep.id}`, { dataSource: { type: "duckdb", path: duckdbPath } });
    expect((await q()).status).toBe(200);
  });

  it("shows embed viewers only the data source type", async () => {
    const dep = await (await create({ name: "embedded", dataSource: pgSource })).json();
    const gen = await t.api("POST", "/api/v1/embed/generate-session", { deploymentId: dep.id, externalId: "v1", embedTenantName: "acme-corp" });
    const { sessionId } = await gen.json();
    const { token } = await (await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null)).json();
    const res = await t.api("GET", `/api/v1/deployments/${dep.id}`, undefined, token);
    expect(res.status).toBe(200);
    expect((await res.json()).dataSource).toEqual({ type: "postgres" });
    expect((await t.api("PUT", `/api/v1/deployments/${dep.id}`, { name: "x" }, token)).status).toBe(403);
  });

  it("deletes a deployment for admins only", async () => {
    const dep = await (await create({ name: "doomed", dataSource: { type: "duckdb", path: duckdbPath }, dataModelFiles: demoModelFiles() })).json();
    expect((await t.api("DELETE", `/api/v1/deployments/${dep.id}`, undefined, developerToken)).status).toBe(403);
    const res = await t.api("DELETE", `/api/v1/deployments/${dep.id}`);
    expect(res.status).toBe(204);
    expect((await t.api("GET", `/api/v1/deployments/${dep.id}`)).status).toBe(404);
    expect((await t.api("POST", `/api/v1/deployments/${dep.id}/query`, { query: { measures: ["sales.count"] } })).status).toBe(404);
    expect(await t.database.db.select().from(dataModelFiles).where(eq(dataModelFiles.deploymentId, dep.id))).toEqual([]);
    expect((await t.api("DELETE", `/api/v1/deployments/${dep.id}`)).status).toBe(404);
  });

  it("serves a deployment changed by another node once that node announces it", async () => {
    const dep = await (await create({ name: "Cached", dataSource: { type: "duckdb", path: duckdbPath } })).json();
    const name = async () => ((await (await t.api("GET", `/api/v1/deployments/${dep.id}`)).json()) as { name: string }).name;
    expect(await name()).toBe("Cached");
    // Another node's write: straight to the shared database, then its announcement on the bus.
    await t.database.db.update(deployments).set({ name: "Renamed elsewhere" }).where(eq(deployments.id, dep.id));
    await publishInvalidation(t.database.db, "deployment", dep.id);
    expect(await name()).toBe("Renamed elsewhere");
    // A change through this node's API is seen at once.
    expect((await t.api("PUT", `/api/v1/deployments/${dep.id}`, { name: "Renamed here" })).status).toBe(200);
    expect(await name()).toBe("Renamed here");
  });

  it("publishes the deployment operations in the OpenAPI document", async () => {
    const doc = await (await t.api("GET", "/api/v1/openapi.json")).json();
    expect(doc.paths["/build/api/v1/deployments/"].post.operationId).toBe("createDeployment");
    expect(Object.keys(doc.paths["/api/v1/deployments/{deploymentId}"]).sort()).toEqual(["delete", "get", "put"]);
    expect(doc.paths["/api/v1/deployments/{deploymentId}/query/sql"].post.operationId).toBe("compileQuery");
    expect(doc.components.schemas.DataSourceInput).toBeDefined();
  });
});
