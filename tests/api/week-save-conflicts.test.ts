/**
 * Two browsers of one person import the same calendar week and save it with different content: the
 * second save is a conflict the person sees (409 naming each event, the stored id and version), never a
 * 200 «already there» that drops its edits. The same content saved twice is still written once.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activities, activity_type_catalogs } from "../../server/db/schema";
import { timesheetMessages } from "../../src/core/messages";
import { zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, signInAs } from "../support/factories";
import { allowFutureActivities } from "../support/future";

let t: TestApp;
let operator: ApiClient;
let typeId: number;

const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m).toISOString();
};
const imported = (key: string, from: string, to: string, extra: Record<string, unknown> = {}) => ({
  begins_at: at("2031-03-03", from),
  ends_at: at("2031-03-03", to),
  action_type: "internal",
  description: `Evento ${key}`,
  activity_type_catalog_id: typeId,
  import_key: key,
  ...extra,
});
const vacation = (key: string, from: string, to: string) => ({
  begins_at: at("2031-03-03", from),
  ends_at: at("2031-03-03", to),
  action_type: "vacation",
  description: "Vacaciones / Incapacidades",
  import_key: key,
});
const save = (body: unknown) => operator.post("/api/v1/activities/batch", body);
const storedOf = async (key: string) => (await t.app.db.db.select().from(activities).where(eq(activities.import_key, key)))[0];

beforeAll(async () => {
  t = await buildTestApp();
  // Its weeks are fixed dates years ahead, on the weekdays they name.
  await allowFutureActivities(t.app);
  operator = (await signInAs(t.app, "operator")).api;
  const [type] = await t.app.db.db
    .insert(activity_type_catalogs)
    .values({ code: "ZCF", name: "Conflictos" })
    .onConflictDoNothing()
    .returning();
  typeId = type.id;
});
afterAll(() => t.close());

describe("an import key already stored with other content", () => {
  it("answers 409 naming the event, and keeps what the first browser saved", async () => {
    const first = await save({ activities: [imported("ics:cf-1", "09:00", "10:00"), imported("ics:cf-2", "10:00", "11:00")] });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const before = await storedOf("ics:cf-1");

    // The second browser set the first event to Vacaciones and left the other one as imported.
    const second = await save({ activities: [vacation("ics:cf-1", "09:00", "10:00"), imported("ics:cf-2", "10:00", "11:00")] });
    expect(second.status, JSON.stringify(second.body)).toBe(409);
    expect(second.body.error).toBe(timesheetMessages.importKeyConflictTitle);
    expect(second.body.errors).toEqual({ "0": { base: [`09:00 - 10:00: ${timesheetMessages.importKeyTaken}`] } });
    expect(second.body.conflicts).toEqual([{ index: 0, id: before.id, lock_version: before.lock_version }]);
    const after = await storedOf("ics:cf-1");
    expect(after.action_type).toBe("internal");
    expect(after.lock_version).toBe(before.lock_version);

    // «Conservar lo de esta ventana»: the event goes again as a change of the stored activity, at its version.
    const mine = await save({
      activities: [],
      updates: [
        { ...vacation("ics:cf-1", "09:00", "10:00"), import_key: undefined, id: before.id, lock_version: before.lock_version },
      ],
    });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect((await storedOf("ics:cf-1")).action_type).toBe("vacation");
  });

  it("the same content saved again (a double click, a second tab) still answers «already there»", async () => {
    const body = { activities: [imported("ics:cf-3", "12:00", "13:00")] };
    expect((await save(body)).status).toBe(200);
    const again = await save(body);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ created: 0, existing: 1 });
  });
});
