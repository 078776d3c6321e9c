CREATE TABLE "document_reviews" (
	"application_id" integer NOT NULL,
	"type" text NOT NULL,
	"state" text NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_reviews_application_id_type_pk" PRIMARY KEY("application_id","type"),
	CONSTRAINT "document_reviews_state_check" CHECK ("document_reviews"."state" in ('pending', 'received', 'accepted', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "download_tokens" DROP CONSTRAINT "download_tokens_kind_check";--> statement-breakpoint
ALTER TABLE "download_tokens" ADD COLUMN "email_id" integer;--> statement-breakpoint
ALTER TABLE "document_reviews" ADD CONSTRAINT "document_reviews_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_reviews" ADD CONSTRAINT "document_reviews_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_kind_check" CHECK ("download_tokens"."kind" in ('file', 'applicationPdf', 'databaseExtract', 'emailPdf'));