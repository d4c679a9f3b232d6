import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDuckDbDataSource } from "../datasources/duckdb-data-source";
import { loadDataModel } from "../semantic/data-model";
import { createQueryEngine } from "../semantic/query-engine";
import type { SecurityContext } from "../semantic/security-context";
import { generateDemoDataset } from "./dataset";

const dir = mkdtempSync(join(tmpdir(), "svc-demo-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const modelDir = join(__dirname, "data-model");
const demoModel = () =>
  loadDataModel(
    readdirSync(modelDir)
      .filter((f) => f.endsWith(".yml"))
      .map((f) => ({ path: f, content: readFileSync(join(modelDir, f), "utf8") })),
  );

const viewer = (tenant: string | null): SecurityContext => ({ embedTenant: tenant, groups: [], userAttributes: {}, role: "viewer" });
const admin: SecurityContext = { embedTenant: null, groups: [], userAttributes: {}, role: "admin" };

describe("generateDemoDataset", () => {
  it("knows a written data set by its stamp, and looks inside again once the file changed", async () => {
    const file = join(dir, "stamped.duckdb");
    expect(await generateDemoDataset({ path: file, rows: 300 })).toEqual({ created: true, rows: 300 });
    const stamp = JSON.parse(readFileSync(`${file}.stamp`, "utf8"));
    expect(stamp).toMatchObject({ rows: 300, size: statSync(file).size });
    // Another row count is another data set: the stamp does not stand for it.
    expect(await generateDemoDataset({ path: file, rows: 400 })).toEqual({ created: true, rows: 400 });
    // A file replaced after its stamp was written (here by a copy of a 300-row set) is looked into, and generated again.
    const other = join(dir, "other.duckdb");
    await generateDemoDataset({ path: other, rows: 300 });
    copyFileSync(other, file);
    expect(await generateDemoDataset({ path: file, rows: 400 })).toEqual({ created: true, rows: 400 });
    // Without its stamp, the data set is found by reading demo_meta, and stamped again.
    rmSync(`${file}.stamp`);
    expect(await generateDemoDataset({ path: file, rows: 400 })).toEqual({ created: false, rows: 400 });
    expect(existsSync(`${file}.stamp`)).toBe(true);
  });

  it("writes the same numbers every time and skips a file that already has them", async () => {
    const a = join(dir, "a.duckdb");
    const b = join(dir, "b.duckdb");
    expect(await generateDemoDataset({ path: a, rows: 5000 })).toEqual({ created: true, rows: 5000 });
    expect(await generateDemoDataset({ path: a, rows: 5000 })).toEqual({ created: false, rows: 5000 });
    await generateDemoDataset({ path: b, rows: 5000 });
    const summary = async (path: string) => {
      const ds = createDuckDbDataSource({ path, readOnly: true });
      try {
        return await ds.query(
          "SELECT tenant, count(*) AS n, sum(amount) AS revenue, min(created_at) AS first, max(created_at) AS last FROM orders GROUP BY 1 ORDER BY 1",
          [],
        );
      } finally {
        await ds.close();
      }
    };
    const sa = await summary(a);
    expect(sa).toEqual(await summary(b));
    expect(sa.map((r) => r.tenant)).toEqual(["acme-corp", "globex-inc"]);
    expect(sa[0]!.n).not.toBe(sa[1]!.n);
    expect((sa[0]!.n as number) + (sa[1]!.n as number)).toBe(5000);
    expect(sa.every((r) => (r.last as string) <= "2025-06-30T23:59:59.000" && (r.first as string) >= "2023-06-30")).toBe(true);
  });

  it("regenerates when the row count changes", async () => {
    const path = join(dir, "c.duckdb");
    await generateDemoDataset({ path, rows: 1000 });
    expect(await generateDemoDataset({ path, rows: 2000 })).toEqual({ created: true, rows: 2000 });
    const ds = createDuckDbDataSource({ path, readOnly: true });
    expect(await ds.query("SELECT count(*) AS n FROM orders", [])).toEqual([{ n: 2000 }]);
    await ds.close();
  });

  it("serves the demo model with tenants kept apart and admins seeing all", async () => {
    const path = join(dir, "a.duckdb");
    await generateDemoDataset({ path, rows: 5000 });
    const engine = createQueryEngine({ model: demoModel(), dataSource: createDuckDbDataSource({ path, readOnly: true }) });
    const query = { measures: ["sales.count", "sales.revenue", "sales.average_order_value", "sales.customer_count"] };
    const acme = (await engine.load(query, { securityContext: viewer("acme-corp") })).data[0]!;
    const globex = (await engine.load(query, { securityContext: viewer("globex-inc") })).data[0]!;
    const all = (await engine.load(query, { securityContext: admin })).data[0]!;
    expect((acme["sales.count"] as number) + (globex["sales.count"] as number)).toBe(all["sales.count"]);
    expect(acme["sales.count"]).toBeGreaterThan(globex["sales.count"] as number);
    expect((await engine.load(query, { securityContext: viewer(null) })).data[0]!["sales.count"]).toBe(0);

    const cities = await engine.distinctValues("sales.customers_city", { limit: 100 }, { securityContext: viewer("globex-inc") });
    const acmeCities = await engine.distinctValues("sales.customers_city", { limit: 100 }, { securityContext: viewer("acme-corp") });
    expect(cities).not.toEqual(acmeCities);

    const map = await engine.load(
      { measures: ["sales.revenue"], dimensions: ["sales.customers_city", "sales.customers_latitude", "sales.customers_longitude"], limit: 100 },
      { securityContext: viewer("acme-corp") },
    );
    expect(map.data.length).toBeGreaterThan(5);
    expect(typeof map.data[0]!["sales.customers_latitude"]).toBe("number");
    expect(engine.meta(viewer("acme-corp")).sources.map((s) => s.name)).toEqual(["sales", "customer_base"]);
  });
});
