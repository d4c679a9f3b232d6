-- administration: tables and columns of this feature (written by hand; applied in journal order).
CREATE TABLE IF NOT EXISTS "tenant_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value_encrypted" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "deployment_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"deployment_id" integer REFERENCES "deployments"("id") ON DELETE CASCADE,
	"source" text DEFAULT 'production' NOT NULL,
	"container" text NOT NULL,
	"level" text DEFAULT 'info' NOT NULL,
	"message" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "deployment_logs_deployment_time_idx" ON "deployment_logs" ("deployment_id", "created_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "deployment_logs_time_idx" ON "deployment_logs" ("created_at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "deployment_env_vars" (
	"deployment_id" integer NOT NULL REFERENCES "deployments"("id") ON DELETE CASCADE,
	"name" text NOT NULL,
	"value" text,
	"value_encrypted" text,
	"secret" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deployment_env_vars_pk" PRIMARY KEY ("deployment_id", "name")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "oidc_token_configs" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"issuer" text NOT NULL,
	"audience" text NOT NULL,
	"claims" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"role" text NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "oidc_token_configs_name_key" ON "oidc_token_configs" (lower("name"));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "oidc_token_configs_issuer_idx" ON "oidc_token_configs" ("issuer");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "oauth_integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"provider" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_encrypted" text,
	"authorization_url" text NOT NULL,
	"token_url" text NOT NULL,
	"revocation_url" text,
	"scopes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"redirect_uri" text NOT NULL,
	"api_base_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "oauth_integrations_name_key" ON "oauth_integrations" (lower("name"));
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "user_oauth_tokens" (
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"integration_id" integer NOT NULL REFERENCES "oauth_integrations"("id") ON DELETE CASCADE,
	"access_token_encrypted" text NOT NULL,
	"refresh_token_encrypted" text,
	"token_type" text DEFAULT 'bearer' NOT NULL,
	"scope" text,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_oauth_tokens_pk" PRIMARY KEY ("user_id", "integration_id")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"integration_id" integer NOT NULL REFERENCES "oauth_integrations"("id") ON DELETE CASCADE,
	"code_verifier_encrypted" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text,
	"dashboard_id" integer NOT NULL REFERENCES "dashboards"("id") ON DELETE CASCADE,
	"cron" text NOT NULL,
	"timezone" text NOT NULL,
	"recipients" jsonb NOT NULL,
	"filters" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"time_grains" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"format" text DEFAULT 'html' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"next_run_at" timestamp with time zone,
	"created_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "notifications_next_run_idx" ON "notifications" ("next_run_at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "notification_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"notification_id" integer NOT NULL REFERENCES "notifications"("id") ON DELETE CASCADE,
	"occurrence" timestamp with time zone,
	"trigger" text NOT NULL,
	"status" text DEFAULT 'sending' NOT NULL,
	"results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"node_id" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "notification_deliveries_occurrence_key" ON "notification_deliveries" ("notification_id", "occurrence");
