/**
 * Reading a calendar for the timesheet import (issue 6): the server reads, the browser never holds
 * provider tokens. Two sources answer the same CalendarInstance shape:
 * - an uploaded .ics file (readIcs, below): works with no account anywhere;
 * - a provider read with the user's token (CalendarReader: Google Calendar, server/ports/calendar/google.ts,
 *   with CALENDAR_ADAPTER=google); createCalendarReader() answers null while none is configured, and the
 *   import route then answers a Spanish 422.
 *
 * Instances are expanded (recurrences, EXDATE, moved instances by RECURRENCE-ID) but NOT filtered: the
 * import rules of SPEC §5 (cancelled, free, all-day, outside the range, duplicates) live in one place,
 * server/modules/calendar_imports/service.ts, for every source.
 */

import ICAL from "ical.js";
import { BUSINESS_TIME_ZONE, isKnownTimeZone, wallTimeInstant } from "../../../src/core/week";
import type { Integration } from "../integration";

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

/** The file is not an iCalendar document. */
export class IcsError extends Error {}

const compactUtc = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
/** Google's own instance id shape: `<uid>_<YYYYMMDDTHHMMSSZ>`. */
export const instanceIdOf = (uid: string, originalStart: Date) => `${uid}_${compactUtc(originalStart)}`;

/**
 * The instant of an ICAL.Time: UTC and VTIMEZONE-backed times through ical.js; floating times (or a TZID
 * the file does not define) as wall-clock time in that TZID when the runtime knows it, else in the firm's
 * zone (America/Mexico_City).
 */
function instantOf(time: ICAL.Time, tzid: string | null): Date {
  const zone = time.zone;
  const floating = !zone || zone.tzid === "floating" || zone === ICAL.Timezone.localTimezone;
  if (!floating) return new Date(time.toUnixTime() * 1000);
  const wall = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
  return wallTimeInstant(wall, tzid && isKnownTimeZone(tzid) ? tzid : BUSINESS_TIME_ZONE);
}

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
/** Guard against pathological rules (e.g. an every-minute RRULE): occurrences visited per series. */
const MAX_OCCURRENCES = 20_000;

/**
 * Parses an .ics document and expands every event into the instances that may fall in the range
 * (instances before the range start or far after its end are not produced).
 */
export function readIcs(source: string, range: CalendarRange): CalendarInstance[] {
  let root: ICAL.Component;
  try {
    const jcal = ICAL.parse(source);
    root = new ICAL.Component(jcal as unknown as unknown[]);
  } catch {
    throw new IcsError("invalid");
  }
  const calendars = root.name === "vcalendar" ? [root] : root.getAllSubcomponents("vcalendar");
  if (!calendars.length) throw new IcsError("no vcalendar");

  const out: CalendarInstance[] = [];
  for (const calendar of calendars) {
    const vevents = calendar.getAllSubcomponents("vevent");
    const masters = new Map<string, ICAL.Event>();
    const exceptions: ICAL.Event[] = [];
    for (const component of vevents) {
      const event = new ICAL.Event(component);
      if (!event.uid || !component.getFirstProperty("dtstart")) continue;
      if (event.isRecurrenceException()) exceptions.push(event);
      else masters.set(event.uid, event);
    }
    const orphans: ICAL.Event[] = [];
    for (const exception of exceptions) {
      const master = masters.get(exception.uid);
      if (master?.isRecurring()) master.relateException(exception);
      else orphans.push(exception);
    }

    const instance = (
      event: ICAL.Event,
      start: ICAL.Time,
      end: ICAL.Time,
      originalStart: ICAL.Time,
      seriesId: string | null,
    ): CalendarInstance => {
      const component = event.component;
      const tzid = (component.getFirstProperty("dtstart")?.getParameter("tzid") as string | undefined) ?? null;
      const startAt = instantOf(start, tzid);
      let endAt = instantOf(end, tzid);
      if (endAt.getTime() < startAt.getTime()) endAt = startAt;
      return {
        uid: event.uid,
        instanceId: seriesId ? instanceIdOf(event.uid, instantOf(originalStart, tzid)) : instanceIdOf(event.uid, startAt),
        seriesId,
        summary: text(event.summary),
        start: startAt,
        end: endAt,
        allDay: start.isDate,
        cancelled: text(component.getFirstPropertyValue("status")).toUpperCase() === "CANCELLED",
        transparent: text(component.getFirstPropertyValue("transp")).toUpperCase() === "TRANSPARENT",
        organizer: organizerOf(component),
        hangoutLink: conferenceOf(component),
      };
    };

    for (const event of masters.values()) {
      const tzid = (event.component.getFirstProperty("dtstart")?.getParameter("tzid") as string | undefined) ?? null;
      if (!event.isRecurring()) {
        const end = event.endDate ?? event.startDate;
        out.push(instance(event, event.startDate, end, event.startDate, null));
        continue;
      }
      const iterator = event.iterator();
      const limit = range.end.getTime() + MOVED_MARGIN_MS;
      for (let i = 0, next = iterator.next(); next && i < MAX_OCCURRENCES; i++, next = iterator.next()) {
        const original = instantOf(next, tzid).getTime();
        if (original > limit) break;
        const details = event.getOccurrenceDetails(next);
        const occurrence = instance(details.item, details.startDate, details.endDate, details.recurrenceId, event.uid);
        // Keep the series' conference/organizer when the moved instance does not repeat them.
        occurrence.organizer ??= organizerOf(event.component);
        occurrence.hangoutLink ??= conferenceOf(event.component);
        if (occurrence.end.getTime() < range.start.getTime()) continue;
        out.push(occurrence);
      }
    }
    for (const orphan of orphans) {
      out.push(instance(orphan, orphan.startDate, orphan.endDate ?? orphan.startDate, orphan.recurrenceId, orphan.uid));
    }
  }
  return out;
}
