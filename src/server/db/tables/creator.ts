/**
 * Tables of the creator feature; re-exported by ../schema.ts so drizzle and the migrations see them.
 * Their foreign keys (all ON DELETE CASCADE, to embed_users, users, embed_tenants, embed_groups,
 * groups, deployments, folders and workbooks) are declared in migrations/0002_creator_app.sql;
 * importing those tables here would make an import cycle with ../schema.ts.
 */
import { integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

/**
 * An embed user in creator mode acts as a platform user of role ai_bi_user that belongs to
 * them alone (no password, no key: it is reached only through their signed session).
 */
export const creatorMembers = pgTable(
  "creator_members",
  {
    embedUserId: integer("embed_user_id").primaryKey(),
    userId: integer("user_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("creator_members_user_key").on(t.userId)],
);

/** The platform groups standing for a tenant's creators, its `all_embed_users`, and each of its embed groups. */
export const creatorTenantGroups = pgTable(
  "creator_tenant_groups",
  {
    id: serial("id").primaryKey(),
    tenantId: integer("tenant_id").notNull(),
    kind: text("kind").$type<"creators" | "all_embed_users" | "group">().notNull(),
    embedGroupId: integer("embed_group_id"),
    groupId: integer("group_id").notNull(),
  },
  (t) => [
    uniqueIndex("creator_tenant_groups_key").on(t.tenantId, t.kind, sql`coalesce(${t.embedGroupId}, 0)`),
    uniqueIndex("creator_tenant_groups_group_key").on(t.groupId),
  ],
);

/** The tenant's shared space in a deployment: a root folder its creators may edit. */
export const creatorSpaces = pgTable(
  "creator_spaces",
  {
    tenantId: integer("tenant_id").notNull(),
    deploymentId: integer("deployment_id").notNull(),
    folderId: integer("folder_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.deploymentId] })],
);

/** Workbooks a user opened lately (the app's home). */
export const creatorRecents = pgTable(
  "creator_recents",
  {
    userId: integer("user_id").notNull(),
    workbookId: integer("workbook_id").notNull(),
    viewedAt: timestamp("viewed_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.workbookId] })],
);
