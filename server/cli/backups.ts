/**
 * Whole backups: one .tar.gz holds the database, DATA_DIR's drive/, outbox/ and secret.key, and a
 * manifest.json (SIA's version, date, database kind, every entry with its size and sha256). Without
 * secret.key the users' stored calendar tokens cannot be read, and without drive/ the records point at
 * missing files: a database alone was not a backup one could start again from.
 *   PostgreSQL (DATABASE_URL set): the database is `pg_dump -Fc` (a consistent snapshot, server up or
 *   not); restored with `pg_restore --clean --if-exists --single-transaction` (all or nothing), refused
 *   while anything else (a running server) is connected to the database.
 *   Embedded (PGlite in DATA_DIR): PGlite's dumpDataDir tarball. PGlite is one process at a time, so a
 *   running server writes the archive itself (server/jobs/nightlyBackup.ts) and `npm run backup` asks it
 *   through the local endpoint; restoring loads the tarball into a new folder and swaps it in, the old
 *   one kept until the new one opens. Restoring refuses while a server holds the data folder.
 * Restore checks every entry against the manifest and stages the files before touching anything; the
 * files replace the current ones only after the database was restored, and the old ones come back if
 * that fails. Database-only archives of earlier versions (.dump, PGlite .tar.gz) still restore.
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { APP_VERSION } from "../../src/core/constants";
import { backupMessages } from "../../src/core/messages";
import { ALL_SESSIONS, SESSIONS_CHANNEL } from "../auth/sessionCache";
import { type Config, loadConfig } from "../config";
import { DataDirLockedError, openPglite } from "../db/client";
import { ArgsError, parseCliArgs } from "./args";
import { askServerBackup } from "./localEndpoint";
import { readTarGz, TarFormatError, TarGzWriter } from "./tarball";

export class BackupError extends Error {}

export const MANIFEST = "manifest.json";
export const ARCHIVE_FORMAT = "sia-respaldo";
/** DATA_DIR's files a backup carries besides the database: folders, then single files. */
const FOLDERS = ["drive", "outbox"] as const;
const FILES = ["secret.key"] as const;
const DB_ENTRY = { pg: "database.dump", pglite: "database.tar.gz" } as const;
/**
 * The archives SIA writes in BACKUP_DIR (the only names listed, downloaded and pruned): the time, a counter
 * when two fall in the same second, and `-manual` for one asked by hand, which pruning leaves alone.
 */
export const ARCHIVE_NAME = /^sia-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})(?:-(\d+))?(-manual)?\.tar\.gz$/;

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  format_version: 1;
  sia_version: string;
  created_at: string;
  database: "postgresql" | "pglite";
  files: Array<{ path: string; size: number; sha256: string }>;
  /**
   * Every folder of drive/ and outbox/ (those two included), parents first, with its permission bits: the
   * drive's client and project folders are mostly empty, and a folder is not implied by any file. Absent
   * in archives of earlier versions.
   */
  folders?: Array<{ path: string; mode: number }>;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === "ENOENT"
            ? `No se encontró ${command}: instale las herramientas cliente de PostgreSQL (paquete postgresql-client).`
            : `${command} no pudo ejecutarse: ${error.message}`,
        ),
      ),
    );
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${command} terminó con error (${code}):\n${stderr.trim()}`)),
    );
  });
}

async function openEmbedded(dataDir: string, what: string, loadDataDir?: Blob) {
  try {
    return await openPglite({ dataDir, loadDataDir });
  } catch (error) {
    if (error instanceof DataDirLockedError) throw new BackupError(backupMessages.inUse(dataDir, what));
    throw error;
  }
}

/** Writes the database's dump into a file. */
export type DumpDatabase = (file: string) => Promise<void>;
/** Which database a dump is of, and how it is written. */
export interface DatabaseDump {
  kind: "pg" | "pglite";
  dump: DumpDatabase;
}

export const pgDump =
  (url: string): DumpDatabase =>
  (file) =>
    run("pg_dump", ["--format=custom", "--no-owner", `--file=${file}`, `--dbname=${url}`]);

/**
 * PGlite's files as a gzipped tarball. dumpDataDir waits only for the statement running, not for a
 * transaction: the caller must hold the database's turn (server/db/fairTurns.ts), so that no other
 * transaction is half done while the files are read.
 */
export const pgliteDump =
  (client: PGlite): DumpDatabase =>
  async (file) => {
    const dump = (await client.dumpDataDir("gzip")) as Blob;
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  };

/** A folder's tree, the folder first and each folder before what it holds (symbolic links are skipped). */
function entriesUnder(root: string, prefix: string): Array<{ name: string; file: string; folder: boolean }> {
  if (!fs.lstatSync(root, { throwIfNoEntry: false })?.isDirectory()) return [];
  const out = [{ name: prefix, file: root, folder: true }];
  for (const entry of fs.readdirSync(root, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const file = path.join(root, entry.name);
    if (entry.isDirectory()) out.push(...entriesUnder(file, `${prefix}/${entry.name}`));
    else if (entry.isFile()) out.push({ name: `${prefix}/${entry.name}`, file, folder: false });
  }
  return out;
}

const stamp = (now: Date) => now.toISOString().replace(/[:.]/g, "-").slice(0, 19);

/** A new archive's name in `dir` (never an existing one: two backups in the same second both stay). */
export function archiveName(dir: string, now = new Date(), manual = false) {
  const end = manual ? "-manual.tar.gz" : ".tar.gz";
  let name = `sia-${stamp(now)}${end}`;
  for (let i = 1; fs.existsSync(path.join(dir, name)); i++) name = `sia-${stamp(now)}-${i}${end}`;
  return name;
}

/** Newest first by the time in the name, then by its counter (`…-1` was written after `…`). */
function newestFirst(a: string, b: string) {
  const [, stampA = "", countA = "0"] = ARCHIVE_NAME.exec(a) ?? [];
  const [, stampB = "", countB = "0"] = ARCHIVE_NAME.exec(b) ?? [];
  if (stampA !== stampB) return stampA < stampB ? 1 : -1;
  return Number(countB) - Number(countA) || (a < b ? 1 : a > b ? -1 : 0);
}

/** Writes the whole archive at `target` (through a .parcial file: a crash never leaves half an archive). */
export async function writeArchive(
  target: string,
  config: Pick<Config, "dataDir">,
  { kind, dump }: DatabaseDump,
  now = new Date(),
): Promise<Manifest> {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const work = fs.mkdtempSync(path.join(path.dirname(target), ".sia-respaldo-"));
  const partial = `${target}.parcial`;
  try {
    const dbFile = path.join(work, DB_ENTRY[kind]);
    await dump(dbFile);
    const writer = new TarGzWriter(partial);
    try {
      await writer.addFile(DB_ENTRY[kind], dbFile);
      const folders: NonNullable<Manifest["folders"]> = [];
      for (const root of FOLDERS)
        for (const { name, file, folder } of entriesUnder(path.join(config.dataDir, root), root)) {
          if (!folder) await writer.addFile(name, file);
          else {
            await writer.addFolder(name, file);
            folders.push({ path: name, mode: fs.statSync(file).mode & 0o7777 });
          }
        }
      for (const name of FILES) {
        const file = path.join(config.dataDir, name);
        if (fs.existsSync(file)) await writer.addFile(name, file);
      }
      const manifest: Manifest = {
        format: ARCHIVE_FORMAT,
        format_version: 1,
        sia_version: APP_VERSION,
        created_at: now.toISOString(),
        database: kind === "pg" ? "postgresql" : "pglite",
        files: [...writer.entries],
        folders,
      };
      await writer.addBuffer(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2)));
      await writer.close();
      fs.renameSync(partial, target);
      return manifest;
    } catch (error) {
      await writer.close().catch(() => {});
      throw error;
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(partial, { force: true });
  }
}

/**
 * A regular file of BACKUP_DIR by an archive's name, or undefined. lstat, not stat: a symbolic link named
 * like an archive would hand out what it points to (secret.key), and a folder so named cannot be read or
 * deleted as a file; neither is SIA's.
 */
export function archiveFile(dir: string, name: string) {
  if (!ARCHIVE_NAME.test(name)) return undefined;
  const stat = fs.lstatSync(path.join(dir, name), { throwIfNoEntry: false });
  return stat?.isFile() ? stat : undefined;
}

/** BACKUP_DIR's archives (regular files only), newest first. */
export function listArchives(dir: string) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .flatMap((name) => {
      const stat = archiveFile(dir, name);
      const manual = Boolean(ARCHIVE_NAME.exec(name)?.[3]);
      return stat ? [{ name, size: stat.size, created_at: stat.mtime.toISOString(), manual }] : [];
    })
    .sort((a, b) => newestFirst(a.name, b.name));
}

/**
 * Deletes all but the newest `keep` nightly archives of `dir`; answers the names deleted. Archives made by
 * hand stay until someone deletes them: a few presses of «Respaldar ahora» must not push out the nights.
 */
export function pruneArchives(dir: string, keep: number): string[] {
  const old = listArchives(dir)
    .filter((a) => !a.manual)
    .slice(keep);
  for (const { name } of old) fs.rmSync(path.join(dir, name), { force: true });
  return old.map((a) => a.name);
}

/**
 * `npm run backup`: PostgreSQL dumps from here; the embedded database from here when no server holds the
 * folder, or else through the running server, which writes it in BACKUP_DIR and is copied to `outFile`.
 */
export async function backup(
  outFile: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ file: string; viaServer: boolean }> {
  const config = loadConfig(env);
  // Into BACKUP_DIR it is an archive by hand like «Respaldar ahora»'s: named so, never pruned.
  const target = path.resolve(outFile ?? path.join(config.backupDir, archiveName(config.backupDir, new Date(), true)));
  if (config.DATABASE_URL) {
    await writeArchive(target, config, { kind: "pg", dump: pgDump(config.DATABASE_URL) });
    return { file: target, viaServer: false };
  }
  if (!fs.existsSync(path.join(config.dataDir, "pglite", "PG_VERSION")))
    throw new BackupError(backupMessages.noEmbedded(config.dataDir));
  let database: Awaited<ReturnType<typeof openPglite>>;
  try {
    database = await openPglite({ dataDir: config.dataDir });
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const answer = await askServerBackup(config);
    if (!answer) throw new BackupError(backupMessages.serverUnreachable(config.dataDir));
    if (!answer.ok) throw new BackupError(backupMessages.serverRefused(answer.reason));
    // Without --out the server's archive in BACKUP_DIR is the one asked for: no second copy beside it.
    if (!outFile) return { file: answer.file, viaServer: true };
    if (path.resolve(answer.file) !== target) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(answer.file, `${target}.parcial`);
      fs.renameSync(`${target}.parcial`, target);
      // The server runs on this machine with the same folders: asked for --out, the archive is only there.
      fs.rmSync(answer.file, { force: true });
    }
    return { file: target, viaServer: true };
  }
  try {
    await writeArchive(target, config, { kind: "pglite", dump: pgliteDump(database.pglite as PGlite) });
  } finally {
    await database.close();
  }
  return { file: target, viaServer: false };
}

/** Entries a manifest may name: the database, and files under DATA_DIR's own folders (never outside). */
function allowedEntry(name: string) {
  if (name.split("/").some((part) => part === "" || part === "." || part === "..")) return false;
  return (
    Object.values(DB_ENTRY).includes(name as never) ||
    FILES.includes(name as never) ||
    FOLDERS.some((folder) => name.startsWith(`${folder}/`))
  );
}

/** Folders a manifest may name: drive/ and outbox/ and what is under them. */
function allowedFolder(name: string) {
  if (name.split("/").some((part) => part === "" || part === "." || part === "..")) return false;
  return FOLDERS.some((folder) => name === folder || name.startsWith(`${folder}/`));
}

/** Reads and checks the archive: its manifest, and every entry against its size and sha256. */
function readArchive(source: string, data: Buffer): { manifest: Manifest; entries: Map<string, Buffer> } | null {
  let entries: Map<string, Buffer>;
  try {
    entries = readTarGz(data);
  } catch (error) {
    if (error instanceof TarFormatError) throw new BackupError(backupMessages.damaged(source, error.message));
    throw error;
  }
  const raw = entries.get(MANIFEST);
  if (!raw) return null;
  let manifest: Manifest;
  try {
    manifest = JSON.parse(raw.toString("utf8")) as Manifest;
  } catch {
    throw new BackupError(backupMessages.badManifest(source));
  }
  if (
    manifest.format !== ARCHIVE_FORMAT ||
    !Array.isArray(manifest.files) ||
    !manifest.files.every((f) => allowedEntry(f.path)) ||
    !(manifest.folders ?? []).every((f) => allowedFolder(f.path) && Number.isInteger(f.mode) && f.mode >= 0 && f.mode <= 0o7777)
  )
    throw new BackupError(backupMessages.badManifest(source));
  for (const file of manifest.files) {
    const body = entries.get(file.path);
    if (!body || body.length !== file.size || createHash("sha256").update(body).digest("hex") !== file.sha256)
      throw new BackupError(backupMessages.badChecksum(source, file.path));
  }
  return { manifest, entries };
}

async function restorePostgres(url: string, dumpFile: string) {
  await run("pg_restore", [
    "--clean",
    "--if-exists",
    "--no-owner",
    "--single-transaction",
    "--exit-on-error",
    `--dbname=${url}`,
    dumpFile,
  ]);
  // Running servers forget every session they remembered: the restored tables are another time's.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("select pg_notify($1, $2)", [SESSIONS_CHANNEL, ALL_SESSIONS]);
  } finally {
    await client.end();
  }
}

/**
 * Loads a PGlite tarball into a new database folder; the old folder is kept (as `previous`) until the
 * caller is done, and is put back if the new one does not open. Answers how to undo and how to finish.
 */
async function restorePglite(dataDir: string, source: string, tarball: Buffer) {
  const current = path.join(dataDir, "pglite");
  const previous = path.join(dataDir, "pglite.antes-de-restaurar");
  fs.rmSync(previous, { recursive: true, force: true });
  if (fs.existsSync(current)) fs.renameSync(current, previous);
  const undo = () => {
    fs.rmSync(current, { recursive: true, force: true });
    if (fs.existsSync(previous)) fs.renameSync(previous, current);
  };
  try {
    const database = await openEmbedded(dataDir, "restaurar", new Blob([new Uint8Array(tarball)]));
    // A query proves the restored folder opens.
    await database.pglite?.query("select 1");
    await database.close();
  } catch (error) {
    undo();
    if (error instanceof BackupError) throw error;
    throw new BackupError(backupMessages.notLoaded(source, (error as Error).message));
  }
  return { undo, finish: () => fs.rmSync(previous, { recursive: true, force: true }) };
}

/** Puts the staged files in place of DATA_DIR's; answers how to undo and how to finish. */
function swapFiles(dataDir: string, staged: string) {
  const moved: Array<{ live: string; aside: string; placed: boolean }> = [];
  const undo = () => {
    for (const { live, aside, placed } of moved.reverse()) {
      if (placed) fs.rmSync(live, { recursive: true, force: true });
      if (fs.existsSync(aside)) fs.renameSync(aside, live);
    }
  };
  try {
    for (const name of [...FOLDERS, ...FILES]) {
      const live = path.join(dataDir, name);
      const aside = path.join(dataDir, `${name}.antes-de-restaurar`);
      fs.rmSync(aside, { recursive: true, force: true });
      const step = { live, aside, placed: false };
      moved.push(step);
      if (fs.existsSync(live)) fs.renameSync(live, aside);
      const fresh = path.join(staged, name);
      if (fs.existsSync(fresh)) {
        fs.renameSync(fresh, live);
        step.placed = true;
      }
    }
  } catch (error) {
    undo();
    throw new BackupError(backupMessages.filesNotPlaced((error as Error).message));
  }
  return () => {
    for (const { aside } of moved) fs.rmSync(aside, { recursive: true, force: true });
  };
}

/**
 * Other connections to the database being restored, after a short wait for ones just closed to end. A
 * running server's would go on writing beside pg_restore's (and hold sessions of another time).
 */
async function otherConnections(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let waited = 0; ; waited += 100) {
      const { rows } = await client.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      );
      if (rows[0].n === 0 || waited >= 3000) return rows[0].n;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
}

export async function restore(inFile: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = loadConfig(env);
  const source = path.resolve(inFile);
  if (!fs.existsSync(source)) throw new BackupError(backupMessages.missingFile(source));
  const data = fs.readFileSync(source);
  const kind = config.DATABASE_URL ? "pg" : "pglite";
  // An embedded restore takes the folder's lock first: it refuses while a server runs, before any work.
  if (kind === "pglite") await (await openEmbedded(config.dataDir, "restaurar")).close();
  // PostgreSQL has no such lock: a restore refuses while anything else is connected to the database.
  else {
    const others = await otherConnections(config.DATABASE_URL as string);
    if (others > 0) throw new BackupError(backupMessages.pgInUse(others));
  }

  // Database-only archives of earlier versions: a pg_dump custom file, or PGlite's own tarball.
  if (data.subarray(0, 5).toString("latin1") === "PGDMP") {
    if (kind !== "pg") throw new BackupError(backupMessages.otherKind(source, "postgresql"));
    return restorePostgres(config.DATABASE_URL as string, source);
  }
  const archive = readArchive(source, data);
  if (!archive) {
    if (kind === "pg") throw new BackupError(backupMessages.badManifest(source));
    (await restorePglite(config.dataDir, source, data)).finish();
    return;
  }
  const { manifest, entries } = archive;
  if ((manifest.database === "postgresql" ? "pg" : "pglite") !== kind)
    throw new BackupError(backupMessages.otherKind(source, manifest.database));
  const dbBody = entries.get(DB_ENTRY[kind]);
  if (!dbBody) throw new BackupError(backupMessages.badManifest(source));

  // Stage the files next to their places (same file system: putting them in place is a rename).
  const staged = path.join(config.dataDir, `.restaurando-${randomBytes(4).toString("hex")}`);
  try {
    for (const file of manifest.files) {
      if (file.path === DB_ENTRY[kind]) continue;
      const target = path.join(staged, ...file.path.split("/"));
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      fs.writeFileSync(target, entries.get(file.path) as Buffer, { mode: file.path === "secret.key" ? 0o600 : 0o644 });
    }
    // Folders after the files (writing a file makes its parents 700): the empty ones are made, and every
    // one takes the mode it had; the owner keeps the right to enter and write it, or the swap would fail.
    for (const folder of manifest.folders ?? []) {
      const target = path.join(staged, ...folder.path.split("/"));
      fs.mkdirSync(target, { recursive: true, mode: 0o700 });
      fs.chmodSync(target, folder.mode | 0o700);
    }
    if (kind === "pg") {
      const dumpFile = path.join(staged, DB_ENTRY.pg);
      fs.writeFileSync(dumpFile, dbBody, { mode: 0o600 });
      await restorePostgres(config.DATABASE_URL as string, dumpFile);
      swapFiles(config.dataDir, staged)();
      return;
    }
    const database = await restorePglite(config.dataDir, source, dbBody);
    let finishFiles: () => void;
    try {
      finishFiles = swapFiles(config.dataDir, staged);
    } catch (error) {
      // The embedded database can still go back too: nothing changed.
      database.undo();
      throw error;
    }
    database.finish();
    finishFiles();
  } finally {
    fs.rmSync(staged, { recursive: true, force: true });
  }
}

/** `npm run backup -- [--out archivo]`: exit code. */
export async function runBackup(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    const values = parseCliArgs(argv, { out: { type: "string" } });
    const { file, viaServer } = await backup(values.out, env);
    const size = fs.statSync(file).size;
    console.log(viaServer ? backupMessages.writtenByServer(file, size) : backupMessages.written(file, size));
    return 0;
  } catch (error) {
    console.error(
      error instanceof BackupError || error instanceof ArgsError
        ? error.message
        : backupMessages.failed((error as Error).message),
    );
    return 1;
  }
}

/** `npm run restore -- --in archivo`: exit code. */
export async function runRestore(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    const values = parseCliArgs(argv, { in: { type: "string" } });
    if (!values.in) throw new BackupError(backupMessages.missingIn);
    await restore(values.in, env);
    console.log(backupMessages.restored(path.resolve(values.in)));
    return 0;
  } catch (error) {
    console.error(
      error instanceof BackupError || error instanceof ArgsError
        ? error.message
        : backupMessages.restoreFailed((error as Error).message),
    );
    return 1;
  }
}
