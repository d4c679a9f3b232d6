-- sign-in links: one-time private-mode sign-in (written by hand; applied in journal order).
CREATE TABLE IF NOT EXISTS "sign_in_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sign_in_links_token_hash_key" ON "sign_in_links" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sign_in_links_user_idx" ON "sign_in_links" USING btree ("user_id");
