-- The case search through trigram indexes (docs/decisions.md, 374); pg_trgm is a trusted extension
-- (PostgreSQL 13+), and PGlite is created with its bundled copy (db/connection.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "record_totals" (
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"amount_pence" bigint DEFAULT 0 NOT NULL,
	"latest_at" timestamp with time zone,
	CONSTRAINT "record_totals_kind_status_pk" PRIMARY KEY("kind","status")
);
--> statement-breakpoint
CREATE INDEX "applications_case_ref_trgm_idx" ON "applications" USING gin ("case_ref" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "clients_first_name_trgm_idx" ON "clients" USING gin ("first_name" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "clients_last_name_trgm_idx" ON "clients" USING gin ("last_name" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
-- The totals (docs/decisions.md, 373) are kept by statement triggers over the transition tables, in
-- the same transaction as the change: an insert adds its rows per status, a delete takes them
-- away, an update moves the difference (nothing when neither the status nor the amount changed,
-- so no totals row is locked). Rows of record_totals are changed in the order of their status, so
-- two changes in opposite directions never wait for each other crosswise.
CREATE FUNCTION record_totals_add(p_kind text, p_status text, p_count bigint, p_amount bigint, p_latest timestamptz)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO record_totals AS t (kind, status, count, amount_pence, latest_at)
  VALUES (p_kind, p_status, p_count, p_amount, p_latest)
  ON CONFLICT (kind, status) DO UPDATE
    SET count = t.count + excluded.count,
        amount_pence = t.amount_pence + excluded.amount_pence,
        latest_at = greatest(t.latest_at, excluded.latest_at);
END $$;--> statement-breakpoint
CREATE FUNCTION applications_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT status, sum(n)::bigint AS n, sum(amount)::bigint AS amount, max(latest) AS latest
      FROM (SELECT status, 1 AS n, 0 AS amount, created_at AS latest FROM new_rows) AS changed GROUP BY status HAVING sum(n) <> 0 OR sum(amount) <> 0 ORDER BY status
    LOOP
      PERFORM record_totals_add('application', r.status, r.n, r.amount, r.latest);
    END LOOP;
  ELSIF TG_OP = 'UPDATE' THEN
    FOR r IN SELECT status, sum(n)::bigint AS n, sum(amount)::bigint AS amount, max(latest) AS latest
      FROM (SELECT status, 1 AS n, 0 AS amount, created_at AS latest FROM new_rows UNION ALL SELECT status, -1 AS n, -0 AS amount, NULL::timestamptz AS latest FROM old_rows) AS changed GROUP BY status HAVING sum(n) <> 0 OR sum(amount) <> 0 ORDER BY status
    LOOP
      PERFORM record_totals_add('application', r.status, r.n, r.amount, r.latest);
    END LOOP;
  ELSE
    FOR r IN SELECT status, sum(n)::bigint AS n, sum(amount)::bigint AS amount, max(latest) AS latest
      FROM (SELECT status, -1 AS n, -0 AS amount, NULL::timestamptz AS latest FROM old_rows) AS changed GROUP BY status HAVING sum(n) <> 0 OR sum(amount) <> 0 ORDER BY status
    LOOP
      PERFORM record_totals_add('application', r.status, r.n, r.amount, r.latest);
    END LOOP;
    -- The newest row of a status may be the one deleted: that status's latest is read again.
    UPDATE record_totals t SET latest_at = (SELECT max(created_at) FROM applications x WHERE x.status = t.status)
      WHERE t.kind = 'application' AND t.status IN (SELECT status FROM old_rows);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER applications_totals_insert AFTER INSERT ON applications REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION applications_totals();--> statement-breakpoint
CREATE TRIGGER applications_totals_update AFTER UPDATE ON applications REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION applications_totals();--> statement-breakpoint
CREATE TRIGGER applications_totals_delete AFTER DELETE ON applications REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION applications_totals();--> statement-breakpoint
CREATE FUNCTION loans_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT status, sum(n)::bigint AS n, sum(amount)::bigint AS amount, max(latest) AS latest
      FROM (SELECT status, 1 AS n, amount_pence AS amount, created_at AS latest FROM new_rows) AS changed GROUP BY status HAVING sum(n) <> 0 OR sum(amount) <> 0 ORDER BY status
    LOOP
      PERFORM record_totals_add('loan', r.status, r.n, r.amount, r.latest);
    END LOOP;
  ELSIF TG_OP = 'UPDATE' THEN
    FOR r IN SELECT status, sum(n)::bigint AS n, sum(amount)::bigint AS amount, max(latest) AS latest
      FROM (SELECT status, 1 AS n, amount_pence AS amount, created_at AS latest FROM new_rows UNION ALL SELECT status, -1 AS n, -amount_pence AS amount, NULL::timestamptz AS latest FROM old_rows) AS changed GROUP BY status HAVING sum(n) <> 0 OR sum(amount) <> 0 ORDER BY status
    LOOP
      PERFORM record_totals_add('loan', r.status, r.n, r.amount, r.latest);
    END LOOP;
  ELSE
    FOR r IN SELECT status, sum(n)::bigint AS n, sum(amount)::bigint AS amount, max(latest) AS latest
      FROM (SELECT status, -1 AS n, -amount_pence AS amount, NULL::timestamptz AS latest FROM old_rows) AS changed GROUP BY status HAVING sum(n) <> 0 OR sum(amount) <> 0 ORDER BY status
    LOOP
      PERFORM record_totals_add('loan', r.status, r.n, r.amount, r.latest);
    END LOOP;
    -- The newest row of a status may be the one deleted: that status's latest is read again.
    UPDATE record_totals t SET latest_at = (SELECT max(created_at) FROM loans x WHERE x.status = t.status)
      WHERE t.kind = 'loan' AND t.status IN (SELECT status FROM old_rows);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER loans_totals_insert AFTER INSERT ON loans REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION loans_totals();--> statement-breakpoint
CREATE TRIGGER loans_totals_update AFTER UPDATE ON loans REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION loans_totals();--> statement-breakpoint
CREATE TRIGGER loans_totals_delete AFTER DELETE ON loans REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION loans_totals();--> statement-breakpoint
CREATE FUNCTION drawdowns_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT status, sum(n)::bigint AS n, sum(amount)::bigint AS amount, max(latest) AS latest
      FROM (SELECT status, 1 AS n, amount_pence AS amount, created_at AS latest FROM new_rows) AS changed GROUP BY status HAVING sum(n) <> 0 OR sum(amount) <> 0 ORDER BY status
    LOOP
      PERFORM record_totals_add('drawdown', r.status, r.n, r.amount, r.latest);
    END LOOP;
  ELSIF TG_OP = 'UPDATE' THEN
    FOR r IN SELECT status, sum(n)::bigint AS n, sum(amount)::bigint AS amount, max(latest) AS latest
      FROM (SELECT status, 1 AS n, amount_pence AS amount, created_at AS latest FROM new_rows UNION ALL SELECT status, -1 AS n, -amount_pence AS amount, NULL::timestamptz AS latest FROM old_rows) AS changed GROUP BY status HAVING sum(n) <> 0 OR sum(amount) <> 0 ORDER BY status
    LOOP
      PERFORM record_totals_add('drawdown', r.status, r.n, r.amount, r.latest);
    END LOOP;
  ELSE
    FOR r IN SELECT status, sum(n)::bigint AS n, sum(amount)::bigint AS amount, max(latest) AS latest
      FROM (SELECT status, -1 AS n, -amount_pence AS amount, NULL::timestamptz AS latest FROM old_rows) AS changed GROUP BY status HAVING sum(n) <> 0 OR sum(amount) <> 0 ORDER BY status
    LOOP
      PERFORM record_totals_add('drawdown', r.status, r.n, r.amount, r.latest);
    END LOOP;
    -- The newest row of a status may be the one deleted: that status's latest is read again.
    UPDATE record_totals t SET latest_at = (SELECT max(created_at) FROM drawdowns x WHERE x.status = t.status)
      WHERE t.kind = 'drawdown' AND t.status IN (SELECT status FROM old_rows);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER drawdowns_totals_insert AFTER INSERT ON drawdowns REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION drawdowns_totals();--> statement-breakpoint
CREATE TRIGGER drawdowns_totals_update AFTER UPDATE ON drawdowns REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION drawdowns_totals();--> statement-breakpoint
CREATE TRIGGER drawdowns_totals_delete AFTER DELETE ON drawdowns REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION drawdowns_totals();--> statement-breakpoint
CREATE FUNCTION record_totals_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM record_totals WHERE kind = TG_ARGV[0];
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER applications_totals_truncate AFTER TRUNCATE ON applications FOR EACH STATEMENT EXECUTE FUNCTION record_totals_truncate('application');--> statement-breakpoint
CREATE TRIGGER loans_totals_truncate AFTER TRUNCATE ON loans FOR EACH STATEMENT EXECUTE FUNCTION record_totals_truncate('loan');--> statement-breakpoint
CREATE TRIGGER drawdowns_totals_truncate AFTER TRUNCATE ON drawdowns FOR EACH STATEMENT EXECUTE FUNCTION record_totals_truncate('drawdown');--> statement-breakpoint
-- The rows there already, counted once; the triggers above hold the tables against writes until
-- this migration commits, so nothing is counted twice or missed.
INSERT INTO record_totals (kind, status, count, amount_pence, latest_at)
  SELECT 'application', status, count(*), 0, max(created_at) FROM applications GROUP BY status
  UNION ALL SELECT 'loan', status, count(*), sum(amount_pence), max(created_at) FROM loans GROUP BY status
  UNION ALL SELECT 'drawdown', status, count(*), sum(amount_pence), max(created_at) FROM drawdowns GROUP BY status;
