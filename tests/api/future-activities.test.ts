/**
 * Hours on days after today (the firm's zone) are refused on every write path — a single save, a change,
 * the week's validate and batch (which the CSV and calendar imports also save through) and the copy of
 * the previous week — unless an administrator allows them in Configuración; vacation planned ahead is
 * always accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activities, activity_type_catalogs } from "../../server/db/schema";
import { VACATION_DESCRIPTION } from "../../src/core/constants";
import { messages } from "../../src/core/messages";
import { addDays, businessToday, mondayOf, zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, signInAs } from "../support/factories";

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let typeId: number;

const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m).toISOString();
};
const internal = (date: string, from: string, to: string, extra: Record<string, unknown> = {}) => ({
  begins_at: at(date, from),
  ends_at: at(date, to),
  action_type: "internal",
  description: "Trabajo interno",
  activity_type_catalog_id: typeId,
  ...extra,
});
const vacation = (date: string) => ({
  begins_at: at(date, "09:00"),
  ends_at: at(date, "18:00"),
  action_type: "vacation",
  description: VACATION_DESCRIPTION,
});
const setAllowed = (allow: unknown) => admin.put("/api/v1/app_settings/1", { app_setting: { allow_future_activities: allow } });

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAs(t.app, "admin")).api;
  operator = (await signInAs(t.app, "operator")).api;
  const [type] = await t.app.db.db
    .insert(activity_type_catalogs)
    .values({ code: "ZFU", name: "Futuro" })
    .onConflictDoNothing()
    .returning();
  typeId = type.id;
});
afterAll(() => t.close());

// Read at each test: a run that crosses midnight in Mexico City still judges by the server's today.
const today = () => businessToday();
const tomorrow = () => addDays(today(), 1);
const refusal = (date: string) => messages.activityFutureDay(date);

describe("hours on future days, with the setting off (the default)", () => {
  it("the setting starts off and is answered with the settings", async () => {
    const res = await operator.get("/api/v1/app_settings/1");
    expect(res.status).toBe(200);
    expect(res.body.app_setting.allow_future_activities).toBe(false);
  });

  it("a single save: tomorrow is refused with the Spanish message; today and vacation tomorrow are saved", async () => {
    const refused = await operator.post("/api/v1/activities", { activity: internal(tomorrow(), "09:00", "10:00") });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.base).toEqual([refusal(tomorrow())]);
    expect(refusal(tomorrow())).toMatch(/^No se pueden registrar horas en días futuros \(\d{2}\/\d{2}\/\d{4}\)\./);
    const years = await operator.post("/api/v1/activities", { activity: internal("2031-03-17", "09:00", "10:00") });
    expect(years.status).toBe(422);
    expect(years.body.errors.base).toEqual([refusal("2031-03-17")]);
    const now = await operator.post("/api/v1/activities", { activity: internal(today(), "06:00", "07:00") });
    expect(now.status).toBe(201);
    const planned = await operator.post("/api/v1/activities", { activity: vacation(addDays(today(), 30)) });
    expect(planned.body.errors).toBeUndefined();
    expect(planned.status).toBe(201);
  });

  it("a change cannot move an activity to a future day", async () => {
    const yesterday = addDays(today(), -1);
    const created = await operator.post("/api/v1/activities", { activity: internal(yesterday, "06:00", "07:00") });
    expect(created.status).toBe(201);
    const id = created.body.activity.id;
    const moved = await operator.put(`/api/v1/activities/${id}`, {
      activity: { begins_at: at(addDays(today(), 8), "06:00"), ends_at: at(addDays(today(), 8), "07:00") },
    });
    expect(moved.status).toBe(422);
    expect(moved.body.errors.base).toEqual([refusal(addDays(today(), 8))]);
    const renamed = await operator.put(`/api/v1/activities/${id}`, { activity: { description: "Otra descripción" } });
    expect(renamed.status).toBe(200);
  });

  it("the week's validate and batch (the imports' save) refuse the future rows by index and write nothing", async () => {
    const later = addDays(today(), 2);
    const body = {
      activities: [
        internal(today(), "07:00", "08:00", { import_key: "csv:hoy" }),
        internal(later, "09:00", "10:00", { import_key: "csv:futuro" }),
        vacation(addDays(today(), 4)),
      ],
    };
    const checked = await operator.post("/api/v1/activities/validate", body);
    expect(checked.status).toBe(422);
    expect(Object.keys(checked.body.errors)).toEqual(["1"]);
    expect(checked.body.errors["1"].base).toEqual([`09:00 - 10:00: ${refusal(later)}`]);
    const before = (await t.app.db.db.select().from(activities)).length;
    const saved = await operator.post("/api/v1/activities/batch", body);
    expect(saved.status).toBe(422);
    expect(saved.body.errors["1"].base).toEqual([`09:00 - 10:00: ${refusal(later)}`]);
    expect((await t.app.db.db.select().from(activities)).length).toBe(before);
    const vacationOnly = await operator.post("/api/v1/activities/batch", { activities: [vacation(addDays(today(), 3))] });
    expect(vacationOnly.status).toBe(200);
  });

  it("copying this week into the next skips what would land after today, with its reason", async () => {
    const monday = mondayOf(today());
    const source = await admin.post("/api/v1/activities", {
      activity: internal(today(), "05:00", "06:00", { description: "Copia" }),
    });
    expect(source.status).toBe(201);
    const nextWeek = addDays(monday, 7);
    const dry = await admin.post("/api/v1/activities/copy_previous_week", { week_start: nextWeek, dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body.to_copy).toEqual([]);
    expect(dry.body.skipped).toEqual([expect.objectContaining({ description: "Copia", reason: refusal(addDays(today(), 7)) })]);
    const res = await admin.post("/api/v1/activities/copy_previous_week", { week_start: nextWeek });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(0);
    expect(res.body.skipped.map((s: { reason: string }) => s.reason)).toEqual([refusal(addDays(today(), 7))]);
  });
});

describe("the setting, kept by administrators", () => {
  it("only an administrator changes it; a value that is not yes or no gets a Spanish 422", async () => {
    const denied = await operator.put("/api/v1/app_settings/1", { app_setting: { allow_future_activities: true } });
    expect(denied.status).toBe(403);
    const bad = await setAllowed("sí");
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.errors.allow_future_activities)).toMatch(/[a-záéíóúñ]/);
    const hostile = await setAllowed({ toString: "x" });
    expect(hostile.status).toBe(422);
    expect((await operator.get("/api/v1/app_settings/1")).body.app_setting.allow_future_activities).toBe(false);
  });

  it("turned on, every write path accepts future days; turned off again, they are refused again", async () => {
    const on = await setAllowed(true);
    expect(on.status).toBe(200);
    expect(on.body.app_setting.allow_future_activities).toBe(true);
    const day = addDays(today(), 14);
    expect((await operator.post("/api/v1/activities", { activity: internal(day, "09:00", "10:00") })).status).toBe(201);
    expect((await operator.post("/api/v1/activities/validate", { activities: [internal(day, "11:00", "12:00")] })).status).toBe(
      200,
    );
    expect((await operator.post("/api/v1/activities/batch", { activities: [internal(day, "11:00", "12:00")] })).status).toBe(200);
    const copied = await operator.post("/api/v1/activities/copy_previous_week", { week_start: addDays(mondayOf(day), 7) });
    expect(copied.status).toBe(200);
    expect(copied.body.created).toBe(2);
    const off = await setAllowed(false);
    expect(off.body.app_setting.allow_future_activities).toBe(false);
    const refused = await operator.post("/api/v1/activities", { activity: internal(day, "13:00", "14:00") });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.base).toEqual([refusal(day)]);
  });
});
