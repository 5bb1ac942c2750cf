/**
 * The core of `npm run backup` and `npm run restore`, kept apart from the command line so the
 * tests call it directly.
 *   PostgreSQL (DATABASE_URL set): `pg_dump -Fc` into the file; `pg_restore --clean --if-exists
 *   --single-transaction` from it (all or nothing). The PostgreSQL client tools must be installed.
 *   Embedded (PGlite in DATA_DIR): the data folder dumped as a .tar.gz (PGlite's dumpDataDir); restoring
 *   loads it into a new folder and swaps it in, the old one kept until the new one opens. Both refuse
 *   while a server holds the data folder (PGlite is one process at a time).
 * The database only: DATA_DIR's other files (drive/, outbox/, secret.key) are plain files to copy.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { ALL_SESSIONS, SESSIONS_CHANNEL } from "../auth/sessionCache";
import { loadConfig } from "../config";
import { DataDirLockedError, openPglite } from "../db/client";

export class BackupError extends Error {}

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

const lockedMessage = (dataDir: string, what: string) =>
  `La carpeta de datos ${dataDir} está en uso por un servidor SIA: deténgalo antes de ${what}.`;

async function openEmbedded(dataDir: string, what: string, loadDataDir?: Blob) {
  try {
    return await openPglite({ dataDir, loadDataDir });
  } catch (error) {
    if (error instanceof DataDirLockedError) throw new BackupError(lockedMessage(dataDir, what));
    throw error;
  }
}

export async function backup(outFile: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const config = loadConfig(env);
  const target = path.resolve(outFile);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  if (config.DATABASE_URL) {
    await run("pg_dump", ["--format=custom", "--no-owner", `--file=${target}`, `--dbname=${config.DATABASE_URL}`]);
    return target;
  }
  if (!fs.existsSync(path.join(config.dataDir, "pglite", "PG_VERSION")))
    throw new BackupError(`No hay una base de datos embebida en ${config.dataDir}.`);
  const database = await openEmbedded(config.dataDir, "respaldar");
  try {
    const dump = (await database.pglite?.dumpDataDir("gzip")) as Blob;
    const partial = `${target}.parcial`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, target);
  } finally {
    await database.close();
  }
  return target;
}

export async function restore(inFile: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = loadConfig(env);
  const source = path.resolve(inFile);
  if (!fs.existsSync(source)) throw new BackupError(`No existe el respaldo ${source}.`);
  if (config.DATABASE_URL) {
    await run("pg_restore", [
      "--clean",
      "--if-exists",
      "--no-owner",
      "--single-transaction",
      "--exit-on-error",
      `--dbname=${config.DATABASE_URL}`,
      source,
    ]);
    // Running servers forget every session they remembered: the restored tables are another time's.
    const client = new pg.Client({ connectionString: config.DATABASE_URL });
    await client.connect();
    try {
      await client.query("select pg_notify($1, $2)", [SESSIONS_CHANNEL, ALL_SESSIONS]);
    } finally {
      await client.end();
    }
    return;
  }
  const dataDir = config.dataDir;
  const current = path.join(dataDir, "pglite");
  const previous = path.join(dataDir, "pglite.antes-de-restaurar");
  // Take the folder's lock first (refuses while a server runs), then swap the database folder.
  const probe = await openEmbedded(dataDir, "restaurar");
  await probe.close();
  fs.rmSync(previous, { recursive: true, force: true });
  if (fs.existsSync(current)) fs.renameSync(current, previous);
  try {
    const blob = new Blob([fs.readFileSync(source)]);
    const database = await openEmbedded(dataDir, "restaurar", blob);
    // A query proves the restored folder opens.
    await database.pglite?.query("select 1");
    await database.close();
  } catch (error) {
    fs.rmSync(current, { recursive: true, force: true });
    if (fs.existsSync(previous)) fs.renameSync(previous, current);
    if (error instanceof BackupError) throw error;
    throw new BackupError(`El respaldo ${source} no se pudo cargar: ${(error as Error).message}`);
  }
  fs.rmSync(previous, { recursive: true, force: true });
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19);

/** `npm run backup -- [--out archivo]`: exit code. */
export async function runBackup(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    const { values } = parseArgs({ args: argv, options: { out: { type: "string" } } });
    const fallback = `respaldos/sia-${stamp()}.${loadConfig(env).DATABASE_URL ? "dump" : "tar.gz"}`;
    const file = await backup(values.out ?? fallback, env);
    console.log(`Respaldo escrito en ${file} (${fs.statSync(file).size} bytes).`);
    return 0;
  } catch (error) {
    console.error(error instanceof BackupError ? error.message : `El respaldo falló: ${(error as Error).message}`);
    return 1;
  }
}

/** `npm run restore -- --in archivo`: exit code. */
export async function runRestore(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    const { values } = parseArgs({ args: argv, options: { in: { type: "string" } } });
    if (!values.in) throw new BackupError("Falta el archivo de respaldo (--in archivo).");
    await restore(values.in, env);
    console.log(`Base de datos restaurada desde ${path.resolve(values.in)}.`);
    return 0;
  } catch (error) {
    console.error(error instanceof BackupError ? error.message : `La restauración falló: ${(error as Error).message}`);
    return 1;
  }
}
