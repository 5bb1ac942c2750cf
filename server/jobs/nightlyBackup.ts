/**
 * The nightly backup: once per day (the jobs' zone) a whole archive (server/cli/backups.ts) is written in
 * BACKUP_DIR and only the newest BACKUP_KEEP nightly archives stay. «Respaldar ahora», FORZAR and
 * `npm run backup` against a running embedded server run this same job by hand: their archives are named
 * `…-manual` and kept until someone deletes them.
 *
 * It runs inside the runner's transaction, which on the embedded database holds its one connection's turn
 * (server/db/fairTurns.ts runs transactions whole): PGlite's dumpDataDir waits only for the statement in
 * progress, so taken from here it can never fall between two statements of another request's transaction
 * (a week save half written). Requests wait for the dump and for the files to be packed; the files then
 * match the database (no upload lands between the two). On PostgreSQL pg_dump takes its own snapshot.
 */
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { backupMessages } from "../../src/core/messages";
import { wallClockIn } from "../../src/core/week";
import { archiveName, type DatabaseDump, pgDump, pgliteDump, pruneArchives, writeArchive } from "../cli/backups";
import type { Config } from "../config";
import type { Db } from "../db/client";
import type { JobDefinition } from "./runner";

/** Advisory-lock key of this job ("SIA" backup). */
export const BACKUP_JOB_LOCK_KEY = 7_310_080;

/** The database behind drizzle's handle: PGlite's own instance, or the pool's PostgreSQL. */
function dumpOf(db: Db, config: Config): DatabaseDump {
  const client = (db as unknown as { $client: PGlite | pg.Pool }).$client;
  if ("dumpDataDir" in client) return { kind: "pglite", dump: pgliteDump(client) };
  const url = config.DATABASE_URL ?? client.options.connectionString;
  if (!url) throw new Error("no PostgreSQL connection string to dump");
  return { kind: "pg", dump: pgDump(url) };
}

/** The first line of an error's message (pg_dump's stderr follows on the next ones). */
const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split("\n")[0];

/** Writes one archive in BACKUP_DIR and prunes the oldest; the caller holds the database's turn (above). */
export async function backupIntoFolder(db: Db, config: Config, now = new Date(), manual = false) {
  const name = archiveName(config.backupDir, now, manual);
  const file = path.join(config.backupDir, name);
  const manifest = await writeArchive(file, config, dumpOf(db, config), now);
  const removed = pruneArchives(config.backupDir, config.BACKUP_KEEP);
  return { name, file, manifest, removed };
}

export const nightlyBackupJob: JobDefinition = {
  name: "nightly_backup",
  lockKey: BACKUP_JOB_LOCK_KEY,
  period: (now, schedule) => ({ key: wallClockIn(now, schedule.JOBS_TIMEZONE).date }),
  // Due all day: the first tick of a day writes it; a server down at midnight catches up when it starts.
  due: () => true,
  async run({ db, config, now, trigger }) {
    try {
      const { name, manifest, removed } = await backupIntoFolder(db, config, now, trigger === "manual");
      return {
        count: 1,
        message: backupMessages.jobWritten(name, removed.length),
        file: name,
        entries: manifest.files.length,
        removed,
      };
    } catch (error) {
      // By hand, the failure is answered to whoever asked (a Spanish 503).
      if (trigger === "manual") throw error;
      // By the schedule it is the night's run, recorded with what went wrong: «Correo y tareas» shows it
      // instead of «Nunca», and a full disk does not make the server dump its database again every minute.
      // The next night tries again; «Respaldar ahora» at once.
      console.error(`Respaldo nocturno fallido: ${(error as Error).message}`);
      return { count: 0, message: backupMessages.jobFailed(firstLine(error)), failed: true };
    }
  },
};
