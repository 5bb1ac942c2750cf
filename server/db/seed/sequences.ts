import { sql } from "drizzle-orm";
import type { Db, Tx } from "../client";

/** After inserting explicit ids, move the serial sequence past them so later inserts do not collide. */
export async function resetSequence(db: Db | Tx, table: string) {
  await db.execute(
    sql.raw(`select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 0) + 1, false)`),
  );
}

/** Insert in slices so no statement carries too many parameters. */
export async function insertChunked<T>(rows: T[], size: number, insert: (slice: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}
