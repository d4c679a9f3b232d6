import { eq } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { accountSettings } from "../../db/schema";

/** Host origins allowed to frame the embed and receive its events (decisions.md). */
export async function getAllowedOrigins(db: Db): Promise<string[]> {
  const [row] = await db.select({ allowedOrigins: accountSettings.allowedOrigins }).from(accountSettings).where(eq(accountSettings.id, 1));
  return row?.allowedOrigins ?? [];
}

export async function setAllowedOrigins(db: Db, origins: string[]): Promise<string[]> {
  const unique = [...new Set(origins)];
  await db
    .insert(accountSettings)
    .values({ id: 1, allowedOrigins: unique })
    .onConflictDoUpdate({ target: accountSettings.id, set: { allowedOrigins: unique, updatedAt: new Date() } });
  return unique;
}
