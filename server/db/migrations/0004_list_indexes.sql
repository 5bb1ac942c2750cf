CREATE INDEX "quotations_created_idx" ON "quotations" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "employees_name_idx" ON "employees" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "projects_code_idx" ON "projects" USING btree ("project_code","id");--> statement-breakpoint
CREATE INDEX "projects_name_idx" ON "projects" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "assignments_start_on_idx" ON "assignments" USING btree ("start_on","id");--> statement-breakpoint
-- Hand-written (issue 10): the trigram search indexes the resources still lacked. Each expression is exactly
-- the one server/http/search.ts builds for that resource's search columns.
CREATE INDEX invoices_search_trgm ON invoices USING gin (sia_unaccent(coalesce(folio, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX activity_type_catalogs_search_trgm ON activity_type_catalogs USING gin (sia_unaccent(coalesce(code, '') || ' ' || coalesce(name, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX employee_positions_search_trgm ON employee_positions USING gin (sia_unaccent(coalesce(name, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX holydays_search_trgm ON holydays USING gin (sia_unaccent(coalesce(name, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX project_types_search_trgm ON project_types USING gin (sia_unaccent(coalesce(name, '')) gin_trgm_ops);
