import { and, asc, eq, inArray } from "drizzle-orm";
import type { UserAttributeValue } from "../../../schema/embed-session";
import type { UserAttributeType } from "../../../schema/user-attribute";
import type { Db } from "../../db/connection";
import { userAttributes, userAttributeValues, users } from "../../db/schema";
import { badRequest, conflict, notFound } from "../../domain/errors";
import { invalidateSecurityContexts } from "../../domain/request-caches";

type AttributeRow = typeof userAttributes.$inferSelect;

export function userAttributeView(row: AttributeRow) {
  return {
    id: row.id,
    name: row.name,
    displayName: row.displayName,
    type: row.type,
    defaultValue: (row.defaultValue ?? null) as UserAttributeValue,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Whether a value fits an attribute type (spec 2.9). Null fits every type: "no value". */
export function valueFitsType(type: UserAttributeType, value: unknown): boolean {
  if (value === null) return true;
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "string_array":
      return Array.isArray(value) && value.every((v) => typeof v === "string");
    case "number_array":
      return Array.isArray(value) && value.every((v) => typeof v === "number" && Number.isFinite(v));
  }
}

const typeMismatch = (path: (string | number)[], name: string, type: string) => ({
  path,
  message: `'${name}' is of type ${type}`,
  code: "invalid_type",
});

export async function listUserAttributes(db: Db) {
  return (await db.select().from(userAttributes).orderBy(asc(userAttributes.id))).map(userAttributeView);
}

export async function createUserAttribute(
  db: Db,
  input: { name: string; displayName?: string | null; type: UserAttributeType; defaultValue?: UserAttributeValue },
) {
  if (input.defaultValue !== undefined && !valueFitsType(input.type, input.defaultValue)) {
    throw badRequest(`defaultValue does not fit type ${input.type}`, [typeMismatch(["defaultValue"], input.name, input.type)]);
  }
  const [row] = await db
    .insert(userAttributes)
    .values({ name: input.name, displayName: input.displayName ?? null, type: input.type, defaultValue: input.defaultValue ?? null })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict(`A user attribute named '${input.name}' exists`);
  invalidateSecurityContexts();
  return userAttributeView(row);
}

/** Renames, relabels or changes the default; the type is immutable once set. */
export async function updateUserAttribute(
  db: Db,
  id: number,
  input: { name?: string; displayName?: string | null; type?: UserAttributeType; defaultValue?: UserAttributeValue },
) {
  const [row] = await db.select().from(userAttributes).where(eq(userAttributes.id, id));
  if (!row) throw notFound("User attribute");
  if (input.type !== undefined && input.type !== row.type) {
    throw badRequest(`The type of a user attribute cannot change (it is ${row.type})`, [
      { path: ["type"], message: `immutable: the attribute is of type ${row.type}`, code: "immutable" },
    ]);
  }
  if (input.defaultValue !== undefined && !valueFitsType(row.type, input.defaultValue)) {
    throw badRequest(`defaultValue does not fit type ${row.type}`, [typeMismatch(["defaultValue"], row.name, row.type)]);
  }
  if (input.name !== undefined && input.name !== row.name) {
    const [taken] = await db.select({ id: userAttributes.id }).from(userAttributes).where(eq(userAttributes.name, input.name));
    if (taken) throw conflict(`A user attribute named '${input.name}' exists`);
  }
  const [updated] = await db
    .update(userAttributes)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.displayName !== undefined ? { displayName: input.displayName } : {}),
      ...(input.defaultValue !== undefined ? { defaultValue: input.defaultValue } : {}),
      updatedAt: new Date(),
    })
    .where(eq(userAttributes.id, id))
    .returning();
  invalidateSecurityContexts();
  return userAttributeView(updated!);
}

/** Every defined attribute with this user's value, or the default when they have none. */
export async function getUserAttributeValues(db: Db, userId: number) {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound("User");
  const defs = await db.select().from(userAttributes).orderBy(asc(userAttributes.id));
  const own = await db.select().from(userAttributeValues).where(eq(userAttributeValues.userId, userId));
  const byAttr = new Map(own.map((v) => [v.attributeId, v.value]));
  return {
    userId,
    values: defs.map((d) => {
      const has = byAttr.has(d.id) && byAttr.get(d.id) !== null;
      return {
        attributeId: d.id,
        name: d.name,
        type: d.type,
        value: (has ? byAttr.get(d.id) : (d.defaultValue ?? null)) as UserAttributeValue,
        isDefault: !has,
      };
    }),
  };
}

/** The attribute map a platform user's queries run with (row-level security input). */
export async function userAttributeMap(db: Db, userId: number): Promise<Record<string, UserAttributeValue>> {
  // One statement: this runs on every query a platform user makes.
  const rows = await db
    .select({ name: userAttributes.name, value: userAttributeValues.value, defaultValue: userAttributes.defaultValue })
    .from(userAttributes)
    .leftJoin(userAttributeValues, and(eq(userAttributeValues.attributeId, userAttributes.id), eq(userAttributeValues.userId, userId)));
  return Object.fromEntries(rows.map((r) => [r.name, (r.value !== null && r.value !== undefined ? r.value : (r.defaultValue ?? null)) as UserAttributeValue]));
}

/**
 * Checks name/value pairs against the definitions: every name must be defined and every value
 * must fit its type. Throws 400 with the path of each bad entry (`pathPrefix` + index + field).
 */
export async function checkUserAttributeValues(
  db: Db,
  entries: { name: string; value: UserAttributeValue }[],
  pathPrefix: (string | number)[],
): Promise<Map<string, AttributeRow>> {
  const names = [...new Set(entries.map((e) => e.name))];
  const defs = names.length ? await db.select().from(userAttributes).where(inArray(userAttributes.name, names)) : [];
  const byName = new Map(defs.map((d) => [d.name, d]));
  const problems: { path: (string | number)[]; message: string; code: string }[] = [];
  const seen = new Set<string>();
  entries.forEach((e, i) => {
    const def = byName.get(e.name);
    if (seen.has(e.name)) problems.push({ path: [...pathPrefix, i, "name"], message: `'${e.name}' is given twice`, code: "duplicate" });
    seen.add(e.name);
    if (!def) problems.push({ path: [...pathPrefix, i, "name"], message: `'${e.name}' is not a defined user attribute`, code: "unknown_attribute" });
    else if (!valueFitsType(def.type, e.value)) problems.push(typeMismatch([...pathPrefix, i, "value"], e.name, def.type));
  });
  if (problems.length) {
    throw badRequest(`Invalid user attributes: ${problems[0]!.path.join(".")}: ${problems[0]!.message}`, problems);
  }
  return byName;
}

/** Sets (or, with null, clears) a user's values; all-or-nothing. */
export async function setUserAttributeValues(db: Db, userId: number, entries: { name: string; value: UserAttributeValue }[]) {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound("User");
  const defs = await checkUserAttributeValues(db, entries, ["values"]);
  await db.transaction(async (tx) => {
    for (const e of entries) {
      const attributeId = defs.get(e.name)!.id;
      await tx
        .insert(userAttributeValues)
        .values({ userId, attributeId, value: e.value })
        .onConflictDoUpdate({ target: [userAttributeValues.userId, userAttributeValues.attributeId], set: { value: e.value, updatedAt: new Date() } });
    }
  });
  invalidateSecurityContexts();
  return getUserAttributeValues(db, userId);
}
