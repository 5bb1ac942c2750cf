/**
 * A deactivated employee keeps nothing: every request checks the employee is still active, and sign-ins
 * in flight while an administrator deactivates the employee either fail or have their session deleted
 * with the others (the race class: tests/support/race.ts).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { employees, sessions } from "../../server/db/schema";
import { messages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { buildUser, call, PASSWORD, signIn } from "../support/factories";
import { recordFigures } from "../support/figures";
import { race } from "../support/race";

let t: TestApp;
beforeAll(async () => {
  // Many parallel sign-ins of one account are the point here, not the login limit.
  // Every one of the 98 sign-ins must reach the race, none turned away by the hashing queue.
  t = await buildTestApp({ LOGIN_MAX_FAILURES: "500", PASSWORD_HASH_QUEUE: "128" });
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const sessionsOf = async (userId: number) =>
  (await t.app.db.db.select().from(sessions).where(eq(sessions.user_id, userId))).length;

describe("every request checks the employee", () => {
  it("a token of an employee made inactive (even behind the service's back) answers 401 everywhere", async () => {
    const { user, employee } = await buildUser(t.app.db.db, "operator");
    const api = await signIn(t.app, user.email);
    for (const url of ["/api/v1/clients", "/api/v1/activities", "/api/v1/sessions/current"])
      expect((await api.get(url)).status).toBe(200);
    // Straight in the database: no service deleted the sessions.
    await t.app.db.db.update(employees).set({ is_active: false }).where(eq(employees.id, employee!.id));
    expect(await sessionsOf(user.id)).toBe(1);
    for (const url of ["/api/v1/clients", "/api/v1/activities", "/api/v1/sessions/current", "/drive/folders"]) {
      const res = await call(t.app, "GET", url, undefined, bearer(api.token));
      expect(res.status, url).toBe(401);
    }
    // Active again: the same session works (it was refused, not destroyed).
    await t.app.db.db.update(employees).set({ is_active: true }).where(eq(employees.id, employee!.id));
    expect((await api.get("/api/v1/clients")).status).toBe(200);
  });

  it("a user without an employee (an administrator of the firm) is not affected", async () => {
    const { user } = await buildUser(t.app.db.db, "admin", {}, false);
    const api = await signIn(t.app, user.email);
    expect((await api.get("/api/v1/clients")).status).toBe(200);
  });
});

describe("deactivation and sign-in exclude each other", () => {
  it("98 sign-ins racing a deactivation: no session survives, no token works", async () => {
    const admin = await signIn(t.app, (await buildUser(t.app.db.db, "admin")).user.email);
    // The overlap depends on timing: a round where the deactivation landed after every sign-in proves
    // nothing, so up to 3 rounds are run until one overlaps; every round must leave nothing behind.
    let overlapped: { round: number; granted: number; refused: number } | null = null;
    for (let round = 1; round <= 3 && !overlapped; round++) {
      const { user, employee } = await buildUser(t.app.db.db, "operator");
      const { answers, tally } = await race(
        t.app,
        98,
        () => ({ method: "POST", url: "/api/v1/sessions", payload: { email: user.email, password: PASSWORD } }),
        async (answered) => {
          // Deactivate while the burst is in flight: some sign-ins done, most still checking the password.
          await answered(3);
          const res = await admin.put(`/api/v1/employees/${employee!.id}`, { employee: { is_active: false } });
          expect(res.status).toBe(200);
        },
      );
      // What the race is about: no session of the deactivated employee outlives the deactivation.
      expect(await sessionsOf(user.id)).toBe(0);
      expect((tally[200] ?? 0) + (tally[401] ?? 0)).toBe(98);
      for (const a of answers.filter((x) => x.status === 401)) expect(a.body).toEqual({ error: messages.invalidCredentials });
      for (const a of answers.filter((x) => x.status === 200)) {
        const res = await call(t.app, "GET", "/api/v1/clients", undefined, bearer(a.body.token));
        expect(res.status).toBe(401);
      }
      // Before the deactivation some got in; after it the rest were refused like any inactive employee.
      if ((tally[200] ?? 0) > 0 && (tally[401] ?? 0) > 0) overlapped = { round, granted: tally[200], refused: tally[401] };
    }
    expect(overlapped, "ninguna ronda cruzó la baja con los inicios de sesión").not.toBeNull();
    recordFigures(
      "seguridad-desactivacion",
      `98 sign-ins racing a deactivation (fired at the 3rd answer, round ${overlapped?.round}): ${overlapped?.granted} got a token, ${overlapped?.refused} refused; sessions left 0, tokens working 0`,
      { signIns: 98, ...overlapped, sessionsLeft: 0 },
    );
  });
});
