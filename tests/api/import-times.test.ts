/**
 * Imports mark an event no activity can hold as invalid, with the reason, instead of letting the save
 * refuse it later: zero length, past midnight, seconds (.ics) and a zero-length CSV row. The reasons come
 * from the activity schema's own time rules (activityTimeIssues), so import and save agree.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localEventToActivity } from "../../src/core/activity";
import type { LocalEvent } from "../../src/core/localEvent";
import { messages } from "../../src/core/messages";
import { ACTIVITY_CSV_COLUMNS } from "../../src/core/schemas/activity";
import { buildTestApp, type TestApp } from "../support/app";
import { importWeekCsv, multipart, rawRequest } from "../support/catalog-factories";
import { type ApiClient, signInAs } from "../support/factories";
import { allowFutureActivities } from "../support/future";
import { at, ICS_TEST_WEEK, vcalendar } from "../support/ics";

let t: TestApp;
let operator: ApiClient;

const stamp = (iso: string) => iso.replace(/[-:]/g, "").replace(/\.\d{3}Z$/, "Z");
const event = (uid: string, summary: string, start: string, end: string) => [
  `UID:${uid}`,
  `SUMMARY:${summary}`,
  `DTSTART:${stamp(start)}`,
  `DTEND:${stamp(end)}`,
];
const importIcs = async (content: string) => {
  const body = multipart({ filename: "semana.ics", contentType: "text/calendar", content }, { start_date: ICS_TEST_WEEK });
  const res = await rawRequest(t.app, operator.token, "POST", "/api/v1/calendar_imports", body.payload, body.headers);
  expect(res.status, res.text).toBe(200);
  return res.body.events as LocalEvent[];
};

beforeAll(async () => {
  t = await buildTestApp();
  // Its fixtures log weeks years ahead (fixed dates that stay on the weekdays they name).
  await allowFutureActivities(t.app);
  operator = (await signInAs(t.app, "operator")).api;
});
afterAll(() => t.close());

describe("imported events an activity cannot be", () => {
  it(".ics: zero length and past midnight arrive invalid with a Spanish reason; the save says the same rule", async () => {
    const tuesday = "2031-03-04";
    const events = await importIcs(
      vcalendar(
        event("ok", "RH|Junta de equipo", at(tuesday, "09:00"), at(tuesday, "10:00")),
        event("cero", "RH|Recordatorio", at(tuesday, "11:00"), at(tuesday, "11:00")),
        event("noche", "RH|Guardia", at(tuesday, "23:00"), at("2031-03-05", "01:00")),
        event("medianoche", "RH|Cierre", at(tuesday, "22:00"), at("2031-03-05", "00:00")),
        [...event("segundos", "RH|Llamada", at(tuesday, "12:00"), at(tuesday, "12:30")).slice(0, 3), "DTEND:20310304T183015Z"],
      ),
    );
    const byUid = (uid: string) => events.find((e) => e.id.startsWith(uid)) as LocalEvent;
    expect(byUid("ok")).toMatchObject({ isValidate: true, errors: [] });
    // Ending exactly at midnight is still that day's.
    expect(byUid("medianoche")).toMatchObject({ isValidate: true });
    expect(byUid("cero")).toMatchObject({ isValidate: false, errors: [messages.importZeroLength] });
    expect(byUid("noche")).toMatchObject({ isValidate: false, errors: [messages.importPastMidnight] });
    expect(byUid("segundos")).toMatchObject({ isValidate: false, errors: [messages.importWholeMinutes] });
    // Saved anyway, each is refused by the same rule the import applied.
    const res = await operator.post("/api/v1/activities/validate", {
      activities: ["cero", "noche", "segundos"].map((uid) => localEventToActivity(byUid(uid))),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors["0"].ends_at[0]).toMatch(new RegExp(`${messages.activityEndBeforeStart}$`));
    expect(res.body.errors["1"].ends_at[0]).toMatch(new RegExp(`${messages.activitySameDay}$`));
    expect(res.body.errors["2"].ends_at[0]).toMatch(new RegExp(`${messages.activityWholeMinutes}$`));
  });

  it(".ics: an event whose DTEND is before its DTSTART shows at its start, invalid as a zero-length one, with no warning", async () => {
    const tuesday = "2031-03-04";
    const body = multipart(
      {
        filename: "semana.ics",
        contentType: "text/calendar",
        content: vcalendar(event("reves", "RH|Al revés", at(tuesday, "09:30"), at(tuesday, "09:00"))),
      },
      { start_date: ICS_TEST_WEEK },
    );
    const res = await rawRequest(t.app, operator.token, "POST", "/api/v1/calendar_imports", body.payload, body.headers);
    expect(res.status, res.text).toBe(200);
    expect(res.body.warnings).toEqual([]);
    expect(res.body.events).toHaveLength(1);
    expect(res.body.events[0]).toMatchObject({
      start: at(tuesday, "09:30"),
      end: at(tuesday, "09:30"),
      isValidate: false,
      errors: [messages.importZeroLength],
    });
  });

  it("CSV: a row with no length is imported invalid (not refused); an end before the start still refuses its line", async () => {
    const csv = (rows: string[]) => Buffer.from(`${[ACTIVITY_CSV_COLUMNS.join(","), ...rows].join("\r\n")}\r\n`, "utf8");
    const res = await importWeekCsv(
      t.app,
      operator.token,
      ICS_TEST_WEEK,
      csv(["2031-03-04,09:00,10:00,RH,,,,,,Bien", "2031-03-04,11:00,11:00,RH,,,,,,Sin duración"]),
      "semana.csv",
      "text/csv",
    );
    expect(res.status, res.text).toBe(200);
    const events = res.body.import_activities as LocalEvent[];
    expect(events.map((e) => [e.description, e.isValidate, e.errors])).toEqual([
      ["Bien", true, []],
      ["Sin duración", false, [messages.importZeroLength]],
    ]);
    const refused = await importWeekCsv(
      t.app,
      operator.token,
      ICS_TEST_WEEK,
      csv(["2031-03-04,11:00,10:00,RH,,,,,,Al revés"]),
      "semana.csv",
      "text/csv",
    );
    expect(refused.status).toBe(422);
  });
});
