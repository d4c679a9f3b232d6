-- build models: versioned data models (content-addressed file versions, commits, branches), dev mode, uploads, git remotes, sync jobs, deployment set-up.
CREATE TABLE IF NOT EXISTS "model_file_versions" (
	"deployment_id" integer NOT NULL REFERENCES "deployments"("id") ON DELETE CASCADE,
	"sha256" text NOT NULL,
	"content" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_file_versions_pk" PRIMARY KEY("deployment_id","sha256")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "model_commits" (
	"id" serial PRIMARY KEY NOT NULL,
	"deployment_id" integer NOT NULL REFERENCES "deployments"("id") ON DELETE CASCADE,
	"branch" text NOT NULL,
	"parent_id" integer REFERENCES "model_commits"("id"),
	"merge_parent_id" integer REFERENCES "model_commits"("id"),
	"tree" jsonb NOT NULL,
	"author_user_id" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"author_name" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "model_commits_deployment_idx" ON "model_commits" ("deployment_id","id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "model_branches" (
	"id" serial PRIMARY KEY NOT NULL,
	"deployment_id" integer NOT NULL REFERENCES "deployments"("id") ON DELETE CASCADE,
	"name" text NOT NULL,
	"head_commit_id" integer NOT NULL REFERENCES "model_commits"("id"),
	"work_tree" jsonb NOT NULL,
	"parent_branch" text,
	"owner_user_id" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"build_status" text DEFAULT 'ready' NOT NULL,
	"build_errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "model_branches_deployment_name_idx" ON "model_branches" ("deployment_id","name");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "model_dev_modes" (
	"deployment_id" integer NOT NULL REFERENCES "deployments"("id") ON DELETE CASCADE,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"branch" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_dev_modes_pk" PRIMARY KEY("deployment_id","user_id")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "model_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"deployment_id" integer NOT NULL REFERENCES "deployments"("id") ON DELETE CASCADE,
	"branch" text NOT NULL,
	"mode" text NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"files" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"bytes" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "model_git_remotes" (
	"deployment_id" integer PRIMARY KEY NOT NULL REFERENCES "deployments"("id") ON DELETE CASCADE,
	"url" text NOT NULL,
	"branch" text NOT NULL,
	"credentials_encrypted" text,
	"oauth_integration_id" integer,
	"last_remote_sha" text,
	"last_synced_tree" jsonb,
	"connected_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "model_sync_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"deployment_id" integer NOT NULL REFERENCES "deployments"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"branch" text NOT NULL,
	"status" text NOT NULL,
	"logs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "deployment_setups" (
	"deployment_id" integer PRIMARY KEY NOT NULL REFERENCES "deployments"("id") ON DELETE CASCADE,
	"cloud_provider" text NOT NULL,
	"creation_method" text NOT NULL,
	"deploy_mode" text NOT NULL,
	"region" text,
	"step" text NOT NULL,
	"inputs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
