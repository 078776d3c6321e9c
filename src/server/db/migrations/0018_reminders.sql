-- Reminders of what keeps waiting on a person (docs/decisions.md 693-694): when an application or a
-- drawdown entered its status, and how many reminders of that wait went out and when the last did.
ALTER TABLE "applications" ADD COLUMN "status_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "reminders_sent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "last_reminder_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "drawdowns" ADD COLUMN "status_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "drawdowns" ADD COLUMN "reminders_sent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "drawdowns" ADD COLUMN "last_reminder_at" timestamp with time zone;--> statement-breakpoint
-- The rows already there entered their status at their last change, as near as is known.
UPDATE "applications" SET "status_changed_at" = "updated_at";--> statement-breakpoint
UPDATE "drawdowns" SET "status_changed_at" = "updated_at";--> statement-breakpoint
-- Kept by the database in the statement that changes the status, whichever code path changes it:
-- a new status starts a new wait, with no reminders sent yet.
CREATE FUNCTION status_entered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.status_changed_at := now();
  NEW.reminders_sent := 0;
  NEW.last_reminder_at := NULL;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER applications_status_entered BEFORE UPDATE OF status ON applications
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION status_entered();--> statement-breakpoint
CREATE TRIGGER drawdowns_status_entered BEFORE UPDATE OF status ON drawdowns
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION status_entered();
