-- creator app: tables and columns of this feature (written by hand; applied in journal order).
CREATE TABLE IF NOT EXISTS "creator_members" (
	"embed_user_id" integer PRIMARY KEY NOT NULL REFERENCES "embed_users"("id") ON DELETE cascade,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "creator_members_user_key" ON "creator_members" ("user_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "creator_tenant_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL REFERENCES "embed_tenants"("id") ON DELETE cascade,
	"kind" text NOT NULL,
	"embed_group_id" integer REFERENCES "embed_groups"("id") ON DELETE cascade,
	"group_id" integer NOT NULL REFERENCES "groups"("id") ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "creator_tenant_groups_key" ON "creator_tenant_groups" ("tenant_id", "kind", coalesce("embed_group_id", 0));
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "creator_tenant_groups_group_key" ON "creator_tenant_groups" ("group_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "creator_spaces" (
	"tenant_id" integer NOT NULL REFERENCES "embed_tenants"("id") ON DELETE cascade,
	"deployment_id" integer NOT NULL REFERENCES "deployments"("id") ON DELETE cascade,
	"folder_id" integer NOT NULL REFERENCES "folders"("id") ON DELETE cascade,
	CONSTRAINT "creator_spaces_tenant_id_deployment_id_pk" PRIMARY KEY("tenant_id","deployment_id")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "creator_recents" (
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"workbook_id" integer NOT NULL REFERENCES "workbooks"("id") ON DELETE cascade,
	"viewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "creator_recents_user_id_workbook_id_pk" PRIMARY KEY("user_id","workbook_id")
);
