/**
 * The per-process session cache (server/auth/sessionCache.ts), on two servers sharing one database as two
 * processes of the cluster do: a request whose session is cached sends no session statement, and every
 * change made on one server applies to the very next request on the other — sign-out, deactivation, a role
 * taken away or given, a password change — whether a route made it or something else wrote the tables (the
 * create-admin command, psql: the triggers of migration 0012). When the process stops hearing the database,
 * it stops trusting what it cached.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { employees, users } from "../../server/db/schema";
import { buildSiblingApp, buildTestApp, type TestApp } from "../support/app";
import { buildUser, call, signIn } from "../support/factories";

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await buildTestApp();
  b = await buildSiblingApp(a);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** A request on server `t` with this token. */
const on = (t: TestApp, token: string, url = "/api/v1/sessions/current", method: "GET" | "DELETE" = "GET") =>
  call(t.app, method, url, undefined, bearer(token));

/** The statements server `t` sends while `work` runs. */
async function statementsOf(t: TestApp, work: () => Promise<unknown>) {
  const seen: string[] = [];
  const listener = (query: string) => seen.push(query);
  t.database.queryListeners.add(listener);
  try {
    await work();
  } finally {
    t.database.queryListeners.delete(listener);
  }
  return seen;
}
const readsSession = (statements: string[]) => statements.some((s) => /from "sessions"/.test(s));

/** Waits (up to 3 s) until `check` holds: for changes made outside any server, which arrive by NOTIFY. */
async function eventually(check: () => Promise<boolean>) {
  const until = Date.now() + 3000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("the change never reached the other server");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function operatorOnBoth() {
  const { user, employee } = await buildUser(a.app.db.db, "operator");
  const api = await signIn(a.app, user.email);
  // Both servers have it cached.
  expect((await on(a, api.token)).status).toBe(200);
  expect((await on(b, api.token)).status).toBe(200);
  return { user, employee, api };
}

describe("the session cache", () => {
  it("answers a known session without reading it again, on each server", async () => {
    const { api } = await operatorOnBoth();
    for (const t of [a, b]) {
      const statements = await statementsOf(t, async () => expect((await on(t, api.token, "/api/v1/projects")).status).toBe(200));
      expect(readsSession(statements)).toBe(false);
      expect(statements.length).toBeGreaterThan(0);
    }
    // A token nobody issued is read from the database every time (and never cached).
    const made = "inventado".repeat(5);
    for (let i = 0; i < 2; i++) {
      const statements = await statementsOf(b, async () => expect((await on(b, made)).status).toBe(401));
      expect(readsSession(statements)).toBe(true);
    }
  });

  it("a sign-out on one server ends the session on the other at once", async () => {
    const { api } = await operatorOnBoth();
    expect((await on(a, api.token, "/api/v1/sessions", "DELETE")).status).toBe(200);
    expect((await on(b, api.token)).status).toBe(401);
    expect((await on(a, api.token)).status).toBe(401);
  });

  it("a role taken away or given on one server applies to the next request on the other", async () => {
    const admin = await signIn(a.app, (await buildUser(a.app.db.db, "admin")).user.email);
    const { user, api } = await operatorOnBoth();
    expect((await on(b, api.token, "/api/v1/users")).status).toBe(403);
    const given = await admin.put(`/api/v1/users/${user.id}`, { user: { administrator_role: true } });
    expect(given.status).toBe(200);
    expect((await on(b, api.token, "/api/v1/users")).status).toBe(200);
    expect((await on(b, api.token)).body.user.administrator_role).toBe(true);
    const taken = await admin.put(`/api/v1/users/${user.id}`, { user: { administrator_role: false } });
    expect(taken.status).toBe(200);
    expect((await on(b, api.token, "/api/v1/users")).status).toBe(403);
  });

  it("deactivating the employee on one server signs them out on the other at once", async () => {
    const admin = await signIn(a.app, (await buildUser(a.app.db.db, "admin")).user.email);
    const { employee, api } = await operatorOnBoth();
    const off = await admin.put(`/api/v1/employees/${employee?.id}`, { employee: { is_active: false } });
    expect(off.status).toBe(200);
    expect((await on(b, api.token)).status).toBe(401);
  });

  it("a password changed on one server ends the other sessions on the other server at once", async () => {
    const { user } = await buildUser(a.app.db.db, "admin");
    const here = await signIn(a.app, user.email);
    const other = await signIn(a.app, user.email);
    for (const token of [here.token, other.token]) expect((await on(b, token)).status).toBe(200);
    const changed = await here.put(`/api/v1/users/${user.id}`, {
      user: { password: "otra-clave-segura-1", password_confirmation: "otra-clave-segura-1" },
    });
    expect(changed.status).toBe(200);
    expect((await on(b, other.token)).status).toBe(401);
    expect((await on(b, here.token)).status).toBe(200);
  });

  it("a change written outside any server (create-admin, psql) reaches both by its trigger", async () => {
    const { user, employee, api } = await operatorOnBoth();
    await a.database.rows(sql`update users set finance_role = true where id = ${user.id}`);
    await eventually(async () => (await on(b, api.token)).body.user.finance_role === true);
    await a.app.db.db
      .update(employees)
      .set({ name: "Nombre Nuevo" })
      .where(eq(employees.id, employee?.id ?? 0));
    await eventually(async () => (await on(b, api.token)).body.user.employee?.name === "Nombre Nuevo");
    await a.database.rows(sql`delete from sessions where user_id = ${user.id}`);
    await eventually(async () => (await on(b, api.token)).status === 401);
    await eventually(async () => (await on(a, api.token)).status === 401);
  });

  it("a user removed outside the servers cannot go on with a cached session", async () => {
    const { user, api } = await operatorOnBoth();
    await a.database.rows(sql`delete from employees where user_id = ${user.id}`);
    await a.app.db.db.delete(users).where(eq(users.id, user.id));
    await eventually(async () => (await on(b, api.token)).status === 401);
  });

  it("its own once-a-minute write of a session's last use is not taken for a change", async () => {
    const { user, api } = await operatorOnBoth();
    await a.database.rows(sql`update sessions set last_seen_at = now() - interval '5 minutes' where user_id = ${user.id}`);
    const cache = a.app.sessionCache;
    const writes = cache?.writes ?? 0;
    const statements = await statementsOf(a, () => on(a, api.token));
    expect(statements.some((s) => /update "sessions" set "last_seen_at"/.test(s))).toBe(true);
    expect(cache?.writes).toBe(writes);
  });

  it.runIf(process.env.DATABASE_URL)("stops trusting what it cached while it cannot hear the database", async () => {
    const { user, api } = await operatorOnBoth();
    const cache = b.app.sessionCache;
    expect(cache?.active).toBe(true);
    // The listening connections are cut (a restart of PostgreSQL, a network cut, an administrator).
    await a.database.rows(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = 'LISTEN sia_sessions'`,
    );
    await eventually(async () => cache?.active === false);
    // Meanwhile a change is written; nobody hears it, so it must be read from the database.
    await a.database.rows(sql`update users set finance_role = true where id = ${user.id}`);
    expect((await on(b, api.token)).body.user.finance_role).toBe(true);
    // Listening again, it caches and is told again.
    await eventually(async () => cache?.active === true);
    expect((await on(b, api.token)).status).toBe(200);
    await a.database.rows(sql`update users set finance_role = false where id = ${user.id}`);
    await eventually(async () => (await on(b, api.token)).body.user.finance_role === false);
  });
});
