/** A fresh SIA for one test file: its own database (copy of the migrated template) and app. */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance, RouteOptions } from "fastify";
import { inject } from "vitest";
import { build } from "../../server/app";
import { loadConfig } from "../../server/config";
import { type Database, openPglite, openPostgres } from "../../server/db/client";
import type { TicketsPort } from "../../server/ports/tickets";
import { adminUrl, withDatabase } from "./database-url";

/** The URL of each PostgreSQL test database, so a second app (another pool) can open the same one. */
const testUrls = new WeakMap<Database, string>();

export async function openTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `sia_test_${randomBytes(6).toString("hex")}`;
    const admin = await openPostgres(adminUrl(url), 1);
    await admin.pool?.query(`CREATE DATABASE ${name} TEMPLATE ${inject("templateDb")}`);
    await admin.close();
    const database = await openPostgres(withDatabase(url, name), 4);
    testUrls.set(database, withDatabase(url, name));
    const close = database.close;
    database.close = async () => {
      await close();
      const again = await openPostgres(adminUrl(url), 1);
      await again.pool?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.close();
    };
    return database;
  }
  const dump = fs.readFileSync(inject("templatePath"));
  return openPglite({ loadDataDir: new Blob([dump]) });
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

export async function buildTestApp(
  env: Record<string, string> = {},
  options: { onRoute?: (route: RouteOptions) => void; tickets?: TicketsPort } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  // Each app its own DATA_DIR (the local drive lives in DATA_DIR/drive), removed on close.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-test-"));
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", SIA_DEMO: "0", DATA_DIR: dataDir, ...env });
  const app = await build({ config, database, logger: false, onRoute: options.onRoute, tickets: options.tickets });
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second server on the same database as `t`, as a second process would be: on PostgreSQL its own pool
 * (other sessions, so advisory locks really compete); on PGlite the same Database object (one session).
 */
export async function buildSiblingApp(t: TestApp, env: Record<string, string> = {}): Promise<TestApp> {
  const url = testUrls.get(t.database);
  const database = url ? await openPostgres(url, 4) : t.database;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-test-"));
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", SIA_DEMO: "0", DATA_DIR: dataDir, ...env });
  const app = await build({ config, database, logger: false });
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      if (url) await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
