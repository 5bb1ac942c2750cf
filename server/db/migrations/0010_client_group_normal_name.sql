-- Hand-written block (keep when renumbering): the name as people read it, for look-alike checks. Lower
-- case, no accents, inner runs of spaces as one, none at the ends; IMMUTABLE (over sia_unaccent) so it
-- can back the unique index below.
CREATE OR REPLACE FUNCTION sia_normal_name(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT btrim(regexp_replace(public.sia_unaccent($1), '\s+', ' ', 'g')) $$;
--> statement-breakpoint
-- Hand-written data fix: groups already named alike keep the oldest's name; the others get « (N)» after
-- theirs (N = their id) so the index can be made and an administrator can merge or rename them.
UPDATE "client_groups" g SET "name" = left(g."name", 140) || ' (' || g."id" || ')' FROM (
  SELECT "id", row_number() OVER (PARTITION BY sia_normal_name("name") ORDER BY "id") AS n
    FROM "client_groups") d WHERE g."id" = d."id" AND d.n > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "client_groups_name_normal_unique" ON "client_groups" USING btree (sia_normal_name("name"));
