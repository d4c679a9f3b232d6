/** Tables of the one-time sign-in links; re-exported by ../schema.ts so drizzle and the migrations see them. */
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * One-time sign-in links (private mode): the first start's link for the admin, and the links
 * an admin creates for a user. Only the token's SHA-256 is kept; a link opens one login
 * session, once, before it expires.
 */
export const signInLinks = pgTable(
  "sign_in_links",
  {
    id: serial("id").primaryKey(),
    tokenHash: text("token_hash").notNull(),
    /** The user it signs in (users.id, deleted with the user). */
    userId: integer("user_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
  },
  (t) => [uniqueIndex("sign_in_links_token_hash_key").on(t.tokenHash), index("sign_in_links_user_idx").on(t.userId)],
);
