import { integer, timestamp } from "drizzle-orm/pg-core";

/**
 * created_at / updated_at, shared by every table that keeps them, and lock_version: the record's version,
 * bumped by every update through the resource machinery, which writes only when the version the client
 * read is still current (docs/decisions/0xx-versions-lost-updates.md).
 */
export const timestamps = {
  lock_version: integer("lock_version").notNull().default(0),
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};
