import { eq } from "drizzle-orm";
import type { Db } from "./db/connection";
import { accountSettings, apiKeys, users } from "./db/schema";
import { createApiKey } from "./modules/api-keys/service";
import { hashBearerSecret } from "./crypto/secret-box";

/**
 * Every start: the allowed origins from the environment, when set. First start: the account settings row, the admin user and the admin key. `adminToken`
 * (SVC_ADMIN_TOKEN), when set, is that key — also on later starts, so a changed value takes
 * effect. Returns the generated token when one was created (to be printed once).
 */
export async function bootstrapAccount(
  db: Db,
  opts: {
    adminEmail: string;
    adminToken?: string;
    /** Allowed host origins written on first start only (the demo host's origin). */
    initialAllowedOrigins?: string[];
    /** SVC_EMBED_ALLOWED_ORIGINS: when set, it replaces the setting on every start. */
    allowedOrigins?: string[];
  },
): Promise<{ adminUserId: number; generatedToken: string | null; created: boolean }> {
  await db
    .insert(accountSettings)
    .values({ id: 1, allowedOrigins: opts.allowedOrigins ?? opts.initialAllowedOrigins ?? [] })
    .onConflictDoNothing();
  if (opts.allowedOrigins) {
    await db.update(accountSettings).set({ allowedOrigins: opts.allowedOrigins, updatedAt: new Date() }).where(eq(accountSettings.id, 1));
  }
  const [existing] = await db.select().from(users).where(eq(users.role, "admin")).orderBy(users.id).limit(1);
  if (existing) {
    if (opts.adminToken) {
      const [key] = await db
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .where(eq(apiKeys.tokenHash, hashBearerSecret(opts.adminToken)));
      if (!key) await createApiKey(db, { userId: existing.id, name: "admin (SVC_ADMIN_TOKEN)", token: opts.adminToken });
    }
    return { adminUserId: existing.id, generatedToken: null, created: false };
  }
  const [admin] = await db.insert(users).values({ email: opts.adminEmail, firstName: "Admin", role: "admin" }).returning();
  const { token } = await createApiKey(db, { userId: admin!.id, name: opts.adminToken ? "admin (SVC_ADMIN_TOKEN)" : "admin", token: opts.adminToken });
  return { adminUserId: admin!.id, generatedToken: opts.adminToken ? null : token, created: true };
}
