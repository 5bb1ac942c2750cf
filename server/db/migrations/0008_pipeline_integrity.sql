-- Records that went wrong before these rules (issue 19) are brought in line so the indexes can be made:
-- a folder shared by several records stays with the oldest one (the others get none, and «Revisar drive»
-- makes theirs); a folio used twice keeps it on the oldest invoice and the others are marked
-- «(duplicado N)» for finance to correct; a won prospect is linked to the first client it made.
UPDATE "clients" SET "drive_root_id" = NULL, "drive_root_url" = NULL WHERE "id" IN (
  SELECT "id" FROM (SELECT "id", row_number() OVER (PARTITION BY "drive_root_id" ORDER BY "id") AS n
    FROM "clients" WHERE "drive_root_id" <> '') d WHERE n > 1);--> statement-breakpoint
UPDATE "prospects" SET "drive_root_id" = NULL, "drive_root_url" = NULL WHERE "id" IN (
  SELECT "id" FROM (SELECT "id", row_number() OVER (PARTITION BY "drive_root_id" ORDER BY "id") AS n
    FROM "prospects" WHERE "drive_root_id" <> '') d WHERE n > 1);--> statement-breakpoint
UPDATE "projects" SET "drive_root_id" = NULL, "drive_root_url" = NULL WHERE "id" IN (
  SELECT "id" FROM (SELECT "id", row_number() OVER (PARTITION BY "drive_root_id" ORDER BY "id") AS n
    FROM "projects" WHERE "drive_root_id" <> '') d WHERE n > 1);--> statement-breakpoint
UPDATE "invoices" i SET "folio" = left(btrim(i."folio"), 40) || ' (duplicado ' || d.n || ')' FROM (
  SELECT "id", row_number() OVER (PARTITION BY upper(btrim("folio")) ORDER BY "id") AS n
    FROM "invoices" WHERE btrim("folio") <> '') d WHERE i."id" = d."id" AND d.n > 1;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "prospect_id" integer;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_prospect_id_prospects_id_fk" FOREIGN KEY ("prospect_id") REFERENCES "public"."prospects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "clients_prospect_unique" ON "clients" USING btree ("prospect_id");--> statement-breakpoint
CREATE UNIQUE INDEX "clients_drive_root_unique" ON "clients" USING btree ("drive_root_id") WHERE "clients"."drive_root_id" <> '';--> statement-breakpoint
CREATE UNIQUE INDEX "prospects_drive_root_unique" ON "prospects" USING btree ("drive_root_id") WHERE "prospects"."drive_root_id" <> '';--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_folio_unique" ON "invoices" USING btree (upper(btrim("folio"))) WHERE btrim("invoices"."folio") <> '';--> statement-breakpoint
CREATE UNIQUE INDEX "projects_drive_root_unique" ON "projects" USING btree ("drive_root_id") WHERE "projects"."drive_root_id" <> '';--> statement-breakpoint
UPDATE "clients" c SET "prospect_id" = w."prospect_id" FROM (
  SELECT DISTINCT ON (q."prospect_id") q."prospect_id", q."client_id" FROM "quotations" q
    WHERE q."state" = 'finalizada' AND q."prospect_id" IS NOT NULL AND q."client_id" IS NOT NULL
    ORDER BY q."prospect_id", q."client_id") w
  WHERE c."id" = w."client_id" AND NOT EXISTS (SELECT 1 FROM "clients" o WHERE o."prospect_id" = w."prospect_id");
