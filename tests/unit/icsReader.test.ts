/** The .ics reader (server/ports/calendar/reader.ts) and the import rules on files other calendar apps write. */
import { describe, expect, it } from "vitest";
import { importableInstances } from "../../server/modules/calendar_imports/service";
import { IcsError, readIcs } from "../../server/ports/calendar/reader";
import { at, icsTestWeek, vcalendar } from "../support/ics";

const week = icsTestWeek;
const calendar = vcalendar;
const read = (text: string) => importableInstances(readIcs(text, week).instances, week);

describe("readIcs", () => {
  it("floating times and a TZID the file does not define are read as wall-clock time", () => {
    const events = read(
      calendar(
        ["UID:flotante", "DTSTART:20310304T090000", "DTEND:20310304T100000", "SUMMARY:Flotante"],
        [
          "UID:madrid",
          "DTSTART;TZID=Europe/Madrid:20310304T180000",
          "DTEND;TZID=Europe/Madrid:20310304T190000",
          "SUMMARY:Madrid",
        ],
      ),
    );
    expect(events.map((e) => [e.summary, e.start.toISOString()])).toEqual([
      ["Flotante", at("2031-03-04", "09:00")],
      ["Madrid", "2031-03-04T17:00:00.000Z"], // 18:00 CET (UTC+1) = 11:00 in Mexico City
    ]);
  });

  it("a DURATION instead of DTEND, a daily COUNT series, and an instance cancelled through RECURRENCE-ID", () => {
    const events = read(
      calendar(
        ["UID:serie", "DTSTART:20310303T150000Z", "DURATION:PT45M", "RRULE:FREQ=DAILY;COUNT=5", "SUMMARY:RH|Diaria"],
        [
          "UID:serie",
          "RECURRENCE-ID:20310305T150000Z",
          "DTSTART:20310305T150000Z",
          "DURATION:PT45M",
          "STATUS:CANCELLED",
          "SUMMARY:RH|Diaria",
        ],
      ),
    );
    expect(events.map((e) => e.start.toISOString())).toEqual([
      "2031-03-03T15:00:00.000Z",
      "2031-03-04T15:00:00.000Z",
      "2031-03-06T15:00:00.000Z",
      "2031-03-07T15:00:00.000Z",
    ]);
    expect(events[0].end.toISOString()).toBe("2031-03-03T15:45:00.000Z");
    expect(events.every((e) => e.seriesId === "serie" && e.instanceId.startsWith("serie_2031"))).toBe(true);
  });

  it("a moved instance whose original date is next week still arrives this week", () => {
    const events = read(
      calendar(
        ["UID:mov", "DTSTART:20310303T150000Z", "DTEND:20310303T160000Z", "RRULE:FREQ=WEEKLY", "SUMMARY:Semanal"],
        [
          "UID:mov",
          "RECURRENCE-ID:20310310T150000Z",
          "DTSTART:20310307T150000Z",
          "DTEND:20310307T160000Z",
          "SUMMARY:Semanal adelantada",
        ],
      ),
    );
    expect(events.map((e) => [e.summary, e.instanceId])).toEqual([
      ["Semanal", "mov_20310303T150000Z"],
      ["Semanal adelantada", "mov_20310310T150000Z"],
    ]);
  });

  it("an exception without its series is kept as a single event", () => {
    const events = read(
      calendar([
        "UID:huerfana",
        "RECURRENCE-ID:20310304T150000Z",
        "DTSTART:20310304T170000Z",
        "DTEND:20310304T180000Z",
        "SUMMARY:Sola",
      ]),
    );
    expect(events.map((e) => e.instanceId)).toEqual(["huerfana_20310304T150000Z"]);
  });

  it("text that is not a calendar is refused", () => {
    expect(() => readIcs("hola", week)).toThrow(IcsError);
    expect(() => readIcs("BEGIN:VCARD\r\nVERSION:3.0\r\nEND:VCARD", week)).toThrow(IcsError);
  });
});
