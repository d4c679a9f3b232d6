/** Tables of the admin feature; re-exported by ../schema.ts so drizzle and the migrations see them. */
import { sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

/** Write-only secrets of the tenant settings (AI agents' credentials…), sealed with the secret box. */
export const tenantSecrets = pgTable("tenant_secrets", {
  name: text("name").primaryKey(),
  valueEncrypted: text("value_encrypted").notNull(),
  updatedAt: updatedAt(),
});

/**
 * Logs kept in storage per deployment (decisions.md "Administration"): `source` production or
 * dev, `container` the part that wrote the line. Tenant-wide lines (settings audits) have no
 * deployment. Never holds a secret.
 */
export const deploymentLogs = pgTable(
  "deployment_logs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deploymentId: integer("deployment_id"),
    source: text("source").$type<"production" | "dev">().notNull().default("production"),
    container: text("container").$type<"INIT" | "MAIN" | "cubejs-server" | "vector" | "api-proxy">().notNull(),
    level: text("level").$type<"info" | "warn" | "error">().notNull().default("info"),
    message: text("message").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index("deployment_logs_deployment_time_idx").on(t.deploymentId, t.createdAt), index("deployment_logs_time_idx").on(t.createdAt)],
);

/** Environment variables of a deployment; a secret's value is sealed and never returned. */
export const deploymentEnvVars = pgTable(
  "deployment_env_vars",
  {
    deploymentId: integer("deployment_id").notNull(),
    name: text("name").notNull(),
    value: text("value"),
    valueEncrypted: text("value_encrypted"),
    secret: boolean("secret").notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.deploymentId, t.name] })],
);

/** OIDC issuers whose ID tokens a workload may present instead of an API key; each acts as its own service user. */
export const oidcTokenConfigs = pgTable(
  "oidc_token_configs",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    issuer: text("issuer").notNull(),
    audience: text("audience").notNull(),
    claims: jsonb("claims").$type<Record<string, string | number | boolean>>().notNull().default({}),
    role: text("role").$type<"viewer" | "ai_bi_user" | "developer" | "admin">().notNull(),
    /** The service user the workload acts as (created with the config). */
    userId: integer("user_id").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("oidc_token_configs_name_key").on(sql`lower(${t.name})`), index("oidc_token_configs_issuer_idx").on(t.issuer)],
);

/** OAuth integrations (admin): a client of an authorization server; the secret is sealed, never returned. */
export const oauthIntegrations = pgTable(
  "oauth_integrations",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    provider: text("provider").notNull(),
    clientId: text("client_id").notNull(),
    clientSecretEncrypted: text("client_secret_encrypted"),
    authorizationUrl: text("authorization_url").notNull(),
    tokenUrl: text("token_url").notNull(),
    revocationUrl: text("revocation_url"),
    scopes: jsonb("scopes").$type<string[]>().notNull().default([]),
    redirectUri: text("redirect_uri").notNull(),
    /** API base of the host behind it (git host discovery: GitHub, GitHub Enterprise, Gitea). */
    apiBaseUrl: text("api_base_url"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("oauth_integrations_name_key").on(sql`lower(${t.name})`)],
);

/** A user's tokens for an integration, sealed at rest. */
export const userOauthTokens = pgTable(
  "user_oauth_tokens",
  {
    userId: integer("user_id").notNull(),
    integrationId: integer("integration_id").notNull(),
    accessTokenEncrypted: text("access_token_encrypted").notNull(),
    refreshTokenEncrypted: text("refresh_token_encrypted"),
    tokenType: text("token_type").notNull().default("bearer"),
    scope: text("scope"),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.integrationId] })],
);

/** Pending authorizations: the state (hashed) bound to the user who started it, and the sealed PKCE verifier. */
export const oauthStates = pgTable("oauth_states", {
  stateHash: text("state_hash").primaryKey(),
  userId: integer("user_id").notNull(),
  integrationId: integer("integration_id").notNull(),
  codeVerifierEncrypted: text("code_verifier_encrypted").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  createdAt: createdAt(),
});

export type NotificationRecipient = { userId: number } | { email: string } | { embedTenantName: string; externalId: string; username?: string };

/** Scheduled deliveries of a dashboard by e-mail. */
export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    name: text("name"),
    dashboardId: integer("dashboard_id").notNull(),
    cron: text("cron").notNull(),
    timezone: text("timezone").notNull(),
    recipients: jsonb("recipients").$type<NotificationRecipient[]>().notNull(),
    filters: jsonb("filters").$type<{ member: string; operator: string; value?: unknown }[]>().notNull().default([]),
    timeGrains: jsonb("time_grains").$type<Record<string, string>>().notNull().default({}),
    format: text("format").$type<"html" | "csv">().notNull().default("html"),
    enabled: boolean("enabled").notNull().default(true),
    nextRunAt: timestamp("next_run_at", { withTimezone: true, mode: "date" }),
    createdBy: integer("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("notifications_next_run_idx").on(t.nextRunAt)],
);

/** One run of a notification; a scheduled occurrence is claimed by inserting its row, so one node sends it. */
export const notificationDeliveries = pgTable(
  "notification_deliveries",
  {
    id: serial("id").primaryKey(),
    notificationId: integer("notification_id").notNull(),
    occurrence: timestamp("occurrence", { withTimezone: true, mode: "date" }),
    trigger: text("trigger").$type<"schedule" | "manual">().notNull(),
    status: text("status").$type<"sending" | "sent" | "partial" | "failed">().notNull().default("sending"),
    results: jsonb("results").$type<{ recipient: string; status: "sent" | "failed"; error?: string }[]>().notNull().default([]),
    nodeId: text("node_id"),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [uniqueIndex("notification_deliveries_occurrence_key").on(t.notificationId, t.occurrence)],
);
