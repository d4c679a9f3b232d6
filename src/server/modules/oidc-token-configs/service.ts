import { randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { OidcTokenConfig, OidcTokenConfigInput, OidcTokenConfigUpdate } from "../../../schema/oidc-token-config";
import type { Db } from "../../db/connection";
import { oidcTokenConfigs, users } from "../../db/schema";
import { pgError } from "../../db/pg-error";
import { conflict, notFound } from "../../domain/errors";

type Row = typeof oidcTokenConfigs.$inferSelect;

function view(r: Row): OidcTokenConfig {
  return {
    id: r.id,
    name: r.name,
    issuer: r.issuer,
    audience: r.audience,
    claims: r.claims,
    role: r.role,
    userId: r.userId,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** `https://x/` and `https://x` name the same issuer. */
export const normalizeIssuer = (issuer: string) => issuer.replace(/\/+$/, "");

const nameTaken = (name: string) => conflict(`An OIDC token config named ${name} exists`);

export async function listOidcTokenConfigs(db: Db): Promise<OidcTokenConfig[]> {
  return (await db.select().from(oidcTokenConfigs).orderBy(asc(oidcTokenConfigs.id))).map(view);
}

export async function getOidcTokenConfig(db: Db, id: number): Promise<OidcTokenConfig> {
  const [row] = await db.select().from(oidcTokenConfigs).where(eq(oidcTokenConfigs.id, id));
  if (!row) throw notFound("OIDC token config");
  return view(row);
}

/** Creates the config and the service user its workloads act as (no password, no key: only the issuer's tokens). */
export async function createOidcTokenConfig(db: Db, input: OidcTokenConfigInput): Promise<OidcTokenConfig> {
  try {
    return await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ email: `workload-${randomBytes(6).toString("hex")}@oidc.invalid`, firstName: input.name, lastName: "(workload)", role: input.role })
        .returning();
      const [row] = await tx
        .insert(oidcTokenConfigs)
        .values({ name: input.name, issuer: normalizeIssuer(input.issuer), audience: input.audience, claims: input.claims, role: input.role, userId: user!.id })
        .returning();
      return view(row!);
    });
  } catch (err) {
    if (pgError(err).code === "23505") throw nameTaken(input.name);
    throw err;
  }
}

export async function updateOidcTokenConfig(db: Db, id: number, input: OidcTokenConfigUpdate): Promise<OidcTokenConfig> {
  try {
    return await db.transaction(async (tx) => {
      const [current] = await tx.select().from(oidcTokenConfigs).where(eq(oidcTokenConfigs.id, id)).for("update");
      if (!current) throw notFound("OIDC token config");
      const set: Partial<Row> = { updatedAt: new Date() };
      if (input.name !== undefined) set.name = input.name;
      if (input.issuer !== undefined) set.issuer = normalizeIssuer(input.issuer);
      if (input.audience !== undefined) set.audience = input.audience;
      if (input.claims !== undefined) set.claims = input.claims;
      if (input.role !== undefined) set.role = input.role;
      const [row] = await tx.update(oidcTokenConfigs).set(set).where(eq(oidcTokenConfigs.id, id)).returning();
      if (input.role !== undefined || input.name !== undefined) {
        await tx.update(users).set({ role: row!.role, firstName: row!.name, updatedAt: new Date() }).where(eq(users.id, row!.userId));
      }
      return view(row!);
    });
  } catch (err) {
    if (pgError(err).code === "23505") throw nameTaken(input.name ?? "");
    throw err;
  }
}

/** Deletes the config; its service user goes with it (content it made stays, without an owner). */
export async function deleteOidcTokenConfig(db: Db, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(oidcTokenConfigs).where(eq(oidcTokenConfigs.id, id)).returning();
    if (!row) throw notFound("OIDC token config");
    await tx.delete(users).where(eq(users.id, row.userId));
  });
}
