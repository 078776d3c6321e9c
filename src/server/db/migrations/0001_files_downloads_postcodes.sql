CREATE TABLE "download_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"kind" text NOT NULL,
	"file_id" integer,
	"application_id" integer NOT NULL,
	"variant" text,
	"audience" text,
	"file_name" text NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "download_tokens_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "download_tokens_kind_check" CHECK ("download_tokens"."kind" in ('file', 'applicationPdf'))
);
--> statement-breakpoint
CREATE TABLE "postcode_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"postcode" text NOT NULL,
	"lines" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "download_tokens_expires_at_idx" ON "download_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "postcode_addresses_postcode_idx" ON "postcode_addresses" USING btree ("postcode","id");