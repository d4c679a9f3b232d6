import { and, eq, isNull, ne, or } from "drizzle-orm";
import type { BulkUsersInput, BulkUsersResult, CreateUserInput, UpdateUserInput, User } from "../../../schema/user";
import type { Db } from "../../db/connection";
import { dashboards, folders, grants, loginSessions, reports, users, workbooks } from "../../db/schema";
import { conflict, DomainError, forbidden, notFound } from "../../domain/errors";
import { pgError } from "../../db/pg-error";
import { invalidateApiKeyPrincipals, invalidateSecurityContexts } from "../../domain/request-caches";
import { publishInvalidation } from "../../cluster/invalidation-bus";
import { hashPassword } from "../auth/service";
import { checkPassword, readTenantSettings } from "../tenant-settings/service";

type UserRow = typeof users.$inferSelect;

export function userView(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    picture: row.picture,
    role: row.role,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function passwordHashFor(db: Db, password: string | undefined): Promise<string | undefined> {
  if (password === undefined) return undefined;
  checkPassword((await readTenantSettings(db)).passwordRules, password);
  return hashPassword(password);
}

/** Creates a user (role viewer unless given); emails are unique regardless of case; a password is checked against the tenant's rules. */
export async function createUser(db: Db, input: CreateUserInput): Promise<User> {
  const passwordHash = await passwordHashFor(db, input.password);
  try {
    const [row] = await db
      .insert(users)
      .values({
        email: input.email,
        firstName: input.firstName ?? null,
        lastName: input.lastName ?? null,
        picture: input.picture ?? null,
        role: input.role ?? "viewer",
        passwordHash: passwordHash ?? null,
      })
      .returning();
    return userView(row!);
  } catch (err) {
    if (pgError(err).code === "23505") throw conflict(`A user with the email ${input.email} exists`, "user_exists");
    throw err;
  }
}

export async function getUser(db: Db, id: number): Promise<User> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) throw notFound("User");
  return userView(row);
}

/**
 * Refuses a change that would leave the tenant without an active admin, or an admin locking
 * themself out. Runs inside the transaction of the change, with the admins' rows locked.
 */
async function guardAdmins(tx: Db, actorUserId: number, target: UserRow, next: { role: UserRow["role"]; status: UserRow["status"] | "deleted" }) {
  const staysAdmin = next.role === "admin" && next.status === "active";
  if (target.id === actorUserId && !staysAdmin) throw forbidden("You cannot deactivate, delete or demote yourself");
  if (target.role === "admin" && target.status === "active" && !staysAdmin) {
    const others = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, "admin"), eq(users.status, "active"), ne(users.id, target.id)))
      .for("update");
    if (!others.length) throw conflict("The tenant must keep at least one active admin");
  }
}

/** Ends the user's login sessions (their keys stop working while they are inactive). */
async function endLoginSessions(tx: Db, userId: number) {
  await tx
    .update(loginSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(loginSessions.userId, userId), isNull(loginSessions.revokedAt)));
}

/** Changes the fields sent (role, status, names), in one transaction; deactivating ends the user's login sessions. */
export async function updateUser(db: Db, actorUserId: number, id: number, input: UpdateUserInput): Promise<User> {
  const user = await applyUserUpdate(db, actorUserId, id, input);
  await userChanged(db, id);
  return user;
}

async function applyUserUpdate(db: Db, actorUserId: number, id: number, input: UpdateUserInput): Promise<User> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(users).where(eq(users.id, id)).for("update");
    if (!current) throw notFound("User");
    const set: Partial<UserRow> = {};
    for (const k of ["firstName", "lastName", "picture", "role", "status"] as const) if (input[k] !== undefined) (set as Record<string, unknown>)[k] = input[k];
    if (!Object.keys(set).length) return userView(current);
    await guardAdmins(tx, actorUserId, current, { role: set.role ?? current.role, status: set.status ?? current.status });
    if (set.status === "inactive" && current.status === "active") await endLoginSessions(tx, id);
    const [row] = await tx
      .update(users)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return userView(row!);
  });
}

/** Whether the user created or owns any content (folders, workbooks, reports, dashboards). */
async function ownsContent(tx: Db, userId: number): Promise<boolean> {
  const probes = [
    tx
      .select({ id: workbooks.id })
      .from(workbooks)
      .where(or(eq(workbooks.createdBy, userId), eq(workbooks.userId, userId)))
      .limit(1),
    tx.select({ id: reports.id }).from(reports).where(eq(reports.createdBy, userId)).limit(1),
    tx.select({ id: folders.id }).from(folders).where(eq(folders.createdBy, userId)).limit(1),
    tx.select({ id: dashboards.id }).from(dashboards).where(eq(dashboards.createdBy, userId)).limit(1),
  ];
  for (const probe of probes) if ((await probe).length) return true;
  return false;
}

/**
 * Deletes a user. An active user who owns content is deactivated first (decisions.md), their
 * content kept with its owner; deleting them again then removes the user, and their content
 * stays without an owner.
 */
export async function deleteUser(db: Db, actorUserId: number, id: number): Promise<"deleted" | "deactivated"> {
  const outcome = await applyUserDelete(db, actorUserId, id);
  await userChanged(db, id);
  return outcome;
}

async function applyUserDelete(db: Db, actorUserId: number, id: number): Promise<"deleted" | "deactivated"> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(users).where(eq(users.id, id)).for("update");
    if (!current) throw notFound("User");
    if (current.status === "active" && (await ownsContent(tx, id))) {
      await guardAdmins(tx, actorUserId, current, { role: current.role, status: "inactive" });
      await endLoginSessions(tx, id);
      await tx.update(users).set({ status: "inactive", updatedAt: new Date() }).where(eq(users.id, id));
      return "deactivated";
    }
    await guardAdmins(tx, actorUserId, current, { role: current.role, status: "deleted" });
    await tx.delete(grants).where(and(eq(grants.principalType, "user"), eq(grants.principalId, id)));
    await tx.delete(users).where(eq(users.id, id));
    return "deleted";
  });
}

/**
 * A user's role, status or existence changed: this node's caches of principals and security
 * contexts forget them now, and every other node on the invalidation bus (docs/scaling.md).
 */
async function userChanged(db: Db, id: number) {
  invalidateApiKeyPrincipals();
  invalidateSecurityContexts();
  await publishInvalidation(db, "user", id);
}

/** Activates, deactivates or deletes each user on its own; one user's refusal does not stop the others. */
export async function bulkUsers(db: Db, actorUserId: number, input: BulkUsersInput): Promise<BulkUsersResult> {
  const result: BulkUsersResult = { succeeded: [], failed: [] };
  for (const userId of [...new Set(input.userIds)]) {
    try {
      if (input.action === "DELETE") await deleteUser(db, actorUserId, userId);
      else await updateUser(db, actorUserId, userId, { status: input.action === "ACTIVATE" ? "active" : "inactive" });
      result.succeeded.push(userId);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      result.failed.push({ userId, code: err.code, message: err.message });
    }
  }
  return result;
}
