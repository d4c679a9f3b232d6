import { and, asc, count, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { embedGroupMembers, embedGroups, embedSessions, embedTenants, embedUsers } from "../../db/schema";
import { badRequest, conflict, notFound } from "../../domain/errors";
import { invalidateEmbedSessionStates } from "../../domain/request-caches";

type TenantRow = typeof embedTenants.$inferSelect;
type UserRow = typeof embedUsers.$inferSelect;
type GroupRow = typeof embedGroups.$inferSelect;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const embedUserView = (row: UserRow) => ({
  id: row.id,
  externalId: row.externalId,
  email: row.email,
  displayName: row.displayName,
  picture: row.picture,
  userAttributes: row.userAttributes,
  lastSeenAt: iso(row.lastSeenAt),
  createdAt: row.createdAt.toISOString(),
});

const groupView = (tenantName: string, row: GroupRow, memberCount: number) => ({
  id: row.id,
  embedTenantName: tenantName,
  name: row.name,
  displayName: row.displayName,
  memberCount,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Creates the tenant or, when a display name is given, updates it. */
export async function upsertEmbedTenant(db: Db, name: string, displayName?: string | null): Promise<TenantRow> {
  const [row] = await db
    .insert(embedTenants)
    .values({ name, displayName: displayName ?? null })
    .onConflictDoUpdate({
      target: embedTenants.name,
      set: displayName !== undefined ? { displayName, updatedAt: new Date() } : { updatedAt: sql`${embedTenants.updatedAt}` },
    })
    .returning();
  return row!;
}

export async function findEmbedTenant(db: Db, name: string): Promise<TenantRow> {
  const [row] = await db.select().from(embedTenants).where(eq(embedTenants.name, name));
  if (!row) throw notFound("Embed tenant");
  return row;
}

export async function listEmbedTenants(db: Db, opts: { afterId: number | null; limit: number }) {
  const userCount = db
    .select({ tenantId: embedUsers.tenantId, n: count().as("n") })
    .from(embedUsers)
    .groupBy(embedUsers.tenantId)
    .as("uc");
  const rows = await db
    .select({ tenant: embedTenants, n: userCount.n })
    .from(embedTenants)
    .leftJoin(userCount, eq(userCount.tenantId, embedTenants.id))
    .where(opts.afterId !== null ? gt(embedTenants.id, opts.afterId) : undefined)
    .orderBy(asc(embedTenants.id))
    .limit(opts.limit);
  const [total] = await db.select({ n: count() }).from(embedTenants);
  return {
    rows: rows.map((r) => ({
      id: r.tenant.id,
      name: r.tenant.name,
      displayName: r.tenant.displayName,
      userCount: Number(r.n ?? 0),
      createdAt: r.tenant.createdAt.toISOString(),
      updatedAt: r.tenant.updatedAt.toISOString(),
    })),
    total: Number(total?.n ?? 0),
  };
}

export async function listEmbedTenantUsers(db: Db, tenantName: string, opts: { afterId: number | null; limit: number }) {
  const tenant = await findEmbedTenant(db, tenantName);
  const rows = await db
    .select()
    .from(embedUsers)
    .where(and(eq(embedUsers.tenantId, tenant.id), opts.afterId !== null ? gt(embedUsers.id, opts.afterId) : undefined))
    .orderBy(asc(embedUsers.id))
    .limit(opts.limit);
  const [total] = await db.select({ n: count() }).from(embedUsers).where(eq(embedUsers.tenantId, tenant.id));
  return { rows, total: Number(total?.n ?? 0) };
}

/**
 * Deletes a tenant with its users, groups and access rules, and revokes every session issued
 * for it, so tokens already handed out stop working at once.
 */
export async function deleteEmbedTenant(db: Db, name: string): Promise<void> {
  const tenant = await findEmbedTenant(db, name);
  await db.transaction(async (tx) => {
    await tx
      .update(embedSessions)
      .set({ revokedAt: new Date() })
      .where(and(isNull(embedSessions.revokedAt), sql`${embedSessions.request}->>'embedTenantName' = ${name}`));
    await tx.delete(embedTenants).where(eq(embedTenants.id, tenant.id));
  });
  invalidateEmbedSessionStates();
}

async function groupOf(db: Db, tenantName: string, groupId: number) {
  const tenant = await findEmbedTenant(db, tenantName);
  const [group] = await db
    .select()
    .from(embedGroups)
    .where(and(eq(embedGroups.id, groupId), eq(embedGroups.tenantId, tenant.id)));
  if (!group) throw notFound("Embed group");
  return { tenant, group };
}

async function memberCount(db: Db, groupId: number) {
  const [r] = await db.select({ n: count() }).from(embedGroupMembers).where(eq(embedGroupMembers.groupId, groupId));
  return Number(r?.n ?? 0);
}

export async function createEmbedGroup(db: Db, tenantName: string, input: { name: string; displayName?: string | null }) {
  const tenant = await findEmbedTenant(db, tenantName);
  const [row] = await db
    .insert(embedGroups)
    .values({ tenantId: tenant.id, name: input.name, displayName: input.displayName ?? null })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict(`The tenant already has a group named '${input.name}'`);
  return groupView(tenant.name, row, 0);
}

export async function getEmbedGroup(db: Db, tenantName: string, groupId: number) {
  const { tenant, group } = await groupOf(db, tenantName, groupId);
  return groupView(tenant.name, group, await memberCount(db, group.id));
}

export async function updateEmbedGroup(db: Db, tenantName: string, groupId: number, input: { name?: string; displayName?: string | null }) {
  const { tenant, group } = await groupOf(db, tenantName, groupId);
  if (input.name !== undefined && input.name !== group.name) {
    const [taken] = await db
      .select({ id: embedGroups.id })
      .from(embedGroups)
      .where(and(eq(embedGroups.tenantId, tenant.id), eq(embedGroups.name, input.name)));
    if (taken) throw conflict(`The tenant already has a group named '${input.name}'`);
  }
  const [row] = await db
    .update(embedGroups)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.displayName !== undefined ? { displayName: input.displayName } : {}),
      updatedAt: new Date(),
    })
    .where(eq(embedGroups.id, group.id))
    .returning();
  return groupView(tenant.name, row!, await memberCount(db, group.id));
}

export async function deleteEmbedGroup(db: Db, tenantName: string, groupId: number) {
  const { group } = await groupOf(db, tenantName, groupId);
  await db.delete(embedGroups).where(eq(embedGroups.id, group.id));
}

export async function listEmbedGroupUsers(db: Db, tenantName: string, groupId: number) {
  const { group } = await groupOf(db, tenantName, groupId);
  return db
    .select({ user: embedUsers })
    .from(embedGroupMembers)
    .innerJoin(embedUsers, eq(embedUsers.id, embedGroupMembers.embedUserId))
    .where(eq(embedGroupMembers.groupId, group.id))
    .orderBy(asc(embedUsers.id))
    .then((rows) => rows.map((r) => r.user));
}

async function usersByExternalId(db: Db, tenantId: number, externalIds: string[]) {
  const unique = [...new Set(externalIds)];
  const rows = await db
    .select()
    .from(embedUsers)
    .where(and(eq(embedUsers.tenantId, tenantId), inArray(embedUsers.externalId, unique)));
  const found = new Set(rows.map((r) => r.externalId));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length) {
    throw badRequest(
      `No embed user of this tenant has externalId ${missing.map((m) => `'${m}'`).join(", ")}`,
      missing.map((m) => ({
        path: ["externalIds", externalIds.indexOf(m)],
        message: "no such embed user in this tenant",
        code: "not_found",
      })),
    );
  }
  return rows;
}

export async function addEmbedGroupUsers(db: Db, tenantName: string, groupId: number, externalIds: string[]) {
  const { tenant, group } = await groupOf(db, tenantName, groupId);
  const members = await usersByExternalId(db, tenant.id, externalIds);
  await db
    .insert(embedGroupMembers)
    .values(members.map((m) => ({ groupId: group.id, embedUserId: m.id })))
    .onConflictDoNothing();
  return listEmbedGroupUsers(db, tenantName, groupId);
}

export async function removeEmbedGroupUsers(db: Db, tenantName: string, groupId: number, externalIds: string[]) {
  const { tenant, group } = await groupOf(db, tenantName, groupId);
  const members = await usersByExternalId(db, tenant.id, externalIds);
  await db.delete(embedGroupMembers).where(
    and(
      eq(embedGroupMembers.groupId, group.id),
      inArray(
        embedGroupMembers.embedUserId,
        members.map((m) => m.id),
      ),
    ),
  );
}

/**
 * A session's tenant group definitions and memberships: the listed groups exist in the tenant
 * (created or relabelled) and the user belongs to exactly `memberOf` among the tenant's groups.
 */
export async function syncTenantGroups(
  db: Db,
  tenantId: number,
  embedUserId: number | null,
  definitions: { name: string; displayName?: string }[],
  memberOf: string[] | undefined,
) {
  for (const d of definitions) {
    await db
      .insert(embedGroups)
      .values({ tenantId, name: d.name, displayName: d.displayName ?? null })
      .onConflictDoUpdate({
        target: [embedGroups.tenantId, embedGroups.name],
        set: d.displayName !== undefined ? { displayName: d.displayName, updatedAt: new Date() } : { updatedAt: sql`${embedGroups.updatedAt}` },
      });
  }
  if (embedUserId === null || memberOf === undefined) return;
  const names = [...new Set(memberOf)];
  if (names.length) {
    await db
      .insert(embedGroups)
      .values(names.map((name) => ({ tenantId, name })))
      .onConflictDoNothing();
  }
  const groups = names.length
    ? await db
        .select({ id: embedGroups.id })
        .from(embedGroups)
        .where(and(eq(embedGroups.tenantId, tenantId), inArray(embedGroups.name, names)))
    : [];
  const tenantGroupIds = db.select({ id: embedGroups.id }).from(embedGroups).where(eq(embedGroups.tenantId, tenantId));
  await db.delete(embedGroupMembers).where(and(eq(embedGroupMembers.embedUserId, embedUserId), inArray(embedGroupMembers.groupId, tenantGroupIds)));
  if (groups.length) {
    await db
      .insert(embedGroupMembers)
      .values(groups.map((g) => ({ groupId: g.id, embedUserId })))
      .onConflictDoNothing();
  }
}
