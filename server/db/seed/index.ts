/**
 * Seeds. seedBase(): reference data every install needs, idempotent, run on every start.
 * seedDemo(): a believable small Mexican firm for demos and manual testing, only on an empty
 * database (no users), in one transaction, deterministic for a given date.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { ACTIVITY_TYPES } from "../../../src/core/constants";
import { hashPassword, verifyPassword } from "../../auth/passwords";
import type { DocumentsPort } from "../../ports/documents/port";
import type { Db, Tx } from "../client";
import { activity_type_catalogs, app_settings, sessions, users } from "../schema";
import { EMPLOYEES } from "./data";
import { buildDemo, type DemoFigures } from "./demo";
import { resetSequence } from "./sequences";

export { mexicanHolidays } from "./calendar";
export type { DemoFigures } from "./demo";

/** The 12 activity types of SPEC §9 (fixed ids and codes) and the app_settings row 1. */
export async function seedBase(db: Db | Tx): Promise<void> {
  await db
    .insert(activity_type_catalogs)
    .values(ACTIVITY_TYPES.map((t) => ({ id: t.id, code: t.code, name: t.name })))
    .onConflictDoNothing();
  await resetSequence(db, "activity_type_catalogs");
  await db.insert(app_settings).values({ id: 1 }).onConflictDoNothing();
}

export interface SeedDemoOptions {
  /** Password of admin@sia.local, operador@sia.local and finanzas@sia.local. */
  password: string;
  /** The seed's "today" (tests pin it); defaults to now. */
  now?: Date;
  /** The installation's own drive, where the demo's folders are made; without it records get none. */
  documents?: DocumentsPort;
}

export interface SeedDemoResult {
  seeded: boolean;
  ms: number;
  figures?: DemoFigures;
}

const countUsers = async (db: Db | Tx) => (await db.select({ n: sql<number>`count(*)::int` }).from(users))[0]?.n ?? 0;

export async function seedDemo(db: Db, options: SeedDemoOptions): Promise<SeedDemoResult> {
  const started = performance.now();
  if ((await countUsers(db)) > 0) return { seeded: false, ms: performance.now() - started };
  // One argon2 hash (the slow part) shared by the three accounts.
  const digest = await hashPassword(options.password);
  const figures = await db.transaction(async (tx) => {
    if ((await countUsers(tx)) > 0) return undefined; // another process got there first
    await seedBase(tx);
    return buildDemo(tx, { digest, now: options.now ?? new Date(), documents: options.documents });
  });
  return {
    seeded: figures !== undefined,
    ms: performance.now() - started,
    figures,
  };
}

/** The demo firm's accounts (server/db/seed/data.ts). */
export const DEMO_ACCOUNT_EMAILS = EMPLOYEES.flatMap((e) => (e.account ? [e.account.email] : []));

/**
 * Production: a demo account that still has the public demo password (README) loses it — no password
 * sign-in, its sessions void — so nobody signs in with a password anyone can read. Answers the e-mails locked.
 */
export async function lockPublicDemoPasswords(db: Db, publicPassword: string): Promise<string[]> {
  const accounts = await db
    .select({ id: users.id, email: users.email, digest: users.password_digest })
    .from(users)
    .where(inArray(users.email, DEMO_ACCOUNT_EMAILS));
  const locked: string[] = [];
  for (const account of accounts) {
    if (!(await verifyPassword(account.digest, publicPassword))) continue;
    await db
      .update(users)
      .set({ password_digest: null, password_changed_at: new Date() })
      .where(sql`${users.id} = ${account.id} and ${users.password_digest} = ${account.digest}`);
    // Whoever signed in with the public password (a demo before going live) is signed out too: the
    // password no longer opens the account, nor does what it opened before.
    await db.delete(sessions).where(eq(sessions.user_id, account.id));
    locked.push(account.email);
  }
  return locked;
}
