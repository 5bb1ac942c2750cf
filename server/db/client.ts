/**
 * createDb(): the one way the app and the tests open the database. PGlite (embedded PostgreSQL) in a
 * folder when no DATABASE_URL is given, PostgreSQL through `pg` otherwise. Both speak the same SQL and
 * run the same migrations.
 */
import fs from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { SQL } from "drizzle-orm";
import { drizzle as drizzleNodePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { MIGRATIONS_FOLDER } from "../paths";
import { FairTurns } from "./fairTurns";
import * as schema from "./schema";

export { MIGRATIONS_FOLDER };

export type Db = NodePgDatabase<typeof schema>;
/** A database handle or a transaction on it: services take either. */
export type Tx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Called with every statement drizzle sends (tests count queries per request; the benchmark captures them). */
export type QueryListener = (query: string, params: unknown[]) => void;

export interface Database {
  db: Db;
  kind: "pglite" | "pg";
  /** Listeners of the statements drizzle sends (empty in production: one Set lookup per query). */
  queryListeners: Set<QueryListener>;
  /** Rows of a raw SQL statement, on either driver. */
  rows<T = Record<string, unknown>>(query: SQL): Promise<T[]>;
  migrate(): Promise<void>;
  close(): Promise<void>;
  pglite?: PGlite;
  pool?: pg.Pool;
}

/**
 * PGlite (its WebAssembly PostgreSQL, its extensions, drizzle's PGlite driver) is loaded only when the
 * embedded database is opened: a server on PostgreSQL never loads it (start-up time and memory).
 */
async function loadPglite() {
  const [{ PGlite }, { btree_gist }, { pg_trgm }, { unaccent }, { drizzle }, { migrate }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/btree_gist"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("@electric-sql/pglite/contrib/unaccent"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  return { PGlite, extensions: { btree_gist, pg_trgm, unaccent }, drizzle, migrate };
}

export class DataDirLockedError extends Error {}

/** PGlite has no lock between processes: a lock file with our PID refuses a second server. */
function lockDataDir(dir: string): () => void {
  const lockPath = path.join(dir, "sia.lock");
  const tryLock = () => {
    const fd = fs.openSync(lockPath, "wx");
    fs.writeSync(fd, String(process.pid));
    fs.closeSync(fd);
  };
  try {
    tryLock();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const pid = Number(fs.readFileSync(lockPath, "utf8").trim());
    let alive = false;
    if (pid > 0 && pid !== process.pid) {
      try {
        process.kill(pid, 0);
        alive = true;
      } catch (e) {
        alive = (e as NodeJS.ErrnoException).code === "EPERM";
      }
    }
    if (alive) {
      throw new DataDirLockedError(
        `La carpeta de datos ${dir} ya está en uso por otro servidor SIA (PID ${pid}). Deténgalo o use otro DATA_DIR.`,
      );
    }
    fs.rmSync(lockPath, { force: true });
    tryLock();
  }
  return () => fs.rmSync(lockPath, { force: true });
}

/** A drizzle logger that forwards each statement to the database's listeners. */
function listenedLogger() {
  const queryListeners = new Set<QueryListener>();
  const logger = {
    logQuery(query: string, params: unknown[]) {
      for (const listener of queryListeners) listener(query, params);
    },
  };
  return { queryListeners, logger };
}

/**
 * PGlite runs each statement on this thread, one at a time: its query, exec and transaction take fair turns
 * between the requests' owners (./fairTurns.ts) instead of arrival order.
 */
function takeTurns(client: PGlite) {
  const turns = new FairTurns();
  const target = client as unknown as Record<"query" | "exec" | "transaction", (...args: unknown[]) => Promise<unknown>>;
  for (const name of ["query", "exec", "transaction"] as const) {
    const original = target[name].bind(client);
    target[name] = (...args: unknown[]) => turns.run(() => original(...args));
  }
}

async function wrapPglite(client: PGlite, release?: () => void): Promise<Database> {
  const { drizzle, migrate } = await loadPglite();
  takeTurns(client);
  const { queryListeners, logger } = listenedLogger();
  const db = drizzle(client, { schema, logger }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    queryListeners,
    pglite: client,
    async rows(query) {
      const result = (await db.execute(query)) as unknown as { rows: never[] };
      return result.rows;
    },
    migrate: () => migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
    async close() {
      await client.close();
      release?.();
    },
  };
}

export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<Database> {
  let release: (() => void) | undefined;
  let dir: string | undefined;
  if (options.dataDir) {
    fs.mkdirSync(options.dataDir, { recursive: true });
    release = lockDataDir(options.dataDir);
    dir = path.join(options.dataDir, "pglite");
    fs.mkdirSync(dir, { recursive: true });
  }
  try {
    const { PGlite, extensions } = await loadPglite();
    const client = await PGlite.create({ dataDir: dir, loadDataDir: options.loadDataDir, extensions });
    return await wrapPglite(client, release);
  } catch (error) {
    release?.();
    throw error;
  }
}

export async function openPostgres(url: string, max = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max });
  // A dropped connection must not take the process down; the next query gets a fresh one.
  pool.on("error", () => {});
  // A checked-out client (inside a transaction, say) whose connection drops emits 'error' on itself, not
  // on the pool: without a listener Node throws it and the process dies. The query in flight still
  // rejects, and the pool discards the broken client when it is released.
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  const { queryListeners, logger } = listenedLogger();
  const db = drizzleNodePg(pool, { schema, logger });
  return {
    db,
    kind: "pg",
    queryListeners,
    pool,
    async rows(query) {
      const result = await db.execute(query);
      return result.rows as never[];
    },
    migrate: () => migrateNodePg(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => pool.end(),
  };
}

export function createDb(config: { DATABASE_URL?: string; dataDir: string }): Promise<Database> {
  return config.DATABASE_URL ? openPostgres(config.DATABASE_URL) : openPglite({ dataDir: config.dataDir });
}
