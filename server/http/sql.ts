import { getTableName, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { CENTIHOUR_MS } from "../../src/core/hours";

/**
 * A column written with its table name ("employees"."id"). Drizzle leaves columns unqualified in a
 * single-table select, so inside a correlated subquery `${outer.id}` would silently resolve to the
 * subquery's own table: every reference to the OUTER row of a computed column goes through this.
 */
export const outer = (column: PgColumn): SQL => sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
/**
 * A text column as a person alphabetises it, for ORDER BY: without case or accents (sia_unaccent, migration
 * 0000), so «banca» and «Ávila» sort among their letters instead of after every capital or after «Z».
 */
export const alphabetical = (column: PgColumn): SQL => sql`sia_unaccent(${column})`;

/**
 * Whole hundredths of an hour between two instants: the product's hours rule (src/core/hours.ts) in SQL, for
 * every aggregate that must equal the report CSV (dashboards, capacity, the reminder, the budget alerts).
 */
export const centihours = (begins: SQL | PgColumn, ends: SQL | PgColumn): SQL =>
  sql`round(extract(epoch from (${ends} - ${begins})) * 1000 / ${sql.raw(String(CENTIHOUR_MS))})`;
