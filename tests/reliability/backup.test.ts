/**
 * Backups: `npm run backup` / `npm run restore` round trip on the database under test — PGlite
 * in a data folder, or PostgreSQL with pg_dump/pg_restore when DATABASE_URL is set. Data is made, backed
 * up, changed and deleted, restored: every table's row count and the changed rows are back exactly.
 * The embedded restore refuses (in Spanish) while a server holds the data folder.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backup, restore } from "../../server/cli/backups";
import type { Database } from "../../server/db/client";
import { activities, clients, holydays, users } from "../../server/db/schema";
import { buildActivity } from "../support/catalog-factories";
import { buildClient, buildUser } from "../support/factories";
import { recordFigures } from "../support/figures";
import { createStore, startServer, type TestStore } from "../support/server";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
let store: TestStore;
let dir: string;
const figures = { tables: 0, rows: 0, roundTrips: 0 };

beforeAll(async () => {
  store = await createStore();
  dir = fs.mkdtempSync(path.join(store.dataDir, "..", "sia-backup-"));
});
afterAll(async () => {
  recordFigures(
    "confiabilidad-respaldos",
    `respaldo y restauración: ${figures.roundTrips} viajes completos, ${figures.tables} tablas y ${figures.rows} filas comparadas`,
    figures,
  );
  await store?.destroy();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const env = () => {
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  return {
    ...rest,
    NODE_ENV: "test",
    DATA_DIR: store.dataDir,
    LOG_LEVEL: "silent",
    ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
  };
};

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

describe(`backup and restore`, () => {
  it("restores exactly what was backed up, through the npm scripts' code", async () => {
    const before = await store.withDatabase(async (database) => {
      const db = database.db;
      const { employee } = await buildUser(db, "operator");
      for (let i = 0; i < 25; i++) await buildActivity(db, (employee as { id: number }).id, { description: `Respaldo ${i}` });
      for (let i = 0; i < 10; i++) await buildClient(db, { name: `Cliente respaldo ${i} ñandú` });
      await db.insert(holydays).values({ date: "2060-01-01", name: "Año Nuevo respaldo" });
      return { counts: await tableCounts(database), clients: await db.select().from(clients).orderBy(clients.id) };
    });
    expect(before.counts.activities).toBeGreaterThanOrEqual(25);

    const file = path.join(dir, store.kind === "pg" ? "sia.dump" : "sia.tar.gz");
    await backup(file, env());
    expect(fs.statSync(file).size).toBeGreaterThan(1000);

    // Lose and change data after the backup.
    await store.withDatabase(async ({ db }) => {
      await db.delete(activities);
      await db.update(clients).set({ name: "Cambiado" });
      await db.delete(holydays).where(eq(holydays.name, "Año Nuevo respaldo"));
      await buildUser(db, "finance");
    });

    // A running server is told to forget every session it remembered (PostgreSQL: the restore NOTIFYs).
    const heard: string[] = [];
    const listener = store.databaseUrl ? new pg.Client({ connectionString: store.databaseUrl }) : undefined;
    if (listener) {
      await listener.connect();
      listener.on("notification", (message) => heard.push(`${message.channel} ${message.payload}`));
      await listener.query("LISTEN sia_sessions");
    }
    await restore(file, env());
    if (listener) {
      const until = Date.now() + 5000;
      while (!heard.includes("sia_sessions *") && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      await listener.end();
      expect(heard).toContain("sia_sessions *");
    }
    const after = await store.withDatabase(async (database) => ({
      counts: await tableCounts(database),
      clients: await database.db.select().from(clients).orderBy(clients.id),
    }));
    expect(after.counts).toEqual(before.counts);
    expect(after.clients).toEqual(before.clients);
    figures.roundTrips++;
    figures.tables = Object.keys(after.counts).length;
    figures.rows = Object.values(after.counts).reduce((a, b) => a + b, 0);

    // The restored database is a working one: a server starts on it and the data is usable.
    await store.withDatabase(async ({ db }) => {
      expect((await db.select().from(users)).length).toBe(before.counts.users);
    });
  });

  it("npm run backup / restore: the commands, their messages, and the refusal while a server runs", async () => {
    const file = path.join(dir, "cli.backup");
    const run = (script: string, args: string[]) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", path.join(ROOT, "server", "cli", script), ...args], {
        cwd: ROOT,
        env: env(),
      }).then(
        (r) => ({ code: 0, out: r.stdout + r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
      );
    const made = await run("backup.ts", ["--out", file]);
    expect(made.code, made.out).toBe(0);
    expect(made.out).toContain("Respaldo escrito en");
    const missing = await run("restore.ts", []);
    expect(missing.code).toBe(1);
    expect(missing.out).toContain("Falta el archivo de respaldo");
    const restored = await run("restore.ts", ["--in", file]);
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toContain("Base de datos restaurada");
    if (store.kind === "pglite") {
      const server = await startServer(store, 3253);
      try {
        const refused = await run("restore.ts", ["--in", file]);
        expect(refused.code).toBe(1);
        expect(refused.out).toMatch(/está en uso por un servidor SIA: deténgalo antes de restaurar/);
      } finally {
        await server.kill("SIGTERM");
      }
    }
    figures.roundTrips++;
  });
});
