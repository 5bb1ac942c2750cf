-- Every server process caches who a session token belongs to (server/auth/sessionCache.ts). Whatever
-- changes that answer NOTIFYs the user's id on sia_sessions, whoever writes it (a route, the create-admin
-- command, a restore, psql): a session ended, its expiry changed or its last use moved back, a user changed or removed, an employee
-- linked, changed, unlinked or removed. '*' drops every cached session (a table emptied). NOTIFY is
-- delivered at commit and collapses repeated payloads of one transaction.
CREATE FUNCTION "sia_session_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  column_name text := TG_ARGV[0];
  old_id text;
  new_id text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('sia_sessions', '*');
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    old_id := to_jsonb(OLD) ->> column_name;
    IF old_id IS NOT NULL THEN PERFORM pg_notify('sia_sessions', old_id); END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    new_id := to_jsonb(NEW) ->> column_name;
    IF new_id IS NOT NULL THEN PERFORM pg_notify('sia_sessions', new_id); END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_ended" AFTER DELETE ON "sessions" FOR EACH ROW EXECUTE FUNCTION "sia_session_changed"('user_id');
--> statement-breakpoint
-- A session's last use moves forward on its own (once a minute, not told); moved back, it may now be idle.
CREATE TRIGGER "sessions_changed" AFTER UPDATE ON "sessions" FOR EACH ROW
  WHEN (
    OLD."user_id" IS DISTINCT FROM NEW."user_id" OR OLD."token_hash" IS DISTINCT FROM NEW."token_hash"
    OR OLD."expires_at" IS DISTINCT FROM NEW."expires_at" OR NEW."last_seen_at" < OLD."last_seen_at"
  )
  EXECUTE FUNCTION "sia_session_changed"('user_id');
--> statement-breakpoint
CREATE TRIGGER "sessions_emptied" AFTER TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "sia_session_changed"();
--> statement-breakpoint
CREATE TRIGGER "users_changed" AFTER UPDATE OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "sia_session_changed"('id');
--> statement-breakpoint
CREATE TRIGGER "users_emptied" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "sia_session_changed"();
--> statement-breakpoint
CREATE TRIGGER "employees_changed" AFTER INSERT OR UPDATE OR DELETE ON "employees"
  FOR EACH ROW EXECUTE FUNCTION "sia_session_changed"('user_id');
--> statement-breakpoint
CREATE TRIGGER "employees_emptied" AFTER TRUNCATE ON "employees" FOR EACH STATEMENT EXECUTE FUNCTION "sia_session_changed"();
