ALTER TABLE "drawdowns" ADD COLUMN "client_approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "drawdowns" ADD COLUMN "client_approval_address" text;--> statement-breakpoint
ALTER TABLE "drawdowns" ADD COLUMN "client_approval_device" text;