-- The client's names on the application row (docs/decisions.md, 721): a lower-cased copy of the
-- client's first and last names kept by the database, so the case search matches one table's
-- trigram indexes (the names' and the case reference's) instead of finding the clients first and
-- then their applications. Filled for the rows already there, then kept by triggers: set at each
-- insert and each change of the client (whatever the writer sent: the server sends DEFAULT), and
-- following the client's names when they change.
ALTER TABLE "applications" ADD COLUMN "client_names" text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE "applications" a SET "client_names" = lower(c."first_name" || ' ' || c."last_name") FROM "clients" c WHERE c."id" = a."client_id";--> statement-breakpoint
-- That update wrote every row anew, and each index kept an entry for both copies; the case
-- reference's trigram index then read twice the entries for a search (vacuum frees the dead ones
-- but does not pack the index): rebuilt once, here, where the table is being rewritten anyway.
REINDEX TABLE "applications";--> statement-breakpoint
CREATE FUNCTION applications_client_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.client_names := coalesce((SELECT lower(c.first_name || ' ' || c.last_name) FROM clients c WHERE c.id = NEW.client_id), '');
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER applications_client_names BEFORE INSERT OR UPDATE OF client_id, client_names ON applications
  FOR EACH ROW EXECUTE FUNCTION applications_client_names();--> statement-breakpoint
-- When a client's names change, their applications follow (applications_client_names reads the new ones).
CREATE FUNCTION clients_names_to_applications() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE applications SET client_names = '' WHERE client_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER clients_names_to_applications AFTER UPDATE OF first_name, last_name ON clients
  FOR EACH ROW WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name)
  EXECUTE FUNCTION clients_names_to_applications();--> statement-breakpoint
CREATE INDEX "applications_client_names_trgm_idx" ON "applications" USING gin ("client_names" gin_trgm_ops) WITH (fastupdate=false);
