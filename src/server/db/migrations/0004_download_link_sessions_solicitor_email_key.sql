-- Open download links (five minutes long) belong to no session yet: they are spent, so the column can be required.
DELETE FROM "download_tokens";--> statement-breakpoint
ALTER TABLE "download_tokens" ADD COLUMN "session_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "download_tokens_session_id_idx" ON "download_tokens" USING btree ("session_id");--> statement-breakpoint
-- Live solicitors that share an email (left by parallel creates) keep the oldest; the others are deleted (soft), so the index can be made.
UPDATE "solicitors" AS s SET "deleted_at" = now(), "updated_at" = now()
WHERE s."deleted_at" IS NULL AND EXISTS (
  SELECT 1 FROM "solicitors" AS o WHERE o."deleted_at" IS NULL AND lower(o."email") = lower(s."email") AND o."id" < s."id"
);--> statement-breakpoint
CREATE UNIQUE INDEX "solicitors_email_live_key" ON "solicitors" USING btree (lower("email")) WHERE "solicitors"."deleted_at" is null;
