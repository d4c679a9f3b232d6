/**
 * Platform storage: one Postgres schema used unchanged on embedded PGlite and on a Postgres
 * server. Migrations are generated from this file (`npm run db:generate`) and checked in.
 */
import { sql } from "drizzle-orm";
import type { ReportSnapshot } from "../../schema/dashboard";
import type { GenerateSessionInput } from "../../schema/embed-session";
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

/** Single-row account settings (id = 1). */
export const accountSettings = pgTable("account_settings", {
  id: integer("id").primaryKey(),
  allowedOrigins: jsonb("allowed_origins").$type<string[]>().notNull().default([]),
  settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: updatedAt(),
});

/** Keys that sign embed tokens; the secret is encrypted at rest. */
export const signingKeys = pgTable("signing_keys", {
  id: text("id").primaryKey(),
  secretEncrypted: text("secret_encrypted").notNull(),
  createdAt: createdAt(),
  retiredAt: timestamp("retired_at", { withTimezone: true, mode: "date" }),
});

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    picture: text("picture"),
    role: text("role").$type<"viewer" | "ai_bi_user" | "developer" | "admin">().notNull().default("viewer"),
    status: text("status").$type<"active" | "inactive">().notNull().default("active"),
    passwordHash: text("password_hash"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(sql`lower(${t.email})`)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** First characters of the token, shown in lists so a key can be recognised. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the token; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [uniqueIndex("api_keys_token_hash_key").on(t.tokenHash)],
);

export const groups = pgTable(
  "groups",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("groups_name_key").on(t.name)],
);

export const groupMembers = pgTable(
  "group_members",
  {
    groupId: integer("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] })],
);

export type DataSourceConfig =
  | { type: "duckdb"; path: string }
  | {
      type: "postgres" | "mysql";
      host: string;
      port: number;
      database: string;
      user: string;
      /** AES-GCM encrypted password (services/secret-box). */
      passwordEncrypted?: string | null;
      ssl?: boolean;
    };

export const deployments = pgTable("deployments", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  /** Null until the set-up wizard's `data-source` step (or a PUT) gives one: queries then answer 400 `data_source_not_configured`. */
  dataSource: jsonb("data_source").$type<DataSourceConfig>(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Data-model YAML files of a deployment, per branch (the default branch is "main"). */
export const dataModelFiles = pgTable(
  "data_model_files",
  {
    deploymentId: integer("deployment_id")
      .notNull()
      .references(() => deployments.id, { onDelete: "cascade" }),
    branch: text("branch").notNull().default("main"),
    path: text("path").notNull(),
    content: text("content").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.deploymentId, t.branch, t.path] })],
);

export const folders = pgTable(
  "folders",
  {
    id: serial("id").primaryKey(),
    deploymentId: integer("deployment_id")
      .notNull()
      .references(() => deployments.id, { onDelete: "cascade" }),
    parentId: integer("parent_id"),
    name: text("name").notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("folders_deployment_parent_idx").on(t.deploymentId, t.parentId)],
);

export const workbooks = pgTable(
  "workbooks",
  {
    id: serial("id").primaryKey(),
    deploymentId: integer("deployment_id")
      .notNull()
      .references(() => deployments.id, { onDelete: "cascade" }),
    folderId: integer("folder_id").references(() => folders.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    slug: text("slug"),
    meta: jsonb("meta").$type<Record<string, unknown>>().notNull().default({}),
    calculatedFields: jsonb("calculated_fields").$type<Record<string, unknown>>().notNull().default({}),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** Shared-workspace copy (duplicate with `shared`). */
    shared: boolean("shared").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("workbooks_deployment_slug_key").on(t.deploymentId, t.slug), index("workbooks_deployment_idx").on(t.deploymentId, t.id)],
);

export const favorites = pgTable(
  "favorites",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workbookId: integer("workbook_id")
      .notNull()
      .references(() => workbooks.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.workbookId] })],
);

export const reports = pgTable(
  "reports",
  {
    id: serial("id").primaryKey(),
    /** 12 characters [0-9A-Za-z], account-unique, write-once. */
    publicId: text("public_id").notNull(),
    deploymentId: integer("deployment_id")
      .notNull()
      .references(() => deployments.id, { onDelete: "cascade" }),
    folderId: integer("folder_id").references(() => folders.id, { onDelete: "set null" }),
    workbookId: integer("workbook_id").references(() => workbooks.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    title: text("title"),
    description: text("description"),
    kind: text("kind").$type<"vega" | "table" | "kpi" | "html" | "map">(),
    /** The semantic query (decisions.md "Semantic layer"). */
    query: jsonb("query").$type<Record<string, unknown>>(),
    sqlQuery: text("sql_query"),
    spec: jsonb("spec").$type<unknown>(),
    meta: jsonb("meta").$type<Record<string, unknown>>(),
    fillMissingRows: jsonb("fill_missing_rows").$type<unknown>(),
    periodComparisons: jsonb("period_comparisons").$type<unknown[]>(),
    preferences: jsonb("preferences").$type<Record<string, unknown>>(),
    externalWorkbookPlacements: jsonb("external_workbook_placements")
      .$type<{ workbookId: string; resultLocation: string; endResultCell: string | null }[]>()
      .notNull()
      .default([]),
    versionNumber: integer("version_number").notNull().default(1),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastViewedAt: timestamp("last_viewed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [uniqueIndex("reports_public_id_key").on(t.publicId), index("reports_deployment_idx").on(t.deploymentId, t.id)],
);

export const dashboards = pgTable(
  "dashboards",
  {
    id: serial("id").primaryKey(),
    publicId: text("public_id").notNull(),
    deploymentId: integer("deployment_id")
      .notNull()
      .references(() => deployments.id, { onDelete: "cascade" }),
    workbookId: integer("workbook_id")
      .notNull()
      .references(() => workbooks.id, { onDelete: "cascade" }),
    status: text("status").$type<"draft" | "published" | "archived">().notNull().default("draft"),
    allowEmbed: boolean("allow_embed").notNull().default(false),
    /** The current published version (null until first publish). */
    versionId: integer("version_id"),
    versionNumber: integer("version_number").notNull().default(0),
    title: text("title"),
    description: text("description"),
    restrictDataDownload: boolean("restrict_data_download"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("dashboards_public_id_key").on(t.publicId), uniqueIndex("dashboards_workbook_key").on(t.workbookId)],
);

/** A published version: config and report snapshots frozen at publish time. */
export const dashboardVersions = pgTable(
  "dashboard_versions",
  {
    id: serial("id").primaryKey(),
    dashboardId: integer("dashboard_id")
      .notNull()
      .references(() => dashboards.id, { onDelete: "cascade" }),
    versionNumber: integer("version_number").notNull(),
    config: jsonb("config").$type<Record<string, unknown>>().notNull(),
    reportSnapshots: jsonb("report_snapshots").$type<ReportSnapshot[]>().notNull().default([]),
    /** Hash of config + snapshots: publishing an unchanged draft makes no new version. */
    checksum: text("checksum").notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("dashboard_versions_number_key").on(t.dashboardId, t.versionNumber)],
);

/** Object access grants: read < edit < manage, to users or groups. */
export const grants = pgTable(
  "grants",
  {
    id: serial("id").primaryKey(),
    objectType: text("object_type").$type<"workbook" | "folder" | "report">().notNull(),
    objectId: integer("object_id").notNull(),
    principalType: text("principal_type").$type<"user" | "group">().notNull(),
    principalId: integer("principal_id").notNull(),
    level: text("level").$type<"read" | "edit" | "manage">().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("grants_object_principal_key").on(t.objectType, t.objectId, t.principalType, t.principalId)],
);

export const embedTenants = pgTable(
  "embed_tenants",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    displayName: text("display_name"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("embed_tenants_name_key").on(t.name)],
);

export const embedUsers = pgTable(
  "embed_users",
  {
    id: serial("id").primaryKey(),
    tenantId: integer("tenant_id")
      .notNull()
      .references(() => embedTenants.id, { onDelete: "cascade" }),
    externalId: text("external_id").notNull(),
    email: text("email"),
    displayName: text("display_name"),
    picture: text("picture"),
    userAttributes: jsonb("user_attributes").$type<Record<string, unknown>>().notNull().default({}),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("embed_users_tenant_external_key").on(t.tenantId, t.externalId)],
);

export const embedGroups = pgTable(
  "embed_groups",
  {
    id: serial("id").primaryKey(),
    tenantId: integer("tenant_id")
      .notNull()
      .references(() => embedTenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    displayName: text("display_name"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("embed_groups_tenant_name_key").on(t.tenantId, t.name)],
);

export const embedGroupMembers = pgTable(
  "embed_group_members",
  {
    groupId: integer("group_id")
      .notNull()
      .references(() => embedGroups.id, { onDelete: "cascade" }),
    embedUserId: integer("embed_user_id")
      .notNull()
      .references(() => embedUsers.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.embedUserId] })],
);

/** Dashboard access for embed users: per tenant (tenantId set) or all embed users (null). */
export const embedAccess = pgTable(
  "embed_access",
  {
    id: serial("id").primaryKey(),
    workbookId: integer("workbook_id")
      .notNull()
      .references(() => workbooks.id, { onDelete: "cascade" }),
    tenantId: integer("tenant_id").references(() => embedTenants.id, { onDelete: "cascade" }),
    action: text("action").$type<"read" | "none">().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("embed_access_workbook_tenant_key").on(t.workbookId, sql`coalesce(${t.tenantId}, 0)`)],
);

/**
 * Signed-embedding sessions. The session id is a bearer secret for one token exchange: only
 * its SHA-256 is stored.
 */
export const embedSessions = pgTable(
  "embed_sessions",
  {
    id: serial("id").primaryKey(),
    sessionHash: text("session_hash").notNull(),
    deploymentId: integer("deployment_id")
      .notNull()
      .references(() => deployments.id, { onDelete: "cascade" }),
    embedUserId: integer("embed_user_id").references(() => embedUsers.id, { onDelete: "cascade" }),
    /** The validated generate-session request (settings, theme, security context…). */
    request: jsonb("request").$type<GenerateSessionInput>().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    exchangedAt: timestamp("exchanged_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    tokenExpiresAt: timestamp("token_expires_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [uniqueIndex("embed_sessions_hash_key").on(t.sessionHash)],
);

export const userAttributes = pgTable(
  "user_attributes",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    displayName: text("display_name"),
    type: text("type").$type<"string" | "number" | "boolean" | "string_array" | "number_array">().notNull(),
    defaultValue: jsonb("default_value").$type<unknown>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("user_attributes_name_key").on(t.name)],
);

export const userAttributeValues = pgTable(
  "user_attribute_values",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    attributeId: integer("attribute_id")
      .notNull()
      .references(() => userAttributes.id, { onDelete: "cascade" }),
    value: jsonb("value").$type<unknown>(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.attributeId] })],
);

/** Platform login sessions (private-mode embedding). Only the token's hash is stored. */
export const loginSessions = pgTable(
  "login_sessions",
  {
    id: serial("id").primaryKey(),
    tokenHash: text("token_hash").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    csrfToken: text("csrf_token").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [uniqueIndex("login_sessions_token_hash_key").on(t.tokenHash)],
);

/** Dashboard AI widget threads (spec 4.2 ai-widget-thread). */
export const aiWidgetThreads = pgTable(
  "ai_widget_threads",
  {
    dashboardId: integer("dashboard_id")
      .notNull()
      .references(() => dashboards.id, { onDelete: "cascade" }),
    widgetId: text("widget_id").notNull(),
    threadId: text("thread_id").notNull(),
    checksum: text("checksum"),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.dashboardId, t.widgetId] })],
);

// Each feature keeps its own tables in ./tables/<feature>.ts.
export * from "./tables/ai";
export * from "./tables/creator";
export * from "./tables/build";
export * from "./tables/admin";
export * from "./tables/apps";
export * from "./tables/scale";
export * from "./tables/sign-in";
export * from "./tables/rollups";
