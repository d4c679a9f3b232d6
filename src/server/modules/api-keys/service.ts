import { randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { UserPrincipal } from "../../domain/actor";
import type { Db } from "../../db/connection";
import { apiKeys, users } from "../../db/schema";
import { hashBearerSecret } from "../../crypto/secret-box";
import { apiKeyPrincipalCache, invalidateApiKeyPrincipals } from "../../domain/request-caches";

export const API_KEY_PREFIX = "svc_";

export function generateApiKeyToken(): string {
  return API_KEY_PREFIX + randomBytes(32).toString("base64url");
}

export interface ApiKeyView {
  id: number;
  name: string;
  prefix: string;
  userId: number;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

function view(row: typeof apiKeys.$inferSelect): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    userId: row.userId,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** Creates a key; the token is returned once and only its hash is stored. */
export async function createApiKey(db: Db, opts: { userId: number; name: string; expiresAt?: Date | null; token?: string }) {
  const token = opts.token ?? generateApiKeyToken();
  const [row] = await db
    .insert(apiKeys)
    .values({ userId: opts.userId, name: opts.name, prefix: token.slice(0, 10), tokenHash: hashBearerSecret(token), expiresAt: opts.expiresAt ?? null })
    .returning();
  invalidateApiKeyPrincipals();
  return { token, key: view(row!) };
}

export async function listApiKeys(db: Db, userId: number | null) {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(userId === null ? undefined : eq(apiKeys.userId, userId))
    .orderBy(desc(apiKeys.id));
  return rows.map(view);
}

export async function revokeApiKey(db: Db, id: number, userId: number | null): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), userId === null ? undefined : eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  invalidateApiKeyPrincipals();
  if (rows.length) return true;
  const existing = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), userId === null ? undefined : eq(apiKeys.userId, userId)));
  return existing.length > 0;
}

/** Resolves a bearer API key to its active user, or null (unknown, revoked, expired, inactive). */
export async function authenticateApiKey(db: Db, token: string, now = new Date()): Promise<UserPrincipal | null> {
  const hash = hashBearerSecret(token);
  const cached = apiKeyPrincipalCache.get(db, hash);
  if (cached) {
    if (cached.expiresAt !== null && cached.expiresAt <= now.getTime()) return null;
    return cached.principal as UserPrincipal;
  }
  const readAt = apiKeyPrincipalCache.generation();
  const principal = await lookUpApiKey(db, token, now);
  if (!principal) return null;
  // Cached for a short while (its last use is then recorded at the next lookup, not per request).
  apiKeyPrincipalCache.set(db, hash, { principal: stripExpiry(principal), expiresAt: principal.keyExpiresAt, lastUsedAt: null }, readAt);
  return stripExpiry(principal);
}

function stripExpiry(p: UserPrincipal & { keyExpiresAt?: number | null }): UserPrincipal {
  const { keyExpiresAt: _unused, ...principal } = p;
  return principal;
}

async function lookUpApiKey(db: Db, token: string, now: Date): Promise<(UserPrincipal & { keyExpiresAt: number | null }) | null> {
  const [row] = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.tokenHash, hashBearerSecret(token)));
  if (!row) return null;
  if (row.key.revokedAt) return null;
  if (row.key.expiresAt && row.key.expiresAt <= now) return null;
  if (row.user.status !== "active") return null;
  // Best effort and at most once a minute: the key's last use is informative, not a hot-path write.
  if (!row.key.lastUsedAt || now.getTime() - row.key.lastUsedAt.getTime() > 60_000) {
    void db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(eq(apiKeys.id, row.key.id))
      .catch(() => {});
  }
  return {
    kind: "user",
    userId: row.user.id,
    email: row.user.email,
    role: row.user.role,
    via: "api_key",
    apiKeyId: row.key.id,
    keyExpiresAt: row.key.expiresAt?.getTime() ?? null,
  };
}
