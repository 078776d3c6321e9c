DROP INDEX "drawdowns_status_idx";--> statement-breakpoint
CREATE INDEX "drawdowns_status_id_idx" ON "drawdowns" USING btree ("status","id");