import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboards, reports } from "../../db/schema";
import { seedDemo } from "../../demo/seed";
import { silentLogger } from "../../logger";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";
import { embedSession } from "../../testing/shop-deployment";

/**
 * The report surface's read (`GET /api/v1/embed/report/{publicId}` and
 * `…/embed/deployments/{d}/reports/{id}`): the checks of the report's dashboard, word for word
 * (deployment, allowEmbed, embed access, export grant, download restriction), the published
 * snapshot only, and row-level security on the report's query by the token's tenant.
 */
let t: TestPlatform;
let dir: string;
let deploymentId: number;
let workbookId: number;
let dashboardPublicId: string;
const ids: Record<string, { id: number; publicId: string }> = {};

interface Body {
  report: { publicId: string; reportId: number; deploymentId: number; dashboardPublicId: string; widgetId: string };
  dashboard: {
    publicId: string;
    config: { kind: string; widgets: { id: string; type: string; config: { reportId?: number } }[] };
    reportSnapshots: { reportId: number; meta: { query: unknown } }[];
  };
  viewer: { mode: string; embedTenant: string | null; exportFormats: string[] };
}

const token = async (body: Record<string, unknown> = {}) =>
  (await embedSession(t, deploymentId, { externalId: "ann", embedTenantName: "acme-corp", ...body })).token;
const byPublicId = (publicId: string, tok?: string | null) => t.api("GET", `/api/v1/embed/report/${publicId}`, undefined, tok);
const byId = (dep: number, reportId: number, tok?: string | null) => t.api("GET", `/api/v1/embed/deployments/${dep}/reports/${reportId}`, undefined, tok);
const setEmbed = (allowEmbed: boolean) => t.api("PATCH", `/api/v1/embed/dashboard/${dashboardPublicId}`, { allowEmbed });
const setRule = (embedTenantName: string | null, action: "read" | "none") =>
  t.api("PUT", `/api/v1/deployments/${deploymentId}/workbooks/${workbookId}/embed-access`, { rules: [{ embedTenantName, action }] });

beforeAll(async () => {
  t = await createTestPlatform();
  dir = await mkdtemp(path.join(os.tmpdir(), "svc-embed-reports-"));
  const seeded = await seedDemo({ db: t.database.db, dataDir: dir, rows: 600, adminUserId: t.adminUserId, demoHostOrigin: null, logger: silentLogger });
  deploymentId = seeded!.deploymentId;
  workbookId = seeded!.workbookId;
  dashboardPublicId = seeded!.dashboardPublicId;
  const rows = await t.database.db
    .select({ id: reports.id, publicId: reports.publicId, name: reports.name })
    .from(reports)
    .where(eq(reports.deploymentId, deploymentId));
  for (const r of rows) ids[r.name] = { id: r.id, publicId: r.publicId };
}, 120_000);
afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The demo dashboard's report shown by widget `widgetId`. */
async function reportOfWidget(widgetId: string): Promise<{ id: number; publicId: string }> {
  const res = await t.api("GET", `/api/v1/embed/dashboard/${dashboardPublicId}`);
  const { dashboard } = (await res.json()) as { dashboard: { config: { widgets: unknown[] } } };
  const find = (widgets: unknown[]): number | undefined => {
    for (const w of widgets as { id: string; config?: { reportId?: number; tabs?: { widgets: unknown[] }[] } }[]) {
      if (w.id === widgetId) return w.config?.reportId;
      for (const tab of w.config?.tabs ?? []) {
        const found = find(tab.widgets);
        if (found) return found;
      }
    }
    return undefined;
  };
  const id = find(dashboard.config.widgets)!;
  return Object.values(ids).find((r) => r.id === id)!;
}

describe("GET /api/v1/embed/report/{publicId} (signed)", () => {
  it("answers the report's widget, the dashboard's filter controls, the report's snapshot alone and the viewer's grant", async () => {
    const trend = await reportOfWidget("revenue_trend");
    const res = await byPublicId(trend.publicId, await token({ settings: { allowExport: ["csv"] } }));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as Body;
    expect(body.report).toEqual({ publicId: trend.publicId, reportId: trend.id, deploymentId, dashboardPublicId, widgetId: "revenue_trend" });
    expect(body.dashboard.config.kind).toBe("CLASSIC");
    expect(body.dashboard.config.widgets.map((w) => [w.id, w.type])).toEqual([
      ["revenue_trend", "CHART"],
      ["filter_status", "FILTER"],
      ["filter_country", "FILTER"],
      ["filter_date", "FILTER"],
    ]);
    expect(body.dashboard.reportSnapshots.map((s) => s.reportId)).toEqual([trend.id]);
    expect(body.viewer).toMatchObject({ mode: "signed", embedTenant: "acme-corp", exportFormats: ["csv"] });
  });

  it("finds a report shown inside a tab container", async () => {
    const byCategory = await reportOfWidget("revenue_by_category");
    const body = (await (await byPublicId(byCategory.publicId, await token())).json()) as Body;
    expect(body.report.widgetId).toBe("revenue_by_category");
    expect(body.dashboard.config.widgets[0]).toMatchObject({ id: "revenue_by_category", type: "CHART", config: { reportId: byCategory.id } });
  });

  it("by id in the deployment answers the same; another deployment's id is a 404", async () => {
    const trend = await reportOfWidget("revenue_trend");
    const tok = await token();
    const res = await byId(deploymentId, trend.id, tok);
    expect(res.status).toBe(200);
    expect(((await res.json()) as Body).report.publicId).toBe(trend.publicId);
    const [other] = await t.addDeployments("elsewhere");
    expect((await byId(other!, trend.id, tok)).status).toBe(404);
    // The platform's own user asking under the wrong deployment: the report is not there either.
    expect((await byId(other!, trend.id)).status).toBe(404);
  });

  it("refuses as the dashboard does: embedding off, a tenant's `none`, then allows again", async () => {
    const trend = await reportOfWidget("revenue_trend");
    const tok = await token();
    expect((await setEmbed(false)).status).toBe(200);
    try {
      const off = await byPublicId(trend.publicId, tok);
      expect(off.status).toBe(403);
      expect(((await off.json()) as { code: string }).code).toBe("forbidden");
    } finally {
      await setEmbed(true);
    }
    expect((await setRule("acme-corp", "none")).status).toBe(200);
    try {
      expect((await byPublicId(trend.publicId, tok)).status).toBe(403);
      // Globex is still covered by the all-embed-users rule.
      const globex = (await embedSession(t, deploymentId, { externalId: "hank", embedTenantName: "globex-inc" })).token;
      expect((await byPublicId(trend.publicId, globex)).status).toBe(200);
    } finally {
      await setRule("acme-corp", "read");
    }
    expect((await byPublicId(trend.publicId, tok)).status).toBe(200);
  });

  it("a report that no published dashboard shows is a 404, as is an unknown one", async () => {
    const [draftOnly] = await t.database.db
      .insert(reports)
      .values({ publicId: "DraftOnly001", deploymentId, workbookId, name: "not on the dashboard", kind: "table", query: { measures: ["sales.revenue"] } })
      .returning({ id: reports.id });
    const tok = await token();
    expect((await byPublicId("DraftOnly001", tok)).status).toBe(404);
    expect((await byId(deploymentId, draftOnly!.id, tok)).status).toBe(404);
    expect((await byPublicId("Nope00000000", tok)).status).toBe(404);
    await t.database.db.delete(reports).where(and(eq(reports.id, draftOnly!.id)));
  });

  it("a dashboard that restricts data download offers no export format for its report", async () => {
    const trend = await reportOfWidget("revenue_trend");
    await t.database.db.update(dashboards).set({ restrictDataDownload: true }).where(eq(dashboards.publicId, dashboardPublicId));
    try {
      const body = (await (await byPublicId(trend.publicId, await token({ settings: { allowExport: true } }))).json()) as Body;
      expect(body.viewer.exportFormats).toEqual([]);
    } finally {
      await t.database.db.update(dashboards).set({ restrictDataDownload: false }).where(eq(dashboards.publicId, dashboardPublicId));
    }
  });

  it("rows of the report's query are the token's tenant's only (row-level security)", async () => {
    const trend = await reportOfWidget("revenue_trend");
    const acme = await token();
    const globex = (await embedSession(t, deploymentId, { externalId: "hank", embedTenantName: "globex-inc" })).token;
    const body = (await (await byPublicId(trend.publicId, acme)).json()) as Body;
    const total = { measures: (body.dashboard.reportSnapshots[0]!.meta.query as { measures: string[] }).measures };
    const run = async (tok: string) => {
      const res = await t.api("POST", `/api/v1/deployments/${deploymentId}/query`, { query: total }, tok);
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: Record<string, unknown>[] }).data[0];
    };
    const [a, g, all] = await Promise.all([run(acme), run(globex), run(t.adminToken)]);
    expect(a).not.toEqual(g);
    expect(Number(Object.values(a!)[0]) + Number(Object.values(g!)[0])).toBeCloseTo(Number(Object.values(all!)[0]), 0);
  });
});

describe("GET /api/v1/embed/report/{publicId} (others)", () => {
  it("a platform user with read access gets it in private mode", async () => {
    const trend = await reportOfWidget("revenue_trend");
    const body = (await (await byPublicId(trend.publicId)).json()) as Body;
    expect(body.viewer.mode).toBe("private");
    expect(body.report.reportId).toBe(trend.id);
  });

  it("a platform user without access to the workbook gets a 404", async () => {
    const trend = await reportOfWidget("revenue_trend");
    const viewer = await t.addUser("nobody@example.com", "viewer");
    expect((await byPublicId(trend.publicId, viewer.token)).status).toBe(404);
  });

  it("no credentials is a 401; a malformed public id a 400", async () => {
    const trend = await reportOfWidget("revenue_trend");
    expect((await byPublicId(trend.publicId, null)).status).toBe(401);
    expect((await byPublicId("not-an-id", await token())).status).toBe(400);
  });
});
