/**
 * cursorBatches(): reads a query's rows in batches through a server-side cursor, so a CSV of a million
 * rows needs no more memory than one of a thousand (docs/decisions/008-csv-streaming.md).
 *
 * - PostgreSQL: a dedicated pool connection, `BEGIN READ ONLY; DECLARE … NO SCROLL CURSOR; FETCH n` until
 *   the end, then COMMIT. Nothing is materialised; other requests keep the rest of the pool.
 * - PGlite has one connection shared by every request and no streaming protocol: a transaction held open
 *   while a slow client downloads would block the whole app. So the cursor is declared `WITH HOLD` in its
 *   own statement (PostgreSQL materialises it in a tuplestore that spills to temporary files beyond
 *   work_mem) and each `FETCH n` is a separate statement, interleaved with other requests' queries.
 *
 * Either way the cursor is closed when the consumer stops early (the stream is destroyed: the generator's
 * finally runs).
 */

import type { SQL } from "drizzle-orm";
import * as drizzle from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Database } from "./client";

const dialect = new PgDialect();
let sequence = 0;

export const CURSOR_BATCH = 1000;
/** Rows per FETCH for a CSV download: fewer round trips, still a few MB at most (issue 10). */
export const CSV_BATCH = 5000;

interface Compiled {
  sql: string;
  params: unknown[];
}

const compile = (query: SQL | { toSQL(): Compiled }): Compiled =>
  "toSQL" in query && typeof query.toSQL === "function" ? query.toSQL() : dialect.sqlToQuery(query as SQL);

export async function* cursorBatches<T = Record<string, unknown>>(
  database: Pick<Database, "pool" | "pglite">,
  query: SQL | { toSQL(): Compiled },
  batchSize = CURSOR_BATCH,
): AsyncGenerator<T[]> {
  const { sql: text, params } = compile(query);
  yield* fetchBatches<T>(database, text, params, batchSize);
}

/**
 * A query of one text column (a CSV line per row, server/modules/reports/report.ts) read through a cursor:
 * the texts of each FETCH joined into chunks of about 32 K characters (the driver's rows as arrays, nothing
 * parsed).
 */
export async function* lineBatches(
  database: Pick<Database, "pool" | "pglite">,
  query: SQL | { toSQL(): Compiled },
  batchSize = CSV_BATCH,
): AsyncGenerator<string> {
  const { sql: text, params } = compile(query);
  for await (const rows of fetchBatches<[string]>(database, text, params, batchSize, { rowMode: "array" })) {
    let chunk = "";
    for (const row of rows) {
      chunk += row[0];
      if (chunk.length >= LINE_CHUNK) {
        yield chunk;
        chunk = "";
      }
    }
    if (chunk) yield chunk;
  }
}
/**
 * Characters per chunk of lines: below V8's large-object size (128 KiB), so a chunk and its Buffer are
 * young garbage freed by the next scavenge instead of piling up until a full collection.
 */
const LINE_CHUNK = 32 * 1024;

/** What drizzle's prepared select holds (internal API, pinned by tests/api/reports.test.ts). */
interface DrizzlePrepared {
  queryString: string;
  params: unknown[];
  fields?: unknown[];
  joinsNotNullableMap?: Record<string, boolean>;
  queryConfig: Record<string, unknown>;
}
type RowMapper = (fields: unknown[], row: unknown[], joins?: Record<string, boolean>) => Record<string, unknown>;
const mapResultRow = (drizzle as unknown as { mapResultRow: RowMapper }).mapResultRow;

/**
 * A drizzle select (columns, computed columns, where, order) read through a cursor, its rows typed exactly
 * as `await select` would give them (dates as strings, timestamps as Date…): the driver's own parsers and
 * drizzle's row mapping.
 */
export async function* selectBatches<T = Record<string, unknown>>(
  database: Pick<Database, "pool" | "pglite">,
  select: object,
  batchSize = CURSOR_BATCH,
): AsyncGenerator<T[]> {
  const prepared = (select as { _prepare(): DrizzlePrepared })._prepare();
  const { fields, joinsNotNullableMap, queryConfig } = prepared;
  const { name: _name, text: _text, ...options } = queryConfig;
  for await (const batch of fetchBatches<unknown[]>(database, prepared.queryString, prepared.params, batchSize, {
    ...options,
    rowMode: "array",
  })) {
    yield batch.map((row) => (fields ? mapResultRow(fields, row, joinsNotNullableMap) : row) as T);
  }
}

async function* fetchBatches<T>(
  database: Pick<Database, "pool" | "pglite">,
  text: string,
  params: unknown[],
  batchSize: number,
  options: Record<string, unknown> = {},
): AsyncGenerator<T[]> {
  const name = `sia_cursor_${++sequence}`;
  const size = Math.max(1, Math.floor(batchSize));
  if (database.pool) {
    const client = await database.pool.connect();
    let done = false;
    try {
      await client.query("BEGIN READ ONLY");
      // Every cursor here is read to its end: plan for the whole result (hash joins and a sort), not for
      // the first rows (nested loops), which the default cursor_tuple_fraction (0.1) favours.
      await client.query("SET LOCAL cursor_tuple_fraction = 1");
      await client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${text}`, params);
      for (;;) {
        const { rows } = await client.query({ ...options, text: `FETCH ${size} FROM ${name}` });
        if (rows.length) yield rows as T[];
        if (rows.length < size) break;
      }
      await client.query("COMMIT");
      done = true;
    } finally {
      if (!done) await client.query("ROLLBACK").catch(() => {});
      client.release();
    }
    return;
  }
  const pglite = database.pglite;
  if (!pglite) throw new Error("cursorBatches: base de datos sin conexión");
  // The same whole-result planning (SET LOCAL would end with its one-statement transaction; only cursors
  // read this setting, and every cursor here is read to its end).
  await pglite.exec("SET cursor_tuple_fraction = 1");
  await pglite.query(`DECLARE ${name} NO SCROLL CURSOR WITH HOLD FOR ${text}`, params as never[]);
  try {
    for (;;) {
      const { rows } = await pglite.query(`FETCH ${size} FROM ${name}`, [], options as never);
      if (rows.length) yield rows as T[];
      if (rows.length < size) break;
    }
  } finally {
    await pglite.query(`CLOSE ${name}`).catch(() => {});
  }
}
