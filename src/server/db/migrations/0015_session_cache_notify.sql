-- The server keeps authenticated sessions in memory (auth/session-cache.ts); every change to what
-- authenticating a token reads tells each server on channel 'session_cache' which account to
-- forget, at commit (docs/decisions.md, 610). Triggers, so that no code path can forget to: a
-- session revoked or deleted; an account changed in any way or deleted; a lawyer or client row
-- added, moved, removed or restored (the ids an account carries). A session's activity written
-- again (last_seen_at moving forward) alone is not a change; set back, it is. TRUNCATE says '*':
-- forget everything.
CREATE FUNCTION session_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('session_cache', '*');
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('session_cache', to_jsonb(OLD) ->> TG_ARGV[0]);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('session_cache', to_jsonb(NEW) ->> TG_ARGV[0]);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_session_cache AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION session_cache_notify('id');
--> statement-breakpoint
CREATE TRIGGER sessions_session_cache AFTER UPDATE ON sessions
  FOR EACH ROW WHEN ((to_jsonb(OLD) - 'last_seen_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_seen_at')
    OR NEW.last_seen_at < OLD.last_seen_at)
  EXECUTE FUNCTION session_cache_notify('user_id');
--> statement-breakpoint
CREATE TRIGGER sessions_session_cache_delete AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION session_cache_notify('user_id');
--> statement-breakpoint
CREATE TRIGGER lawyers_session_cache AFTER INSERT OR UPDATE OR DELETE ON lawyers
  FOR EACH ROW EXECUTE FUNCTION session_cache_notify('user_id');
--> statement-breakpoint
CREATE TRIGGER clients_session_cache AFTER INSERT OR UPDATE OR DELETE ON clients
  FOR EACH ROW EXECUTE FUNCTION session_cache_notify('user_id');
--> statement-breakpoint
CREATE TRIGGER users_session_cache_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION session_cache_notify();
--> statement-breakpoint
CREATE TRIGGER sessions_session_cache_truncate AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION session_cache_notify();
--> statement-breakpoint
CREATE TRIGGER lawyers_session_cache_truncate AFTER TRUNCATE ON lawyers
  FOR EACH STATEMENT EXECUTE FUNCTION session_cache_notify();
--> statement-breakpoint
CREATE TRIGGER clients_session_cache_truncate AFTER TRUNCATE ON clients
  FOR EACH STATEMENT EXECUTE FUNCTION session_cache_notify();
