/**
 * Ten meetings at the same time with one title and different ids import as one activity, and the answer
 * says so (a warning naming the day, the times, the title and how many), instead of hiding nine. The
 * screen asks which sources exist, so Google Calendar is offered only where it is configured.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { build } from "../../server/app";
import type { CalendarReader } from "../../server/ports/calendar";
import type { LocalEvent } from "../../src/core/localEvent";
import { timesheetMessages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { multipart, rawRequest } from "../support/catalog-factories";
import { type ApiClient, call, signIn, signInAs } from "../support/factories";

let t: TestApp;
let operator: ApiClient;

beforeAll(async () => {
  t = await buildTestApp();
  operator = (await signInAs(t.app, "operator")).api;
});
afterAll(() => t.close());

const vevent = (uid: string, summary: string, start: string, end: string) =>
  ["BEGIN:VEVENT", `UID:${uid}`, `DTSTART:${start}`, `DTEND:${end}`, `SUMMARY:${summary}`, "END:VEVENT"].join("\r\n");

it("says how many events with one title and the same times became one", async () => {
  const events = [
    // 09:00–10:00 in Mexico City (UTC-6), ten copies under different ids.
    ...Array.from({ length: 10 }, (_, i) => vevent(`junta-${i}@x`, "RH|Junta general", "20310303T150000Z", "20310303T160000Z")),
    vevent("otra@x", "RH|Otra junta", "20310303T170000Z", "20310303T180000Z"),
  ];
  const ics = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//SIA//test//ES", ...events, "END:VCALENDAR", ""].join("\r\n");
  const body = multipart({ filename: "juntas.ics", contentType: "text/calendar", content: ics }, { start_date: "2031-03-03" });
  const res = await rawRequest(t.app, operator.token, "POST", "/api/v1/calendar_imports", body.payload, body.headers);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect((res.body.events as LocalEvent[]).map((e) => e.summary)).toEqual(["RH|Junta general", "RH|Otra junta"]);
  expect(res.body.warnings).toEqual([timesheetMessages.importMerged(10, "RH|Junta general", "03/03/2031 09:00 - 10:00")]);
});

it("GET calendar_imports/sources says whether Google Calendar can be read here", async () => {
  const without = await operator.get("/api/v1/calendar_imports/sources");
  expect(without.status).toBe(200);
  expect(without.body).toEqual({ google: false });

  const fake: CalendarReader = { kind: "fake", check: async () => {}, listInstances: async () => [] };
  const google = await build({ config: t.app.config, database: t.database, logger: false, calendarReader: fake });
  await google.ready();
  try {
    const op = await signInAs(google, "operator");
    const api = await signIn(google, op.user.email);
    const res = await call(google, "GET", "/api/v1/calendar_imports/sources", undefined, {
      authorization: `Bearer ${api.token}`,
    });
    expect(res.body).toEqual({ google: true });
  } finally {
    await google.close();
  }
});
