import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { signingKeys } from "../../db/schema";
import type { SecretBox } from "../../crypto/secret-box";
import { onInvalidation, publishInvalidation } from "../../cluster/invalidation-bus";

/** A signing key as listed by the API: never its secret. */
export interface SigningKeyInfo {
  id: string;
  createdAt: string;
  retiredAt: string | null;
  current: boolean;
}

export interface SigningKey {
  id: string;
  secret: Uint8Array;
}

/**
 * Per-account HMAC keys for embed tokens, sealed at rest. The newest unretired key signs;
 * every unretired key verifies, so a rotation does not cut off tokens already issued.
 */
export function createSigningKeyRing(db: Db, box: SecretBox) {
  const cache = new Map<string, SigningKey | null>();
  let current: SigningKey | null = null;
  // Another node rotated or retired a key: forget what this node holds, the database has the truth.
  onInvalidation(db, "signing-key", (id) => {
    if (id === null) cache.clear();
    else cache.delete(id);
    current = null;
  });

  async function loadCurrent(): Promise<SigningKey> {
    if (current) return current;
    const [row] = await db.select().from(signingKeys).where(isNull(signingKeys.retiredAt)).orderBy(desc(signingKeys.createdAt)).limit(1);
    if (row) {
      current = { id: row.id, secret: Buffer.from(box.open(row.secretEncrypted), "base64url") };
    } else {
      current = await rotate();
    }
    cache.set(current.id, current);
    return current;
  }

  async function rotate(): Promise<SigningKey> {
    const secret = randomBytes(32);
    const id = randomUUID();
    await db.insert(signingKeys).values({ id, secretEncrypted: box.seal(secret.toString("base64url")) });
    await publishInvalidation(db, "signing-key", id);
    current = { id, secret };
    cache.set(id, current);
    return current;
  }

  async function byId(id: string): Promise<SigningKey | null> {
    if (cache.has(id)) return cache.get(id) ?? null;
    const [row] = await db.select().from(signingKeys).where(eq(signingKeys.id, id));
    const key = row && !row.retiredAt ? { id: row.id, secret: Buffer.from(box.open(row.secretEncrypted), "base64url") } : null;
    cache.set(id, key);
    return key;
  }

  /**
   * Retires a key: tokens it signed stop verifying at once. Retiring the signing key makes the
   * newest remaining key sign (or a new one on next use). False when no such key exists.
   */
  async function retire(id: string): Promise<boolean> {
    const rows = await db
      .update(signingKeys)
      .set({ retiredAt: new Date() })
      .where(and(eq(signingKeys.id, id), isNull(signingKeys.retiredAt)))
      .returning({ id: signingKeys.id });
    cache.set(id, null);
    if (current?.id === id) current = null;
    if (rows.length) {
      await publishInvalidation(db, "signing-key", id);
      return true;
    }
    const [existing] = await db.select({ id: signingKeys.id }).from(signingKeys).where(eq(signingKeys.id, id));
    return !!existing;
  }

  /** Every key without its secret; `current` marks the one that signs. */
  async function list(): Promise<SigningKeyInfo[]> {
    const signing = await loadCurrent();
    const rows = await db
      .select({ id: signingKeys.id, createdAt: signingKeys.createdAt, retiredAt: signingKeys.retiredAt })
      .from(signingKeys)
      .orderBy(desc(signingKeys.createdAt));
    return rows.map((r) => ({
      id: r.id,
      createdAt: r.createdAt.toISOString(),
      retiredAt: r.retiredAt?.toISOString() ?? null,
      current: r.id === signing.id,
    }));
  }

  return { current: loadCurrent, rotate, byId, retire, list };
}
export type SigningKeyRing = ReturnType<typeof createSigningKeyRing>;
