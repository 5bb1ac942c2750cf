/**
 * Backups: `npm run backup` / `npm run restore` round trip on the database under test — PGlite
 * in a data folder, or PostgreSQL with pg_dump/pg_restore when DATABASE_URL is set. Data and DATA_DIR's
 * files are made, backed up, changed and deleted, restored: every table's row count, the changed rows,
 * the drive's and the outbox's files and secret.key (which still decrypts a stored token) are back exactly.
 * With the server up: `npm run backup` goes through it (embedded), a backup taken while a week save is
 * inside its transaction holds all of the week or none of it, and a damaged archive changes nothing.
 * The embedded restore refuses (in Spanish) while a server holds the data folder.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backup, pgDump, restore, writeArchive } from "../../server/cli/backups";
import { askServerBackup } from "../../server/cli/localEndpoint";
import { readTarGz } from "../../server/cli/tarball";
import { loadConfig } from "../../server/config";
import type { Database } from "../../server/db/client";
import { activities, clients, holydays, job_runs, users } from "../../server/db/schema";
import { decryptSecret, encryptSecret } from "../../server/http/secrets";
import { nightlyBackupJob } from "../../server/jobs/nightlyBackup";
import { runDueJobs, runJob } from "../../server/jobs/runner";
import { buildActivity } from "../support/catalog-factories";
import { buildClient, buildUser, PASSWORD } from "../support/factories";
import { recordFigures } from "../support/figures";
import { createStore, httpSignIn, startServer, type TestStore } from "../support/server";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
let store: TestStore;
let dir: string;
const figures = { tables: 0, rows: 0, roundTrips: 0, liveBackupMs: 0 };

beforeAll(async () => {
  store = await createStore();
  dir = fs.mkdtempSync(path.join(store.dataDir, "..", "sia-backup-"));
});
afterAll(async () => {
  recordFigures(
    "confiabilidad-respaldos",
    `respaldo y restauración: ${figures.roundTrips} viajes completos, ${figures.tables} tablas y ${figures.rows} filas comparadas; respaldo con el servidor en marcha en ${figures.liveBackupMs} ms`,
    figures,
  );
  await store?.destroy();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => {
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  return {
    ...rest,
    NODE_ENV: "test",
    DATA_DIR: store.dataDir,
    LOG_LEVEL: "silent",
    ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
    ...extra,
  };
};

const runCli = (script: string, args: string[]) =>
  promisify(execFile)(process.execPath, ["--import", "tsx", path.join(ROOT, "server", "cli", script), ...args], {
    cwd: ROOT,
    env: env(),
  }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );

/** Row count of every table of the public schema but the migrations' own bookkeeping. */
async function tableCounts(database: Database) {
  const tables = await database.rows<{ name: string }>(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const out: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await database.rows<{ n: number }>(sql.raw(`select count(*)::int as n from "${name}"`));
    out[name] = Number(row.n);
  }
  return out;
}

const dataFile = (...parts: string[]) => path.join(store.dataDir, ...parts);
/** Every file under DATA_DIR's drive/ and outbox/ and secret.key, with its content. */
function dataFiles() {
  const out: Record<string, string> = {};
  const walk = (folder: string, prefix: string) => {
    if (!fs.existsSync(folder)) return;
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full, `${prefix}/${entry.name}`);
      else out[`${prefix}/${entry.name}`] = fs.readFileSync(full, "utf8");
    }
  };
  walk(dataFile("drive"), "drive");
  walk(dataFile("outbox"), "outbox");
  if (fs.existsSync(dataFile("secret.key"))) out["secret.key"] = fs.readFileSync(dataFile("secret.key"), "utf8");
  return out;
}
const keyOnDisk = () => Buffer.from(fs.readFileSync(dataFile("secret.key"), "utf8").trim(), "base64");
const writeKey = () =>
  fs.writeFileSync(dataFile("secret.key"), `${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}\n`);

describe("backup and restore", () => {
  it("one archive holds the database, drive/, outbox/, secret.key and a manifest; restore brings all back", async () => {
    fs.mkdirSync(dataFile("drive", "Clientes", "Molinos ñandú"), { recursive: true });
    fs.writeFileSync(dataFile("drive", "Clientes", "Molinos ñandú", "contrato firmado 2026.txt"), "Contrato de servicios");
    fs.mkdirSync(dataFile("outbox"), { recursive: true });
    fs.writeFileSync(dataFile("outbox", "20261129-aviso.eml"), "Subject: Aviso\r\n\r\nHola");
    writeKey();
    const token = encryptSecret("token-de-azure-devops", keyOnDisk());
    const before = await store.withDatabase(async (database) => {
      const db = database.db;
      const { employee } = await buildUser(db, "operator");
      await buildUser(db, "admin", { azure_token: token });
      for (let i = 0; i < 25; i++) await buildActivity(db, (employee as { id: number }).id, { description: `Respaldo ${i}` });
      for (let i = 0; i < 10; i++) await buildClient(db, { name: `Cliente respaldo ${i} ñandú` });
      await db.insert(holydays).values({ date: "2060-01-01", name: "Año Nuevo respaldo" });
      return { counts: await tableCounts(database), clients: await db.select().from(clients).orderBy(clients.id) };
    });
    expect(before.counts.activities).toBeGreaterThanOrEqual(25);
    const filesBefore = dataFiles();

    const file = path.join(dir, "sia.tar.gz");
    await backup(file, env());
    const entries = readTarGz(fs.readFileSync(file));
    const manifest = JSON.parse((entries.get("manifest.json") as Buffer).toString("utf8"));
    expect(manifest).toMatchObject({ format: "sia-respaldo", database: store.kind === "pg" ? "postgresql" : "pglite" });
    expect(manifest.sia_version).toMatch(/^\d+\.\d+\.\d+/);
    const paths = manifest.files.map((f: { path: string }) => f.path).sort();
    expect(paths).toEqual([store.kind === "pg" ? "database.dump" : "database.tar.gz", ...Object.keys(filesBefore)].sort());
    for (const f of manifest.files) expect(entries.get(f.path)?.length).toBe(f.size);

    // Lose and change data and files after the backup.
    await store.withDatabase(async ({ db }) => {
      await db.delete(activities);
      await db.update(clients).set({ name: "Cambiado" });
      await db.delete(holydays).where(eq(holydays.name, "Año Nuevo respaldo"));
      await db.update(users).set({ azure_token: null });
      await buildUser(db, "finance");
    });
    fs.writeFileSync(dataFile("drive", "Clientes", "Molinos ñandú", "contrato firmado 2026.txt"), "borrador cambiado");
    fs.writeFileSync(dataFile("drive", "nuevo después.txt"), "no estaba");
    fs.rmSync(dataFile("outbox"), { recursive: true });
    writeKey();

    // No connection may be open on a PostgreSQL database being restored (restore-pg-in-use.test.ts), so no
    // listener here hears the restore's NOTIFY to forget sessions.
    await restore(file, env());
    const after = await store.withDatabase(async (database) => ({
      counts: await tableCounts(database),
      clients: await database.db.select().from(clients).orderBy(clients.id),
      tokens: (await database.db.select({ t: users.azure_token }).from(users)).map((u) => u.t).filter(Boolean),
    }));
    expect(after.counts).toEqual(before.counts);
    expect(after.clients).toEqual(before.clients);
    expect(dataFiles()).toEqual(filesBefore);
    // The restored key reads the restored token: the two came back together.
    expect(after.tokens).toEqual([token]);
    expect(decryptSecret(after.tokens[0] as string, keyOnDisk())).toBe("token-de-azure-devops");
    expect(fs.readdirSync(store.dataDir).filter((n) => n.includes("restaur"))).toEqual([]);
    figures.roundTrips++;
    figures.tables = Object.keys(after.counts).length;
    figures.rows = Object.values(after.counts).reduce((a, b) => a + b, 0);
  });

  it("empty folders of drive/ and outbox/ come back, each with its mode", async () => {
    // The drive's client and project folders hold no file until something is uploaded.
    const empty = dataFile("drive", "Clientes", "Sin archivos ñandú", "Proyecto vacío");
    fs.mkdirSync(empty, { recursive: true });
    fs.chmodSync(dataFile("drive"), 0o755);
    fs.chmodSync(empty, 0o750);
    fs.mkdirSync(dataFile("outbox"), { recursive: true });
    fs.chmodSync(dataFile("outbox"), 0o755);
    const file = path.join(dir, "carpetas.tar.gz");
    await store.withDatabase(async () => {});
    await backup(file, env());

    fs.rmSync(dataFile("drive", "Clientes", "Sin archivos ñandú"), { recursive: true });
    fs.chmodSync(dataFile("drive"), 0o700);
    await restore(file, env());
    const mode = (p: string) => fs.statSync(p).mode & 0o7777;
    expect(fs.statSync(empty).isDirectory()).toBe(true);
    expect(fs.readdirSync(empty)).toEqual([]);
    expect(mode(empty)).toBe(0o750);
    expect(mode(dataFile("drive"))).toBe(0o755);
    expect(mode(dataFile("outbox"))).toBe(0o755);
    const manifest = JSON.parse((readTarGz(fs.readFileSync(file)).get("manifest.json") as Buffer).toString("utf8"));
    expect(manifest.folders).toContainEqual({ path: "drive/Clientes/Sin archivos ñandú/Proyecto vacío", mode: 0o750 });
  });

  it("a damaged archive, or one whose database does not load, changes nothing", async () => {
    const good = path.join(dir, "sia.tar.gz");
    const database = await store.withDatabase(tableCounts);
    const files = dataFiles();
    const unchanged = async () => {
      expect(await store.withDatabase(tableCounts)).toEqual(database);
      expect(dataFiles()).toEqual(files);
    };
    // Cut short: not a readable gzip.
    const cut = path.join(dir, "cortado.tar.gz");
    fs.writeFileSync(cut, fs.readFileSync(good).subarray(0, 3000));
    await expect(restore(cut, env())).rejects.toThrow(/está dañado o no es un respaldo de SIA.*no se cambió nada/);
    // A file changed inside the archive: its checksum no longer matches the manifest.
    const entries = readTarGz(fs.readFileSync(good));
    const { TarGzWriter } = await import("../../server/cli/tarball");
    const tampered = path.join(dir, "alterado.tar.gz");
    const writer = new TarGzWriter(tampered);
    for (const [name, body] of entries) await writer.addBuffer(name, name.startsWith("drive/") ? Buffer.from("otra cosa") : body);
    await writer.close();
    await expect(restore(tampered, env())).rejects.toThrow(/no coincide con su suma de verificación; no se cambió nada/);
    // A well-formed archive whose database cannot be restored: the files staged are not put in place.
    const broken = path.join(dir, "roto.tar.gz");
    await writeArchive(broken, loadConfig(env()), {
      kind: store.kind,
      dump: async (f) => fs.writeFileSync(f, store.kind === "pg" ? "PGDMP no es un volcado" : "no es una base de datos"),
    });
    fs.writeFileSync(dataFile("drive", "solo en el vivo.txt"), "sigue aquí");
    const filesNow = dataFiles();
    const out = await runCli("restore.ts", ["--in", broken]);
    expect(out.code).toBe(1);
    expect(out.out).toMatch(/pg_restore terminó con error|no se pudo cargar/);
    expect(out.out).not.toMatch(/\n\s+at /);
    expect(await store.withDatabase(tableCounts)).toEqual(database);
    expect(dataFiles()).toEqual(filesNow);
    fs.rmSync(dataFile("drive", "solo en el vivo.txt"));
    await unchanged();
  });

  it("a database-only archive of an earlier version still restores (the files are left as they are)", async () => {
    const old = path.join(dir, store.kind === "pg" ? "antiguo.dump" : "antiguo.tar.gz");
    const counts = await store.withDatabase(async (database) => {
      if (database.pglite)
        fs.writeFileSync(old, Buffer.from(await ((await database.pglite.dumpDataDir("gzip")) as Blob).arrayBuffer()));
      return tableCounts(database);
    });
    if (store.databaseUrl) await pgDump(store.databaseUrl)(old);
    await store.withDatabase(({ db }) => buildUser(db, "finance"));
    const files = dataFiles();
    await restore(old, env());
    expect(await store.withDatabase(tableCounts)).toEqual(counts);
    expect(dataFiles()).toEqual(files);
  });

  it("npm run backup / restore: the commands, their messages; embedded: the backup goes through the running server", async () => {
    const file = path.join(dir, "cli.tar.gz");
    const made = await runCli("backup.ts", ["--out", file]);
    expect(made.code, made.out).toBe(0);
    expect(made.out).toContain("Respaldo escrito en");
    // Into BACKUP_DIR, by hand with no server: named as made by hand, so that pruning leaves it.
    const plainAlone = await runCli("backup.ts", []);
    expect(plainAlone.code, plainAlone.out).toBe(0);
    expect(plainAlone.out).toMatch(/sia-[0-9T-]+-manual\.tar\.gz/);
    const missing = await runCli("restore.ts", []);
    expect(missing.code).toBe(1);
    expect(missing.out).toContain("Falta el archivo de respaldo");
    const restored = await runCli("restore.ts", ["--in", file]);
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toContain("Base de datos y archivos restaurados");
    if (store.kind === "pglite") {
      const server = await startServer(store, 3253);
      try {
        const live = path.join(dir, "en-marcha.tar.gz");
        const folder = dataFile("respaldos");
        const count = () => (fs.existsSync(folder) ? fs.readdirSync(folder).length : 0);
        const beforeOut = count();
        const started = Date.now();
        const through = await runCli("backup.ts", ["--out", live]);
        figures.liveBackupMs = Date.now() - started;
        expect(through.code, through.out).toBe(0);
        expect(through.out).toContain("por el servidor SIA en marcha");
        expect(readTarGz(fs.readFileSync(live)).has("database.tar.gz")).toBe(true);
        // With --out the archive is there only: the server's copy in BACKUP_DIR is removed.
        expect(count()).toBe(beforeOut);
        // Without --out: the server's archive in BACKUP_DIR, not a second copy beside it.
        const before = count();
        const plain = await runCli("backup.ts", []);
        expect(plain.code, plain.out).toBe(0);
        expect(plain.out).toContain(folder);
        expect(fs.readdirSync(folder)).toHaveLength(before + 1);
        const refused = await runCli("restore.ts", ["--in", file]);
        expect(refused.code).toBe(1);
        expect(refused.out).toMatch(/está en uso por un servidor SIA: deténgalo antes de restaurar/);
      } finally {
        await server.kill("SIGTERM");
      }
    }
    figures.roundTrips++;
  });

  it("a backup taken while a week save is inside its transaction holds all of the week or none of it", async () => {
    const email = await store.withDatabase(async ({ db }) => (await buildUser(db, "admin")).user.email);
    const week = (day: number, description: string) => ({
      begins_at: new Date(Date.UTC(2021, 2, day, 15, 0)).toISOString(),
      ends_at: new Date(Date.UTC(2021, 2, day, 16, 0)).toISOString(),
      description,
      action_type: "rh",
    });
    const batch = { activities: [1, 2, 3, 4, 5].map((d) => week(d, `Semana respaldo ${d}`)) };
    // The save stops inside its transaction, after its first writes, for 3 s, then commits.
    const server = await startServer(store, 3254, { SIA_TEST_PAUSE: "week_save", SIA_TEST_PAUSE_MS: "3000" });
    const file = path.join(dir, "durante.tar.gz");
    let saved: { status: number };
    let answeredAt = 0;
    let backupAskedAt = 0;
    try {
      const admin = await httpSignIn(server.url, email, PASSWORD);
      const pending = admin.request("POST", "/api/v1/activities/batch", batch).then((answer) => {
        answeredAt = Date.now();
        return answer;
      });
      await server.waitFor("SIA_TEST_PAUSED week_save");
      backupAskedAt = Date.now();
      if (store.kind === "pglite") {
        // What `npm run backup` does when the folder is held (the command's own start-up is slower than the pause).
        const answer = await askServerBackup(loadConfig(env()));
        expect(answer).toMatchObject({ ok: true });
        fs.copyFileSync((answer as { file: string }).file, file);
      } else await backup(file, env());
      saved = await pending;
    } finally {
      await server.kill("SIGTERM");
    }
    // The backup was asked for while the save was inside its transaction.
    expect(backupAskedAt).toBeLessThan(answeredAt);
    expect(saved.status).toBe(200);
    await restore(file, env());
    const kept = await store.withDatabase(
      async ({ db }) => (await db.select().from(activities).where(like(activities.description, "Semana respaldo %"))).length,
    );
    expect([0, 5]).toContain(kept);
    // Embedded: the dump waited for the save's transaction (the server runs transactions whole), so the
    // week is in it; PostgreSQL: pg_dump's snapshot came before the commit, so the week is not.
    expect(kept).toBe(store.kind === "pglite" ? 5 : 0);
  });

  it("the nightly job writes one archive a day and keeps the newest BACKUP_KEEP; a failing night is recorded with its reason and not retried every minute", async () => {
    const backups = path.join(dir, "nocturnos");
    const config = loadConfig(env({ BACKUP_DIR: backups, BACKUP_KEEP: "2", JOBS_TIMEZONE: "America/Mexico_City" }));
    const days = ["2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27"];
    await store.withDatabase(async ({ db }) => {
      const deps = { db, mail: { kind: "outbox" as const, send: async () => {} } as never, config };
      for (const day of days) {
        const outcome = await runJob(deps, nightlyBackupJob, { now: new Date(`${day}T09:00:00Z`) });
        expect(outcome.status).toBe("done");
        // Once per day: a later tick the same day writes nothing.
        const again = await runJob(deps, nightlyBackupJob, { now: new Date(`${day}T10:00:00Z`) });
        expect(again.status).toBe("already_done");
      }
      expect(fs.readdirSync(backups).sort()).toEqual(["sia-2026-11-26T09-00-00.tar.gz", "sia-2026-11-27T09-00-00.tar.gz"]);
      const runs = await db.select().from(job_runs).where(eq(job_runs.job, "nightly_backup"));
      // The earlier tests' backups by hand ran today's period; these are the four days'.
      expect(
        runs
          .map((r) => r.period_key)
          .filter((k) => k < "2026-11-28")
          .sort(),
      ).toEqual(days);
      expect(JSON.parse(runs.find((r) => r.period_key === days[3])?.detail ?? "{}").message).toContain(
        "se borró 1 respaldo antiguo",
      );

      // BACKUP_DIR cannot be written (a file stands where the folder should be, a disk full): the night's run
      // is recorded with what went wrong, so «Correo y tareas» shows it, and a later tick that day does not
      // dump the database again.
      const blocked = path.join(dir, "no-es-carpeta");
      fs.writeFileSync(blocked, "");
      const failing = { ...deps, config: { ...config, backupDir: blocked } };
      const night = new Date("2026-11-28T09:00:00Z");
      await runDueJobs(failing, [nightlyBackupJob], night, { info: () => {}, error: () => {} } as never);
      const [recorded] = await db.select().from(job_runs).where(eq(job_runs.period_key, "2026-11-28"));
      expect(JSON.parse(recorded?.detail ?? "{}")).toMatchObject({ failed: true, count: 0 });
      expect(JSON.parse(recorded?.detail ?? "{}").message).toMatch(/^falló: .*próxima noche/);
      const later = await runJob(failing, nightlyBackupJob, { now: new Date("2026-11-28T10:00:00Z") });
      expect(later.status).toBe("already_done");
    });
  });
});
