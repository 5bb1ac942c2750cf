/**
 * Every real calendar of the shared corpus (../shared/corpus/calendars, never copied here) read the way
 * the program that wrote it shows the week: for each file, tests/fixtures/calendar-corpus/<name>.json
 * (written by reading the file itself, see that folder's README) lists the weeks and their instances.
 * The file is read by what the import route uses (the worker pool over the shared reader), the week's
 * instances are those overlapping it and not cancelled, formatted in America/Mexico_City. A file no
 * calendar program can read ("error": true) gets a Spanish 4xx naming the problem, never a 500.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { icsPool } from "../../server/ports/calendar/icsPool";
import type { CalendarInstance } from "../../server/ports/calendar/reader";
import { addDays, toIsoDate, wallClockIn, weekOf, zonedInstant } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { multipart, rawRequest } from "../support/catalog-factories";
import { type ApiClient, signInAs } from "../support/factories";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
/** The corpus beside the repository (CI: /work/main → /work/shared), else the shared folder itself. */
const CORPUS = [path.join(ROOT, "..", "shared", "corpus", "calendars"), "/work/shared/corpus/calendars"].find((dir) =>
  fs.existsSync(dir),
);
const EXPECTED = path.join(ROOT, "tests", "fixtures", "calendar-corpus");

interface Expected {
  start: string;
  end: string;
  title: string;
  allDay?: boolean;
  transparent?: boolean;
}
interface Expectation {
  file: string;
  why?: string;
  error?: boolean;
  weeks?: Array<{ week: string; instances: Expected[] }>;
  skipped?: number;
}

const ZONE = "America/Mexico_City";
const pad = (n: number) => String(n).padStart(2, "0");
function local(instant: Date): string {
  const { date, minutes } = wallClockIn(instant, ZONE);
  return `${date} ${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
/** The title as the README says: RFC 5545 escapes undone (ical.js does it), surrounding spaces trimmed. */
function shown(instance: CalendarInstance): Expected {
  const out: Expected = instance.allDay
    ? {
        start: wallClockIn(instance.start, ZONE).date,
        end: wallClockIn(instance.end, ZONE).date,
        title: instance.summary.trim(),
        allDay: true,
      }
    : { start: local(instance.start), end: local(instance.end), title: instance.summary.trim() };
  if (instance.transparent) out.transparent = true;
  return out;
}
const order = (a: Expected, b: Expected) =>
  a.start.localeCompare(b.start) || a.title.localeCompare(b.title) || a.end.localeCompare(b.end);
const normalized = (e: Expected): Expected => {
  const out: Expected = { start: e.start, end: e.end, title: e.title.trim() };
  if (e.allDay) out.allDay = true;
  if (e.transparent) out.transparent = true;
  return out;
};

const files = CORPUS
  ? fs
      .readdirSync(CORPUS)
      .filter((f) => f.endsWith(".ics"))
      .sort()
  : [];

let t: TestApp;
let operator: ApiClient;
beforeAll(async () => {
  t = await buildTestApp();
  operator = (await signInAs(t.app, "operator")).api;
});
afterAll(() => t.close());

describe("the calendar corpus, file by file", () => {
  it("finds the corpus beside the repository", () => {
    expect(CORPUS, "../shared/corpus/calendars no existe").toBeTruthy();
    expect(files.length).toBeGreaterThanOrEqual(85);
  });

  for (const file of files) {
    it(file, async () => {
      const jsonPath = path.join(EXPECTED, file.replace(/\.ics$/, ".json"));
      expect(fs.existsSync(jsonPath), `falta ${path.relative(ROOT, jsonPath)}`).toBe(true);
      const expectation = JSON.parse(fs.readFileSync(jsonPath, "utf8")) as Expectation;
      const bytes = fs.readFileSync(path.join(CORPUS as string, file));

      if (expectation.error) {
        const body = multipart({ filename: file, contentType: "text/calendar", content: bytes }, { start_date: "2024-01-01" });
        const res = await rawRequest(t.app, operator.token, "POST", "/api/v1/calendar_imports", body.payload, body.headers);
        expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        const message = String(res.body.errors?.base?.[0] ?? "");
        expect(message).toMatch(/calendario|archivo|evento/i);
        expect(message).not.toMatch(/error:|stack|undefined|exception/i);
        return;
      }

      let warnings = 0;
      for (const { week, instances } of expectation.weeks ?? []) {
        const period = weekOf(week);
        const monday = zonedInstant(period.starts_on, 0).getTime();
        const nextMonday = zonedInstant(addDays(period.starts_on, 7), 0).getTime();
        const read = await icsPool().read(bytes, { start: period.start, end: period.end });
        warnings = Math.max(warnings, read.warnings.length);
        const actual = read.instances
          .filter((i) => !i.cancelled)
          .filter(
            (i) => i.start.getTime() < nextMonday && (i.end.getTime() > monday || (i.allDay && i.start.getTime() >= monday)),
          )
          .map(shown)
          .sort(order);
        expect(actual, `${file}, semana ${week} (${toIsoDate(monday)})`).toEqual(instances.map(normalized).sort(order));
      }
      if (expectation.skipped) expect(warnings).toBeGreaterThanOrEqual(1);
    });
  }
});
