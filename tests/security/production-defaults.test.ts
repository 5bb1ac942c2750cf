/**
 * Production never opens with the demo accounts' public password (README: «sia-demo»):
 * - NODE_ENV=production without SIA_DEMO loads no demo firm (the real server, on an empty embedded database);
 * - SIA_DEMO=1 in production needs its own SIA_DEMO_PASSWORD: the server refuses to start otherwise;
 * - demo accounts loaded before (e.g. by a start without NODE_ENV) lose the public password at a production start.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../server/auth/passwords";
import { AdminInputError, validateAdminInput } from "../../server/cli/admin";
import { loadConfig, PUBLIC_DEMO_PASSWORD } from "../../server/config";
import { createDb } from "../../server/db/client";
import { sessions, users } from "../../server/db/schema";
import { DEMO_ACCOUNT_EMAILS, lockPublicDemoPasswords, seedBase } from "../../server/db/seed";
import { buildTestApp, openTestDatabase } from "../support/app";
import { buildUser, call, signInAs } from "../support/factories";
import { recordFigures } from "../support/figures";
import { httpRequest, type ServerProcess, startServer } from "../support/server";

const dirs: string[] = [];
const servers: ServerProcess[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-prod-"));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const server of servers) await server.kill("SIGTERM");
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  recordFigures(
    "seguridad-produccion",
    "Producción: sin datos de demostración por omisión, «sia-demo» rechazada al arrancar y en cuentas ya cargadas",
    {},
  );
});

describe("configuration", () => {
  it("demo data: on by default outside production, off in production unless asked for", () => {
    expect(loadConfig({ NODE_ENV: "development" }).SIA_DEMO).toBe(true);
    // A PostgreSQL server gets the demo firm only when asked for (the Playwright pass on PostgreSQL asks).
    const server = "postgres://sia@127.0.0.1:5432/sia";
    expect(loadConfig({ NODE_ENV: "development", DATABASE_URL: server }).SIA_DEMO).toBe(false);
    expect(loadConfig({ NODE_ENV: "development", DATABASE_URL: server, SIA_DEMO: "1" }).SIA_DEMO).toBe(true);
    expect(loadConfig({ NODE_ENV: "production" }).SIA_DEMO).toBe(false);
    expect(loadConfig({ NODE_ENV: "production", SIA_DEMO: "" }).SIA_DEMO).toBe(false);
    expect(loadConfig({ NODE_ENV: "production", SIA_DEMO: "0" }).SIA_DEMO).toBe(false);
    const asked = loadConfig({ NODE_ENV: "production", SIA_DEMO: "1", SIA_DEMO_PASSWORD: "otra-clave-larga" });
    expect(asked.SIA_DEMO).toBe(true);
    expect(asked.SIA_DEMO_PASSWORD).toBe("otra-clave-larga");
  });

  it("refuses SIA_DEMO=1 in production with the public password or none, in Spanish", () => {
    for (const env of [
      { NODE_ENV: "production", SIA_DEMO: "1" },
      { NODE_ENV: "production", SIA_DEMO: "true", SIA_DEMO_PASSWORD: PUBLIC_DEMO_PASSWORD },
    ]) {
      expect(() => loadConfig(env)).toThrow(
        /SIA_DEMO_PASSWORD: con NODE_ENV=production y SIA_DEMO=1 es obligatoria y distinta de «sia-demo»/,
      );
    }
  });
});

describe("demo accounts already loaded", () => {
  it("lose the public password (and their sessions) at a production start; other passwords stay", async () => {
    const database = await openTestDatabase();
    try {
      await seedBase(database.db);
      const [publicOne, ownOne] = DEMO_ACCOUNT_EMAILS;
      const publicDigest = await hashPassword(PUBLIC_DEMO_PASSWORD);
      const ownDigest = await hashPassword("una-clave-propia");
      await database.db.insert(users).values([
        { email: publicOne, name: "Demo", password_digest: publicDigest, administrator_role: true },
        { email: ownOne, name: "Demo 2", password_digest: ownDigest, operator_role: true },
        { email: "otra@firma.mx", name: "Otra", password_digest: publicDigest, operator_role: true },
      ]);
      // Each signed in before going live.
      const later = new Date(Date.now() + 86_400_000);
      for (const [i, email] of [publicOne, ownOne].entries()) {
        const [{ id }] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
        await database.db.insert(sessions).values({ token_hash: `${i}`.repeat(64), user_id: id, expires_at: later });
      }
      expect(await lockPublicDemoPasswords(database.db, PUBLIC_DEMO_PASSWORD)).toEqual([publicOne]);
      const sessionsOf = async (email: string) =>
        (
          await database.db
            .select({ id: sessions.id })
            .from(sessions)
            .innerJoin(users, eq(users.id, sessions.user_id))
            .where(eq(users.email, email))
        ).length;
      // What the public password opened is closed; a session opened with the account's own password stays.
      expect(await sessionsOf(publicOne)).toBe(0);
      expect(await sessionsOf(ownOne)).toBe(1);
      const digestOf = async (email: string) =>
        (await database.db.select({ d: users.password_digest }).from(users).where(eq(users.email, email)))[0].d;
      expect(await digestOf(publicOne)).toBeNull();
      expect(await verifyPassword(await digestOf(ownOne), "una-clave-propia")).toBe(true);
      // Only the demo firm's accounts are touched: a real user's password is theirs to choose.
      expect(await digestOf("otra@firma.mx")).toBe(publicDigest);
      expect(await lockPublicDemoPasswords(database.db, PUBLIC_DEMO_PASSWORD)).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

describe("the real server", () => {
  const port = 3270 + (process.env.DATABASE_URL ? 1 : 0);

  it("NODE_ENV=production on an empty database: no demo firm, admin@sia.local/sia-demo refused", async () => {
    const dataDir = tempDir();
    const server = await startServer({ dataDir }, port, { NODE_ENV: "production", SIA_DEMO: "" });
    servers.push(server);
    expect(server.output()).not.toContain("Cuentas de demostración");
    const res = await httpRequest(server.url, "POST", "/api/v1/sessions", {
      email: "admin@sia.local",
      password: PUBLIC_DEMO_PASSWORD,
    });
    expect(res.status).toBe(401);
    await server.kill("SIGTERM");
    const database = await createDb(loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent" }));
    try {
      expect(await database.db.select({ id: users.id }).from(users)).toEqual([]);
    } finally {
      await database.close();
    }
  }, 180_000);

  it("NODE_ENV=production SIA_DEMO=1 without a password of its own: does not start, says why", async () => {
    const dataDir = tempDir();
    await expect(startServer({ dataDir }, port, { NODE_ENV: "production", SIA_DEMO: "1" })).rejects.toThrow(
      /SIA_DEMO_PASSWORD: con NODE_ENV=production y SIA_DEMO=1 es obligatoria/,
    );
  }, 120_000);
});

describe("the public demo password opens no account in production, whoever set it", () => {
  it("refuses it at sign-in for any account, as a new password of any user, and in create-admin", async () => {
    const t = await buildTestApp({ NODE_ENV: "production", SIA_DEMO: "0" });
    try {
      const db = t.app.db.db;
      // An administrator whose password was set to the public one before this rule (or by hand in SQL).
      const { user } = await buildUser(db, "admin");
      await db
        .update(users)
        .set({ password_digest: await hashPassword(PUBLIC_DEMO_PASSWORD) })
        .where(eq(users.id, user.id));
      const refused = await call(t.app, "POST", "/api/v1/sessions", { email: user.email, password: PUBLIC_DEMO_PASSWORD });
      expect(refused.status).toBe(401);

      const admin = await signInAs(t.app, "admin");
      const other = await buildUser(db, "operator");
      const set = await admin.api.put(`/api/v1/users/${other.user.id}`, {
        user: { password: PUBLIC_DEMO_PASSWORD, password_confirmation: PUBLIC_DEMO_PASSWORD },
      });
      expect(set.status).toBe(422);
      expect(set.body.errors.password).toEqual(["es la contraseña pública de la demostración; elija otra"]);
    } finally {
      await t.close();
    }
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      expect(() => validateAdminInput({ email: "demo@firma.mx", password: PUBLIC_DEMO_PASSWORD })).toThrow(AdminInputError);
    } finally {
      process.env.NODE_ENV = before;
    }
  });
});
