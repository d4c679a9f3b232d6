import { eq } from "drizzle-orm";
import type { Db } from "../db/connection";
import { dashboards, dashboardVersions, deployments, workbooks } from "../db/schema";

/**
 * Test data for embed access: deployments and published dashboards written straight to the
 * tables, so embed tests do not depend on the workbook and publishing API.
 */
export async function seedDeployment(db: Db, name: string): Promise<number> {
  const [row] = await db
    .insert(deployments)
    .values({ name, dataSource: { type: "duckdb", path: ":memory:" } })
    .returning({ id: deployments.id });
  return row!.id;
}

export interface SeededDashboard {
  workbookId: number;
  dashboardId: number;
  publicId: string;
  deploymentId: number;
}

/** A workbook with a published dashboard (one version, one chart widget). */
export async function seedPublishedDashboard(
  db: Db,
  opts: { deploymentId: number; publicId: string; title: string; allowEmbed?: boolean; createdBy?: number | null; published?: boolean },
): Promise<SeededDashboard> {
  const [wb] = await db
    .insert(workbooks)
    .values({ deploymentId: opts.deploymentId, name: opts.title, createdBy: opts.createdBy ?? null })
    .returning({ id: workbooks.id });
  const [dash] = await db
    .insert(dashboards)
    .values({
      publicId: opts.publicId,
      deploymentId: opts.deploymentId,
      workbookId: wb!.id,
      allowEmbed: opts.allowEmbed ?? true,
      title: opts.title,
      status: "draft",
    })
    .returning({ id: dashboards.id });
  if (opts.published !== false) {
    const [version] = await db
      .insert(dashboardVersions)
      .values({
        dashboardId: dash!.id,
        versionNumber: 1,
        config: { title: opts.title, widgets: [{ id: "w1", type: "CHART", position: { x: 0, y: 0, w: 6, h: 4 } }] },
        reportSnapshots: [{ id: 1, reportId: 1, versionNumber: 1, title: `${opts.title} revenue`, kind: "table" }],
        checksum: `seed-${opts.publicId}`,
      })
      .returning({ id: dashboardVersions.id });
    await db.update(dashboards).set({ versionId: version!.id, versionNumber: 1, status: "published" }).where(eq(dashboards.id, dash!.id));
  }
  return { workbookId: wb!.id, dashboardId: dash!.id, publicId: opts.publicId, deploymentId: opts.deploymentId };
}
