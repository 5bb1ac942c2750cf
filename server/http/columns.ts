/**
 * A resource's sort whitelist, search columns and CSV columns, built from its columns declared in
 * src/core/columns.ts plus what only the server knows (the SQL of each key, the value of each CSV cell).
 * The maps are typed by the declaration, so a key it calls sortable without SQL here, or SQL for a key it
 * does not call sortable, fails the typecheck; the same is checked again when the module loads (start-up),
 * for a map the types cannot see.
 */
import type { SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import {
  type ColumnDecl,
  type ListName,
  listColumns,
  type SearchKey,
  type SortKey,
  searchKeys,
  sortKeys,
} from "../../src/core/columns";
import type { CsvColumn } from "./csv";

function sameKeys(resource: string, what: string, declared: string[], given: string[]) {
  const missing = declared.filter((k) => !given.includes(k));
  const extra = given.filter((k) => !declared.includes(k));
  if (missing.length || extra.length) {
    throw new Error(
      `${resource}: ${what} differs from src/core/columns.ts (missing: ${missing.join(", ") || "none"}; not declared: ${extra.join(", ") || "none"})`,
    );
  }
}

/** The SQL each sortable key orders by: exactly the keys the core calls sortable. */
export function sortableOf<R extends ListName>(
  resource: R,
  expressions: { readonly [K in SortKey<R>]: PgColumn | SQL },
): Record<string, PgColumn | SQL> {
  const map = expressions as Record<string, PgColumn | SQL>;
  sameKeys(resource, "sortable", sortKeys(resource), Object.keys(map));
  return map;
}

/**
 * The search columns, one per searchable key, in the order given here: it must stay the order of the
 * resource's trigram index (server/http/search.ts).
 */
export function searchOf<R extends ListName>(resource: R, columns: { readonly [K in SearchKey<R>]: PgColumn }): PgColumn[] {
  const map = columns as Record<string, PgColumn>;
  sameKeys(resource, "search", searchKeys(resource), Object.keys(map));
  return Object.values(map);
}

/**
 * The CSV columns: the core's headers in its order, each cell the record's field of the same key (the
 * list's record as `present` shapes it, computed columns included).
 */
export function csvOf<R extends ListName>(resource: R): CsvColumn<Record<string, unknown>>[] {
  return (listColumns[resource] as readonly ColumnDecl[]).flatMap((c) =>
    c.csv === undefined ? [] : [{ header: c.csv, value: (row: Record<string, unknown>) => row[c.key] }],
  );
}
