import { and, eq } from "drizzle-orm";
import type { CreateUserInput, UpdateUserInput, User } from "../../../schema/user";
import type { Db } from "../../db/connection";
import { grants, users } from "../../db/schema";
import { conflict, notFound } from "../../domain/errors";
import { pgError } from "../../db/pg-error";
import { invalidateApiKeyPrincipals, invalidateSecurityContexts } from "../../domain/request-caches";

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

/** Creates a user (role viewer unless given); emails are unique regardless of case. */
export async function createUser(db: Db, input: CreateUserInput): Promise<User> {
  try {
    const [row] = await db
      .insert(users)
      .values({
        email: input.email,
        firstName: input.firstName ?? null,
        lastName: input.lastName ?? null,
        picture: input.picture ?? null,
        role: input.role ?? "viewer",
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

/** Changes the fields sent (role, status, names). */
export async function updateUser(db: Db, id: number, input: UpdateUserInput): Promise<User> {
  const set: Partial<UserRow> = {};
  for (const k of ["firstName", "lastName", "picture", "role", "status"] as const) if (input[k] !== undefined) (set as Record<string, unknown>)[k] = input[k];
  const [row] = Object.keys(set).length
    ? await db
        .update(users)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning()
    : await db.select().from(users).where(eq(users.id, id));
  if (!row) throw notFound("User");
  invalidateApiKeyPrincipals();
  invalidateSecurityContexts();
  return userView(row);
}

/** Deletes a user; their API keys go with them, their content stays (owner becomes null). */
export async function deleteUser(db: Db, id: number): Promise<void> {
  const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  invalidateApiKeyPrincipals();
  invalidateSecurityContexts();
  if (!rows.length) throw notFound("User");
  await db.delete(grants).where(and(eq(grants.principalType, "user"), eq(grants.principalId, id)));
}
