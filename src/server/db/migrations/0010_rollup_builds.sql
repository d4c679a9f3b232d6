-- rollups: the build state of each rollup of a deployment (written by hand; applied in journal order).
CREATE TABLE IF NOT EXISTS "rollup_builds" (
	"deployment_id" integer NOT NULL,
	"name" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"table_name" text,
	"row_count" bigint,
	"size_bytes" bigint,
	"refresh_key" text,
	"built_at" timestamp with time zone,
	"next_build_at" timestamp with time zone,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rollup_builds_deployment_id_name_pk" PRIMARY KEY("deployment_id","name")
);
