/**
 * At least one active administrator always remains: every path that takes the role away (the user's
 * edit, deleting the user, deactivating their employee) is refused with a Spanish 422 when it would leave
 * none, also when two administrators act at the same moment. And a user always has one role at least.
 */
import { and, eq, ne, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { employees, users } from "../../server/db/schema";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildUser, signIn } from "../support/factories";

const LAST_ADMIN =
  "No se puede quitar ni dar de baja al último administrador activo: primero dé el rol de Administrador a otro usuario activo";
const ROLE_REQUIRED = "elija al menos un rol: Administrador, Operador o Finanzas";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

interface Admin {
  api: ApiClient;
  user: typeof users.$inferSelect;
  employee: typeof employees.$inferSelect | null;
}

/** Two fresh administrators, and nobody else holding the role. */
async function twoAdmins(): Promise<[Admin, Admin]> {
  const made: Admin[] = [];
  for (let i = 0; i < 2; i++) {
    const { user, employee } = await buildUser(t.app.db.db, "admin");
    made.push({ api: await signIn(t.app, user.email), user, employee });
  }
  await t.app.db.db
    .update(users)
    .set({ administrator_role: false, operator_role: true })
    .where(and(ne(users.id, made[0].user.id), ne(users.id, made[1].user.id)));
  return [made[0], made[1]];
}

const activeAdmins = async () => {
  const rows = await t.app.db.db
    .select({ id: users.id })
    .from(users)
    .leftJoin(employees, eq(employees.user_id, users.id))
    .where(sql`${users.administrator_role} and (${employees.id} is null or ${employees.is_active})`);
  return rows.map((r) => r.id);
};

describe("the last administrator", () => {
  let a: Admin;
  let b: Admin;
  beforeEach(async () => {
    [a, b] = await twoAdmins();
  });

  it("may drop their own role while another administrator remains, and not once they are the last", async () => {
    const demoteB = await b.api.put(`/api/v1/users/${b.user.id}`, { user: { administrator_role: false, operator_role: true } });
    expect(demoteB.status).toBe(200);
    expect(demoteB.body.user.administrator_role).toBe(false);
    // The form sends the whole record back: A unticks «Administrador» on her own user.
    const own = (await a.api.get(`/api/v1/users/${a.user.id}`)).body.user;
    const refused = await a.api.put(`/api/v1/users/${a.user.id}`, {
      user: { ...own, administrator_role: false, operator_role: true },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ administrator_role: [LAST_ADMIN] });
    expect(await activeAdmins()).toEqual([a.user.id]);
    // Still an administrator: the app keeps answering her.
    expect((await a.api.get("/api/v1/users")).status).toBe(200);
  });

  it("is not left out by deactivating the other's employee and demoting oneself", async () => {
    const deactivate = await a.api.put(`/api/v1/employees/${b.employee?.id}`, { employee: { is_active: false } });
    expect(deactivate.status).toBe(200);
    const refused = await a.api.put(`/api/v1/users/${a.user.id}`, { user: { administrator_role: false, finance_role: true } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.administrator_role).toEqual([LAST_ADMIN]);
    expect(await activeAdmins()).toEqual([a.user.id]);
  });

  it("survives two administrators demoting each other at the same moment: one remains", async () => {
    // Several rounds, each request carrying the version it read so both reach their transactions together.
    for (let round = 0; round < 4; round++) {
      if (round > 0) [a, b] = await twoAdmins();
      const demote = (by: Admin, target: Admin) =>
        by.api.request("PUT", `/api/v1/users/${target.user.id}`, {
          user: { administrator_role: false, operator_role: true, lock_version: target.user.lock_version },
        });
      const [first, second] = await Promise.all([demote(a, b), demote(b, a)]);
      // The loser is refused either as the last administrator (422) or, when its authority is read again
      // after the winner's commit, as no longer an administrator: it then sees only its own user (404).
      const refused = first.status === 200 ? second : first;
      expect([first.status, second.status]).toContain(200);
      expect([422, 404]).toContain(refused.status);
      if (refused.status === 422) expect(refused.body.errors.administrator_role).toEqual([LAST_ADMIN]);
      expect(await activeAdmins()).toHaveLength(1);
    }
  });

  it("survives one deactivating the other's employee while the other demotes them", async () => {
    const [deactivate, demote] = await Promise.all([
      a.api.put(`/api/v1/employees/${b.employee?.id}`, { employee: { is_active: false } }),
      b.api.put(`/api/v1/users/${a.user.id}`, { user: { administrator_role: false, operator_role: true } }),
    ]);
    // The loser is refused as the last administrator (422) or, when its session is read after the winner's
    // commit, as what it has become: B deactivated is signed out (401), A demoted may not edit employees (403).
    if (deactivate.status === 200) {
      expect([422, 401]).toContain(demote.status);
      if (demote.status === 422) expect(demote.body.errors.administrator_role).toEqual([LAST_ADMIN]);
    } else {
      expect(demote.status).toBe(200);
      expect([422, 403]).toContain(deactivate.status);
      if (deactivate.status === 422) expect(deactivate.body.errors.is_active).toEqual([LAST_ADMIN]);
    }
    expect(await activeAdmins()).toHaveLength(1);
  });

  it("survives one deleting the other (an administrator without employee) while being demoted", async () => {
    // B without an employee: a user that can still sign in, and the only way to delete an administrator.
    await t.app.db.db.delete(employees).where(eq(employees.user_id, b.user.id));
    const [removed, demote] = await Promise.all([
      a.api.delete(`/api/v1/users/${b.user.id}`),
      b.api.put(`/api/v1/users/${a.user.id}`, { user: { administrator_role: false, operator_role: true } }),
    ]);
    // Demoted first, the delete is refused; deleted first, B's own request finds her signed out.
    if (demote.status === 200) {
      expect(removed.status).toBe(422);
      expect(removed.body.errors.base).toEqual([LAST_ADMIN]);
    } else {
      expect(removed.status).toBe(200);
      expect([401, 422]).toContain(demote.status);
    }
    expect(await activeAdmins()).toHaveLength(1);
  });

  it("refuses deleting the last administrator (without an employee)", async () => {
    await t.app.db.db.delete(employees).where(eq(employees.user_id, b.user.id));
    expect(
      (await b.api.put(`/api/v1/users/${a.user.id}`, { user: { administrator_role: false, operator_role: true } })).status,
    ).toBe(200);
    const refused = await b.api.delete(`/api/v1/users/${b.user.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.base).toEqual([LAST_ADMIN]);
    expect(await activeAdmins()).toEqual([b.user.id]);
  });
});

describe("a user's roles", () => {
  let admin: Admin;
  beforeAll(async () => {
    [admin] = await twoAdmins();
  });
  const body = (overrides: Record<string, unknown>) => ({
    user: {
      name: "Sin Rol",
      email: `sinrol${Math.random().toString(36).slice(2, 8)}@prueba.mx`,
      password: "contraseña-1",
      password_confirmation: "contraseña-1",
      ...overrides,
    },
  });

  it("refuses a new user without a role, field by field in Spanish", async () => {
    for (const flags of [{}, { administrator_role: false, operator_role: false, finance_role: false, can_chat: true }]) {
      const res = await admin.api.post("/api/v1/users", body(flags));
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ administrator_role: [ROLE_REQUIRED] });
    }
    expect((await admin.api.post("/api/v1/users", body({ finance_role: true }))).status).toBe(201);
  });

  it("refuses an update that leaves no role, whole or partial", async () => {
    const created = (await admin.api.post("/api/v1/users", body({ operator_role: true }))).body.user;
    const whole = await admin.api.put(`/api/v1/users/${created.id}`, { user: { ...created, operator_role: false } });
    expect(whole.status).toBe(422);
    expect(whole.body.errors).toEqual({ administrator_role: [ROLE_REQUIRED] });
    const partial = await admin.api.put(`/api/v1/users/${created.id}`, { user: { operator_role: false } });
    expect(partial.status).toBe(422);
    expect(partial.body.errors).toEqual({ administrator_role: [ROLE_REQUIRED] });
    const swapped = await admin.api.put(`/api/v1/users/${created.id}`, { user: { operator_role: false, finance_role: true } });
    expect(swapped.status).toBe(200);
    expect(swapped.body.user).toMatchObject({ operator_role: false, finance_role: true });
  });
});
