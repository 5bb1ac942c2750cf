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
import pg from "pg";
import type { Database } from "./client";

const dialect = new PgDialect();
let sequence = 0;

export const CURSOR_BATCH = 1000;
/** Rows per FETCH for a CSV download: fewer round trips, still a few MB at most. */
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
 * A query of one text column, each row a CSV line with its CRLF (server/modules/reports/report.ts), read to
 * the end in chunks of about LINE_CHUNK bytes. PostgreSQL: `COPY (query) TO STDOUT` (what `psql \copy`
 * does: parallel workers allowed, the bytes passed on without making a JS value per row, back-pressure by
 * pausing the socket). PGlite: the cursor, each FETCH's texts joined.
 */
export async function* lineBatches(
  database: Pick<Database, "pool" | "pglite">,
  query: SQL | { toSQL(): Compiled },
  batchSize = CSV_BATCH,
): AsyncGenerator<string | Buffer> {
  const { sql: text, params } = compile(query);
  if (database.pool) {
    yield* copyLines(database.pool, text, params);
    return;
  }
  for await (const rows of fetchBatches<[string]>(database, text, params, batchSize, { rowMode: "array" })) {
    yield* chunksOf(rows);
  }
}

/** The lines of one batch (rows of one text column) joined into chunks of about LINE_CHUNK characters. */
function* chunksOf(rows: [string][]): Generator<string> {
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

/** Lines built by one statement on PGlite (lineBatchesInPieces): a few hundred KB, a few milliseconds. */
export const PGLITE_PIECE = 500;

/**
 * lineBatches for a query that can be cut by id. PostgreSQL COPYs `whole`. PGlite runs every statement on
 * the server's one thread, and a cursor WITH HOLD builds its whole result in the statement that declares it
 * (a 20 MB download held everyone for half a second): there the ids are read in order through a cursor
 * (integers, cheap to materialise), and `piece(ids)` builds the lines of PGLITE_PIECE of them at a time,
 * in the same order, each a short statement between other requests' ones. A row changed while its download
 * runs is written as it is when its piece is read (PostgreSQL's COPY writes one snapshot).
 */
export async function* lineBatchesInPieces(
  database: Pick<Database, "pool" | "pglite">,
  whole: SQL | { toSQL(): Compiled },
  ids: SQL | { toSQL(): Compiled },
  piece: (ids: number[]) => SQL | { toSQL(): Compiled },
  batchSize = CSV_BATCH,
): AsyncGenerator<string | Buffer> {
  const pglite = database.pglite;
  if (database.pool || !pglite) {
    yield* lineBatches(database, whole, batchSize);
    return;
  }
  const { sql: text, params } = compile(ids);
  for await (const rows of fetchBatches<[number]>(database, text, params, PGLITE_PIECE, { rowMode: "array" })) {
    const lines = compile(piece(rows.map((row) => Number(row[0]))));
    const { rows: built } = await pglite.query<[string]>(lines.sql, lines.params, { rowMode: "array" });
    yield* chunksOf(built);
  }
}

/**
 * Size of a chunk of lines: below V8's large-object size (128 KiB), so a chunk is young garbage freed by
 * the next scavenge instead of piling up until a full collection.
 */
const LINE_CHUNK = 32 * 1024;

/** A literal for COPY, which takes no bind parameters (values the query builders pass: ids, texts, instants). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  if (typeof value === "string") return pg.escapeLiteral(value);
  throw new Error("lineBatches: parámetro no admitido");
}
/** $1, $2… outside the query's own literals replaced by their values (one pass: values are not rescanned). */
const inlineParams = (text: string, params: unknown[]) =>
  text.replace(/'(?:[^']|'')*'|\$(\d+)/g, (match, index?: string) => (index ? literal(params[Number(index) - 1]) : match));

const BACKSLASH = 0x5c;
const CRLF = Buffer.from("\r\n");
const UNESCAPE: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\" };
/** Bytes of lines queued before the socket is paused (back-pressure down to PostgreSQL). */
const COPY_QUEUE = 1024 * 1024;

/**
 * `COPY (query) TO STDOUT` on a pool connection as a pg "submittable": PostgreSQL sends one CopyData per row
 * (COPY's text format: the line with its CRLF escaped as \r\n, then a newline). Rows are gathered into
 * chunks of about LINE_CHUNK bytes; the socket is paused while COPY_QUEUE bytes wait for the reader.
 */
class CopyLines {
  private chunk = Buffer.allocUnsafe(LINE_CHUNK);
  private used = 0;
  private queue: Buffer[] = [];
  private queued = 0;
  private paused = false;
  private finished = false;
  private failure: unknown = null;
  private wake: (() => void) | null = null;
  private connection: { query(text: string): void; stream: { pause(): void; resume(): void } } | null = null;

  constructor(private readonly text: string) {}

  submit(connection: NonNullable<CopyLines["connection"]>) {
    this.connection = connection;
    connection.query(this.text);
  }

  handleCopyData(message: { chunk: Buffer }) {
    const row = message.chunk;
    const end = row.length - 5;
    // The common row: its only backslashes are the escaped CRLF before COPY's newline.
    if (end >= 0 && row.indexOf(BACKSLASH) === end) {
      this.append(row, end);
      this.append(CRLF, 2);
    } else {
      const text = row.toString("utf8", 0, row.length - 1).replace(/\\(.)/g, (_m, c: string) => UNESCAPE[c] ?? c);
      const bytes = Buffer.from(text, "utf8");
      this.append(bytes, bytes.length);
    }
  }

  private append(bytes: Buffer, length: number) {
    if (this.used + length > this.chunk.length) this.flush();
    if (length > this.chunk.length) {
      this.enqueue(Buffer.from(bytes.subarray(0, length)));
      return;
    }
    bytes.copy(this.chunk, this.used, 0, length);
    this.used += length;
  }

  private flush() {
    if (!this.used) return;
    this.enqueue(Buffer.from(this.chunk.subarray(0, this.used)));
    this.used = 0;
  }

  private enqueue(bytes: Buffer) {
    this.queue.push(bytes);
    this.queued += bytes.length;
    if (this.queued >= COPY_QUEUE && !this.paused) {
      this.paused = true;
      this.connection?.stream.pause();
    }
    this.notify();
  }

  private notify() {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  handleCommandComplete() {
    this.flush();
  }
  handleReadyForQuery() {
    this.flush();
    this.finished = true;
    this.notify();
  }
  handleError(error: unknown) {
    this.failure = error;
    this.finished = true;
    this.notify();
  }
  handleEmptyQuery() {}
  handleRowDescription() {}
  handleDataRow() {}

  /** The chunks, in order; ends when PostgreSQL is ready again, throws its error. */
  async *chunks(): AsyncGenerator<Buffer> {
    for (;;) {
      const next = this.queue.shift();
      if (next) {
        this.queued -= next.length;
        if (this.paused && this.queued < COPY_QUEUE / 2) {
          this.paused = false;
          this.connection?.stream.resume();
        }
        yield next;
        continue;
      }
      if (this.failure) throw this.failure;
      if (this.finished) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}

async function* copyLines(pool: pg.Pool, text: string, params: unknown[]): AsyncGenerator<Buffer> {
  const client = await pool.connect();
  const copy = new CopyLines(`COPY (${inlineParams(text, params)}) TO STDOUT`);
  let done = false;
  try {
    client.query(copy);
    yield* copy.chunks();
    done = true;
  } finally {
    // A reader that stops early: the connection is closed (PostgreSQL stops the COPY), not returned.
    client.release(done ? undefined : new Error("lectura interrumpida"));
  }
}

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
  await pglite.query(`DECLARE ${name} NO SCROLL CURSOR WITH HOLD FOR ${text}`, params);
  try {
    for (;;) {
      const { rows } = await pglite.query(`FETCH ${size} FROM ${name}`, [], options);
      if (rows.length) yield rows as T[];
      if (rows.length < size) break;
    }
  } finally {
    await pglite.query(`CLOSE ${name}`).catch(() => {});
  }
}
