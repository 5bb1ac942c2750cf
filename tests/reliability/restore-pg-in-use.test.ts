/**
 * On PostgreSQL nothing locks the database the way the embedded one's folder is locked: `npm run restore`
 * refuses, in Spanish, while another connection (a running server's) is open on the database it would
 * restore. A database of its own on the PostgreSQL of DATABASE_URL, or else 127.0.0.1:5432; skipped when
 * neither answers.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restore } from "../../server/cli/backups";

const server = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
const name = `sia_bk2_${randomBytes(4).toString("hex")}`;
const urlOf = (database: string) => Object.assign(new URL(server.href), { pathname: `/${database}` }).href;
let reachable = false;
let dataDir = "";

async function onAdmin(sql: string) {
  const client = new pg.Client({ connectionString: urlOf("postgres"), connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-pg-restore-"));
  reachable = await onAdmin(`create database ${name}`).then(
    () => true,
    () => false,
  );
});
afterAll(async () => {
  if (reachable) await onAdmin(`drop database if exists ${name} with (force)`);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("restore on PostgreSQL", () => {
  it("refuses while another connection is open on the database, and says how many", async (ctx) => {
    if (!reachable) ctx.skip();
    const archive = path.join(dataDir, "sia.tar.gz");
    fs.writeFileSync(archive, "no es un respaldo");
    const { DATABASE_URL: _unused, ...rest } = process.env;
    const env = { ...rest, NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: dataDir, DATABASE_URL: urlOf(name) };
    const held = new pg.Client({ connectionString: urlOf(name) });
    await held.connect();
    try {
      await expect(restore(archive, env)).rejects.toThrow(
        "La base de datos tiene 1 conexión abierta (¿un servidor SIA en marcha?): deténgalo antes de restaurar.",
      );
    } finally {
      await held.end();
    }
    // Alone on it, the restore goes on (and reads the archive, which here is not one).
    await expect(restore(archive, env)).rejects.toThrow(/no trae un índice válido|dañado/);
  });
});
