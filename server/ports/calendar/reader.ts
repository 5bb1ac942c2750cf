/**
 * Reading a calendar for the timesheet import: the server reads, the browser never holds
 * provider tokens. Two sources answer the same CalendarInstance shape:
 * - an uploaded .ics file (readIcs, below): works with no account anywhere;
 * - a provider read with the user's token (CalendarReader: Google Calendar, server/ports/calendar/google.ts,
 *   with CALENDAR_ADAPTER=google); createCalendarReader() answers null while none is configured, and the
 *   import route then answers a Spanish 422.
 *
 * Instances are expanded (recurrences, EXDATE, RDATE, moved instances by RECURRENCE-ID) and kept when they
 * overlap the range, but NOT otherwise filtered: the import rules of SPEC §5 (cancelled, free, all-day,
 * duplicates) live in one place, server/modules/calendar_imports/service.ts, for every source.
 *
 * An uploaded file is read off the event loop, in a worker with a time budget (./icsPool.ts); readIcs itself
 * also counts what it does (events, iterations, instances) and refuses past ICS_LIMITS with a Spanish
 * message. The rules it reads by are in docs/decisions/019-ics-calendar-reader.md.
 */

import { createHash } from "node:crypto";
import ICAL from "ical.js";
import { importMessages } from "../../../src/core/messages";
import { BUSINESS_TIME_ZONE, wallTimeInstant } from "../../../src/core/week";
import type { Integration } from "../integration";
import { outOfReach, rawEvent } from "./reach";
import { ianaZoneOf } from "./timezones";

export interface CalendarInstance {
  /** The event's UID (iCalendar) or id (provider). */
  uid: string;
  /** One id per instance: UID + the instance's original start (stable when the instance is moved). */
  instanceId: string;
  /** The series' UID for recurring events; null for single events. */
  seriesId: string | null;
  summary: string;
  start: Date;
  end: Date;
  allDay: boolean;
  cancelled: boolean;
  transparent: boolean;
  organizer: string | null;
  hangoutLink: string | null;
}

export interface CalendarRange {
  start: Date;
  end: Date;
}

/** A provider calendar read with the user's token (Google Calendar: SPEC §7 "Calendar service"). */
export interface CalendarReader extends Integration {
  /** `saveToken` hears of refreshed credentials (the caller stores them encrypted, for the next read). */
  listInstances(token: string, range: CalendarRange, saveToken?: (token: string) => Promise<void>): Promise<CalendarInstance[]>;
  /** The provider's consent page («Conectar Google Calendar»): offline access, this state, back to redirectUri. */
  authorizationUrl?(redirectUri: string, state: string, loginHint?: string): string;
  /** The consent's one-time code → the token to store for the user. */
  exchangeCode?(code: string, redirectUri: string): Promise<string>;
}

/** The user's token no longer works and cannot be refreshed (SPEC §8: «Google Token caducado»). */
export class CalendarTokenExpired extends Error {}

/** The file cannot be read, or is beyond what the import reads: `message` is the Spanish answer (a 422). */
export class IcsError extends Error {}

/** What one import may cost: beyond any of these the file is refused with its own Spanish message. */
export interface IcsLimits {
  /** VEVENTs in the file. */
  maxEvents: number;
  /** Instances in the range (the week). */
  maxInstances: number;
  /** Occurrences one series may visit (from its DTSTART to past the range). */
  maxSeriesIterations: number;
  /** Occurrences the whole file may visit. */
  maxIterations: number;
  /** Warnings listed one by one (the rest are counted). */
  maxWarnings: number;
}

export const ICS_LIMITS: IcsLimits = {
  maxEvents: 20_000,
  maxInstances: 2_000,
  maxSeriesIterations: 100_000,
  maxIterations: 1_000_000,
  maxWarnings: 50,
};

export interface IcsRead {
  instances: CalendarInstance[];
  /** In Spanish: each event or line that was skipped, and why. */
  warnings: string[];
}

const compactUtc = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
/** Google's own instance id shape: `<uid>_<YYYYMMDDTHHMMSSZ>`. */
export const instanceIdOf = (uid: string, originalStart: Date) => `${uid}_${compactUtc(originalStart)}`;

const text = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));
const MEET_URL =
  /https:\/\/(?:meet\.google\.com\/[a-z0-9-]+|[\w.-]*zoom\.us\/j\/[\w?=&.-]+|teams\.microsoft\.com\/l\/meetup-join\/\S+)/i;

function conferenceOf(component: ICAL.Component): string | null {
  const direct = text(component.getFirstPropertyValue("x-google-conference")).trim();
  if (direct) return direct;
  for (const name of ["location", "description", "url"]) {
    const match = text(component.getFirstPropertyValue(name)).match(MEET_URL);
    if (match) return match[0];
  }
  return null;
}
function organizerOf(component: ICAL.Component): string | null {
  const value = text(component.getFirstPropertyValue("organizer")).trim();
  return value ? value.replace(/^mailto:/i, "") : null;
}

/** How far past the range a moved instance's original date may lie and still be found. */
const MOVED_MARGIN_MS = 35 * 86_400_000;

/**
 * The instant of an ICAL.Time (docs/decisions/019-ics-calendar-reader.md):
 * - UTC times are that instant;
 * - a TZID that names an IANA zone (directly, behind a vendor prefix, or as a Windows name) is read in
 *   that zone, even when the file carries a VTIMEZONE block (which may not cover the date);
 * - any other TZID with a VTIMEZONE block in the file is read through the block (ical.js);
 * - floating times, and TZIDs nobody can name, are wall-clock time in the calendar's X-WR-TIMEZONE, else
 *   in the firm's zone (America/Mexico_City);
 * - dates (all-day) are midnight in the firm's zone.
 */
function instantOf(time: ICAL.Time, tzid: string | null, floating: Floating): Date {
  const wall = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
  if (time.isDate) return wallTimeInstant(wall, BUSINESS_TIME_ZONE);
  const zone = time.zone;
  if (zone === ICAL.Timezone.utcTimezone || zone?.tzid === "UTC") return new Date(time.toUnixTime() * 1000);
  // TZID= (empty), as Exchange 2010 writes it beside a VTIMEZONE whose TZID is empty too: that block.
  if (tzid !== null && !tzid.trim() && floating.blank) {
    const inBlank = time.clone();
    inBlank.zone = floating.blank;
    const unix = inBlank.toUnixTime();
    if (Number.isFinite(unix)) return new Date(unix * 1000);
  }
  const named = ianaZoneOf(tzid ?? (zone && zone.tzid !== "floating" ? zone.tzid : null));
  if (named) return wallTimeInstant(wall, named);
  const isFloating = !zone || zone.tzid === "floating" || zone === ICAL.Timezone.localTimezone;
  if (!isFloating) {
    const unix = time.toUnixTime();
    if (Number.isFinite(unix)) return new Date(unix * 1000);
  }
  return wallTimeInstant(wall, floating.zone);
}

/**
 * A title no longer than an activity's description may be (2,000 characters): a 3 MB SUMMARY would only
 * come back to the browser twice (title and description) to be refused at save.
 */
export const SUMMARY_MAX = 2000;
const clipSummary = (summary: string) => (summary.length > SUMMARY_MAX ? `${summary.slice(0, SUMMARY_MAX - 1)}…` : summary);

/** How a calendar's floating times are read: its X-WR-TIMEZONE (else the firm's), and its blank-TZID block. */
interface Floating {
  zone: string;
  blank: ICAL.Timezone | null;
  /** The TZIDs the calendar defines with a VTIMEZONE block. */
  defined?: Set<string>;
  /**
   * Written by Exchange or Outlook (PRODID): their DTSTART is where a series' pattern starts, not an
   * occurrence of its own, so a DTSTART the rule does not match is not shown (as Outlook shows it).
   */
  patternStart?: boolean;
}

const tzidOf = (property: ICAL.Property | null) => {
  const value = property?.getParameter("tzid");
  return typeof value === "string" ? value : Array.isArray(value) ? text(value[0]) : null;
};

/** The days in each month of a leap year: the most a BYMONTHDAY can reach. */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Rules that can never produce a date (BYMONTH=2;BYMONTHDAY=30): ical.js' iterator searches for their
 * next date forever, so they are refused before it starts. The worker's time budget guards the rest.
 */
function impossibleRule(rule: ICAL.Recur): boolean {
  const parts = rule.parts as Record<string, number[] | undefined>;
  const days = parts.BYMONTHDAY;
  if (days?.length) {
    const months = parts.BYMONTH?.length ? parts.BYMONTH : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    const longest = Math.max(...months.map((m) => MONTH_DAYS[m - 1] ?? 0));
    if (days.every((d) => Math.abs(d) > longest || d === 0)) return true;
  }
  const yearDays = parts.BYYEARDAY;
  if (yearDays?.length && yearDays.every((d) => d === 0 || Math.abs(d) > 366)) return true;
  const weekNumbers = parts.BYWEEKNO;
  if (weekNumbers?.length && weekNumbers.every((w) => w === 0 || Math.abs(w) > 53)) return true;
  if (parts.BYMONTH?.some((m) => m < 1 || m > 12)) return true;
  return false;
}

const DAY_MS = 86_400_000;

/**
 * Where to start iterating a series so that a weekly meeting since 1997 does not walk 1,200 weeks to
 * reach this one: for simple DAILY/WEEKLY rules without COUNT (BYDAY and WKST only), DTSTART moved
 * forward by whole periods (INTERVAL days, or INTERVAL weeks when the rule has BYDAY) in wall-clock days,
 * to before `before`. Same dates after that point; any other rule starts at DTSTART.
 */
function fastForward(event: ICAL.Event, before: number): ICAL.Time | undefined {
  const rules = event.component.getAllProperties("rrule");
  const start = event.startDate;
  if (rules.length !== 1 || event.component.hasProperty("rdate") || !start) return undefined;
  const rule = rules[0].getFirstValue() as ICAL.Recur;
  if (rule.count || (rule.freq !== "DAILY" && rule.freq !== "WEEKLY")) return undefined;
  const parts = rule.parts as Record<string, unknown[] | undefined>;
  for (const [key, values] of Object.entries(parts)) {
    if (!values?.length) continue;
    if (key !== "BYDAY") return undefined;
    if (values.some((v) => !/^(MO|TU|WE|TH|FR|SA|SU)$/.test(String(v)))) return undefined;
  }
  const interval = Math.max(1, rule.interval || 1);
  const periodDays = rule.freq === "DAILY" && !parts.BYDAY?.length ? interval : 7 * interval;
  const startMs = start.toUnixTime() * 1000;
  if (!Number.isFinite(startMs) || startMs >= before - 14 * DAY_MS) return undefined;
  const periods = Math.floor((before - 14 * DAY_MS - startMs) / (periodDays * DAY_MS));
  if (periods <= 0) return undefined;
  const moved = start.clone();
  moved.adjust(periods * periodDays, 0, 0, 0);
  return moved;
}

/**
 * One ical.js Timezone per distinct VTIMEZONE block across the file's calendars: a file of 2,000
 * VCALENDARs repeating the same block would otherwise expand its transitions 2,000 times.
 */
function shareTimezones(calendars: ICAL.Component[]) {
  const shared = new Map<string, ICAL.Timezone>();
  for (const calendar of calendars) {
    const cache = (calendar as unknown as { _timezoneCache?: Map<string, ICAL.Timezone> })._timezoneCache;
    if (!cache) continue;
    for (const block of calendar.getAllSubcomponents("vtimezone")) {
      const tzid = text(block.getFirstPropertyValue("tzid"));
      if (!tzid || cache.has(tzid)) continue;
      const key = `${tzid}\u0000${block.toString()}`;
      const zone = shared.get(key) ?? new ICAL.Timezone({ component: block, tzid });
      shared.set(key, zone);
      cache.set(tzid, zone);
    }
  }
}

interface Item {
  component: ICAL.Component;
  event: ICAL.Event;
  uid: string;
  label: string;
  floating: Floating;
  sequence: number;
}

/** Unfolded content lines with the physical line each starts on. */
function contentLines(source: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  const physical = source.split(/\r\n|\r|\n/);
  for (let i = 0; i < physical.length; i++) {
    const row = physical[i];
    if ((row.startsWith(" ") || row.startsWith("\t")) && out.length) out[out.length - 1].text += row.slice(1);
    else out.push({ line: i + 1, text: row });
  }
  return out;
}

const RRULE_PART =
  /^(FREQ|UNTIL|COUNT|INTERVAL|BYSECOND|BYMINUTE|BYHOUR|BYDAY|BYMONTHDAY|BYYEARDAY|BYWEEKNO|BYMONTH|BYSETPOS|WKST|RSCALE|SKIP|X-[A-Z0-9-]+)=[^;]*$/i;

/** A rule's part ical.js reads ("FREQ=WEEKLY", "BYDAY=MO,TU"): the part alone, beside a FREQ when it is not one. */
function readablePart(part: string): boolean {
  if (!RRULE_PART.test(part)) return false;
  try {
    ICAL.Recur.fromString(/^FREQ=/i.test(part) ? part : `FREQ=DAILY;${part}`);
    return true;
  } catch {
    return false;
  }
}

/** The rule as calendar programs read a damaged one: the parts that can be read, each name once; null without a FREQ. */
function repairedRule(rule: string): string | null {
  const kept = new Map<string, string>();
  for (const part of rule.split(";")) {
    const trimmed = part.trim();
    const name = trimmed.split("=")[0].toUpperCase();
    if (!kept.has(name) && readablePart(trimmed)) kept.set(name, trimmed);
  }
  return kept.has("FREQ") ? [...kept.values()].join(";") : null;
}

const clip = (value: string) => (value.length > 60 ? `${value.slice(0, 60)}…` : value);

/**
 * Parses the document. Before: an RRULE with parts no program can read (Google once wrote
 * "RRULE:RRULE:AnythingRandom;FREQ=WEEKLY;BYDAY=…") is read as calendar programs read it, by the parts
 * that can be read, and a warning names what was kept; one with no readable FREQ is dropped, so the event
 * shows once at its DTSTART. When one line still breaks the parser (a Zoom invitation's stray text, an
 * Exchange line without a colon), parses again without the lines the parser refuses; a file cut after its
 * last event gets its END:VCALENDAR back. Each dropped line is named in a warning.
 */
function parseLenient(source: string, warnings: string[]): unknown {
  let body = source;
  if (/^RRULE/im.test(body)) {
    // Line numbers counted as the rules are met, never from the file's start each time.
    let counted = 0;
    let line = 1;
    const lineAt = (offset: number) => {
      for (let i = body.indexOf("\n", counted); i >= 0 && i < offset; i = body.indexOf("\n", i + 1)) line++;
      counted = offset;
      return line;
    };
    body = body.replace(/^RRULE(?:;[^:\r\n]*)?:([^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)/gim, (whole, value: string, offset: number) => {
      const rule = value.replace(/\r?\n[ \t]/g, "").trim();
      const repaired = repairedRule(rule);
      if (repaired === rule) return whole;
      if (repaired) {
        warnings.push(importMessages.icsRepairedRule(lineAt(offset), clip(rule), clip(repaired)));
        return `RRULE:${repaired}`;
      }
      warnings.push(importMessages.icsSkippedRule(lineAt(offset), clip(rule)));
      return "X-SIA-IGNORED-RRULE:";
    });
  }
  try {
    return ICAL.parse(body);
  } catch {
    // read again below, line by line
  }
  const kept: string[] = [];
  const open: string[] = [];
  for (const { line, text: row } of contentLines(body)) {
    if (!row.trim()) continue;
    const block = row.match(/^(BEGIN|END):(.*)$/i);
    if (block) {
      const name = block[2].trim().toUpperCase();
      if (block[1].toUpperCase() === "BEGIN") open.push(name);
      else if (open[open.length - 1] === name) open.pop();
      kept.push(row);
      continue;
    }
    try {
      ICAL.parse.property(row);
      kept.push(row);
    } catch {
      warnings.push(importMessages.icsSkippedLine(line, row.length > 60 ? `${row.slice(0, 60)}…` : row));
    }
  }
  if (open.length === 1 && open[0] === "VCALENDAR") kept.push("END:VCALENDAR");
  try {
    return ICAL.parse(kept.join("\r\n"));
  } catch (error) {
    throw new IcsError(importMessages.icsBroken(reasonOf(error)));
  }
}

/** ical.js' own words for a broken structure, in Spanish. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  if (/invalid ical body|missing|unbalanced|END/i.test(message))
    return "falta cerrar un bloque (END:…) o el archivo está incompleto";
  return "su estructura no se pudo leer";
}

/** The EXDATEs of a series: instants for a timed series, dates for an all-day one (Outlook writes an
 * all-day series' EXDATE as a midnight date-time in its zone). */
function exclusionsOf(item: Item): { instants: Set<number>; dates: Set<string> } {
  const instants = new Set<number>();
  const dates = new Set<string>();
  for (const property of item.component.getAllProperties("exdate")) {
    for (const value of property.getValues()) {
      if (!(value instanceof ICAL.Time)) continue;
      dates.add(`${value.year}-${value.month}-${value.day}`);
      instants.add(instantOf(value, tzidOf(property), item.floating).getTime());
    }
  }
  return { instants, dates };
}

/**
 * Parses an .ics document and expands every event into the instances that overlap the range, with a
 * warning for each event or line that could not be read. Throws IcsError (a Spanish message) when the
 * file holds no calendar, cannot be parsed at all, or passes a limit. `skipOutOfReach: false` builds every
 * event, near the range or not (the tests compare both ways).
 */
export function readIcs(
  source: string,
  range: CalendarRange,
  limits: IcsLimits = ICS_LIMITS,
  options: { skipOutOfReach?: boolean } = {},
): IcsRead {
  const skipOutOfReach = options.skipOutOfReach ?? true;
  const warnings: string[] = [];
  const body = source.replace(/^\uFEFF/, "");
  if (!/^BEGIN:VCALENDAR\s*$/im.test(body)) throw new IcsError(importMessages.icsNoCalendar);
  const jcal = parseLenient(body, warnings) as unknown[];
  const roots = (typeof jcal[0] === "string" ? [jcal] : jcal) as unknown[][];
  const calendars: ICAL.Component[] = [];
  for (const data of roots) {
    const root = new ICAL.Component(data);
    if (root.name === "vcalendar") calendars.push(root);
    else calendars.push(...root.getAllSubcomponents("vcalendar"));
  }
  if (!calendars.length) throw new IcsError(importMessages.icsNoCalendar);
  shareTimezones(calendars);

  // BEGIN:VEVENT lines, in order: where each event starts, for the warnings.
  const eventLines: number[] = [];
  for (const { line, text: row } of contentLines(body)) if (/^BEGIN:VEVENT\s*$/i.test(row)) eventLines.push(line);

  const components: Array<{ component: ICAL.Component; floating: Floating }> = [];
  for (const calendar of calendars) {
    const blankBlock = calendar
      .getAllSubcomponents("vtimezone")
      .find((block) => !text(block.getFirstPropertyValue("tzid")).trim());
    let blank: ICAL.Timezone | null = null;
    try {
      blank = blankBlock ? new ICAL.Timezone({ component: blankBlock, tzid: "" }) : null;
    } catch {
      blank = null;
    }
    const floating = {
      zone: ianaZoneOf(text(calendar.getFirstPropertyValue("x-wr-timezone"))) ?? BUSINESS_TIME_ZONE,
      blank,
      defined: new Set(calendar.getAllSubcomponents("vtimezone").map((block) => text(block.getFirstPropertyValue("tzid")))),
      patternStart: /microsoft/i.test(text(calendar.getFirstPropertyValue("prodid"))),
    };
    for (const component of calendar.getAllSubcomponents("vevent")) components.push({ component, floating });
  }
  if (components.length > limits.maxEvents) throw new IcsError(importMessages.icsTooManyEvents(limits.maxEvents));
  const lineOf = (index: number) => (eventLines.length === components.length ? eventLines[index] : null);

  // Only what can fall in the week is built (./reach.ts): an event that ends before it or starts after
  // it, and a series whose UNTIL or COUNT ends before it, are left as parsed. Overrides, and series that
  // have overrides, are always read (an override may move an occurrence into or out of the week).
  const rangeStart = range.start.getTime();
  const rangeEnd = range.end.getTime();
  const raws = components.map(({ component }) => rawEvent(component.jCal as unknown[]));
  const overridden = new Set<string>();
  const winners = new Map<string, number>();
  raws.forEach((raw, index) => {
    if (raw.override) overridden.add(raw.uid);
    else if (raw.uid && raw.hasStart && raw.sequence >= (raws[winners.get(raw.uid) ?? -1]?.sequence ?? Number.NEGATIVE_INFINITY))
      winners.set(raw.uid, index);
  });
  /** The series a far master wins: its other copies (lower SEQUENCE) must not stand in for it. */
  const farUids = new Set<string>();
  for (const [uid, index] of winners) if (!overridden.has(uid) && outOfReach(raws[index], rangeStart, rangeEnd)) farUids.add(uid);

  // One master per UID: a series written twice (a calendar exported twice, 2,000 VCALENDARs repeating an
  // event) is one series; the highest SEQUENCE wins, then the last written.
  const masters = new Map<string, Item>();
  const exceptions: Item[] = [];
  const unknownZones = new Set<string>();
  const noStartUids = new Set<string>();
  components.forEach(({ component, floating }, index) => {
    const raw = raws[index];
    // A zone nobody can name (no IANA, Windows or vendor name, no VTIMEZONE block): its times are read in
    // the calendar's zone, and the user is told once per zone, since they may be off by hours.
    const zoneName = raw.tzid;
    if (zoneName?.trim() && !unknownZones.has(zoneName) && !ianaZoneOf(zoneName) && !floating.defined?.has(zoneName)) {
      unknownZones.add(zoneName);
      warnings.push(importMessages.icsUnknownZone(zoneName.slice(0, 80), floating.zone));
    }
    if (
      skipOutOfReach &&
      raw.hasStart &&
      !raw.override &&
      (raw.uid ? farUids.has(raw.uid) : outOfReach(raw, rangeStart, rangeEnd))
    )
      return;
    const summary = text(component.getFirstPropertyValue("summary")).trim();
    let uid = text(component.getFirstPropertyValue("uid")).trim();
    const label = importMessages.icsEventLabel(summary.slice(0, 80), uid.slice(0, 80), lineOf(index));
    try {
      if (!component.getFirstProperty("dtstart")) {
        // Said once per event: a copy without a start beside one with it (a reply, a repeated export) loses
        // nothing, and a calendar repeating one broken event hundreds of times gives one line, not hundreds.
        if (uid && (winners.has(uid) || noStartUids.has(uid))) return;
        if (uid) noStartUids.add(uid);
        warnings.push(importMessages.icsSkippedEvent(label, importMessages.icsNoStart));
        return;
      }
      if (!uid) {
        // A stable id for events written without one (OWA 2012, khal, hand-written files): the same file
        // gives the same ids, so an import twice is recognised as already saved.
        uid = `sia-${createHash("sha256").update(component.toString()).digest("hex").slice(0, 32)}`;
        component.updatePropertyWithValue("uid", uid);
      }
      // ical.js relates every sibling RECURRENCE-ID to a new Event whatever its UID: give it none, and
      // relate overrides to their own series below, by UID only.
      const event = new ICAL.Event(component, { exceptions: [] });
      const start = event.startDate;
      if (!start || !Number.isFinite(start.toUnixTime())) throw new Error("date");
      const sequence = Number(component.getFirstPropertyValue("sequence")) || 0;
      const item: Item = { component, event, uid, label, floating, sequence };
      if (component.hasProperty("recurrence-id")) {
        if (!Number.isFinite(event.recurrenceId?.toUnixTime())) throw new Error("date");
        exceptions.push(item);
      } else {
        const known = masters.get(uid);
        if (!known || sequence >= known.sequence) masters.set(uid, item);
      }
    } catch {
      warnings.push(importMessages.icsSkippedEvent(label, importMessages.icsBadDate));
    }
  });

  const found = new Map<string, { instance: CalendarInstance; sequence: number }>();
  const overlaps = (i: CalendarInstance) =>
    i.start.getTime() <= rangeEnd && (i.end.getTime() > rangeStart || i.start.getTime() >= rangeStart);
  /** One instance per id (UID + original start): the same occurrence twice is listed once. */
  const push = (i: CalendarInstance | null, sequence: number) => {
    if (!i || !overlaps(i)) return;
    const known = found.get(i.instanceId);
    if (known && known.sequence > sequence) return;
    found.set(i.instanceId, { instance: i, sequence });
    if (found.size > limits.maxInstances) throw new IcsError(importMessages.icsTooManyInstances(limits.maxInstances));
  };

  const instance = (
    item: Item,
    start: ICAL.Time,
    end: ICAL.Time,
    originalStart: Date | null,
    seriesId: string | null,
    endTzid?: string | null,
  ): CalendarInstance | null => {
    const { component, uid, floating } = item;
    const startTzid = tzidOf(component.getFirstProperty("dtstart"));
    const startAt = instantOf(start, startTzid, floating);
    // Outside the range: nothing more to read (most of a big file's events).
    if (startAt.getTime() > rangeEnd) return null;
    let endAt = instantOf(end, endTzid === undefined ? startTzid : endTzid, floating);
    if (endAt.getTime() < startAt.getTime()) endAt = startAt;
    if (endAt.getTime() <= rangeStart && startAt.getTime() < rangeStart) return null;
    return {
      uid,
      instanceId: instanceIdOf(uid, originalStart ?? startAt),
      seriesId,
      summary: clipSummary(text(component.getFirstPropertyValue("summary"))),
      start: startAt,
      end: endAt,
      allDay: start.isDate,
      cancelled: text(component.getFirstPropertyValue("status")).toUpperCase() === "CANCELLED",
      transparent: text(component.getFirstPropertyValue("transp")).toUpperCase() === "TRANSPARENT",
      organizer: organizerOf(component),
      hangoutLink: conferenceOf(component),
    };
  };
  /** The end of a single event or an override: DTEND in its own zone, or DTSTART + DURATION, or DTSTART. */
  const endOf = (item: Item): { end: ICAL.Time; tzid: string | null | undefined } => {
    const dtend = item.component.getFirstProperty("dtend");
    if (dtend) return { end: item.event.endDate, tzid: tzidOf(dtend) ?? undefined };
    if (item.component.hasProperty("duration")) return { end: item.event.endDate, tzid: undefined };
    const start = item.event.startDate;
    if (start.isDate) {
      const next = start.clone();
      next.adjust(1, 0, 0, 0);
      return { end: next, tzid: undefined };
    }
    return { end: start, tzid: undefined };
  };
  const originalOf = (item: Item) => {
    const property = item.component.getFirstProperty("recurrence-id");
    return instantOf(
      item.event.recurrenceId,
      tzidOf(property) ?? tzidOf(item.component.getFirstProperty("dtstart")),
      item.floating,
    );
  };

  // Overrides by series, keyed by the instant of the occurrence they replace (not by how it was written:
  // a RECURRENCE-ID in UTC replaces an occurrence written in a zone). An override whose series is not in
  // the file stands alone, as calendar programs show it (with its own RDATEs, as khal writes them).
  const overrides = new Map<string, Map<number, Item>>();
  for (const exception of exceptions) {
    const master = masters.get(exception.uid);
    if (!master) {
      masters.set(exception.uid, exception);
      continue;
    }
    const rangeParam = text(exception.component.getFirstProperty("recurrence-id")?.getParameter("range")).toUpperCase();
    if (rangeParam === "THISANDFUTURE") {
      try {
        master.event.relateException(exception.event);
      } catch {
        // read as a single override below
      }
    }
    const byInstant = overrides.get(exception.uid) ?? new Map<number, Item>();
    overrides.set(exception.uid, byInstant);
    const at = originalOf(exception).getTime();
    const known = byInstant.get(at);
    if (!known || exception.sequence >= known.sequence) byInstant.set(at, exception);
  }
  const used = new Set<Item>();
  const emitOverride = (exception: Item) => {
    used.add(exception);
    const { end, tzid } = endOf(exception);
    push(instance(exception, exception.event.startDate, end, originalOf(exception), exception.uid, tzid), exception.sequence + 1);
  };

  let iterations = 0;
  const limit = rangeEnd + MOVED_MARGIN_MS;
  for (const item of masters.values()) {
    const { component, event, uid, label } = item;
    try {
      // RDATE;VALUE=PERIOD (Zimbra, khal): ical.js' iterator cannot order periods; each is read here as
      // an instance with its own end.
      const periods: Array<{ start: ICAL.Time; end: ICAL.Time; tzid: string | null }> = [];
      for (const property of component.getAllProperties("rdate")) {
        const values = property.getValues();
        if (!values.some((v) => v instanceof ICAL.Period)) continue;
        for (const value of values) {
          if (value instanceof ICAL.Period) periods.push({ start: value.start, end: value.getEnd(), tzid: tzidOf(property) });
        }
        const times = values.filter((v) => !(v instanceof ICAL.Period));
        component.removeProperty(property);
        if (times.length) {
          const rest = new ICAL.Property("rdate", component);
          const tzid = tzidOf(property);
          if (tzid) rest.setParameter("tzid", tzid);
          rest.setValues(times);
          component.addProperty(rest);
        }
      }
      const own = overrides.get(uid);
      const excluded = exclusionsOf(item);
      const isExcluded = (time: ICAL.Time, at: number) =>
        time.isDate ? excluded.dates.has(`${time.year}-${time.month}-${time.day}`) : excluded.instants.has(at);
      const startTzid = tzidOf(component.getFirstProperty("dtstart"));
      const recurring = event.isRecurring() && component.hasProperty("rrule") ? true : event.isRecurring();
      const seriesId = recurring || periods.length ? uid : null;
      const firstAt = instantOf(event.startDate, startTzid, item.floating).getTime();
      if (!recurring) {
        const { end, tzid } = endOf(item);
        // DTEND before DTSTART (RFC 5545 §3.6.1 forbids it) is read as no length: the event shows at its
        // start, invalid (red) with its reason, as a zero-length event does, for the person to fix.
        const override = own?.get(firstAt);
        // An override standing alone keeps the id of the occurrence it replaces.
        const alone = component.hasProperty("recurrence-id");
        const original = alone ? originalOf(item) : seriesId ? new Date(firstAt) : null;
        if (override) emitOverride(override);
        else push(instance(item, event.startDate, end, original, alone ? uid : seriesId, tzid), item.sequence);
      } else {
        for (const rule of component.getAllProperties("rrule")) {
          const recur = rule.getFirstValue() as ICAL.Recur;
          if (impossibleRule(recur)) throw new IcsError(importMessages.icsRuleImpossible(label));
        }
        const durationMs = Math.max(0, (event.duration?.toSeconds() ?? 0) * 1000);
        const from = fastForward(event, rangeStart - MOVED_MARGIN_MS - durationMs);
        const iterator = event.iterator(from);
        /** One occurrence (by its original start); false once past the range. */
        const visit = (next: ICAL.Time, original: number): boolean => {
          if (original > limit) return false;
          const override = own?.get(original);
          if (override) {
            emitOverride(override);
            return true;
          }
          if (isExcluded(next, original)) return true;
          // Long before the range: nothing to build (the range's own instances are what cost).
          if (original + durationMs < rangeStart - 86_400_000) return true;
          const details = event.getOccurrenceDetails(next);
          const source = details.item === event ? item : { ...item, component: details.item.component, event: details.item };
          const occurrence = instance(source, details.startDate, details.endDate, new Date(original), uid);
          if (occurrence) {
            // Keep the series' conference/organizer when a THISANDFUTURE override does not repeat them.
            occurrence.organizer ??= organizerOf(component);
            occurrence.hangoutLink ??= conferenceOf(component);
          }
          push(occurrence, item.sequence);
          return true;
        };
        // DTSTART is always the first instance (RFC 5545 §3.8.5.3), even when the rule does not match it
        // (ical.js then starts at the rule's first date); except in Exchange's files (Floating.patternStart).
        let first = !from && !item.floating.patternStart;
        let visited = 0;
        // Several RRULEs are a union; ical.js' expansion stops them all when the first one ends, so each
        // rule is also walked on its own (the same occurrence twice is listed once; EXDATEs apply).
        const rules = component.getAllProperties("rrule");
        const iterators: Array<{ next(): ICAL.Time | null }> = [iterator];
        if (rules.length > 1)
          for (const rule of rules) iterators.push((rule.getFirstValue() as ICAL.Recur).iterator(event.startDate));
        for (const walk of iterators) {
          for (let next = walk.next(); next; next = walk.next()) {
            if (++visited > limits.maxSeriesIterations || ++iterations > limits.maxIterations) {
              throw new IcsError(importMessages.icsRuleTooDense(label));
            }
            const original = instantOf(next, startTzid, item.floating).getTime();
            if (first) {
              first = false;
              if (original > firstAt && !visit(event.startDate, firstAt)) break;
            }
            if (!visit(next, original)) break;
          }
        }
      }
      for (const period of periods) {
        const originalAt = instantOf(period.start, period.tzid, item.floating);
        // DTSTART and an RDATE at the same time are one instance of the set.
        if (originalAt.getTime() === firstAt) continue;
        const override = own?.get(originalAt.getTime());
        if (override) emitOverride(override);
        else if (!isExcluded(period.start, originalAt.getTime()))
          push(instance(item, period.start, period.end, originalAt, uid, period.tzid), item.sequence);
      }
    } catch (error) {
      if (error instanceof IcsError) throw error;
      warnings.push(importMessages.icsSkippedEvent(label, importMessages.icsBadRule));
    }
  }
  // Overrides whose original date the series never reaches (or that an EXDATE removed): shown at their
  // own time, as calendar programs do.
  for (const byInstant of overrides.values()) {
    for (const exception of byInstant.values()) {
      if (used.has(exception)) continue;
      try {
        emitOverride(exception);
      } catch (error) {
        if (error instanceof IcsError) throw error;
        warnings.push(importMessages.icsSkippedEvent(exception.label, importMessages.icsBadDate));
      }
    }
  }

  const listed =
    warnings.length > limits.maxWarnings
      ? [...warnings.slice(0, limits.maxWarnings), importMessages.icsMoreWarnings(warnings.length - limits.maxWarnings)]
      : warnings;
  return { instances: [...found.values()].map((f) => f.instance), warnings: listed };
}
