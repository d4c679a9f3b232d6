import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/connection";
import { apiKeys, dashboards, dataModelFiles, deployments, embedTenants, workbooks } from "../db/schema";
import type { Logger } from "../logger";
import { createApiKey } from "../modules/api-keys/service";
import { deploymentRowCache } from "../modules/deployments/service";
import { ensureDefaultBranch } from "../modules/data-model/store";
import { generatePublicId } from "../modules/dashboards/service";
import { setDashboardAllowEmbed, setEmbedAccess } from "../modules/embed-access/service";
import { systemActor } from "../domain/actor";
import { publishDashboard } from "../modules/dashboards/service";
import { upsertReportByPublicId } from "../modules/reports/service";
import { upsertWorkbookBySlug } from "../modules/workbooks/service";
import { generateDemoDataset } from "./dataset";
import { DEMO_APP_REPORTS, DEMO_APP_WORKBOOK_SLUG, DEMO_PYTHON_REPORT, demoAppDashboardConfig } from "./demo-app";
import { DEMO_DEPLOYMENT_NAME, DEMO_REPORTS, DEMO_WORKBOOK_SLUG, demoDashboardConfig } from "./demo-workbook";

const modelDir = fileURLToPath(new URL("./data-model", import.meta.url));
/** The demo model's rollups (data-model/rollups.yml), which the seeded demo deployment has. */
export const DEMO_ROLLUPS_FILE = "rollups.yml";

/**
 * The demo model's files. Without `rollups`, the rollups file is left out: a model with rollups
 * opens a DuckDB file for writing (to build them), and the tests that share one data file read it.
 */
export function demoModelFiles(opts: { rollups?: boolean } = {}): { path: string; content: string }[] {
  return readdirSync(modelDir, { recursive: true, encoding: "utf8" })
    .map((f) => f.split(path.sep).join("/"))
    .filter((f) => f.endsWith(".yml") || f.endsWith(".yaml"))
    .filter((f) => opts.rollups || f !== DEMO_ROLLUPS_FILE)
    .sort()
    .map((f) => ({ path: f, content: readFileSync(path.join(modelDir, f), "utf8") }));
}

export interface DemoSeedResult {
  deploymentId: number;
  workbookId: number;
  dashboardPublicId: string;
  /** The demo app dashboard (kind APP), when the platform has it. */
  appDashboardPublicId?: string | null;
  created: boolean;
}

/**
 * The demo deployment: a deterministic DuckDB data set under the data folder (rewritten when
 * missing), and — when the platform has no deployment yet — the deployment, its data model,
 * the two embed tenants, and the `demo-sales` workbook with a published, embeddable dashboard
 * readable by all embed users.
 */
/**
 * The demo's DuckDB file under the data folder, generated when missing. It needs no platform
 * storage, so the platform starts it beside opening its database (a first start generates the
 * file while PGlite initialises).
 */
export async function prepareDemoDataset(opts: { dataDir: string; rows: number; logger: Logger }): Promise<{ path: string }> {
  const demoDir = path.resolve(opts.dataDir === ":memory:" ? path.join(process.cwd(), ".data") : opts.dataDir, "demo");
  mkdirSync(demoDir, { recursive: true });
  const duckdbPath = path.join(demoDir, `shop-${opts.rows}.duckdb`);
  const started = performance.now();
  const dataset = await generateDemoDataset({ path: duckdbPath, rows: opts.rows });
  if (dataset.created) opts.logger.info("demo data set generated", { rows: dataset.rows, ms: Math.round(performance.now() - started) });
  return { path: duckdbPath };
}

export async function seedDemo(opts: {
  db: Db;
  dataDir: string;
  rows: number;
  adminUserId: number;
  demoHostOrigin: string | null;
  logger: Logger;
  /** The data set, when its preparation was started earlier (prepareDemoDataset); else it is prepared here. */
  dataset?: Promise<{ path: string }>;
  /**
   * Seed the model with its rollups (data-model/rollups.yml). Off by default: a model with rollups
   * opens its DuckDB file for writing, which one process at a time may do, and the served demo
   * is shared by several processes (the two API processes of a cluster on one data folder).
   */
  rollups?: boolean;
}): Promise<DemoSeedResult | null> {
  const { db, logger } = opts;
  const { path: duckdbPath } = await (opts.dataset ?? prepareDemoDataset(opts));
  const [existing] = await db.select().from(deployments).where(eq(deployments.name, DEMO_DEPLOYMENT_NAME)).limit(1);
  if (existing) {
    // Keep the deployment pointing at this machine's data file (the data folder may have moved).
    if (existing.dataSource?.type === "duckdb" && existing.dataSource.path !== duckdbPath) {
      await db
        .update(deployments)
        .set({ dataSource: { type: "duckdb", path: duckdbPath } })
        .where(eq(deployments.id, existing.id));
      deploymentRowCache.invalidate();
    }
    const [wb] = await db
      .select()
      .from(workbooks)
      .where(and(eq(workbooks.deploymentId, existing.id), eq(workbooks.slug, DEMO_WORKBOOK_SLUG)));
    const [dash] = wb ? await db.select().from(dashboards).where(eq(dashboards.workbookId, wb.id)) : [];
    if (!wb || !dash) return null;
    const [appWb] = await db
      .select()
      .from(workbooks)
      .where(and(eq(workbooks.deploymentId, existing.id), eq(workbooks.slug, DEMO_APP_WORKBOOK_SLUG)));
    const [appDash] = appWb ? await db.select().from(dashboards).where(eq(dashboards.workbookId, appWb.id)) : [];
    return { deploymentId: existing.id, workbookId: wb.id, dashboardPublicId: dash.publicId, appDashboardPublicId: appDash?.publicId ?? null, created: false };
  }
  const [anyDeployment] = await db.select({ id: deployments.id }).from(deployments).limit(1);
  if (anyDeployment) return null; // not an empty platform: the demo is not imposed on it

  // The demo is applied through the same services as the API (workbooks as code): reports by
  // public id, the workbook by slug with its dashboard draft, then publish and embed access.
  const actor = systemActor(opts.adminUserId);
  return db.transaction(async (tx) => {
    const t = tx;
    const [dep] = await t
      .insert(deployments)
      .values({ name: DEMO_DEPLOYMENT_NAME, dataSource: { type: "duckdb", path: duckdbPath } })
      .returning();
    const deploymentId = dep!.id;
    await t
      .insert(dataModelFiles)
      .values(demoModelFiles({ rollups: opts.rollups === true }).map((f) => ({ deploymentId, branch: "main", path: f.path, content: f.content })));
    await ensureDefaultBranch(t, deploymentId);
    await t
      .insert(embedTenants)
      .values([
        { name: "acme-corp", displayName: "Acme Corp" },
        { name: "globex-inc", displayName: "Globex Inc" },
      ])
      .onConflictDoNothing();

    const reportIds: Record<string, number> = {};
    for (const r of DEMO_REPORTS) {
      const report = await upsertReportByPublicId(
        t,
        deploymentId,
        generatePublicId(),
        {
          name: r.name,
          title: r.title,
          description: r.description ?? null,
          kind: r.kind,
          query: r.query,
          spec: (r.spec as Record<string, unknown> | undefined) ?? null,
          fillMissingRows: r.fillMissingRows ?? null,
          periodComparisons: r.periodComparisons ?? null,
          preferences: r.preferences ?? null,
          ...(r.drillMembers ? { meta: { drillMembers: r.drillMembers } } : {}),
        },
        actor,
      );
      reportIds[r.key] = report.id;
    }
    const config = demoDashboardConfig(reportIds);
    const wb = await upsertWorkbookBySlug(t, deploymentId, DEMO_WORKBOOK_SLUG, { name: "Demo sales", meta: { dashboardDraft: config } }, actor);
    const dashboard = await publishDashboard(t, wb.id, actor, { deploymentId });
    await setDashboardAllowEmbed(t, actor, dashboard.publicId, true);
    await setEmbedAccess(t, actor, deploymentId, wb.id, { rules: [{ embedTenantName: null, action: "read" }] });
    const appDashboardPublicId = await seedDemoApp(t, deploymentId, actor);
    logger.info("demo deployment created", { deploymentId, workbookId: wb.id });
    return { deploymentId, workbookId: wb.id, dashboardPublicId: dashboard.publicId, appDashboardPublicId, created: true };
  });
}

const DEMO_HOST_KEY_NAME = "demo host (replaced on every start)";

/** The demo host's backend key: a fresh one each start, the previous ones revoked. */
export async function issueDemoHostKey(db: Db, adminUserId: number): Promise<string> {
  await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.name, DEMO_HOST_KEY_NAME), isNull(apiKeys.revokedAt)));
  const { token } = await createApiKey(db, { userId: adminUserId, name: DEMO_HOST_KEY_NAME });
  return token;
}

/** The demo app dashboard (kind APP) in a workbook of its own, with the reports it reads. */
async function seedDemoApp(t: Db, deploymentId: number, actor: ReturnType<typeof systemActor>): Promise<string> {
  const wb = await upsertWorkbookBySlug(t, deploymentId, DEMO_APP_WORKBOOK_SLUG, { name: "Demo order funnel (app)" }, actor);
  for (const r of DEMO_APP_REPORTS) {
    await upsertReportByPublicId(t, deploymentId, generatePublicId(), { name: r.name, title: r.title, kind: r.kind, query: r.query, workbookId: wb.id }, actor);
  }
  const py = DEMO_PYTHON_REPORT;
  await upsertReportByPublicId(
    t,
    deploymentId,
    generatePublicId(),
    { name: py.name, title: py.title, kind: py.kind, query: py.query, meta: { python: py.python }, workbookId: wb.id },
    actor,
  );
  await upsertWorkbookBySlug(t, deploymentId, DEMO_APP_WORKBOOK_SLUG, { meta: { dashboardDraft: demoAppDashboardConfig() } }, actor);
  const dashboard = await publishDashboard(t, wb.id, actor, { deploymentId });
  await setDashboardAllowEmbed(t, actor, dashboard.publicId, true);
  await setEmbedAccess(t, actor, deploymentId, wb.id, { rules: [{ embedTenantName: null, action: "read" }] });
  return dashboard.publicId;
}
