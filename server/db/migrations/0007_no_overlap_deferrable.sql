-- The week save applies deletions, updates and creates together: swapping two activities' times moves
-- one row onto the other's old place before the other leaves it. Checked row by row (NOT DEFERRABLE) the
-- exclusion constraint refuses that transient state; DEFERRABLE (initially immediate) checks it at the
-- end of each statement, and the batch defers it to the commit. ALTER CONSTRAINT cannot change an
-- exclusion constraint, so it is dropped and added again (the existing rows are checked once more).
ALTER TABLE activities DROP CONSTRAINT activities_no_overlap;
--> statement-breakpoint
ALTER TABLE activities ADD CONSTRAINT activities_no_overlap
  EXCLUDE USING gist (employee_id WITH =, tstzrange(begins_at, ends_at, '[)') WITH &&)
  DEFERRABLE INITIALLY IMMEDIATE;
