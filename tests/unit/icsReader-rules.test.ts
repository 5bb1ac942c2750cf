/**
 * The .ics reader's rules for what real programs write (docs/decisions/019-ics-calendar-reader.md):
 * encodings, several calendars, events without UID, overrides by UID only, RDATE periods, zones named
 * by Windows, OWA and vendors, the IANA zone over a VTIMEZONE that does not cover the date, partial reads
 * with warnings, and the budgets (impossible and dense rules, instances per week), including the worker
 * pool's termination of a read past its time.
 */
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { instanceOfGoogleEvent } from "../../server/ports/calendar/google";
import { IcsPool } from "../../server/ports/calendar/icsPool";
import { ICS_LIMITS, readIcs, SUMMARY_MAX } from "../../server/ports/calendar/reader";
import { ianaZoneOf } from "../../server/ports/calendar/timezones";
import { decodeText } from "../../server/ports/text/decode";
import { importMessages } from "../../src/core/messages";
import { weekOf } from "../../src/core/week";
import { at, icsTestWeek, vcalendar } from "../support/ics";
import { underLoad } from "../support/timing";

const week = icsTestWeek;
const starts = (text: string) =>
  readIcs(text, week)
    .instances.map((i) => [i.start.toISOString(), i.summary])
    .sort((a, b) => a[0].localeCompare(b[0]));

describe("encodings", () => {
  it("a UTF-8 BOM and a Windows-1252 file read with their accents", () => {
    const text = vcalendar(["UID:a", "DTSTART:20310303T160000Z", "DTEND:20310303T170000Z", "SUMMARY:Reunión de diseño"]);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, "utf8")]);
    expect(starts(decodeText(bom).text)).toEqual([[at("2031-03-03", "10:00"), "Reunión de diseño"]]);
    const cp1252 = Buffer.from(text, "latin1");
    expect(decodeText(cp1252).encoding).toBe("windows-1252");
    expect(starts(decodeText(cp1252).text)).toEqual([[at("2031-03-03", "10:00"), "Reunión de diseño"]]);
  });
});

describe("structure", () => {
  it("several VCALENDARs in one file are all read, overrides related across them by UID", () => {
    const text = [
      vcalendar([
        "UID:serie",
        "DTSTART:20310303T160000Z",
        "DTEND:20310303T170000Z",
        "RRULE:FREQ=DAILY;COUNT=3",
        "SUMMARY:Diaria",
      ]),
      vcalendar(["UID:otra", "DTSTART:20310304T200000Z", "DTEND:20310304T210000Z", "SUMMARY:Otra"]),
      vcalendar([
        "UID:serie",
        "RECURRENCE-ID:20310304T160000Z",
        "DTSTART:20310304T180000Z",
        "DTEND:20310304T190000Z",
        "SUMMARY:Diaria (movida)",
      ]),
    ].join("\r\n");
    expect(starts(text)).toEqual([
      [at("2031-03-03", "10:00"), "Diaria"],
      [at("2031-03-04", "12:00"), "Diaria (movida)"],
      [at("2031-03-04", "14:00"), "Otra"],
      [at("2031-03-05", "10:00"), "Diaria"],
    ]);
  });

  it("events without UID are read with a stable generated id", () => {
    const text = vcalendar(["DTSTART:20310303T160000Z", "DTEND:20310303T170000Z", "SUMMARY:Sin UID"]);
    const first = readIcs(text, week).instances;
    expect(first.map((i) => i.summary)).toEqual(["Sin UID"]);
    expect(first[0].uid).toMatch(/^sia-[0-9a-f]{32}$/);
    expect(readIcs(text, week).instances[0].instanceId).toBe(first[0].instanceId);
  });

  it("a moved instance replaces only its own series' occurrence, never another series' at the same time", () => {
    const text = vcalendar(
      ["UID:a", "DTSTART:20310303T160000Z", "DTEND:20310303T170000Z", "RRULE:FREQ=DAILY;COUNT=5", "SUMMARY:Serie A"],
      ["UID:b", "DTSTART:20310303T160000Z", "DTEND:20310303T170000Z", "RRULE:FREQ=DAILY;COUNT=5", "SUMMARY:Serie B"],
      ["UID:a", "RECURRENCE-ID:20310305T160000Z", "DTSTART:20310305T200000Z", "DTEND:20310305T210000Z", "SUMMARY:Serie A movida"],
    );
    const wednesday = starts(text).filter(([start]) => start.startsWith("2031-03-05"));
    expect(wednesday).toEqual([
      [at("2031-03-05", "10:00"), "Serie B"],
      [at("2031-03-05", "14:00"), "Serie A movida"],
    ]);
  });

  it("RDATE;VALUE=PERIOD adds instances with their own end", () => {
    const text = vcalendar([
      "UID:p",
      "DTSTART:20310303T160000Z",
      "DTEND:20310303T170000Z",
      "RDATE;VALUE=PERIOD:20310305T180000Z/20310305T200000Z,20310306T180000Z/PT30M",
      "SUMMARY:Periodos",
    ]);
    const read = readIcs(text, week).instances.map((i) => [i.start.toISOString(), i.end.toISOString()]);
    expect(read.sort()).toEqual([
      [at("2031-03-03", "10:00"), at("2031-03-03", "11:00")],
      [at("2031-03-05", "12:00"), at("2031-03-05", "14:00")],
      [at("2031-03-06", "12:00"), at("2031-03-06", "12:30")],
    ]);
  });

  it("one bad line is skipped and named; the rest of the file is read", () => {
    const text = vcalendar(
      [
        "UID:zoom",
        "DTSTART:20310303T160000Z",
        "DTEND:20310303T170000Z",
        "SUMMARY:Zoom",
        "DESCRIPTION:Únase a la reunión",
        "Texto suelto sin dos puntos",
      ],
      ["UID:otro", "DTSTART:20310304T160000Z", "DTEND:20310304T170000Z", "SUMMARY:Otro"],
      ["UID:sin-inicio", "SUMMARY:Sin inicio"],
    );
    const { instances, warnings } = readIcs(text, week);
    expect(instances.map((i) => i.summary).sort()).toEqual(["Otro", "Zoom"]);
    expect(warnings).toEqual([
      importMessages.icsSkippedLine(10, "Texto suelto sin dos puntos"),
      importMessages.icsSkippedEvent(importMessages.icsEventLabel("Sin inicio", "sin-inicio", 18), importMessages.icsNoStart),
    ]);
  });
});

describe("damaged rules are read by what can be read of them", () => {
  const series = (rrule: string, uid = "d") =>
    vcalendar([`UID:${uid}`, "DTSTART:20310303T160000Z", "DURATION:PT30M", rrule, "SUMMARY:Dañada"]);
  const days = (text: string) =>
    readIcs(text, week)
      .instances.map((i) => i.start.toISOString())
      .sort();
  const weekdays = ["03", "04", "05", "06", "07"].map((d) => at(`2031-03-${d}`, "10:00"));

  it("text before FREQ (Google's «RRULE:RRULE:AnythingRandom;FREQ=…»): the rest of the rule is read, and said", () => {
    const text = series("RRULE:RRULE:AnythingRandom;FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR");
    const { instances, warnings } = readIcs(text, week);
    expect(instances.map((i) => i.start.toISOString()).sort()).toEqual(weekdays);
    expect(warnings).toEqual([
      importMessages.icsRepairedRule(
        8,
        "RRULE:AnythingRandom;FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
        "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
      ),
    ]);
  });

  it("a part with a value no program reads is left out, a repeated part read once; the rest is kept", () => {
    expect(days(series("RRULE:FREQ=DAILY;BYDAY=MO,XX;COUNT=3"))).toEqual(weekdays.slice(0, 3));
    expect(days(series("RRULE:FREQ=DAILY;COUNT=2;COUNT=900;basura"))).toEqual(weekdays.slice(0, 2));
  });

  it("a rule without a readable FREQ is dropped: the event shows once, and that is said", () => {
    const { instances, warnings } = readIcs(series("RRULE:AnythingRandom;FREQ=NUNCA;BYDAY=MO"), week);
    expect(instances.map((i) => i.start.toISOString())).toEqual([at("2031-03-03", "10:00")]);
    expect(warnings).toEqual([importMessages.icsSkippedRule(8, "AnythingRandom;FREQ=NUNCA;BYDAY=MO")]);
  });

  it("what is read of a damaged rule is still bound by the budgets", () => {
    expect(() => readIcs(series("RRULE:basura;FREQ=SECONDLY"), week)).toThrow(
      importMessages.icsTooManyInstances(ICS_LIMITS.maxInstances),
    );
    expect(() => readIcs(series("RRULE:basura;FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"), week)).toThrow(
      importMessages.icsRuleImpossible(importMessages.icsEventLabel("Dañada", "d", 4)),
    );
  });

  it("thousands of damaged rules are named by their lines, quickly", () => {
    const events = Array.from({ length: 5_000 }, (_, i) => [
      `UID:m${i}`,
      "DTSTART:20200101T100000Z",
      "RRULE:x;FREQ=YEARLY;COUNT=1",
      "SUMMARY:M",
    ]);
    const started = performance.now();
    const { warnings } = readIcs(vcalendar(...events), week, { ...ICS_LIMITS, maxWarnings: 10_000 });
    expect(warnings).toHaveLength(5_000);
    expect(warnings[4_999]).toBe(
      importMessages.icsRepairedRule(4 + 4_999 * 6 + 3, "x;FREQ=YEARLY;COUNT=1", "FREQ=YEARLY;COUNT=1"),
    );
    expect(performance.now() - started).toBeLessThan(underLoad(3_000));
  });
});

describe("a DTSTART its rule does not match", () => {
  const file = (prodid: string) =>
    [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      `PRODID:${prodid}`,
      "BEGIN:VEVENT",
      "UID:patron",
      // A Monday, with a rule of Thursdays and Fridays.
      "DTSTART:20310303T160000Z",
      "DTEND:20310303T170000Z",
      "RRULE:FREQ=WEEKLY;BYDAY=TH,FR;COUNT=4",
      "SUMMARY:Patrón",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
  const days = (text: string) =>
    readIcs(text, week)
      .instances.map((i) => i.start.toISOString())
      .sort();

  it("is an instance of its own (RFC 5545), as Google, Apple and the rest show it", () => {
    expect(days(file("-//Google Inc//Google Calendar 70.9054//EN"))).toEqual([
      at("2031-03-03", "10:00"),
      at("2031-03-06", "10:00"),
      at("2031-03-07", "10:00"),
    ]);
  });

  it.each(["Microsoft Exchange Server 2010", "-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN"])(
    "is only where the pattern starts in Exchange's and Outlook's files (%s), as Outlook shows it",
    (prodid) => {
      expect(days(file(prodid))).toEqual([at("2031-03-06", "10:00"), at("2031-03-07", "10:00")]);
    },
  );
});

describe("time zones", () => {
  it("Windows names, OWA display names and vendor prefixes name IANA zones", () => {
    expect(ianaZoneOf("Pacific Standard Time")).toBe("America/Los_Angeles");
    expect(ianaZoneOf('"(UTC-05:00) Eastern Time (US & Canada)"')).toBe("America/New_York");
    expect(ianaZoneOf("(GMT+01.00) Amsterdam / Berlin / Bern / Rome / Stockholm / Vienna")).toBe("Europe/Berlin");
    expect(ianaZoneOf("/mozilla.org/20050126_1/America/New_York")).toBe("America/New_York");
    expect(ianaZoneOf("/softwarestudio.org/Olson_20011030_5/Pacific/Auckland")).toBe("Pacific/Auckland");
    expect(ianaZoneOf("/freeassociation.sourceforge.net/Tzfile/Europe/London")).toBe("Europe/London");
    expect(ianaZoneOf("Customized Time Zone")).toBeNull();
  });

  it("a title longer than an activity's description is cut to it", () => {
    const text = vcalendar(["UID:largo", "DTSTART:20310303T160000Z", "DURATION:PT1H", `SUMMARY:${"x".repeat(50_000)}`]);
    const [instance] = readIcs(text, week).instances;
    expect(instance.summary).toHaveLength(SUMMARY_MAX);
    expect(instance.summary.endsWith("…")).toBe(true);
  });

  it("a zone nobody can name, with no VTIMEZONE, is read in Mexico City and said once", () => {
    const text = vcalendar(
      ["UID:a", "DTSTART;TZID=Hora de verano del Pacífico:20310303T100000", "DURATION:PT1H", "SUMMARY:Uno"],
      ["UID:b", "DTSTART;TZID=Hora de verano del Pacífico:20310304T100000", "DURATION:PT1H", "SUMMARY:Dos"],
      ["UID:c", "DTSTART;TZID=Pacific Standard Time:20310305T100000", "DURATION:PT1H", "SUMMARY:Conocida"],
    );
    const read = readIcs(text, week);
    expect(read.instances.find((i) => i.summary === "Uno")?.start.toISOString()).toBe(at("2031-03-03", "10:00"));
    expect(read.warnings).toEqual([
      "La zona horaria «Hora de verano del Pacífico» no se reconoce y el archivo no la define: sus horas se leyeron como hora de la Ciudad de México; revíselas",
    ]);
  });

  it("floating times in a calendar with X-WR-TIMEZONE are that zone's wall clock: singles, series, EXDATE, overrides", () => {
    const text = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:manually_generated",
      "X-WR-TIMEZONE:Europe/Brussels",
      "BEGIN:VEVENT",
      "UID:suelta",
      "DTSTART:20310304T210000",
      "DTEND:20310304T224500",
      "SUMMARY:Suelta",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:serie",
      // Weekly on Mondays from winter (CET, UTC+1) into summer (CEST, UTC+2, from 30 March 2031).
      "DTSTART:20310224T090000",
      "DURATION:PT1H",
      "RRULE:FREQ=WEEKLY;BYDAY=MO,WE",
      "EXDATE:20310305T090000",
      "SUMMARY:Serie",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:serie",
      "RECURRENCE-ID:20310331T090000",
      "DTSTART:20310331T110000",
      "DURATION:PT1H",
      "SUMMARY:Serie movida",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    const read = (monday: string) =>
      readIcs(text, weekOf(monday))
        .instances.map((i) => [i.start.toISOString(), i.end.toISOString(), i.summary])
        .sort((a, b) => a[0].localeCompare(b[0]));
    // 21:00 in Brussels (UTC+1) is 20:00Z, 14:00 in Mexico City (UTC-6); the Wednesday is excluded.
    expect(read("2031-03-03")).toEqual([
      [at("2031-03-03", "02:00"), at("2031-03-03", "03:00"), "Serie"],
      [at("2031-03-04", "14:00"), at("2031-03-04", "15:45"), "Suelta"],
    ]);
    // After Brussels' change: 09:00 CEST is 07:00Z, 01:00 in Mexico City; the moved Monday at 11:00 CEST.
    expect(read("2031-03-31")).toEqual([
      [at("2031-03-31", "03:00"), at("2031-03-31", "04:00"), "Serie movida"],
      [at("2031-04-02", "01:00"), at("2031-04-02", "02:00"), "Serie"],
    ]);
  });

  it("a TZID with no VTIMEZONE is read in its zone, not in Mexico City", () => {
    const text = vcalendar(
      [
        "UID:w",
        "DTSTART;TZID=Pacific Standard Time:20310303T090000",
        "DTEND;TZID=Pacific Standard Time:20310303T100000",
        "SUMMARY:Windows",
      ],
      ["UID:o", 'DTSTART;TZID="(UTC-05:00) Eastern Time (US & Canada)":20310304T090000', "SUMMARY:OWA"],
      ["UID:m", "DTSTART;TZID=/mozilla.org/20050126_1/America/New_York:20310305T090000", "SUMMARY:Mozilla"],
      ["UID:s", "DTSTART;TZID=/softwarestudio.org/Olson_20011030_5/Pacific/Auckland:20310307T090000", "SUMMARY:Auckland"],
    );
    expect(starts(text)).toEqual([
      [at("2031-03-03", "11:00"), "Windows"], // PST UTC-8 → Mexico City UTC-6
      [at("2031-03-04", "08:00"), "OWA"], // EST UTC-5
      [at("2031-03-05", "08:00"), "Mozilla"],
      [at("2031-03-06", "14:00"), "Auckland"], // NZDT UTC+13: Fri 09:00 = Thu 20:00Z
    ]);
  });

  it("the IANA zone a TZID names wins over a VTIMEZONE block that does not cover the date", () => {
    const text = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "BEGIN:VTIMEZONE",
      "TZID:America/New_York",
      "BEGIN:STANDARD",
      "DTSTART:19671029T020000",
      "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU;UNTIL=20061029T060000Z",
      "TZOFFSETFROM:-0400",
      "TZOFFSETTO:-0500",
      "END:STANDARD",
      "BEGIN:DAYLIGHT",
      "DTSTART:19870405T020000",
      "RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU;UNTIL=20060402T070000Z",
      "TZOFFSETFROM:-0500",
      "TZOFFSETTO:-0400",
      "END:DAYLIGHT",
      "END:VTIMEZONE",
      "BEGIN:VEVENT",
      "UID:ny",
      // Thursday March 13, 2031: New York is on EDT (UTC-4) since March 9 under today's rules.
      "DTSTART;TZID=America/New_York:20310313T090000",
      "SUMMARY:Nueva York",
      "END:VEVENT",
      "END:VCALENDAR",
    ].join("\r\n");
    const next = weekOf("2031-03-10");
    expect(readIcs(text, next).instances.map((i) => i.start.toISOString())).toEqual(["2031-03-13T13:00:00.000Z"]);
  });
});

describe("Google Calendar's events, by the same zone rules", () => {
  it("a dateTime without offset is read in its timeZone, named as the reader names zones", () => {
    const instance = instanceOfGoogleEvent({
      id: "g1",
      summary: "Google",
      start: { dateTime: "2031-03-03T09:00:00", timeZone: "Pacific Standard Time" },
      end: { dateTime: "2031-03-03T10:00:00", timeZone: "/mozilla.org/20050126_1/America/Los_Angeles" },
    });
    expect([instance?.start.toISOString(), instance?.end.toISOString()]).toEqual([
      at("2031-03-03", "11:00"),
      at("2031-03-03", "12:00"),
    ]);
    const withOffset = instanceOfGoogleEvent({
      id: "g2",
      start: { dateTime: "2031-03-03T09:00:00-05:00", timeZone: "Asia/Tokyo" },
    });
    expect(withOffset?.start.toISOString()).toBe(at("2031-03-03", "08:00"));
  });
});

describe("budgets", () => {
  const rule = (rrule: string, dtstart = "20310303T160000Z") =>
    vcalendar(["UID:r", `DTSTART:${dtstart}`, "DURATION:PT1S", `RRULE:${rrule}`, "SUMMARY:Regla"]);

  it("a rule that can never match is refused at once with a Spanish message naming the event", () => {
    for (const r of [
      "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
      "FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30",
      "FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30;BYDAY=MO",
    ]) {
      expect(() => readIcs(rule(r), week), r).toThrow(
        importMessages.icsRuleImpossible(importMessages.icsEventLabel("Regla", "r", 4)),
      );
    }
  });

  it("a rule too dense for the week, or walked too far, is refused (not a 250 MB answer)", () => {
    expect(() => readIcs(rule("FREQ=SECONDLY"), week)).toThrow(importMessages.icsTooManyInstances(ICS_LIMITS.maxInstances));
    expect(() => readIcs(rule("FREQ=MINUTELY", "20200101T000000Z"), week)).toThrow(
      importMessages.icsRuleTooDense(importMessages.icsEventLabel("Regla", "r", 4)),
    );
  });

  it("too many events in a file are refused", () => {
    const many = vcalendar(...Array.from({ length: 6 }, (_, i) => [`UID:e${i}`, "DTSTART:20310303T160000Z", "SUMMARY:E"]));
    expect(() => readIcs(many, week, { ...ICS_LIMITS, maxEvents: 5 })).toThrow(importMessages.icsTooManyEvents(5));
  });

  it("an answer larger than the pool allows is refused in Spanish", async () => {
    const pool = new IcsPool({ size: 1, maxAnswerBytes: 200 });
    try {
      await expect(pool.read(Buffer.from(rule("FREQ=DAILY;COUNT=5")), week)).rejects.toThrow(importMessages.icsAnswerTooBig);
    } finally {
      await pool.close();
    }
  });

  // Measured against the machine's own load, which may change between the calibrating read and the real one:
  // tried again then. A budget on the clock fails every try.
  it("the budget is the reader's own CPU time: a real file on a busy machine is read, not refused", {
    retry: 2,
    timeout: 120_000,
  }, async () => {
    // A few tenths of a second of work (far from the week, each event is parsed but not built).
    const events = Array.from({ length: 16_000 }, (_, i) => [`UID:e${i}`, "DTSTART:20200303T160000Z", `SUMMARY:Evento ${i}`]);
    const file = Buffer.from(vcalendar(...events));
    const warm = Buffer.from(rule("FREQ=DAILY;COUNT=1"));
    // Threads that keep both cores busy, as other users' work does on a loaded server: the reader gets a
    // small share of a core, so its read lasts many times its CPU time on the clock.
    const spinners = Array.from({ length: 24 }, () => new Worker("for (;;) {}", { eval: true }));
    const generous = new IcsPool({ size: 1, timeoutMs: 60_000, maxWaitMs: 60_000 });
    let pool: IcsPool | undefined;
    try {
      await Promise.all(spinners.map((spinner) => new Promise((resolve) => spinner.once("online", resolve))));
      // How long the read lasts on the clock here, whatever this machine and Node are like; the budget is a
      // third of that: far more than the CPU time the read needs, far less than its time on the clock.
      await generous.read(warm, week);
      let started = Date.now();
      await generous.read(file, week);
      const budget = Math.max(300, Math.round((Date.now() - started) / 3));
      pool = new IcsPool({ size: 1, timeoutMs: budget, maxWaitMs: 60_000 });
      await pool.read(warm, week);
      started = Date.now();
      const read = await pool.read(file, week);
      // It took longer than its budget on the clock, yet used less of it in CPU time.
      expect(Date.now() - started, `presupuesto ${budget} ms`).toBeGreaterThan(budget);
      expect(read.instances).toHaveLength(0);
      expect(pool.terminated).toBe(0);
    } finally {
      await Promise.all(spinners.map((spinner) => spinner.terminate()));
      await generous.close();
      await pool?.close();
    }
  });

  it("the worker pool terminates a read past its time, answers in Spanish, and keeps reading", async () => {
    const pool = new IcsPool({
      size: 1,
      timeoutMs: 300,
      limits: { ...ICS_LIMITS, maxSeriesIterations: 1e12, maxIterations: 1e12 },
    });
    try {
      const slow = Buffer.from(rule("FREQ=SECONDLY", "19700101T000000Z"));
      const started = Date.now();
      await expect(pool.read(slow, week)).rejects.toThrow(importMessages.icsTooSlow(0.3));
      expect(Date.now() - started).toBeLessThan(underLoad(5_000));
      expect(pool.terminated).toBe(1);
      const fine = await pool.read(Buffer.from(rule("FREQ=DAILY;COUNT=2")), week);
      expect(fine.instances).toHaveLength(2);
    } finally {
      await pool.close();
    }
  });
});
