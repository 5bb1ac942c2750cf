/**
 * The core of `npm run move-to-postgres -- --to postgres://…`: the embedded database of DATA_DIR copied
 * into an empty PostgreSQL database, kept apart from the command line so the tests call it directly.
 *
 * All of it is one transaction on the target: the app's own migrations (so drizzle's migrations table ends
 * where the source's does), every table's rows in foreign-key order, every sequence set to the source's
 * value, then each table's row count and checksum compared with the source's. A difference rolls it all
 * back, so a failed move leaves the target as empty as it found it; so does an interrupted one (a signal,
 * or the process that started it going away: stopOnInterrupt), which never says «Listo». The source is
 * opened the way the server opens it (its lock refuses while a server holds the folder) and only read,
 * after the migrations the next start would run anyway. The files of DATA_DIR (drive/, outbox/, secret.key) stay where they are:
 * the next start uses the same DATA_DIR with DATABASE_URL set to the target.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { moveMessages as m } from "../../src/core/messages";
import { loadConfig } from "../config";
import { type Database, DataDirLockedError, MIGRATIONS_FOLDER, openPglite } from "../db/client";
import { dbErrorReason } from "../db/errors";
import { testPause } from "../http/testPause";
import type { Output } from "./admin";
import { parseCliArgs } from "./args";

/** A refusal or failure told to the person at the terminal: its message only, never a stack trace. */
export class MoveError extends Error {
  constructor(
    message: string,
    /** The command line itself was wrong: the usage line follows the message. */
    readonly showUsage = false,
  ) {
    super(message);
  }
}

/** Rows sent to the target per statement. */
const BATCH_ROWS = 2000;
const MIGRATIONS_TABLE = `"drizzle"."__drizzle_migrations"`;

/**
 * The row text (`t::text`) the checksums hash depends on these settings: both sides use the same ones.
 * ORDER BY the row text in the "C" collation, so the order does not depend on either server's locale.
 */
const SAME_TEXT = [
  "set TimeZone = 'UTC'",
  "set DateStyle = 'ISO, MDY'",
  "set IntervalStyle = 'postgres'",
  "set extra_float_digits = 1",
  "set bytea_output = 'hex'",
];
const checksumSql = (relation: string) =>
  `select count(*)::bigint as n, md5(coalesce(string_agg(t::text, E'\\n' order by t::text collate "C"), '')) as sum from ${relation} t`;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The target as shown on the terminal: its password never printed. */
export function shownUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}

/** A word the shell reads back as it is: in single quotes, each ' inside written '\''. */
export function shellQuoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function targetUrl(to: string | undefined): string {
  if (!to?.trim()) throw new MoveError(m.missingTo, true);
  let url: URL;
  try {
    url = new URL(to.trim());
  } catch {
    throw new MoveError(m.badUrl(to), true);
  }
  if (!["postgres:", "postgresql:"].includes(url.protocol) || !url.hostname) throw new MoveError(m.badUrl(to), true);
  return url.toString();
}

interface SourceTable {
  name: string;
  /** Columns the target accepts on insert (generated ones are computed there). */
  columns: string[];
  /** It references itself: its rows go in one statement, whose foreign keys are checked at its end. */
  selfReferencing: boolean;
}

/** Every table of the app's schema, parents before children (foreign keys), with what the copy needs. */
async function sourceTables(source: PGlite): Promise<SourceTable[]> {
  const tables = (
    await source.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`,
    )
  ).rows.map((r) => r.name);
  const columns = (
    await source.query<{ table: string; column: string }>(
      `select c.relname as table, a.attname as column from pg_attribute a
       join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
       order by c.relname, a.attnum`,
    )
  ).rows;
  const references = (
    await source.query<{ child: string; parent: string }>(
      `select child.relname as child, parent.relname as parent from pg_constraint k
       join pg_class child on child.oid = k.conrelid join pg_class parent on parent.oid = k.confrelid
       join pg_namespace n on n.oid = k.connamespace where k.contype = 'f' and n.nspname = 'public'`,
    )
  ).rows;
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const r of references) if (r.child !== r.parent) parents.get(r.child)?.add(r.parent);
  // Kahn's order; a cycle between tables (none today) would leave its tables for the end, where the
  // deferred check or the failed insert rolls everything back rather than copying half.
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t) && [...(parents.get(t) ?? [])].every((p) => placed.has(p)));
    const next = ready.length ? ready : tables.filter((t) => !placed.has(t));
    for (const t of next) {
      ordered.push(t);
      placed.add(t);
    }
  }
  return ordered.map((name) => ({
    name,
    columns: columns.filter((c) => c.table === name).map((c) => c.column),
    selfReferencing: references.some((r) => r.child === name && r.parent === name),
  }));
}

async function sourceSequences(source: PGlite) {
  const names = (
    await source.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind = 'S' order by 1`,
    )
  ).rows.map((r) => r.name);
  const out: { name: string; last_value: string; is_called: boolean }[] = [];
  for (const name of names) {
    const [row] = (
      await source.query<{ last_value: string; is_called: boolean }>(
        `select last_value::text as last_value, is_called from ${quote(name)}`,
      )
    ).rows;
    out.push({ name, ...row });
  }
  return out;
}

/** Tables of the target that hold rows (drizzle's migrations table aside: a migrated, empty app is empty). */
async function tablesWithRows(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ schema: string; name: string }>(
    `select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'
       and not (n.nspname = 'drizzle' and c.relname = '__drizzle_migrations') order by 1, 2`,
  );
  const full: string[] = [];
  for (const t of rows) {
    const { rows: any } = await client.query(`select 1 from ${quote(t.schema)}.${quote(t.name)} limit 1`);
    if (any.length) full.push(t.schema === "public" ? t.name : `${t.schema}.${t.name}`);
  }
  return full;
}

/**
 * Drizzle's own migrator, run inside our transaction: its session's `transaction` would BEGIN and COMMIT
 * on its own, so it is handed one that runs in the transaction already open.
 */
async function migrateInTransaction(client: pg.Client) {
  const db = drizzle(client);
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  const session = {
    execute: (query: never) => db.execute(query),
    all: async (query: never) => (await db.execute(query)).rows,
    transaction: (work: (tx: unknown) => Promise<unknown>) => work(session),
  };
  await (db as unknown as { dialect: { migrate: (...args: unknown[]) => Promise<void> } }).dialect.migrate(migrations, session, {
    migrationsFolder: MIGRATIONS_FOLDER,
  });
}

/** The move was stopped (a signal, or the terminal that started it went away): nothing was committed. */
export class MoveInterrupted extends MoveError {
  constructor() {
    super(m.interrupted);
  }
}

async function copyTable(source: Transaction, client: pg.Client, table: SourceTable, stop: AbortSignal): Promise<number> {
  const name = quote(table.name);
  const columns = table.columns.map(quote).join(", ");
  await source.query(`declare rows_of_table no scroll cursor for select to_json(t)::text as j from ${name} t`);
  let copied = 0;
  for (;;) {
    const { rows } = await source.query<{ j: string }>(
      table.selfReferencing ? "fetch all from rows_of_table" : `fetch ${BATCH_ROWS} from rows_of_table`,
    );
    if (!rows.length) break;
    await client.query(
      `insert into ${name} (${columns}) overriding system value
       select ${columns} from json_populate_recordset(null::${name}, $1::json)`,
      [`[${rows.map((r) => r.j).join(",")}]`],
    );
    copied += rows.length;
    await testPause("move_copy");
    if (stop.aborted) throw new MoveInterrupted();
    if (table.selfReferencing) break;
  }
  await source.query("close rows_of_table");
  return copied;
}

export interface TableCheck {
  table: string;
  sourceRows: number;
  targetRows: number;
  sourceSum: string;
  targetSum: string;
}

export interface MoveResult {
  dataDir: string;
  target: string;
  tables: TableCheck[];
  /** Tables copied (the checks also cover drizzle's migrations and the sequences). */
  copiedTables: number;
  rows: number;
  sequences: number;
  sessions: number;
  ms: number;
}

async function openSource(dataDir: string): Promise<Database> {
  if (!fs.existsSync(path.join(dataDir, "pglite", "PG_VERSION"))) throw new MoveError(m.noSource(dataDir));
  try {
    return await openPglite({ dataDir });
  } catch (error) {
    if (error instanceof DataDirLockedError) throw new MoveError(m.serverRunning(dataDir));
    throw error;
  }
}

async function connectTarget(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  // A connection dropped mid-copy fails the query in flight; without a listener it would end the process.
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new MoveError(m.unreachable(shownUrl(url), dbErrorReason(error)));
  }
  return client;
}

export async function moveToPostgres(
  to: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  onProgress: (line: string) => void = () => {},
  /** Aborted: the transaction is rolled back and MoveInterrupted thrown, unless COMMIT was already sent. */
  stop: AbortSignal = new AbortController().signal,
): Promise<MoveResult> {
  const url = targetUrl(to);
  if (env.DATABASE_URL?.trim()) throw new MoveError(m.databaseUrlSet);
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (error) {
    throw new MoveError(m.badConfig((error as Error).message));
  }
  const started = performance.now();
  // The target's refusals first: they cost no opening of the embedded database.
  const client = await connectTarget(url);
  // An abort closes the connection at once: the query in flight fails and PostgreSQL rolls the open
  // transaction back, however long that query would have taken. Once COMMIT is sent it is left alone:
  // the move is then done, and saying it was undone would be the lie.
  let committing = false;
  const hangUp = () => {
    if (!committing) client.end().catch(() => {});
  };
  stop.addEventListener("abort", hangUp, { once: true });
  try {
    if (stop.aborted) throw new MoveInterrupted();
    const full = await tablesWithRows(client);
    if (full.length) throw new MoveError(m.notEmpty(shownUrl(url), full.slice(0, 8)));
    const source = await openSource(config.dataDir);
    try {
      onProgress(m.opening(config.dataDir, shownUrl(url)));
      // What the next start would do: the source at the code's migrations, as the target will be.
      await source.migrate();
      if (stop.aborted) throw new MoveInterrupted();
      const pglite = source.pglite as PGlite;
      for (const statement of SAME_TEXT) await pglite.query(statement);
      const tables = await sourceTables(pglite);
      const sequences = await sourceSequences(pglite);

      await client.query("begin");
      try {
        for (const statement of SAME_TEXT) await client.query(statement.replace(/^set /, "set local "));
        await migrateInTransaction(client);
        const { rows: present } = await client.query<{ name: string }>(
          `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'public' and c.relkind in ('r', 'p')`,
        );
        const missing = tables.map((t) => t.name).filter((t) => !present.some((p) => p.name === t));
        if (missing.length) throw new MoveError(m.tablesDiffer(missing));
        // Deferrable constraints (the activities' no-overlap) are checked once, at the end of the copy.
        await client.query("set constraints all deferred");

        await pglite.transaction(async (tx) => {
          for (const table of tables) await copyTable(tx, client, table, stop);
        });
        for (const s of sequences) {
          await client.query("select setval($1::regclass, $2::bigint, $3)", [quote(s.name), s.last_value, s.is_called]);
        }
        await client.query("set constraints all immediate");

        const checks: TableCheck[] = [];
        const relations = [...tables.map((t) => ({ label: t.name, sql: quote(t.name) }))];
        relations.push({ label: "drizzle.__drizzle_migrations", sql: `(select hash, created_at from ${MIGRATIONS_TABLE})` });
        // The sequences as one line: each one's name, value and whether it was used, in the same order.
        relations.push({
          label: m.sequencesLabel,
          sql: `(${sequences.length ? sequences.map((s) => `select ${literal(s.name)} as name, last_value, is_called from ${quote(s.name)}`).join(" union all ") : "select 1 where false"})`,
        });
        for (const relation of relations) {
          const [a] = (await pglite.query<{ n: string; sum: string }>(checksumSql(relation.sql))).rows;
          const [b] = (await client.query<{ n: string; sum: string }>(checksumSql(relation.sql))).rows;
          checks.push({
            table: relation.label,
            sourceRows: Number(a.n),
            targetRows: Number(b.n),
            sourceSum: a.sum,
            targetSum: b.sum,
          });
        }
        const bad = checks.filter((c) => c.sourceRows !== c.targetRows || c.sourceSum !== c.targetSum);
        if (bad.length) {
          onProgress(checkTable(checks));
          throw new MoveError(m.mismatch(bad.map((c) => c.table)));
        }
        if (stop.aborted) throw new MoveInterrupted();
        committing = true;
        await client.query("commit");
        const copied = checks.filter((c) => tables.some((t) => t.name === c.table));
        return {
          dataDir: config.dataDir,
          target: shownUrl(url),
          tables: checks,
          copiedTables: copied.length,
          rows: copied.reduce((n, c) => n + c.targetRows, 0),
          sequences: sequences.length,
          sessions: copied.find((c) => c.table === "sessions")?.targetRows ?? 0,
          ms: performance.now() - started,
        };
      } catch (error) {
        await client.query("rollback").catch(() => {});
        // Whatever failed after the abort (the closed connection's query, most likely) is the abort.
        if (stop.aborted && !committing) throw new MoveInterrupted();
        if (error instanceof MoveError) throw error;
        throw new MoveError(m.failed(dbErrorReason(error)));
      }
    } finally {
      await source.close();
    }
  } catch (error) {
    if (stop.aborted && !committing && !(error instanceof MoveError)) throw new MoveInterrupted();
    throw error;
  } finally {
    stop.removeEventListener("abort", hangUp);
    await client.end().catch(() => {});
  }
}

/** The comparison, one line per table: what the person at the terminal reads before trusting the target. */
export function checkTable(checks: TableCheck[]): string {
  const rows = checks.map((c) => {
    const same = c.sourceRows === c.targetRows && c.sourceSum === c.targetSum;
    return [
      c.table,
      String(c.sourceRows),
      String(c.targetRows),
      same ? c.targetSum : `${c.sourceSum} ≠ ${c.targetSum}`,
      same ? m.rowOk : m.rowBad,
    ];
  });
  const all = [[...m.header], ...rows];
  const widths = all[0].map((_, i) => Math.max(...all.map((r) => r[i].length)));
  return all
    .map((r) =>
      r
        .map((cell, i) => (i === 1 || i === 2 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

const consoleOutput: Output = { out: (l) => console.log(l), err: (l) => console.error(l) };

/** The exit code of an interrupted move: the shell's 128 + the signal's number (SIGTERM 143, SIGINT 130). */
function interruptedCode(stop: AbortSignal): number {
  const signal = typeof stop.reason === "string" ? os.constants.signals[stop.reason as NodeJS.Signals] : undefined;
  // The parent gone: as if its terminal had hung up.
  return 128 + (signal ?? os.constants.signals.SIGHUP);
}

/**
 * The signal the command line's move stops on: SIGINT or SIGTERM (its reason is the signal's name), or
 * the process that started it going away. `npm run` and a killed parent do not always pass the signal on,
 * and a move that went on alone would commit while the person at the terminal believes it stopped (a
 * retry then finds the target full): so the parent is watched too — a parent that ends hands its children
 * to another process, and process.ppid changes. (So `nohup` does not keep a move going past its shell.)
 */
export function stopOnInterrupt(): AbortSignal {
  const controller = new AbortController();
  // Not SIGHUP: its default already ends the process (PostgreSQL rolls back the dropped connection), and
  // a handler would undo nohup's, stopping a move meant to outlive its terminal.
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM"];
  const stopBy = (signal: NodeJS.Signals) => {
    controller.abort(signal);
    // A second one ends the process at once (the server rolls back a connection that drops).
    for (const s of signals) process.removeListener(s, stopBy);
  };
  for (const s of signals) process.once(s, stopBy);
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(watch);
      controller.abort("parent");
    }
  }, 250);
  watch.unref();
  return controller.signal;
}

/** The whole command: returns the process exit code (0 moved, 1 refused or failed, the target untouched). */
export async function runMoveToPostgres(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Output = consoleOutput,
  stop?: AbortSignal,
): Promise<number> {
  let to: string | undefined;
  try {
    to = parseCliArgs(argv, { to: { type: "string" } }).to;
  } catch (error) {
    io.err((error as Error).message);
    io.err(m.usage);
    return 1;
  }
  try {
    const result = await moveToPostgres(to, env, (line) => io.out(line), stop);
    io.out(checkTable(result.tables));
    io.out(m.done(result.copiedTables, result.rows, result.sequences, (result.ms / 1000).toFixed(1)));
    io.out(m.sessionsKept(result.sessions));
    // Quoted to be pasted as it is; the password stays hidden (the line above says to write it in).
    const command = `DATA_DIR=${shellQuoted(result.dataDir)} DATABASE_URL=${shellQuoted(result.target)} npm start`;
    io.out(m.nextStart(result.dataDir, command, new URL(result.target).password !== ""));
    return 0;
  } catch (error) {
    io.err(error instanceof MoveError ? error.message : m.failed(dbErrorReason(error)));
    if (error instanceof MoveInterrupted && stop) return interruptedCode(stop);
    if (error instanceof MoveError && error.showUsage) io.err(m.usage);
    return 1;
  }
}
