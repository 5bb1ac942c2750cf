/** GET activities/week_state, and who may close which week (a week that has not begun stays open). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { frozen_periods } from "../../server/db/schema";
import { messages, reviewMessages } from "../../src/core/messages";
import { addDays, businessToday, mondayOf } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, signInAs } from "../support/factories";

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let finance: ApiClient;
let me: { id: number };
let otherEmployee: { id: number };

const THIS_MONDAY = mondayOf(businessToday());
const NEXT_MONDAY = addDays(THIS_MONDAY, 7);
const state = (api: ApiClient, weekStart: string, employee?: number) =>
  api.get(`/api/v1/activities/week_state?week_start=${weekStart}${employee ? `&by_employee=${employee}` : ""}`);
const close = (api: ApiClient, day: string, employee?: number) =>
  api.put("/api/v1/activities/close_activities", { by_begins_at: { start_date: day }, by_employee: employee });

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAs(t.app, "admin")).api;
  const op = await signInAs(t.app, "operator");
  operator = op.api;
  me = op.employee as { id: number };
  otherEmployee = (await signInAs(t.app, "operator")).employee as { id: number };
  finance = (await signInAs(t.app, "finance")).api;
});
afterAll(() => t.close());

describe("the week's state", () => {
  it("an open week that has begun: the owner may send it from its Friday, neither close nor open it", async () => {
    const res = await state(operator, addDays(THIS_MONDAY, 2));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      week_start: THIS_MONDAY,
      week_end: addDays(THIS_MONDAY, 6),
      employee_id: me.id,
      frozen: false,
      frozen_kind: null,
      frozen_days: [],
      can_close: false,
      can_open: false,
      daily_hours: 8,
      start_on: expect.toBeOneOf([null, expect.any(String)]),
      review: null,
      // Sent to review from its Friday on.
      can_submit: addDays(THIS_MONDAY, 4) <= businessToday(),
    });
  });

  it("a future week: an Operador may not close it (422 in Spanish), an administrator may", async () => {
    expect((await state(operator, NEXT_MONDAY)).body).toMatchObject({ frozen: false, can_close: false, can_open: false });
    const refused = await close(operator, NEXT_MONDAY);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.week_start).toEqual([reviewMessages.notYet]);
    expect((await state(admin, NEXT_MONDAY, me.id)).body).toMatchObject({ can_close: true, can_open: false });
    expect((await close(admin, NEXT_MONDAY, me.id)).status).toBe(200);
    expect((await state(operator, NEXT_MONDAY)).body).toMatchObject({
      frozen: true,
      frozen_kind: "week",
      can_close: false,
      can_open: false,
    });
    expect((await state(admin, NEXT_MONDAY, me.id)).body).toMatchObject({ frozen: true, can_open: true, can_close: false });
  });

  it("an Operador's closing of an ended week sends it to review: closed until a reviewer acts, never for good", async () => {
    const sent = await close(operator, "2025-01-08");
    expect(sent.status).toBe(200);
    expect(sent.body.message).toBe(reviewMessages.submitted);
    expect((await state(operator, "2025-01-06")).body).toMatchObject({
      frozen: true,
      frozen_kind: "week",
      can_close: false,
      can_submit: false,
      review: { state: "submitted" },
    });
    // Twice is refused, as sending it twice is.
    expect((await close(operator, "2025-01-08")).body.errors.base).toEqual([reviewMessages.alreadySubmitted]);
  });

  it("a frozen month freezes only its days of a week that crosses the month's end", async () => {
    await t.app.db.db
      .insert(frozen_periods)
      .values({ employee_id: me.id, kind: "month", starts_on: "2030-04-01", ends_on: "2030-04-30" });
    const res = await state(operator, "2030-04-29");
    expect(res.body).toMatchObject({
      week_start: "2030-04-29",
      frozen: false,
      frozen_kind: "month",
      frozen_days: ["2030-04-29", "2030-04-30"],
    });
  });

  it("whose week: non-admins only their own; admins any employee; bad input is a Spanish 422", async () => {
    expect((await state(operator, THIS_MONDAY, otherEmployee.id)).status).toBe(403);
    expect((await state(operator, THIS_MONDAY, me.id)).status).toBe(200);
    expect((await state(admin, THIS_MONDAY, otherEmployee.id)).body).toMatchObject({
      employee_id: otherEmployee.id,
      can_close: true,
    });
    // Finanzas has no employee of its own in this test: told so, never a 500.
    expect((await state(finance, THIS_MONDAY)).status).toBeLessThan(500);
    for (const week of ["", "2030-13-01", "mañana", "1899-12-25"]) {
      const res = await state(operator, week);
      expect(res.status, week).toBe(422);
      expect(res.body.errors.week_start, week).toBeDefined();
    }
    const missing = await state(admin, THIS_MONDAY, 99_999_999);
    expect(missing.status).toBe(422);
    expect(missing.body.errors.by_employee).toEqual([messages.invalidReference]);
  });
});
