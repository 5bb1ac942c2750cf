-- What drizzle cannot declare: the activities exclusion constraint and the trigram search indexes.
-- Each search index expression is exactly the one server/http/search.ts builds for that resource.
ALTER TABLE activities ADD CONSTRAINT activities_no_overlap
  EXCLUDE USING gist (employee_id WITH =, tstzrange(begins_at, ends_at, '[)') WITH &&);
--> statement-breakpoint
CREATE INDEX clients_search_trgm ON clients USING gin (sia_unaccent(coalesce(name, '') || ' ' || coalesce(client_code, '') || ' ' || coalesce(rfc, '') || ' ' || coalesce(complete_name, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX prospects_search_trgm ON prospects USING gin (sia_unaccent(coalesce(name, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX users_search_trgm ON users USING gin (sia_unaccent(coalesce(name, '') || ' ' || coalesce(email, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX employees_search_trgm ON employees USING gin (sia_unaccent(coalesce(name, '') || ' ' || coalesce(employee_code, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX products_search_trgm ON products USING gin (sia_unaccent(coalesce(name, '') || ' ' || coalesce(product_code, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX projects_search_trgm ON projects USING gin (sia_unaccent(coalesce(name, '') || ' ' || coalesce(project_code, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX quotations_search_trgm ON quotations USING gin (sia_unaccent(coalesce(contact_name, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX client_groups_search_trgm ON client_groups USING gin (sia_unaccent(coalesce(name, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX workspaces_search_trgm ON workspaces USING gin (sia_unaccent(coalesce(name, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX app_licenses_search_trgm ON app_licenses USING gin (sia_unaccent(coalesce(entity_name, '') || ' ' || coalesce(entity_rfc, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX activities_search_trgm ON activities USING gin (sia_unaccent(coalesce(description, '')) gin_trgm_ops);
