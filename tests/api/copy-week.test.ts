/**
 * POST activities/copy_previous_week: a message that says what happened, and a dry run that writes nothing.
 * Vacations are used because they need no catalogue (their description is always the fixed one).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activities, holydays } from "../../server/db/schema";
import { messages } from "../../src/core/messages";
import { zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, signInAs } from "../support/factories";
import { allowFutureActivities } from "../support/future";

let t: TestApp;
let operator: ApiClient;
let me: { id: number };

const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m).toISOString();
};
const add = async (date: string, from: string, to: string, description: string) => {
  const res = await operator.post("/api/v1/activities", {
    activity: { begins_at: at(date, from), ends_at: at(date, to), action_type: "vacation", description },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
};
const copy = (weekStart: string, extra: Record<string, unknown> = {}) =>
  operator.post("/api/v1/activities/copy_previous_week", { week_start: weekStart, ...extra });
const count = async () => (await t.app.db.db.select().from(activities).where(eq(activities.employee_id, me.id))).length;

beforeAll(async () => {
  t = await buildTestApp();
  // Its fixtures log weeks years ahead (fixed dates that stay on the weekdays they name).
  await allowFutureActivities(t.app);
  const op = await signInAs(t.app, "operator");
  operator = op.api;
  me = op.employee as { id: number };
});
afterAll(() => t.close());

describe("copying the previous week", () => {
  it("nothing to copy says so", async () => {
    const res = await copy("2032-01-12");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 0, total: 0, skipped: [], message: messages.copyNothing });
  });

  it("all copied, after a dry run that said what would be copied and wrote nothing", async () => {
    await add("2032-02-02", "09:00", "10:00", "Uno");
    await add("2032-02-03", "09:00", "10:00", "Dos");
    const before = await count();
    const dry = await copy("2032-02-09", { dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dry_run: true, created: 0, total: 2, skipped: [], message: messages.copyDryRunAll(2) });
    expect(dry.body.to_copy.map((c: { begins_at: string }) => c.begins_at)).toEqual([
      at("2032-02-09", "09:00"),
      at("2032-02-10", "09:00"),
    ]);
    expect(await count()).toBe(before);
    const res = await copy("2032-02-09");
    expect(res.body).toMatchObject({ created: 2, total: 2, message: messages.copyAllCopied(2) });
    expect(await count()).toBe(before + 2);
  });

  it("some copied: N of M, the others listed with their reason", async () => {
    await add("2032-03-01", "09:00", "10:00", "Lunes");
    await add("2032-03-02", "09:00", "10:00", "Martes");
    await t.app.db.db.insert(holydays).values({ date: "2032-03-09", name: "Festivo" });
    const dry = await copy("2032-03-08", { dry_run: "true" });
    expect(dry.body).toMatchObject({ dry_run: true, total: 2, message: messages.copyDryRunSome(1, 2) });
    const res = await copy("2032-03-08");
    expect(res.body).toMatchObject({ created: 1, total: 2, message: messages.copySomeCopied(1, 2) });
    expect(res.body.skipped).toMatchObject([{ begins_at: at("2032-03-09", "09:00"), reason: messages.copySkippedHoliday }]);
  });

  it("none copied: says none, and why; never «Todas las actividades se agregaron correctamente»", async () => {
    await add("2032-04-05", "09:00", "10:00", "A");
    await add("2032-04-06", "09:00", "10:00", "B");
    await add("2032-04-07", "09:00", "10:00", "C");
    // Copied once: copying again finds every place taken.
    expect((await copy("2032-04-12")).body.created).toBe(3);
    const before = await count();
    const dry = await copy("2032-04-12", { dry_run: true });
    expect(dry.body.message).toBe(messages.copyDryRunNone(3, `${messages.activityConflict} (3)`));
    const res = await copy("2032-04-12");
    expect(res.body).toMatchObject({ created: 0, total: 3 });
    expect(res.body.message).toBe(messages.copyNoneCopied(3, `${messages.activityConflict} (3)`));
    expect(res.body.message).not.toBe(messages.activitiesAllAdded);
    expect(res.body.skipped).toHaveLength(3);
    expect(await count()).toBe(before);
  });
});
