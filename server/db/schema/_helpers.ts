import { getTableName, is, sql } from "drizzle-orm";
import { integer, PgTable, timestamp } from "drizzle-orm/pg-core";

/**
 * created_at / updated_at, shared by every table that keeps them, and lock_version: the record's version,
 * bumped by every update through the resource machinery, which writes only when the version the client
 * read is still current (docs/decisions/023-versions-lost-updates.md).
 */
export const timestamps = {
  // Any other update (a transition, a stage, a toggle) moves it too, so a form opened before it is stale.
  lock_version: integer("lock_version")
    .notNull()
    .default(0)
    // drizzle would run $onUpdate on insert too when the default is falsy (0): the insert says 0 itself.
    .$defaultFn(() => 0)
    .$onUpdate(() => sql`${sql.identifier("lock_version")} + 1`),
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

/**
 * The version bump names its table ("clients"."lock_version" + 1): unqualified, PostgreSQL refuses it as
 * ambiguous in an upsert's ON CONFLICT DO UPDATE (the table's column or the EXCLUDED row's). The column
 * builder cannot know its table, so server/db/schema/index.ts calls this once over every table.
 */
export function qualifyVersionBumps(tables: Record<string, unknown>) {
  for (const table of Object.values(tables)) {
    if (!is(table, PgTable)) continue;
    const column = (table as unknown as Record<string, { onUpdateFn?: unknown } | undefined>).lock_version;
    if (!column) continue;
    const bump = sql`${sql.identifier(getTableName(table))}.${sql.identifier("lock_version")} + 1`;
    (column as { onUpdateFn: () => unknown }).onUpdateFn = () => bump;
  }
}
