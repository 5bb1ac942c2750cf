/**
 * The week save in one request: POST activities/batch with creates, updates and deletions applied
 * together (all or nothing), and POST activities/validate answering the same without writing.
 */
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activities, activity_type_catalogs, frozen_periods } from "../../server/db/schema";
import { messages } from "../../src/core/messages";
import { zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, call, signInAs } from "../support/factories";
import { allowFutureActivities } from "../support/future";
import { together } from "../support/stale-writes";

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let me: { id: number };
let otherEmployee: { id: number };
let typeId: number;

const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m).toISOString();
};
const internal = (date: string, from: string, to: string, extra: Record<string, unknown> = {}) => ({
  begins_at: at(date, from),
  ends_at: at(date, to),
  action_type: "internal",
  description: `Junta ${from}`,
  activity_type_catalog_id: typeId,
  ...extra,
});
type Stored = { id: number; lock_version: number; begins_at: string; ends_at: string; description: string };
/** Stores activities through the batch (as the screen does) and answers them in the given order. */
const stored = async (api: ApiClient, ...list: Record<string, unknown>[]): Promise<Stored[]> => {
  const res = await api.post("/api/v1/activities/batch", { activities: list });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.activities;
};
const ref = (a: Stored) => ({ id: a.id, lock_version: a.lock_version });
/** Every stored activity of both employees, for "nothing changed" checks. */
const snapshot = async () =>
  (
    await t.app.db.db
      .select()
      .from(activities)
      .where(inArray(activities.employee_id, [me.id, otherEmployee.id]))
  )
    .map((r) => JSON.stringify(r))
    .sort();
const save = (api: ApiClient, body: unknown) => api.post("/api/v1/activities/batch", body);
const check = (api: ApiClient, body: unknown) => api.post("/api/v1/activities/validate", body);

beforeAll(async () => {
  t = await buildTestApp();
  // Its fixtures log weeks years ahead (fixed dates that stay on the weekdays they name).
  await allowFutureActivities(t.app);
  admin = (await signInAs(t.app, "admin")).api;
  const op = await signInAs(t.app, "operator");
  operator = op.api;
  me = op.employee as { id: number };
  otherEmployee = (await signInAs(t.app, "operator")).employee as { id: number };
  const [type] = await t.app.db.db
    .insert(activity_type_catalogs)
    .values({ code: "ZWS", name: "Semana" })
    .onConflictDoNothing()
    .returning();
  typeId = type.id;
});
afterAll(() => t.close());

describe("the week save: creates, updates and deletions in one request", () => {
  it("applies all three together and answers the created, updated and deleted activities", async () => {
    const [a, b, c] = await stored(
      operator,
      internal("2031-01-06", "09:00", "10:00"),
      internal("2031-01-06", "10:00", "11:00"),
      internal("2031-01-06", "11:00", "12:00"),
    );
    // The new one takes the deleted one's place; the updated one grows into the freed hour after it.
    const res = await save(operator, {
      activities: [internal("2031-01-06", "11:00", "11:30", { description: "Nueva" })],
      updates: [{ ...ref(b), description: "Cambiada", ends_at: at("2031-01-06", "11:00") }],
      deletions: [ref(c)],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ created: 1, existing: 0, deleted: [c.id], message: messages.activitiesSaved });
    expect(res.body.activities).toHaveLength(1);
    expect(res.body.activities[0]).toMatchObject({ description: "Nueva", employee_id: me.id, lock_version: 0 });
    expect(res.body.updated).toHaveLength(1);
    expect(res.body.updated[0]).toMatchObject({ id: b.id, description: "Cambiada", lock_version: b.lock_version + 1 });
    const rows = await t.app.db.db
      .select()
      .from(activities)
      .where(inArray(activities.id, [a.id, b.id, c.id]));
    expect(rows.map((r) => [r.id, r.description]).sort()).toEqual(
      [
        [a.id, a.description],
        [b.id, "Cambiada"],
      ].sort(),
    );
  });

  it("Prefer: return=minimal answers the ids and counts only (the screen reads the week again)", async () => {
    const [a] = await stored(operator, internal("2031-01-13", "09:00", "10:00"));
    const res = await call(
      t.app,
      "POST",
      "/api/v1/activities/batch",
      {
        activities: [internal("2031-01-13", "11:00", "12:00", { description: "Mínima" })],
        updates: [{ ...ref(a), description: "Cambiada en mínima" }],
      },
      { authorization: `Bearer ${operator.token}`, prefer: "return=minimal" },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers["preference-applied"]).toBe("return=minimal");
    expect(res.body.activities).toEqual([{ id: expect.any(Number) }]);
    expect(res.body.updated).toEqual([{ id: a.id }]);
    expect(res.body).toMatchObject({ created: 1, existing: 0, deleted: [] });
    const [row] = await t.app.db.db.select().from(activities).where(eq(activities.id, a.id));
    expect(row.description).toBe("Cambiada en mínima");
  });

  it("Prefer: return=minimal answers the ids in the order sent; the rows read afterwards carry their computed columns", async () => {
    // Sent out of time order: the ids must follow the body, not the times or the insertion.
    const sent = [
      internal("2031-02-04", "15:00", "16:00", { description: "Tercera" }),
      internal("2031-02-04", "09:00", "10:00", { description: "Primera" }),
      internal("2031-02-04", "12:00", "13:00", { description: "Segunda" }),
    ];
    const res = await call(
      t.app,
      "POST",
      "/api/v1/activities/batch",
      { activities: sent },
      {
        authorization: `Bearer ${operator.token}`,
        prefer: "return=minimal",
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ created: 3, existing: 0 });
    const ids = (res.body.activities as { id: number }[]).map((a) => a.id);
    for (const [n, id] of ids.entries()) {
      const row = await operator.get(`/api/v1/activities/${id}`);
      expect(row.status).toBe(200);
      expect(row.body.activity).toMatchObject({
        id,
        description: sent[n].description,
        begins_at: sent[n].begins_at,
        employee_id: me.id,
        lock_version: 0,
        activity_type_code: "ZWS",
      });
      expect(row.body.activity.employee_name).toEqual(expect.any(String));
    }
  });

  it("two activities swap their times in one save", async () => {
    const [a, b] = await stored(operator, internal("2031-01-07", "09:00", "10:00"), internal("2031-01-07", "10:00", "12:00"));
    const res = await save(operator, {
      updates: [
        { ...ref(a), begins_at: b.begins_at, ends_at: b.ends_at },
        { ...ref(b), begins_at: a.begins_at, ends_at: a.ends_at },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [ra, rb] = await Promise.all(
      [a, b].map(async (x) => (await t.app.db.db.select().from(activities).where(eq(activities.id, x.id)))[0]),
    );
    expect(ra.begins_at.toISOString()).toBe(b.begins_at);
    expect(rb.begins_at.toISOString()).toBe(a.begins_at);
    // Moving one onto the other without moving the other is still an overlap, said for both.
    const clash = await save(operator, {
      updates: [{ ...ref({ ...a, lock_version: a.lock_version + 1 }), begins_at: a.begins_at, ends_at: a.ends_at }],
    });
    expect(clash.status).toBe(422);
    expect(clash.body.errors["updates.0"].base).toEqual([`09:00 - 10:00: ${messages.activityConflict}`]);
  });

  it("an update and a create of the same save that overlap each other are both refused", async () => {
    const [a] = await stored(operator, internal("2031-01-07", "14:00", "15:00"));
    const before = await snapshot();
    const res = await save(operator, {
      activities: [internal("2031-01-07", "16:30", "17:30")],
      updates: [{ ...ref(a), begins_at: at("2031-01-07", "16:00"), ends_at: at("2031-01-07", "17:00") }],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      "0": { base: [`16:30 - 17:30: ${messages.activityConflict}`] },
      "updates.0": { base: [`16:00 - 17:00: ${messages.activityConflict}`] },
    });
    expect(await snapshot()).toEqual(before);
  });

  it("a stale version refuses the whole save (409, which one) and changes nothing", async () => {
    const [a, b] = await stored(operator, internal("2031-01-08", "09:00", "10:00"), internal("2031-01-08", "10:00", "11:00"));
    const moved = await operator.put(`/api/v1/activities/${b.id}`, {
      activity: { description: "Desde otra pestaña", lock_version: b.lock_version },
    });
    expect(moved.status).toBe(200);
    const before = await snapshot();
    const body = {
      activities: [internal("2031-01-08", "12:00", "13:00")],
      updates: [
        { ...ref(a), description: "Nueva" },
        { ...ref(b), description: "Vieja" },
      ],
    };
    for (const res of [await check(operator, body), await save(operator, body)]) {
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(messages.staleVersion);
      expect(res.body.stale).toEqual([{ key: "updates.1", id: b.id, lock_version: b.lock_version + 1 }]);
      expect(res.body.errors).toEqual({
        "updates.1": { lock_version: [`10:00 - 11:00: ${messages.activityStaleInBatch(b.id)}`] },
      });
    }
    expect(await snapshot()).toEqual(before);
    // A deletion at a stale version too.
    expect((await save(operator, { deletions: [ref(b)] })).status).toBe(409);
    expect(await snapshot()).toEqual(before);
  });

  it("one invalid item saves nothing; errors keyed by create index, updates.N and deletions.N with the times", async () => {
    const [a, b] = await stored(operator, internal("2031-01-09", "09:00", "10:00"), internal("2031-01-09", "10:00", "11:00"));
    const before = await snapshot();
    const body = {
      activities: [internal("2031-01-09", "12:00", "13:00"), internal("2031-01-09", "13:00", "14:00", { description: "" })],
      updates: [
        { ...ref(a), description: "Bien" },
        { ...ref(b), ends_at: at("2031-01-10", "01:00") },
      ],
      deletions: [{ id: a.id }],
    };
    const res = await save(operator, body);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      "1": { description: ["13:00 - 14:00: es obligatorio"] },
      "updates.1": { ends_at: [`10:00 - 01:00: ${messages.activitySameDay}`] },
      "deletions.0": { lock_version: ["Actividad 1: es obligatorio"] },
    });
    expect(await snapshot()).toEqual(before);
    expect((await check(operator, body)).body).toEqual(res.body);
    // The same activity twice in one save is refused.
    const twice = await save(operator, { updates: [{ ...ref(a), description: "x" }], deletions: [ref(a)] });
    expect(twice.status).toBe(422);
    expect(twice.body.errors["deletions.0"].id).toEqual([`Actividad 1: ${messages.activityRepeatedInBatch}`]);
    expect(await snapshot()).toEqual(before);
  });

  it("a non-admin touching another employee's activity: 403 and nothing saved; an admin may", async () => {
    const [theirs] = await stored(admin, internal("2031-01-10", "09:00", "10:00", { employee_id: otherEmployee.id }));
    const before = await snapshot();
    for (const body of [
      { activities: [internal("2031-01-10", "11:00", "12:00")], updates: [{ ...ref(theirs), description: "Mía" }] },
      { activities: [internal("2031-01-10", "11:00", "12:00")], deletions: [ref(theirs)] },
      { updates: [{ ...ref(theirs), employee_id: me.id }] },
    ]) {
      expect((await save(operator, body)).status).toBe(403);
      expect((await check(operator, body)).status).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
    // Moving one's own activity to someone else is refused the same way.
    const [mine] = await stored(operator, internal("2031-01-10", "13:00", "14:00"));
    expect((await save(operator, { updates: [{ ...ref(mine), employee_id: otherEmployee.id }] })).status).toBe(403);
    const ok = await save(admin, { updates: [{ ...ref(theirs), description: "Por el administrador" }] });
    expect(ok.status).toBe(200);
    expect(ok.body.updated[0]).toMatchObject({ employee_id: otherEmployee.id, description: "Por el administrador" });
  });

  it("another employee's activity and a missing one get the same 403, so ids cannot be probed", async () => {
    const [theirs] = await stored(admin, internal("2031-01-11", "09:00", "10:00", { employee_id: otherEmployee.id }));
    await t.app.db.db.delete(activities).where(eq(activities.id, theirs.id));
    const [kept] = await stored(admin, internal("2031-01-11", "10:00", "11:00", { employee_id: otherEmployee.id }));
    const before = await snapshot();
    for (const path of ["batch", "validate"] as const) {
      for (const part of ["updates", "deletions"] as const) {
        const answer = async (id: number) => {
          const res = await operator.post(`/api/v1/activities/${path}`, {
            [part]: [{ id, lock_version: 0, ...(part === "updates" ? { description: "Mía" } : {}) }],
          });
          return { status: res.status, body: JSON.stringify(res.body).replaceAll(String(id), "ID") };
        };
        const other = await answer(kept.id);
        expect(other.status).toBe(403);
        expect(await answer(theirs.id)).toEqual(other);
        expect(await answer(2_000_000_000)).toEqual(other);
      }
    }
    expect(await snapshot()).toEqual(before);
    // An administrator, who may see every activity, is still told which one no longer exists.
    const missing = await save(admin, { deletions: [{ id: theirs.id, lock_version: 0 }] });
    expect(missing.status).toBe(422);
    expect(missing.body.errors["deletions.0"].id).toEqual([`Actividad 1: ${messages.activityMissing(theirs.id)}`]);
  });

  it("a frozen activity is refused at its old day and at its new day", async () => {
    const [a, b] = await stored(operator, internal("2031-01-14", "09:00", "10:00"), internal("2031-01-21", "09:00", "10:00"));
    await t.app.db.db
      .insert(frozen_periods)
      .values({ employee_id: me.id, kind: "week", starts_on: "2031-01-13", ends_on: "2031-01-19" });
    const before = await snapshot();
    const edit = await save(operator, { updates: [{ ...ref(a), description: "x" }] });
    expect(edit.status).toBe(422);
    expect(edit.body.errors["updates.0"].base).toEqual([`09:00 - 10:00: ${messages.activityFrozen}`]);
    const remove = await save(operator, { deletions: [ref(a)] });
    expect(remove.body.errors["deletions.0"].base).toEqual([`09:00 - 10:00: ${messages.activityFrozen}`]);
    const into = await save(operator, {
      updates: [{ ...ref(b), begins_at: at("2031-01-15", "09:00"), ends_at: at("2031-01-15", "10:00") }],
    });
    expect(into.status).toBe(422);
    expect(into.body.errors["updates.0"].base).toEqual([`09:00 - 10:00: ${messages.activityFrozen}`]);
    expect(await snapshot()).toEqual(before);
  });

  it("a double submit of the same save writes once", async () => {
    const [a] = await stored(operator, internal("2031-01-22", "08:00", "09:00"));
    const body = {
      activities: [
        internal("2031-01-22", "09:00", "10:00", { import_key: "ics:doble-1" }),
        internal("2031-01-22", "10:00", "11:00", { import_key: "ics:doble-2" }),
      ],
    };
    const race = await together(4, () => save(operator, body));
    expect(race.statuses, JSON.stringify(race.results.map((r) => r.body))).toEqual({ 200: 4 });
    expect(race.results.reduce((n, r) => n + r.body.created, 0)).toBe(2);
    const keys = await t.app.db.db
      .select()
      .from(activities)
      .where(inArray(activities.import_key, ["ics:doble-1", "ics:doble-2"]));
    expect(keys).toHaveLength(2);
    // With an update in it, the first save wins and the others find the version moved.
    const withUpdate = { ...body, updates: [{ ...ref(a), description: "Una vez" }] };
    const second = await together(3, () => save(operator, withUpdate));
    expect(second.statuses).toEqual({ 200: 1, 409: 2 });
    const [row] = await t.app.db.db.select().from(activities).where(eq(activities.id, a.id));
    expect(row.lock_version).toBe(a.lock_version + 1);
    // Without import keys, the second copy overlaps the first: refused, never stored twice.
    const plain = { activities: [internal("2031-01-23", "09:00", "10:00")] };
    const third = await together(2, () => save(operator, plain));
    expect(third.statuses).toEqual({ 200: 1, 422: 1 });
  });

  it("validate answers what the save would, and writes nothing", async () => {
    const [a] = await stored(operator, internal("2031-01-27", "09:00", "10:00"));
    const before = await snapshot();
    const body = {
      activities: [internal("2031-01-27", "10:00", "11:00")],
      updates: [{ ...ref(a), description: "Validada" }],
    };
    const res = await check(operator, body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: true });
    expect(await snapshot()).toEqual(before);
    const overlap = { activities: [internal("2031-01-27", "09:30", "10:30")] };
    const [v, s] = [await check(operator, overlap), await save(operator, overlap)];
    expect(v.status).toBe(422);
    expect(v.body).toEqual(s.body);
    // Deleting the one it overlaps makes it valid: the check runs over the final state.
    expect((await check(operator, { ...overlap, deletions: [ref(a)] })).status).toBe(200);
    expect(await snapshot()).toEqual(before);
    const empty = await check(operator, { activities: [], updates: [], deletions: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.activities).toEqual([messages.activitiesNone]);
  });
});
