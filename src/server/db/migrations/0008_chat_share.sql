-- chat share: a thread shared read-only with its owner's audience (written by hand; applied in journal order).
ALTER TABLE "chat_threads" ADD COLUMN IF NOT EXISTS "share_scope" text;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_threads_shared_idx" ON "chat_threads" USING btree ("deployment_id","share_scope","updated_at") WHERE "share_scope" IS NOT NULL;
