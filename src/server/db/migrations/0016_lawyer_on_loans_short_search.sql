-- The lawyer on the loan and drawdown rows (docs/decisions.md, 621): a copy of the application's
-- lawyer kept by the database, so a lawyer's loans and drawdowns (their lists and totals) are read
-- by an index of their own rows instead of joining every loan to its application. Filled for the
-- rows already there, then kept by triggers: set at each insert (whoever inserts: the server
-- sends DEFAULT, the benchmark's bulk seed names no lawyer), and following the application's
-- lawyer when that changes. No foreign key: it is always its application's lawyer_id, which has one.
ALTER TABLE "loans" ADD COLUMN "lawyer_id" integer;--> statement-breakpoint
ALTER TABLE "drawdowns" ADD COLUMN "lawyer_id" integer;--> statement-breakpoint
UPDATE "loans" l SET "lawyer_id" = a."lawyer_id" FROM "applications" a WHERE a."id" = l."application_id";--> statement-breakpoint
UPDATE "drawdowns" d SET "lawyer_id" = l."lawyer_id" FROM "loans" l WHERE l."id" = d."loan_id";--> statement-breakpoint
ALTER TABLE "loans" ALTER COLUMN "lawyer_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "drawdowns" ALTER COLUMN "lawyer_id" SET NOT NULL;--> statement-breakpoint
-- A loan's lawyer is its application's, whatever an insert or update says.
CREATE FUNCTION loans_lawyer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.lawyer_id := (SELECT a.lawyer_id FROM applications a WHERE a.id = NEW.application_id);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER loans_lawyer BEFORE INSERT OR UPDATE OF application_id, lawyer_id ON loans
  FOR EACH ROW EXECUTE FUNCTION loans_lawyer();--> statement-breakpoint
-- A drawdown's lawyer is its loan's.
CREATE FUNCTION drawdowns_lawyer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.lawyer_id := (SELECT l.lawyer_id FROM loans l WHERE l.id = NEW.loan_id);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER drawdowns_lawyer BEFORE INSERT OR UPDATE OF loan_id, lawyer_id ON drawdowns
  FOR EACH ROW EXECUTE FUNCTION drawdowns_lawyer();--> statement-breakpoint
-- When an application's lawyer changes, its loan follows (loans_lawyer reads the new one), and
-- when a loan's lawyer changes, its drawdowns follow (drawdowns_lawyer reads the loan's).
CREATE FUNCTION applications_lawyer_to_loans() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE loans SET lawyer_id = NEW.lawyer_id WHERE application_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER applications_lawyer_to_loans AFTER UPDATE OF lawyer_id ON applications
  FOR EACH ROW WHEN (OLD.lawyer_id IS DISTINCT FROM NEW.lawyer_id) EXECUTE FUNCTION applications_lawyer_to_loans();--> statement-breakpoint
CREATE FUNCTION loans_lawyer_to_drawdowns() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE drawdowns SET lawyer_id = NEW.lawyer_id WHERE loan_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER loans_lawyer_to_drawdowns AFTER UPDATE OF lawyer_id ON loans
  FOR EACH ROW WHEN (OLD.lawyer_id IS DISTINCT FROM NEW.lawyer_id) EXECUTE FUNCTION loans_lawyer_to_drawdowns();--> statement-breakpoint
CREATE INDEX "loans_lawyer_id_idx" ON "loans" USING btree ("lawyer_id","id");--> statement-breakpoint
CREATE INDEX "drawdowns_lawyer_id_idx" ON "drawdowns" USING btree ("lawyer_id","id");--> statement-breakpoint
-- A search word of one or two letters matches the start of a name (docs/decisions.md, 622).
CREATE INDEX "clients_first_name_prefix_idx" ON "clients" USING btree (lower("first_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "clients_last_name_prefix_idx" ON "clients" USING btree (lower("last_name") text_pattern_ops);
