CREATE TABLE "envelope_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"envelope_id" text NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"file_id" integer NOT NULL,
	"sha256" text NOT NULL,
	"signed_file_id" integer,
	"signed_sha256" text
);
--> statement-breakpoint
CREATE TABLE "envelope_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"envelope_id" text NOT NULL,
	"type" text NOT NULL,
	"user_id" integer,
	"address" text,
	"device" text,
	"detail" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "envelope_events_type_check" CHECK ("envelope_events"."type" in ('created', 'notified', 'opened', 'codeSent', 'codeFailed', 'signed', 'voided'))
);
--> statement-breakpoint
CREATE TABLE "envelopes" (
	"id" text PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone,
	"link_token_hash" text,
	"link_expires_at" timestamp with time zone,
	"link_opened_at" timestamp with time zone,
	"link_codes_sent" integer DEFAULT 0 NOT NULL,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"code_attempts" integer DEFAULT 0 NOT NULL,
	"signed_at" timestamp with time zone,
	"signer_user_id" integer,
	"signer_address" text,
	"signer_device" text,
	CONSTRAINT "envelopes_link_token_hash_unique" UNIQUE("link_token_hash"),
	CONSTRAINT "envelopes_status_check" CHECK ("envelopes"."status" in ('created', 'notified', 'signed', 'voided'))
);
--> statement-breakpoint
CREATE TABLE "signing_certificates" (
	"id" integer PRIMARY KEY NOT NULL,
	"p12" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "envelope_documents" ADD CONSTRAINT "envelope_documents_envelope_id_envelopes_id_fk" FOREIGN KEY ("envelope_id") REFERENCES "public"."envelopes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "envelope_documents" ADD CONSTRAINT "envelope_documents_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "envelope_documents" ADD CONSTRAINT "envelope_documents_signed_file_id_files_id_fk" FOREIGN KEY ("signed_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "envelope_events" ADD CONSTRAINT "envelope_events_envelope_id_envelopes_id_fk" FOREIGN KEY ("envelope_id") REFERENCES "public"."envelopes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "envelope_events" ADD CONSTRAINT "envelope_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "envelopes" ADD CONSTRAINT "envelopes_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "envelopes" ADD CONSTRAINT "envelopes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "envelopes" ADD CONSTRAINT "envelopes_signer_user_id_users_id_fk" FOREIGN KEY ("signer_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "envelope_documents_position_key" ON "envelope_documents" USING btree ("envelope_id","position");--> statement-breakpoint
CREATE INDEX "envelope_events_envelope_id_idx" ON "envelope_events" USING btree ("envelope_id","id");--> statement-breakpoint
CREATE INDEX "envelopes_application_id_idx" ON "envelopes" USING btree ("application_id","created_at");