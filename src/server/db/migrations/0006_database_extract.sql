ALTER TABLE "download_tokens" DROP CONSTRAINT "download_tokens_kind_check";--> statement-breakpoint
ALTER TABLE "download_tokens" ALTER COLUMN "application_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_application_check" CHECK ("download_tokens"."kind" = 'databaseExtract' or "download_tokens"."application_id" is not null);--> statement-breakpoint
ALTER TABLE "download_tokens" ADD CONSTRAINT "download_tokens_kind_check" CHECK ("download_tokens"."kind" in ('file', 'applicationPdf', 'databaseExtract'));