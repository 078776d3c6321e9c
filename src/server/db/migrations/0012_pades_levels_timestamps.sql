ALTER TABLE "envelope_events" DROP CONSTRAINT "envelope_events_type_check";--> statement-breakpoint
ALTER TABLE "envelope_documents" ADD COLUMN "pades_level" text;--> statement-breakpoint
ALTER TABLE "envelope_documents" ADD COLUMN "timestamp_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "envelope_documents" ADD COLUMN "timestamp_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "envelope_documents_timestamp_due_idx" ON "envelope_documents" USING btree ("timestamp_due_at") WHERE "envelope_documents"."timestamp_due_at" is not null;--> statement-breakpoint
ALTER TABLE "envelope_documents" ADD CONSTRAINT "envelope_documents_pades_level_check" CHECK ("envelope_documents"."pades_level" in ('B-B', 'B-T', 'B-LT'));--> statement-breakpoint
ALTER TABLE "envelope_events" ADD CONSTRAINT "envelope_events_type_check" CHECK ("envelope_events"."type" in ('created', 'notified', 'opened', 'codeSent', 'codeFailed', 'signed', 'voided', 'timestamped'));