import { type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

/**
 * The accent-insensitive search expression over some columns. It must stay exactly the expression of
 * the resource's trigram index in migrations/0002 (coalesce each, joined by ' ', through sia_unaccent),
 * or the index is not used.
 */
export function searchDocument(columns: PgColumn[]): SQL {
  const parts = columns.map((c) => sql`coalesce(${c}, '')`);
  return sql`sia_unaccent(${sql.join(parts, sql` || ' ' || `)})`;
}

export function searchCondition(columns: PgColumn[], term: string): SQL {
  const escaped = term.replace(/[\\%_]/g, (ch) => `\\${ch}`);
  return sql`${searchDocument(columns)} like '%' || sia_unaccent(${escaped}) || '%'`;
}
