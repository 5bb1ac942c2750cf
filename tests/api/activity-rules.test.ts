/**
 * The week's rules answer a code per refusal (src/core/activityRules.ts), the same on the week save
 * (POST activities/batch and activities/validate, `issues` with the item's key) and on SPEC §7's single
 * routes (POST/PUT/DELETE activities), beside SPEC §8's `errors`: a screen acts on the code, never on text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activity_type_catalogs, frozen_periods } from "../../server/db/schema";
import { messages } from "../../src/core/messages";
import { addDays, businessToday, zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, signInAs } from "../support/factories";

let t: TestApp;
let operator: ApiClient;
let me: { id: number };
let typeId: number;

const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m).toISOString();
};
const internal = (date: string, from: string, to: string) => ({
  begins_at: at(date, from),
  ends_at: at(date, to),
  action_type: "internal",
  description: `Regla ${from}`,
  activity_type_catalog_id: typeId,
});
const save = (body: unknown) => operator.post("/api/v1/activities/batch", body);
const validate = (body: unknown) => operator.post("/api/v1/activities/validate", body);
const create = (body: unknown) => operator.post("/api/v1/activities", { activity: body });
const codes = (body: { issues?: { item?: string; code: string }[] }) =>
  (body.issues ?? []).map((i) => (i.item === undefined ? i.code : `${i.item}:${i.code}`));

beforeAll(async () => {
  t = await buildTestApp();
  const op = await signInAs(t.app, "operator");
  operator = op.api;
  me = op.employee as { id: number };
  const [type] = await t.app.db.db
    .insert(activity_type_catalogs)
    .values({ code: "ZRC", name: "Reglas" })
    .onConflictDoNothing()
    .returning();
  typeId = type.id;
});
afterAll(() => t.close());

describe("the week's rules answer codes", () => {
  it("overlap: with a stored row and inside one save, on the week save and the single routes", async () => {
    const first = await create(internal("2025-03-04", "09:00", "10:00"));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const single = await create(internal("2025-03-04", "09:30", "10:30"));
    expect(single.status).toBe(422);
    expect(single.body.errors.base).toEqual([messages.activityConflict]);
    expect(single.body.issues).toEqual([{ code: "overlap", field: "base", message: messages.activityConflict }]);
    const later = await create(internal("2025-03-04", "11:00", "12:00"));
    const moved = await operator.put(`/api/v1/activities/${later.body.activity.id}`, {
      activity: { begins_at: at("2025-03-04", "09:45") },
    });
    expect(moved.status).toBe(422);
    expect(codes(moved.body)).toEqual(["overlap"]);

    const body = {
      activities: [
        internal("2025-03-04", "09:30", "10:30"),
        internal("2025-03-04", "13:00", "14:00"),
        internal("2025-03-04", "13:30", "14:30"),
      ],
    };
    for (const res of [await save(body), await validate(body)]) {
      expect(res.status).toBe(422);
      // The message keeps SPEC §8's prefix in `errors`; the issue has none.
      expect(res.body.errors["0"].base).toEqual([`09:30 - 10:30: ${messages.activityConflict}`]);
      expect(res.body.issues).toContainEqual({ item: "0", code: "overlap", field: "base", message: messages.activityConflict });
      expect(codes(res.body).sort()).toEqual(["0:overlap", "1:overlap", "2:overlap"]);
    }
  });

  it("frozen: a create into a closed week, an update and a deletion of a frozen row", async () => {
    const row = await create(internal("2025-03-11", "09:00", "10:00"));
    expect(row.status).toBe(201);
    await t.app.db.db
      .insert(frozen_periods)
      .values({ employee_id: me.id, kind: "week", starts_on: "2025-03-10", ends_on: "2025-03-16" });
    const single = await create(internal("2025-03-12", "09:00", "10:00"));
    expect(single.status).toBe(422);
    expect(codes(single.body)).toEqual(["frozen"]);
    const update = await operator.put(`/api/v1/activities/${row.body.activity.id}`, { activity: { description: "x" } });
    expect(update.status).toBe(422);
    expect(codes(update.body)).toEqual(["frozen"]);
    const remove = await operator.delete(`/api/v1/activities/${row.body.activity.id}`);
    expect(remove.status).toBe(422);
    expect(codes(remove.body)).toEqual(["frozen"]);

    const ref = { id: row.body.activity.id, lock_version: row.body.activity.lock_version };
    const res = await save({
      activities: [internal("2025-03-12", "09:00", "10:00")],
      updates: [{ ...ref, description: "x" }],
    });
    expect(res.status).toBe(422);
    expect(codes(res.body).sort()).toEqual(["0:frozen", "updates.0:frozen"]);
    const gone = await save({ deletions: [ref] });
    expect(codes(gone.body)).toEqual(["deletions.0:frozen"]);
  });

  it("future: hours after today, except vacation", async () => {
    const tomorrow = addDays(businessToday(), 1);
    const single = await create(internal(tomorrow, "09:00", "10:00"));
    expect(single.status).toBe(422);
    expect(single.body.issues).toEqual([{ code: "future", field: "base", message: messages.activityFutureDay(tomorrow) }]);
    const res = await save({ activities: [internal(tomorrow, "09:00", "10:00")] });
    expect(res.status).toBe(422);
    expect(codes(res.body)).toEqual(["0:future"]);
  });

  it("the times and the references: each its code, under its field", async () => {
    const res = await save({
      activities: [
        internal("2025-03-18", "10:00", "09:00"),
        internal("2025-03-18", "11:00", "11:00"),
        { ...internal("2025-03-18", "12:00", "13:00"), activity_type_catalog_id: 999999 },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.issues).toEqual(
      expect.arrayContaining([
        { item: "0", code: "ends_before_start", field: "ends_at", message: messages.activityEndBeforeStart },
        { item: "1", code: "zero_length", field: "ends_at", message: messages.activityEndBeforeStart },
        { item: "2", code: "reference", field: "activity_type_catalog_id", message: messages.invalidReference },
      ]),
    );
    const seconds = await save({
      activities: [
        {
          ...internal("2025-03-18", "14:00", "15:00"),
          ends_at: new Date(Date.parse(at("2025-03-18", "15:00")) + 5000).toISOString(),
        },
      ],
    });
    expect(codes(seconds.body)).toEqual(["0:whole_minutes"]);
    const single = await create({ ...internal("2025-03-18", "16:00", "17:00"), activity_type_catalog_id: 999999 });
    expect(single.status).toBe(422);
    expect(codes(single.body)).toEqual(["reference"]);
    const reversed = await create(internal("2025-03-18", "18:00", "17:00"));
    expect(reversed.status).toBe(422);
    expect(reversed.body.issues).toEqual([
      { code: "ends_before_start", field: "ends_at", message: messages.activityEndBeforeStart },
    ]);
  });

  it("a stale version and a missing activity say so by code", async () => {
    const row = await create(internal("2025-03-25", "09:00", "10:00"));
    const ref = { id: row.body.activity.id, lock_version: row.body.activity.lock_version };
    expect((await save({ updates: [{ ...ref, description: "una" }] })).status).toBe(200);
    const stale = await save({ updates: [{ ...ref, description: "otra" }] });
    expect(stale.status).toBe(409);
    expect(codes(stale.body)).toEqual(["updates.0:stale"]);
    const fresh = await create(internal("2025-03-25", "11:00", "12:00"));
    const again = { id: fresh.body.activity.id, lock_version: fresh.body.activity.lock_version };
    const repeated = await save({ deletions: [again, again] });
    expect(repeated.status).toBe(422);
    expect(codes(repeated.body)).toEqual(["deletions.1:repeated"]);
  });
});
