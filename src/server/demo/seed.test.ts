import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DashboardConfig, ReportSnapshot } from "../../schema/dashboard";
import { dashboards, dashboardVersions, embedAccess, embedTenants, workbooks } from "../db/schema";
import { silentLogger } from "../logger";
import { createTestPlatform, type TestPlatform } from "../testing/test-platform";
import { DEMO_APP_WORKBOOK_SLUG } from "./demo-app";
import { DEMO_WORKBOOK_SLUG } from "./demo-workbook";
import { issueDemoHostKey, seedDemo, type DemoSeedResult } from "./seed";

describe("seedDemo", () => {
  let t: TestPlatform;
  let dir: string;
  let seeded: DemoSeedResult;
  beforeAll(async () => {
    t = await createTestPlatform();
    dir = mkdtempSync(path.join(tmpdir(), "svc-seed-"));
    const result = await seedDemo({ db: t.database.db, dataDir: dir, rows: 5000, adminUserId: t.adminUserId, demoHostOrigin: null, logger: silentLogger });
    seeded = result!;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates the demo deployment with a published, embeddable dashboard readable by all embed users", async () => {
    expect(seeded.created).toBe(true);
    expect(seeded.dashboardPublicId).toMatch(/^[0-9A-Za-z]{12}$/);
    const [wb, appWb] = await t.database.db.select().from(workbooks).orderBy(workbooks.id);
    expect(wb!.slug).toBe(DEMO_WORKBOOK_SLUG);
    expect(appWb!.slug).toBe(DEMO_APP_WORKBOOK_SLUG);
    const [dash, appDash] = await t.database.db.select().from(dashboards).orderBy(dashboards.id);
    expect(dash).toMatchObject({ status: "published", allowEmbed: true, versionNumber: 1, publicId: seeded.dashboardPublicId });
    expect(appDash).toMatchObject({ status: "published", allowEmbed: true, versionNumber: 1, publicId: seeded.appDashboardPublicId });
    const access = await t.database.db.select().from(embedAccess).orderBy(embedAccess.workbookId);
    expect(access).toEqual([
      expect.objectContaining({ workbookId: wb!.id, tenantId: null, action: "read" }),
      expect.objectContaining({ workbookId: appWb!.id, tenantId: null, action: "read" }),
    ]);
    const tenants = await t.database.db.select({ name: embedTenants.name }).from(embedTenants);
    expect(tenants.map((x) => x.name).sort()).toEqual(["acme-corp", "globex-inc"]);
  });

  it("publishes a valid config with every widget type and every report kind", async () => {
    const [version] = await t.database.db.select().from(dashboardVersions);
    const config = DashboardConfig.parse(version!.config);
    const types = new Set<string>();
    const visit = (ws: NonNullable<typeof config.widgets>) => {
      for (const w of ws) {
        types.add(w.type);
        const tabs = (w.config?.tabs ?? []) as { widgets: NonNullable<typeof config.widgets> }[];
        for (const tab of tabs) visit(tab.widgets);
      }
    };
    visit(config.widgets!);
    expect([...types].sort()).toEqual(["AI", "CHART", "FILTER", "TABS_CONTAINER", "TEXT", "TIME_GRAIN"]);
    expect(config.widgets!.length).toBeGreaterThanOrEqual(12);
    const snapshots = version!.reportSnapshots.map((s) => ReportSnapshot.parse(s));
    expect(new Set(snapshots.map((s) => s.kind))).toEqual(new Set(["vega", "table", "kpi", "html", "map"]));
    // Every chart has its report frozen in the version, the charts inside tabs included.
    const chartReports: number[] = [];
    const collect = (ws: NonNullable<typeof config.widgets>) => {
      for (const w of ws) {
        if (w.type === "CHART") chartReports.push(w.config!.reportId as number);
        for (const tab of (w.config?.tabs ?? []) as { widgets: NonNullable<typeof config.widgets> }[]) collect(tab.widgets);
      }
    };
    collect(config.widgets!);
    expect(chartReports.length).toBeGreaterThan(10);
    expect(new Set(snapshots.map((s) => s.reportId))).toEqual(new Set(chartReports));
  });

  it("serves real numbers that differ between the two tenants", async () => {
    const engine = await t.deps.queryEngines.get(seeded.deploymentId);
    const total = async (embedTenant: string | null, role?: "admin") =>
      (await engine.load({ measures: ["sales.count"] }, { securityContext: { embedTenant, groups: [], userAttributes: {}, role } })).data[0]![
        "sales.count"
      ] as number;
    const [acme, globex, all] = await Promise.all([total("acme-corp"), total("globex-inc"), total(null, "admin")]);
    expect(acme).toBeGreaterThan(0);
    expect(globex).toBeGreaterThan(0);
    expect(acme).not.toBe(globex);
    expect(acme + globex).toBe(all);
    expect(all).toBe(5000);
  });

  it("runs every demo report's query without error", async () => {
    const [version] = await t.database.db.select().from(dashboardVersions);
    const engine = await t.deps.queryEngines.get(seeded.deploymentId);
    for (const s of version!.reportSnapshots.map((x) => ReportSnapshot.parse(x))) {
      const r = await engine.load(s.meta!.query, {
        securityContext: { embedTenant: "acme-corp", groups: [], userAttributes: {} },
        fillMissingRows: s.fillMissingRows,
        periodComparisons: s.periodComparisons,
      });
      expect(r.data.length, s.name ?? "").toBeGreaterThan(0);
    }
  });

  it("publishes the demo app dashboard (kind APP) with its workbook's reports and vega-embed", async () => {
    const [appDash] = await t.database.db.select().from(dashboards).where(eq(dashboards.publicId, seeded.appDashboardPublicId!));
    const [version] = await t.database.db.select().from(dashboardVersions).where(eq(dashboardVersions.id, appDash!.versionId!));
    const config = DashboardConfig.parse(version!.config);
    expect(config.kind).toBe("APP");
    expect(config.app?.manifest?.dependencies).toEqual({ "vega-embed": "7" });
    expect(
      ReportSnapshot.array()
        .parse(version!.reportSnapshots)
        .map((s) => s.name),
    ).toEqual(["funnel_status", "funnel_category", "python_status_summary"]);
  });

  it("leaves an existing demo alone on the next start", async () => {
    const again = await seedDemo({ db: t.database.db, dataDir: dir, rows: 5000, adminUserId: t.adminUserId, demoHostOrigin: null, logger: silentLogger });
    expect(again).toMatchObject({
      created: false,
      deploymentId: seeded.deploymentId,
      dashboardPublicId: seeded.dashboardPublicId,
      appDashboardPublicId: seeded.appDashboardPublicId,
    });
    expect(await t.database.db.select().from(workbooks)).toHaveLength(2);
  });

  it("replaces the demo host's key on every start", async () => {
    const first = await issueDemoHostKey(t.database.db, t.adminUserId);
    const second = await issueDemoHostKey(t.database.db, t.adminUserId);
    expect((await t.api("GET", "/api/v1/deployments", undefined, first)).status).toBe(401);
    expect((await t.api("GET", "/api/v1/deployments", undefined, second)).status).toBe(200);
  });
});
