import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DashboardConfig, type DashboardWidget } from "../../schema/dashboard";
import { dashboardVersions, reports } from "../db/schema";
import { silentLogger } from "../logger";
import { startRollupBuilds } from "../modules/rollups/service";
import { embedSession } from "../testing/shop-deployment";
import { createTestPlatform, type TestPlatform } from "../testing/test-platform";
import { readNdjson, type Line } from "../modules/chat/chat-test-support";
import { seedDemo, type DemoSeedResult } from "./seed";

// The demo dashboard as the two tenants' embed viewers load it: every widget's query is answered
// from one of the demo model's rollups (data-model/rollups.yml), built by the job runner, and
// gives the same rows as the same query told to read the orders (`?rollups=bypass`).

type QueryBody = { query: Record<string, unknown>; fillMissingRows?: unknown; periodComparisons?: unknown };
type Answer = { data: Record<string, unknown>[]; annotation: { rollup?: string } };

/**
 * The same rows: as sets (rows the query's order leaves tied may come in either order), and the
 * ordered columns' values in the same sequence.
 */
function expectSameRows(id: string, body: QueryBody, rolled: Answer, direct: Answer) {
  const lines = (a: Answer) => a.data.map((r) => JSON.stringify(Object.entries(r).sort(([x], [y]) => x.localeCompare(y)))).sort();
  expect({ id, rows: lines(rolled) }).toEqual({ id, rows: lines(direct) });
  const ordered = Object.keys((body.query.order as Record<string, string> | undefined) ?? {});
  const sequence = (a: Answer) => a.data.map((r) => ordered.map((k) => r[k]));
  expect({ id, sequence: sequence(rolled) }).toEqual({ id, sequence: sequence(direct) });
}

/** The rollup expected to answer each widget (the first of rollups.yml that covers it). */
const EXPECTED: Record<string, string> = {
  kpi_revenue: "orders_monthly",
  kpi_orders: "orders_monthly",
  kpi_aov: "orders_monthly",
  kpi_completion: "orders_monthly",
  revenue_trend: "orders_monthly",
  orders_by_status: "orders_monthly",
  revenue_by_category: "orders_monthly",
  units_by_quarter: "orders_monthly",
  customer_map: "orders_by_city_monthly",
  top_cities: "orders_by_city_monthly",
  highlights: "orders_customers_yearly",
};

describe("the demo dashboard answered from the demo's rollups", () => {
  let t: TestPlatform;
  let dir: string;
  let seeded: DemoSeedResult;
  let scheduler: { stop(): void };
  const tokens: Record<string, string> = {};
  /** Widget id → the body its chart sends to the query API. */
  const widgets = new Map<string, QueryBody>();

  const load = async (body: QueryBody, token: string, bypass = false): Promise<Answer> => {
    const res = await t.api("POST", `/api/v1/deployments/${seeded.deploymentId}/query${bypass ? "?rollups=bypass" : ""}`, body, token);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Answer;
  };

  beforeAll(async () => {
    t = await createTestPlatform();
    dir = mkdtempSync(path.join(tmpdir(), "svc-demo-rollups-"));
    seeded = (await seedDemo({
      db: t.database.db,
      dataDir: dir,
      rows: 3000,
      adminUserId: t.adminUserId,
      demoHostOrigin: null,
      logger: silentLogger,
      rollups: true,
    }))!;
    // The widgets of the published dashboard and the queries of their reports.
    const [version] = await t.database.db.select().from(dashboardVersions);
    const config = DashboardConfig.parse(version!.config);
    const charts: { id: string; reportId: number }[] = [];
    const visit = (ws: DashboardWidget[]) => {
      for (const w of ws) {
        if (w.type === "CHART") charts.push({ id: w.id, reportId: Number(w.config?.reportId) });
        for (const tab of (w.config?.tabs ?? []) as { widgets: DashboardWidget[] }[]) visit(tab.widgets);
      }
    };
    visit(config.widgets!);
    const rows = await t.database.db
      .select()
      .from(reports)
      .where(
        inArray(
          reports.id,
          charts.map((c) => c.reportId),
        ),
      );
    for (const c of charts) {
      const r = rows.find((x) => x.id === c.reportId)!;
      widgets.set(c.id, {
        query: r.query!,
        ...(r.fillMissingRows ? { fillMissingRows: r.fillMissingRows } : {}),
        ...(r.periodComparisons ? { periodComparisons: r.periodComparisons } : {}),
      });
    }
    for (const tenant of ["acme-corp", "globex-inc"]) {
      tokens[tenant] = (await embedSession(t, seeded.deploymentId, { externalId: `viewer@${tenant}`, embedTenantName: tenant })).token;
    }
    // This node builds rollups as a served one does: the rollups' job on its runner.
    scheduler = startRollupBuilds({ db: t.database.db, logger: silentLogger, jobs: t.node.jobs, source: t.deps.queryEngines.source }, 60_000);
    t.node.jobs.start();
  }, 120_000);

  afterAll(async () => {
    scheduler?.stop();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads every widget of the dashboard from the cubes until the rollups are built", async () => {
    expect([...widgets.keys()].sort()).toEqual(Object.keys(EXPECTED).sort());
    const first = await load(widgets.get("kpi_revenue")!, tokens["acme-corp"]!);
    expect(first.annotation.rollup).toBeUndefined();
  });

  it("builds the demo's rollups through the job runner", async () => {
    const list = async () =>
      (
        (await (await t.api("GET", `/api/v1/deployments/${seeded.deploymentId}/rollups`)).json()) as {
          rollups: { name: string; state: string; rowCount: number }[];
        }
      ).rollups;
    expect((await list()).map((r) => r.name)).toEqual(["orders_monthly", "orders_daily", "orders_by_city_monthly", "orders_customers_yearly"]);
    for (const r of await list()) {
      expect((await t.api("POST", `/api/v1/deployments/${seeded.deploymentId}/rollups/${r.name}/build`)).status).toBe(202);
    }
    let states = await list();
    for (let i = 0; i < 300 && !states.every((s) => s.state === "built"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      states = await list();
      expect(states.filter((s) => s.state === "failed")).toEqual([]);
    }
    expect(states.map((s) => s.state)).toEqual(["built", "built", "built", "built"]);
    expect(states.every((s) => s.rowCount > 0)).toBe(true);
  }, 60_000);

  for (const tenant of ["acme-corp", "globex-inc"]) {
    it(`answers each widget from its rollup with the orders' rows, for ${tenant}`, async () => {
      const token = tokens[tenant]!;
      // The node that built them announced it; the engine reads the built list again.
      for (let i = 0; i < 100 && !(await load(widgets.get("kpi_revenue")!, token)).annotation.rollup; i++) await new Promise((r) => setTimeout(r, 50));
      const answeredBy: Record<string, string | undefined> = {};
      for (const [id, body] of widgets) {
        const rolled = await load(body, token);
        const direct = await load(body, token, true);
        answeredBy[id] = rolled.annotation.rollup;
        expect(direct.annotation.rollup).toBeUndefined();
        expect(direct.data.length, id).toBeGreaterThan(0);
        expectSameRows(id, body, rolled, direct);
      }
      expect(answeredBy).toEqual(EXPECTED);
    });

    it(`answers the widgets under the dashboard's status, country and date filters and the week grain, for ${tenant}`, async () => {
      const token = tokens[tenant]!;
      const filters = [
        { member: "sales.status", operator: "equals", values: ["completed", "shipped"] },
        { member: "sales.customers_country", operator: "notEquals", values: ["US"] },
      ];
      for (const [id, body] of widgets) {
        const query = body.query as { filters?: unknown[]; timeDimensions?: Record<string, unknown>[] };
        const timeDimensions = query.timeDimensions?.length
          ? query.timeDimensions.map((td) => ({ ...td, ...(id === "revenue_trend" ? { granularity: "week", dateRange: ["2024-10-01", "2025-03-31"] } : {}) }))
          : [{ dimension: "sales.created_at", dateRange: ["2024-01-01", "2024-12-31"] }];
        const filtered = { ...body, query: { ...query, filters: [...(query.filters ?? []), ...filters], timeDimensions } };
        const rolled = await load(filtered, token);
        const direct = await load(filtered, token, true);
        // The year 2024 starts and ends on year edges: the coarser rollups answer it too; weeks
        // are no months, so the trend by week reads the day rollup; the customers' rollup keeps
        // no status, so the highlights under a status filter read the orders.
        const expected = id === "highlights" ? undefined : id === "revenue_trend" ? "orders_daily" : EXPECTED[id];
        expect([id, rolled.annotation.rollup]).toEqual([id, expected]);
        expect(direct.annotation.rollup).toBeUndefined();
        expectSameRows(id, filtered, rolled, direct);
      }
    });
  }

  /** The chat's answer to `question` as the caller of `token` (the admin key when undefined): its query part and its table's rows. */
  const askChat = async (question: string, token?: string) => {
    const threads = `/api/v1/deployments/${seeded.deploymentId}/chat/threads`;
    const thread = await t.api("POST", threads, {}, token);
    expect(thread.status, await thread.clone().text()).toBe(201);
    const { id } = (await thread.json()) as { id: string };
    const res = await t.api("POST", `${threads}/${id}/messages`, { content: question }, token);
    expect(res.status, await res.clone().text()).toBe(200);
    const lines = await readNdjson(res);
    const queryPart = lines.find((l) => l.type === "query") as (Line & { query: Record<string, unknown>; sql?: string }) | undefined;
    const tablePart = lines.find((l) => l.type === "table") as (Line & { rows: Record<string, unknown>[] }) | undefined;
    expect(queryPart && tablePart, JSON.stringify(lines).slice(0, 1500)).toBeTruthy();
    return { query: queryPart!.query, sql: queryPart!.sql, rows: tablePart!.rows };
  };

  it("answers the chat from the rollups, with the orders' rows", async () => {
    const answer = await askChat("revenue by category");
    // The SQL the answer ran (shown to a signed-in user) reads the month rollup, not the orders.
    expect(answer.sql).toContain("svc_rollups");
    expect(answer.sql).toContain("orders_monthly");
    const direct = await load({ query: answer.query }, t.adminToken, true);
    expect(answer.rows).toEqual(direct.data);
  });

  for (const tenant of ["acme-corp", "globex-inc"]) {
    it(`answers the chat for ${tenant} with that tenant's rows, from the rollup its query reads`, async () => {
      const token = tokens[tenant]!;
      const answer = await askChat("orders by status", token);
      const [rolled, direct] = [await load({ query: answer.query }, token), await load({ query: answer.query }, token, true)];
      expect(rolled.annotation.rollup).toBe("orders_monthly");
      expect(answer.rows).toEqual(direct.data);
      expect(rolled.data).toEqual(direct.data);
    });
  }

  it("reads the day rollup when the dashboard's date filter starts inside a month", async () => {
    const body = widgets.get("revenue_by_category")!;
    const query = { ...body.query, timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2024-01-15", "2024-12-31"] }] };
    const rolled = await load({ ...body, query }, tokens["acme-corp"]!);
    const direct = await load({ ...body, query }, tokens["acme-corp"]!, true);
    expect(rolled.annotation.rollup).toBe("orders_daily");
    expectSameRows("revenue_by_category from the 15th", { ...body, query }, rolled, direct);
  });

  it("keeps a tenant's rows to the tenant: the two tenants' answers from the rollups differ", async () => {
    const body = widgets.get("orders_by_status")!;
    const [acme, globex] = [await load(body, tokens["acme-corp"]!), await load(body, tokens["globex-inc"]!)];
    expect(acme.annotation.rollup).toBe("orders_monthly");
    expect(globex.annotation.rollup).toBe("orders_monthly");
    const total = (a: Answer) => a.data.reduce((n, r) => n + Number(r["sales.count"]), 0);
    const all = await t.api("POST", `/api/v1/deployments/${seeded.deploymentId}/query`, body);
    expect(total(acme) + total(globex)).toBe(total((await all.json()) as Answer));
    expect(total(acme)).not.toBe(total(globex));
  });
});
