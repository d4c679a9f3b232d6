import { createHash, randomInt } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/connection";
import {
  apiKeys,
  dashboards,
  dashboardVersions,
  dataModelFiles,
  deployments,
  embedAccess,
  embedTenants,
  reports,
  workbooks,
} from "../db/schema";
import type { Logger } from "../logger";
import { createApiKey } from "../services/api-keys";
import { generateDemoDataset } from "./dataset";
import { DEMO_DEPLOYMENT_NAME, DEMO_REPORTS, DEMO_WORKBOOK_SLUG, demoDashboardConfig } from "./demo-workbook";

const modelDir = fileURLToPath(new URL("./data-model", import.meta.url));
const PUBLIC_ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** 12 characters of [0-9A-Za-z], from the CSPRNG. */
export function newPublicId(): string {
  let id = "";
  for (let i = 0; i < 12; i++) id += PUBLIC_ID_ALPHABET[randomInt(PUBLIC_ID_ALPHABET.length)];
  return id;
}

export function demoModelFiles(): { path: string; content: string }[] {
  return readdirSync(modelDir)
    .filter((f) => f.endsWith(".yml") || f.endsWith(".yaml"))
    .sort()
    .map((f) => ({ path: f, content: readFileSync(path.join(modelDir, f), "utf8") }));
}

export interface DemoSeedResult {
  deploymentId: number;
  workbookId: number;
  dashboardPublicId: string;
  created: boolean;
}

/**
 * The demo deployment: a deterministic DuckDB data set under the data folder (rewritten when
 * missing), and — when the platform has no deployment yet — the deployment, its data model,
 * the two embed tenants, and the `demo-sales` workbook with a published, embeddable dashboard
 * readable by all embed users.
 */
export async function seedDemo(opts: {
  db: Db;
  dataDir: string;
  rows: number;
  adminUserId: number;
  demoHostOrigin: string | null;
  logger: Logger;
}): Promise<DemoSeedResult | null> {
  const { db, logger } = opts;
  const demoDir = path.resolve(opts.dataDir === ":memory:" ? path.join(process.cwd(), ".data") : opts.dataDir, "demo");
  mkdirSync(demoDir, { recursive: true });
  const duckdbPath = path.join(demoDir, `shop-${opts.rows}.duckdb`);
  const started = performance.now();
  const dataset = await generateDemoDataset({ path: duckdbPath, rows: opts.rows });
  if (dataset.created) logger.info("demo data set generated", { rows: dataset.rows, ms: Math.round(performance.now() - started) });

  const [existing] = await db.select().from(deployments).where(eq(deployments.name, DEMO_DEPLOYMENT_NAME)).limit(1);
  if (existing) {
    // Keep the deployment pointing at this machine's data file (the data folder may have moved).
    if (existing.dataSource.type === "duckdb" && existing.dataSource.path !== duckdbPath) {
      await db.update(deployments).set({ dataSource: { type: "duckdb", path: duckdbPath } }).where(eq(deployments.id, existing.id));
    }
    const [wb] = await db.select().from(workbooks).where(and(eq(workbooks.deploymentId, existing.id), eq(workbooks.slug, DEMO_WORKBOOK_SLUG)));
    const [dash] = wb ? await db.select().from(dashboards).where(eq(dashboards.workbookId, wb.id)) : [];
    if (!wb || !dash) return null;
    return { deploymentId: existing.id, workbookId: wb.id, dashboardPublicId: dash.publicId, created: false };
  }
  const [anyDeployment] = await db.select({ id: deployments.id }).from(deployments).limit(1);
  if (anyDeployment) return null; // not an empty platform: the demo is not imposed on it

  return db.transaction(async (tx) => {
    const [dep] = await tx.insert(deployments).values({ name: DEMO_DEPLOYMENT_NAME, dataSource: { type: "duckdb", path: duckdbPath } }).returning();
    const deploymentId = dep!.id;
    await tx.insert(dataModelFiles).values(demoModelFiles().map((f) => ({ deploymentId, branch: "main", path: f.path, content: f.content })));
    await tx
      .insert(embedTenants)
      .values([
        { name: "acme-corp", displayName: "Acme Corp" },
        { name: "globex-inc", displayName: "Globex Inc" },
      ])
      .onConflictDoNothing();

    const reportIds: Record<string, number> = {};
    const snapshots: Record<string, unknown>[] = [];
    for (const r of DEMO_REPORTS) {
      const [row] = await tx
        .insert(reports)
        .values({
          publicId: newPublicId(),
          deploymentId,
          name: r.name,
          title: r.title,
          description: r.description ?? null,
          kind: r.kind,
          query: r.query,
          spec: r.spec ?? null,
          fillMissingRows: r.fillMissingRows ?? null,
          periodComparisons: r.periodComparisons ?? null,
          preferences: r.preferences ?? null,
          createdBy: opts.adminUserId,
        })
        .returning();
      reportIds[r.key] = row!.id;
      snapshots.push({
        id: row!.id,
        reportId: row!.id,
        versionNumber: row!.versionNumber,
        name: r.name,
        title: r.title,
        description: r.description ?? null,
        kind: r.kind,
        sqlQuery: null,
        spec: r.spec ?? null,
        meta: { query: r.query },
        fillMissingRows: r.fillMissingRows ?? null,
        periodComparisons: r.periodComparisons ?? null,
        preferences: r.preferences ?? null,
      });
    }

    const config = demoDashboardConfig(reportIds);
    const [wb] = await tx
      .insert(workbooks)
      .values({
        deploymentId,
        name: "Demo sales",
        slug: DEMO_WORKBOOK_SLUG,
        meta: { dashboardDraft: config },
        createdBy: opts.adminUserId,
        userId: opts.adminUserId,
      })
      .returning();
    await tx.update(reports).set({ workbookId: wb!.id }).where(eq(reports.deploymentId, deploymentId));
    const [dash] = await tx
      .insert(dashboards)
      .values({
        publicId: newPublicId(),
        deploymentId,
        workbookId: wb!.id,
        status: "published",
        allowEmbed: true,
        title: config.title ?? null,
        description: config.description ?? null,
        createdBy: opts.adminUserId,
      })
      .returning();
    const checksum = createHash("sha256").update(JSON.stringify({ config, snapshots })).digest("hex");
    const [version] = await tx
      .insert(dashboardVersions)
      .values({ dashboardId: dash!.id, versionNumber: 1, config: config as Record<string, unknown>, reportSnapshots: snapshots, checksum, createdBy: opts.adminUserId })
      .returning();
    await tx.update(dashboards).set({ versionId: version!.id, versionNumber: 1 }).where(eq(dashboards.id, dash!.id));
    await tx.insert(embedAccess).values({ workbookId: wb!.id, tenantId: null, action: "read" });
    logger.info("demo deployment created", { deploymentId, workbookId: wb!.id });
    return { deploymentId, workbookId: wb!.id, dashboardPublicId: dash!.publicId, created: true };
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
