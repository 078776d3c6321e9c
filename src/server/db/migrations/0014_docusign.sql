CREATE TABLE "provider_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"envelope_id" text NOT NULL,
	"event" text NOT NULL,
	"generated_at" text NOT NULL,
	"body_sha256" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "envelope_events" DROP CONSTRAINT "envelope_events_type_check";--> statement-breakpoint
ALTER TABLE "envelopes" DROP CONSTRAINT "envelopes_status_check";--> statement-breakpoint
ALTER TABLE "envelopes" ADD COLUMN "remote_signer" jsonb;--> statement-breakpoint
ALTER TABLE "envelopes" ADD COLUMN "completion_certificate_file_id" integer;--> statement-breakpoint
ALTER TABLE "provider_events" ADD CONSTRAINT "provider_events_envelope_id_envelopes_id_fk" FOREIGN KEY ("envelope_id") REFERENCES "public"."envelopes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_events_key" ON "provider_events" USING btree ("provider","envelope_id","event","generated_at");--> statement-breakpoint
ALTER TABLE "envelopes" ADD CONSTRAINT "envelopes_completion_certificate_file_id_files_id_fk" FOREIGN KEY ("completion_certificate_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "envelope_events" ADD CONSTRAINT "envelope_events_type_check" CHECK ("envelope_events"."type" in ('created', 'notified', 'opened', 'codeSent', 'codeFailed', 'signed', 'voided', 'declined', 'timestamped'));--> statement-breakpoint
ALTER TABLE "envelopes" ADD CONSTRAINT "envelopes_status_check" CHECK ("envelopes"."status" in ('created', 'notified', 'signed', 'voided', 'declined'));