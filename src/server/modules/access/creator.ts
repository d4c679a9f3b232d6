import { randomBytes } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/connection";
import {
  creatorMembers,
  creatorSpaces,
  creatorTenantGroups,
  embedGroupMembers,
  embedGroups,
  embedTenants,
  embedUsers,
  folders,
  groupMembers,
  groups,
  users,
} from "../../db/schema";
import type { EmbedPrincipal, UserPrincipal } from "../../domain/actor";
import { forbidden, notFound } from "../../domain/errors";
import { setGrant } from "./service";

/**
 * Embed creators (decisions.md "Creator mode"). An embed user whose session has `creatorMode`
 * acts as an `ai_bi_user` of their tenant: a platform principal of their own (no password, no
 * key, reachable only through their signed session), member of platform groups that stand for
 * the tenant's creators, its `all_embed_users` and each of its embed groups. Everything else —
 * what they may read, edit, manage — is decided by the same grants and the same `accessLevel`
 * as for any platform user, so the rules hold in every route. They own what they create (their
 * personal space), edit the tenant's shared space (a root folder granted to the tenant's
 * creators), and share only to their own tenant's groups, read only.
 */

export const SHARED_SPACE_NAME = "Shared";

export function isCreatorSession(p: EmbedPrincipal): boolean {
  return !!p.creatorMode && p.embedUserId !== null && p.embedTenant !== null;
}

type GroupKind = "creators" | "all_embed_users" | "group";

/** The platform group standing for a tenant group, made on first use. */
async function tenantGroup(db: Db, tenant: { id: number; name: string }, kind: GroupKind, embedGroup?: { id: number; name: string }): Promise<number> {
  const find = () =>
    db
      .select({ groupId: creatorTenantGroups.groupId })
      .from(creatorTenantGroups)
      .where(
        and(
          eq(creatorTenantGroups.tenantId, tenant.id),
          eq(creatorTenantGroups.kind, kind),
          embedGroup ? eq(creatorTenantGroups.embedGroupId, embedGroup.id) : sql`${creatorTenantGroups.embedGroupId} IS NULL`,
        ),
      );
  const [found] = await find();
  if (found) return found.groupId;
  const name = `system:embed:${tenant.name}:${kind === "group" ? `group:${embedGroup!.name}` : kind}`;
  await db.insert(groups).values({ name }).onConflictDoNothing();
  const [g] = await db.select({ id: groups.id }).from(groups).where(eq(groups.name, name));
  await db
    .insert(creatorTenantGroups)
    .values({ tenantId: tenant.id, kind, embedGroupId: embedGroup?.id ?? null, groupId: g!.id })
    .onConflictDoNothing();
  const [again] = await find();
  return again!.groupId;
}

/** The tenant's shared space in the deployment: a root folder its creators may edit. */
async function sharedSpace(db: Db, tenant: { id: number; name: string }, deploymentId: number, creatorsGroupId: number): Promise<number> {
  const [space] = await db
    .select({ folderId: creatorSpaces.folderId })
    .from(creatorSpaces)
    .where(and(eq(creatorSpaces.tenantId, tenant.id), eq(creatorSpaces.deploymentId, deploymentId)));
  if (space) return space.folderId;
  return db.transaction(async (tx) => {
    const [folder] = await tx.insert(folders).values({ deploymentId, name: SHARED_SPACE_NAME, parentId: null, createdBy: null }).returning({ id: folders.id });
    const [row] = await tx
      .insert(creatorSpaces)
      .values({ tenantId: tenant.id, deploymentId, folderId: folder!.id })
      .onConflictDoNothing()
      .returning({ folderId: creatorSpaces.folderId });
    if (!row) {
      await tx.delete(folders).where(eq(folders.id, folder!.id));
      const [other] = await tx
        .select({ folderId: creatorSpaces.folderId })
        .from(creatorSpaces)
        .where(and(eq(creatorSpaces.tenantId, tenant.id), eq(creatorSpaces.deploymentId, deploymentId)));
      return other!.folderId;
    }
    await setGrant(tx, { objectType: "folder", objectId: folder!.id, principalType: "group", principalId: creatorsGroupId, level: "edit" });
    return folder!.id;
  });
}

async function ensureCreator(db: Db, p: EmbedPrincipal): Promise<UserPrincipal> {
  const [eu] = await db
    .select({
      id: embedUsers.id,
      tenantId: embedUsers.tenantId,
      externalId: embedUsers.externalId,
      email: embedUsers.email,
      displayName: embedUsers.displayName,
    })
    .from(embedUsers)
    .where(eq(embedUsers.id, p.embedUserId!));
  const [tenant] = eu ? await db.select({ id: embedTenants.id, name: embedTenants.name }).from(embedTenants).where(eq(embedTenants.id, eu.tenantId)) : [];
  if (!eu || !tenant || tenant.name !== p.embedTenant) throw forbidden("This session is not a creator of any tenant");

  let [member] = await db.select({ userId: creatorMembers.userId }).from(creatorMembers).where(eq(creatorMembers.embedUserId, eu.id));
  if (!member) {
    // Never a deliverable address, and never an existing account: the account is made here
    // and reached only through the signed session.
    let created: number | null = null;
    for (let attempt = 0; attempt < 3 && created === null; attempt++) {
      const email = `${eu.id}.${tenant.name}${attempt ? `.${randomBytes(6).toString("hex")}` : ""}@embed.invalid`;
      const [u] = await db
        .insert(users)
        .values({ email, firstName: eu.displayName ?? eu.externalId, role: "ai_bi_user", status: "active" })
        .onConflictDoNothing()
        .returning({ id: users.id });
      created = u?.id ?? null;
    }
    if (created === null) throw forbidden("The creator account could not be made");
    const [mapped] = await db
      .insert(creatorMembers)
      .values({ embedUserId: eu.id, userId: created })
      .onConflictDoNothing()
      .returning({ userId: creatorMembers.userId });
    // Made meanwhile by another request of the same user: keep theirs, drop ours.
    if (!mapped) await db.delete(users).where(eq(users.id, created));
    [member] = await db.select({ userId: creatorMembers.userId }).from(creatorMembers).where(eq(creatorMembers.embedUserId, eu.id));
  }
  const userId = member!.userId;

  // Group memberships follow the tenant's embed groups as the session stored them.
  const creators = await tenantGroup(db, tenant, "creators");
  const all = await tenantGroup(db, tenant, "all_embed_users");
  const embedGroupRows = await db
    .select({ id: embedGroups.id, name: embedGroups.name })
    .from(embedGroupMembers)
    .innerJoin(embedGroups, eq(embedGroups.id, embedGroupMembers.groupId))
    .where(and(eq(embedGroupMembers.embedUserId, eu.id), eq(embedGroups.tenantId, tenant.id)));
  const wanted = [creators, all];
  for (const g of embedGroupRows) wanted.push(await tenantGroup(db, tenant, "group", g));
  const tenantGroupIds = db.select({ id: creatorTenantGroups.groupId }).from(creatorTenantGroups).where(eq(creatorTenantGroups.tenantId, tenant.id));
  await db.delete(groupMembers).where(
    and(
      eq(groupMembers.userId, userId),
      inArray(groupMembers.groupId, tenantGroupIds),
      sql`${groupMembers.groupId} NOT IN (${sql.join(
        wanted.map((w) => sql`${w}`),
        sql`, `,
      )})`,
    ),
  );
  await db
    .insert(groupMembers)
    .values(wanted.map((groupId) => ({ groupId, userId })))
    .onConflictDoNothing();

  const sharedFolderId = await sharedSpace(db, tenant, p.deploymentId, creators);
  return {
    kind: "user",
    userId,
    email: "",
    role: "ai_bi_user",
    via: "embed_creator",
    creator: { tenantId: tenant.id, tenantName: tenant.name, embedUserId: eu.id, deploymentId: p.deploymentId, sharedFolderId },
  };
}

// One resolution per session and storage (a session's groups and tenant do not change).
const resolved = new WeakMap<Db, Map<number, Promise<UserPrincipal>>>();

/** The platform principal an embed creator acts as; refused (403) for a session without creator mode. */
export async function creatorActorOf(db: Db, p: EmbedPrincipal): Promise<UserPrincipal> {
  if (!isCreatorSession(p)) throw forbidden("This session was not made with creatorMode");
  let cache = resolved.get(db);
  if (!cache) resolved.set(db, (cache = new Map()));
  let pending = cache.get(p.sessionId);
  if (!pending) {
    pending = ensureCreator(db, p);
    cache.set(p.sessionId, pending);
    if (cache.size > 5000) cache.delete(cache.keys().next().value!);
    pending.catch(() => cache.delete(p.sessionId));
  }
  return pending;
}

/** A group a creator may share with: `all_embed_users` or an embed group of their own tenant. */
export type ShareTarget = { kind: "all_embed_users" } | { kind: "embed_group"; name: string };

/** The platform group id a share target stands for, refused (404) when it is not of the creator's tenant. */
export async function shareTargetGroup(db: Db, scope: { tenantId: number; tenantName: string }, target: ShareTarget): Promise<number> {
  const tenant = { id: scope.tenantId, name: scope.tenantName };
  if (target.kind === "all_embed_users") return tenantGroup(db, tenant, "all_embed_users");
  const [g] = await db
    .select({ id: embedGroups.id, name: embedGroups.name })
    .from(embedGroups)
    .where(and(eq(embedGroups.tenantId, scope.tenantId), eq(embedGroups.name, target.name)));
  if (!g) throw notFound(`Embed group ${target.name}`);
  return tenantGroup(db, tenant, "group", g);
}

/** The tenant's groups a creator may share with, with the platform group each stands for. */
export async function shareTargets(db: Db, scope: { tenantId: number; tenantName: string }) {
  const list = await db
    .select({ id: embedGroups.id, name: embedGroups.name, displayName: embedGroups.displayName })
    .from(embedGroups)
    .where(eq(embedGroups.tenantId, scope.tenantId))
    .orderBy(embedGroups.name);
  return list;
}

/** Which share target a platform group stands for, when it is one of the tenant's. */
export async function shareTargetsOfGroups(db: Db, tenantId: number, groupIds: number[]) {
  if (!groupIds.length) return new Map<number, ShareTarget>();
  const rows = await db
    .select({ groupId: creatorTenantGroups.groupId, kind: creatorTenantGroups.kind, name: embedGroups.name })
    .from(creatorTenantGroups)
    .leftJoin(embedGroups, eq(embedGroups.id, creatorTenantGroups.embedGroupId))
    .where(and(eq(creatorTenantGroups.tenantId, tenantId), inArray(creatorTenantGroups.groupId, groupIds)));
  const out = new Map<number, ShareTarget>();
  for (const r of rows) {
    if (r.kind === "all_embed_users") out.set(r.groupId, { kind: "all_embed_users" });
    else if (r.kind === "group" && r.name) out.set(r.groupId, { kind: "embed_group", name: r.name });
  }
  return out;
}
