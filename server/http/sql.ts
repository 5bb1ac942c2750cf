import { getTableName, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

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
