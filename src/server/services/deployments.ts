import { asc, count, eq, gt } from "drizzle-orm";
import type { Deployment } from "../../schema/deployment";
import type { Db } from "../db/connection";
import { deployments } from "../db/schema";

export function deploymentView(row: typeof deployments.$inferSelect): Deployment {
  return {
    id: row.id,
    name: row.name,
    dataSource: { type: row.dataSource.type },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getDeployment(db: Db, id: number) {
  const [row] = await db.select().from(deployments).where(eq(deployments.id, id));
  return row ?? null;
}

export async function listDeployments(db: Db, opts: { afterId: number | null; limit: number; onlyId?: number }) {
  const where = opts.onlyId !== undefined ? eq(deployments.id, opts.onlyId) : opts.afterId !== null ? gt(deployments.id, opts.afterId) : undefined;
  const rows = await db.select().from(deployments).where(where).orderBy(asc(deployments.id)).limit(opts.limit);
  const [total] = await db.select({ n: count() }).from(deployments).where(opts.onlyId !== undefined ? eq(deployments.id, opts.onlyId) : undefined);
  return { rows, total: Number(total?.n ?? 0) };
}
