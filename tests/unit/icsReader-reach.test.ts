/**
 * Only what can fall in the week is built (server/ports/calendar/reach.ts): events that end before it or
 * start after it, and series whose UNTIL or COUNT ends before it, are left as parsed. Checked as a reader
 * would: every corpus calendar, over many weeks, reads the same with and without the shortcut; a series
 * ending decades before the week is no longer walked (a budget that would refuse the walk lets it through);
 * and what the shortcut cannot bound (a huge COUNT, a rule that never ends, overrides) is still walked and
 * still stopped by the budgets, with their Spanish messages.
 */
import fs from "node:fs";
import path from "node:path";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { answer } from "../../server/ports/calendar/icsWorker";
import { rawEvent } from "../../server/ports/calendar/reach";
import { ICS_LIMITS, IcsError, readIcs } from "../../server/ports/calendar/reader";
import { decodeText } from "../../server/ports/text/decode";
import { importMessages } from "../../src/core/messages";
import { addDays, weekOf } from "../../src/core/week";
import { at, icsTestWeek, vcalendar } from "../support/ics";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const CORPUS = [path.join(ROOT, "..", "shared", "corpus", "calendars"), "/work/shared/corpus/calendars"].find((dir) =>
  fs.existsSync(dir),
);

const read = (text: string, week = icsTestWeek, skipOutOfReach = true, limits = ICS_LIMITS) => {
  try {
    const { instances, warnings } = readIcs(text, week, limits, { skipOutOfReach });
    return {
      instances: instances
        .map((i) => `${i.start.toISOString()} ${i.end.toISOString()} ${i.instanceId} ${i.seriesId} ${i.summary} ${i.cancelled}`)
        .sort(),
      warnings,
    };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

/** The Mondays each event of a file starts on, and the weeks around them: where a mistake would show. */
function weeksOf(text: string): string[] {
  const mondays = new Set<string>(["2019-03-04", "2021-09-13", "2024-01-01", "2026-11-23"]);
  for (const match of text.matchAll(/^(?:DTSTART|DTEND|RECURRENCE-ID|UNTIL)[^:\r\n]*:(\d{4})(\d{2})(\d{2})/gm)) {
    const date = `${match[1]}-${match[2]}-${match[3]}`;
    if (!weekOf(date)) continue;
    for (const shift of [-7, 0, 7]) mondays.add(weekOf(addDays(weekOf(date).starts_on, shift)).starts_on);
  }
  for (const match of text.matchAll(/UNTIL=(\d{4})(\d{2})(\d{2})/g)) {
    const date = `${match[1]}-${match[2]}-${match[3]}`;
    if (weekOf(date)) for (const shift of [-7, 0, 7]) mondays.add(weekOf(addDays(weekOf(date).starts_on, shift)).starts_on);
  }
  return [...mondays].sort();
}

describe("the shortcut changes nothing the week shows", () => {
  const files = CORPUS ? fs.readdirSync(CORPUS).filter((f) => f.endsWith(".ics")) : [];
  it("finds the corpus", () => expect(files.length).toBeGreaterThanOrEqual(85));
  for (const file of files) {
    it(file, () => {
      const text = decodeText(fs.readFileSync(path.join(CORPUS as string, file))).text;
      // A big file: a sample of its weeks (each full read costs a few hundred ms; a 1.6 MB one about a
      // second on a busy machine, so fewer of its weeks, spread over its years).
      const weeks = weeksOf(text);
      const most = text.length > 500_000 ? 12 : 40;
      const sample = weeks.length > most ? weeks.filter((_, i) => i % Math.ceil(weeks.length / most) === 0) : weeks;
      for (const monday of sample) {
        const week = weekOf(monday);
        expect(read(text, week, true), `${file}, semana ${monday}`).toEqual(read(text, week, false));
      }
    }, 60_000);
  }
});

describe("what can be skipped is skipped", () => {
  // A walk past this budget is refused: a series walked from 1900 would be.
  const tight = { ...ICS_LIMITS, maxSeriesIterations: 1_000 };
  const old = (rule: string) =>
    vcalendar(
      ["UID:vieja", "DTSTART:19000101T100000Z", "DURATION:PT1H", `RRULE:${rule}`, "SUMMARY:Vieja"],
      ["UID:hoy", "DTSTART:20310303T160000Z", "DTEND:20310303T170000Z", "SUMMARY:Hoy"],
    );

  it.each([
    ["UNTIL", "FREQ=DAILY;BYHOUR=10,11;UNTIL=19501231T000000Z"],
    ["COUNT", "FREQ=DAILY;COUNT=20000"],
    ["COUNT, weekdays", "FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=5000"],
    ["COUNT, monthly", "FREQ=MONTHLY;COUNT=1200"],
  ])("a series whose %s ends decades before the week is not walked", (_name, rule) => {
    const { instances, error } = read(old(rule), icsTestWeek, true, tight);
    expect(error).toBeUndefined();
    expect(instances).toHaveLength(1);
    // Without the shortcut the same budget refuses it: the test sees the walk.
    expect(read(old(rule), icsTestWeek, false, tight).error).toBe(
      importMessages.icsRuleTooDense("«Vieja» (UID vieja, que empieza en la línea 4)"),
    );
  });

  it("the reader pool's worker reads with the shortcut (what the route uses)", () => {
    const job = (limits: typeof tight) => ({
      id: 1,
      bytes: Buffer.from(old("FREQ=DAILY;COUNT=20000")),
      start: icsTestWeek.start.getTime(),
      end: icsTestWeek.end.getTime(),
      maxAnswerBytes: 1_000_000,
      limits,
    });
    const answered = answer(job(tight));
    expect(answered.ok, JSON.stringify(answered)).toBe(true);
  });

  it("events far from the week are not built; their unknown zone is still said once", () => {
    const text = vcalendar(
      ["UID:lejos", "DTSTART;TZID=Zona Rara:20100101T100000", "DTEND;TZID=Zona Rara:20100101T110000", "SUMMARY:Lejos"],
      ["UID:cerca", "DTSTART:20310304T160000Z", "DURATION:PT1H", "SUMMARY:Cerca"],
    );
    const result = read(text);
    expect(result.instances?.map((i) => i.split(" ")[0])).toEqual([at("2031-03-04", "10:00")]);
    expect(result.warnings).toEqual([importMessages.icsUnknownZone("Zona Rara", "America/Mexico_City")]);
  });

  it("an event without a start is said once, and not at all beside a copy that has one", () => {
    const broken = ["UID:roto", "SUMMARY:Roto", "DURATION:PT1H"];
    const text = vcalendar(
      broken,
      broken,
      broken,
      ["UID:respuesta", "SUMMARY:Respuesta", "DURATION:PT1H"],
      ["UID:respuesta", "DTSTART:20310304T160000Z", "DURATION:PT1H", "SUMMARY:Respuesta"],
    );
    const result = read(text);
    expect(result.instances).toHaveLength(1);
    expect(result.warnings).toEqual([
      importMessages.icsSkippedEvent(importMessages.icsEventLabel("Roto", "roto", 4), importMessages.icsNoStart),
    ]);
    // libical's stress file repeats five such events (iTIP replies and cancels) 390 times.
    const large = read(decodeText(fs.readFileSync(path.join(CORPUS as string, "libical--large.ics"))).text, weekOf("1997-03-24"));
    expect(large.warnings?.filter((w) => w.endsWith(importMessages.icsNoStart)).length).toBeLessThanOrEqual(5);
  });

  it("a far copy of a series with a higher SEQUENCE still wins over a near one (nothing old comes back)", () => {
    const text = vcalendar(
      ["UID:mov", "SEQUENCE:0", "DTSTART:20310304T160000Z", "DURATION:PT1H", "SUMMARY:Antes"],
      ["UID:mov", "SEQUENCE:3", "DTSTART:20200304T160000Z", "DURATION:PT1H", "SUMMARY:Movida lejos"],
    );
    expect(read(text).instances).toEqual([]);
    expect(read(text, icsTestWeek, false).instances).toEqual([]);
  });

  it("an override moving a far series' occurrence into the week is read", () => {
    const text = vcalendar(
      ["UID:s", "DTSTART:20200101T160000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY;COUNT=3", "SUMMARY:Serie"],
      ["UID:s", "RECURRENCE-ID:20200102T160000Z", "DTSTART:20310305T160000Z", "DURATION:PT1H", "SUMMARY:Movida"],
    );
    expect(read(text).instances?.map((i) => i.split(" ").slice(0, 1).concat(i.split(" ").slice(4, 5)))).toEqual([
      [at("2031-03-05", "10:00"), "Movida"],
    ]);
  });

  it("reads the reach of DTEND, DURATION, RDATE periods, UNTIL and COUNT", () => {
    const jcal = (lines: string[]) =>
      new ICAL.Component(ICAL.parse(vcalendar(lines)) as unknown[]).getFirstSubcomponent("vevent")?.jCal as unknown[];
    const day = 86_400_000;
    const t0 = Date.UTC(2024, 0, 1, 10);
    expect(rawEvent(jcal(["UID:a", "DTSTART:20240101T100000", "DTEND:20240101T113000"]))).toMatchObject({
      from: t0,
      to: t0 + 90 * 60_000,
    });
    expect(rawEvent(jcal(["UID:a", "DTSTART;VALUE=DATE:20240101"]))).toMatchObject({
      from: Date.UTC(2024, 0, 1),
      to: Date.UTC(2024, 0, 2),
    });
    expect(rawEvent(jcal(["UID:a", "DTSTART:20240101T100000Z", "DURATION:P1W"]))).toMatchObject({ to: t0 + 7 * day });
    expect(rawEvent(jcal(["UID:a", "DTSTART:20240101T100000Z", "DTEND:20240101T090000Z"]))).toMatchObject({ to: t0 });
    expect(
      rawEvent(
        jcal(["UID:a", "DTSTART:20240101T100000Z", "RDATE;VALUE=PERIOD:20231201T100000Z/PT2H,20240301T100000Z/20240301T120000Z"]),
      ),
    ).toMatchObject({ from: Date.UTC(2023, 11, 1, 10), to: Date.UTC(2024, 2, 1, 12) });
    expect(rawEvent(jcal(["UID:a", "DTSTART:20240101T100000Z", "RRULE:FREQ=WEEKLY;UNTIL=20240201"]))).toMatchObject({
      to: Date.UTC(2024, 1, 1),
    });
    expect(rawEvent(jcal(["UID:a", "DTSTART:20240101T100000Z", "RRULE:FREQ=DAILY;COUNT=10"])).to).toBe(t0 + 11 * day);
    // Unbounded: no end, a COUNT with BYSETPOS, or two rules one of which never ends.
    expect(rawEvent(jcal(["UID:a", "DTSTART:20240101T100000Z", "RRULE:FREQ=YEARLY"])).to).toBe(Number.POSITIVE_INFINITY);
    expect(rawEvent(jcal(["UID:a", "DTSTART:20240101T100000Z", "RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-1;COUNT=2"])).to).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(rawEvent(jcal(["UID:a", "DTSTART:20240101T100000Z", "RRULE:FREQ=DAILY;COUNT=2", "RRULE:FREQ=WEEKLY"])).to).toBe(
      Number.POSITIVE_INFINITY,
    );
    // A value it cannot read leaves the event to the full reading.
    expect(rawEvent(jcal(["UID:a", "DTSTART:20240101T100000Z", "DURATION:mucho"])).to).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("what cannot be bounded is still walked, and still stopped", () => {
  const hostile = (rule: string, dtstart = "19000101T100000Z") =>
    vcalendar(["UID:h", `DTSTART:${dtstart}`, "DURATION:PT30M", `RRULE:${rule}`, "SUMMARY:Hostil"]);
  const label = "«Hostil» (UID h, que empieza en la línea 4)";

  it.each([
    ["a huge COUNT", "FREQ=HOURLY;COUNT=999999999"],
    ["a rule that never ends, walked from 1900", "FREQ=DAILY;BYHOUR=1,2,3,4,5,6"],
    ["a COUNT of minutes reaching the week", "FREQ=MINUTELY;COUNT=99999999"],
  ])("%s: refused with its Spanish message", (_name, rule) => {
    expect(() => readIcs(hostile(rule), icsTestWeek)).toThrow(new IcsError(importMessages.icsRuleTooDense(label)));
  });

  it("thousands of overrides of one series are all read, within the instances' budget", () => {
    const overrides = Array.from({ length: 3_000 }, (_, i) => [
      "UID:o",
      `RECURRENCE-ID:${new Date(Date.UTC(2031, 2, 3, 16) + i * 60_000).toISOString().replace(/[-:]|\.\d{3}/g, "")}`,
      `DTSTART:${new Date(Date.UTC(2031, 2, 3, 16) + i * 60_000).toISOString().replace(/[-:]|\.\d{3}/g, "")}`,
      "DURATION:PT1M",
      "SUMMARY:O",
    ]);
    const text = vcalendar(
      ["UID:o", "DTSTART:20310303T160000Z", "DURATION:PT1M", "RRULE:FREQ=MINUTELY", "SUMMARY:O"],
      ...overrides,
    );
    expect(() => readIcs(text, icsTestWeek)).toThrow(IcsError);
  });
});
