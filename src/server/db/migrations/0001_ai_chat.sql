-- ai chat: tables and columns of this feature (written by hand; applied in journal order).
CREATE TABLE IF NOT EXISTS "chat_threads" (
	"id" text PRIMARY KEY NOT NULL,
	"deployment_id" integer NOT NULL REFERENCES "deployments"("id") ON DELETE CASCADE,
	"owner_key" text NOT NULL,
	"user_id" integer,
	"embed_tenant" text,
	"external_id" text,
	"title" text DEFAULT '' NOT NULL,
	"view_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_threads_owner_idx" ON "chat_threads" USING btree ("deployment_id","owner_key","updated_at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "chat_messages" (
	"id" text NOT NULL,
	"thread_id" text NOT NULL REFERENCES "chat_threads"("id") ON DELETE CASCADE,
	"role" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'completed' NOT NULL,
	"state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_messages_thread_id_id_pk" PRIMARY KEY("thread_id","id")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_messages_thread_idx" ON "chat_messages" USING btree ("thread_id","created_at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "ai_widget_answers" (
	"key" text PRIMARY KEY NOT NULL,
	"checksum" text NOT NULL,
	"markdown" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
