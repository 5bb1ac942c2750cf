/**
 * Week and month maths of the timesheet (SPEC §9) in the firm's time zone, America/Mexico_City.
 * A week runs Monday 00:00 to Sunday 23:59:59.999 local time. Plain dates are 'YYYY-MM-DD' strings
 * computed in UTC (no host time zone leaks in); instants are converted through Intl, so the maths stays
 * right even if the zone ever observes DST again (it has not since 2022: UTC−6 all year).
 *
 * Freezing is exact to the day: a frozen period covers [starts_on, ends_on] (inclusive dates) and an
 * activity belongs to the local date it begins on, so a frozen month never locks a neighbouring month's
 * days of a week that crosses the month boundary.
 */

export const BUSINESS_TIME_ZONE = "America/Mexico_City";
const DAY_MS = 86_400_000;
const pad = (n: number) => String(n).padStart(2, "0");

export const toIsoDate = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};
/**
 * The dates SIA accepts anywhere (forms, query parameters, imports): years 1900 to 2100. Outside them a date
 * is a typo or an attack, and week arithmetic near year 9999 leaves what PostgreSQL and Date can hold.
 */
export const DATE_MIN = "1900-01-01";
export const DATE_MAX = "2100-12-31";
/** A 'YYYY-MM-DD' (already a real date) within DATE_MIN…DATE_MAX. */
export const isDateInRange = (date: string) => date.length === 10 && date >= DATE_MIN && date <= DATE_MAX;
/**
 * An instant whose date is within DATE_MIN…DATE_MAX both in UTC and in the firm's zone (false for an
 * invalid Date): 1900-01-01T00:00Z is still 1899 in Mexico City, and its week could not be shown.
 */
export const isInstantInRange = (instant: Date) =>
  !Number.isNaN(instant.getTime()) && isDateInRange(instant.toISOString().slice(0, 10)) && isDateInRange(localDate(instant));

export const parseIsoDate = (date: string) => {
  const [y, m, d] = date.split("-").map(Number);
  return Date.UTC(y, m - 1, d);
};
export const addDays = (date: string, days: number) => toIsoDate(parseIsoDate(date) + days * DAY_MS);
/** Whole days from one date to another (negative when `to` comes first): addDays(from, daysBetween(from, to)) = to. */
export const daysBetween = (from: string, to: string) => Math.round((parseIsoDate(to) - parseIsoDate(from)) / DAY_MS);
/** 0 = Sunday … 6 = Saturday. */
export const dayOfWeek = (date: string) => new Date(parseIsoDate(date)).getUTCDay();
/** The Monday that starts the (ISO) week of a date. */
export const mondayOf = (date: string) => addDays(date, -((dayOfWeek(date) + 6) % 7));
export const sundayOf = (date: string) => addDays(mondayOf(date), 6);
export const firstOfMonth = (date: string) => `${date.slice(0, 7)}-01`;
export const lastOfMonth = (date: string) => {
  const [y, m] = date.split("-").map(Number);
  return toIsoDate(Date.UTC(y, m, 0));
};

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
/** Wall-clock parts in an IANA zone (one cached formatter per zone; RangeError for a zone the runtime lacks). */
function zoneFormat(zone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    zoneFormats.set(zone, format);
  }
  return format;
}
/** Whether the runtime knows an IANA zone (a calendar file may name one it does not). */
export function isKnownTimeZone(zone: string): boolean {
  try {
    zoneFormat(zone);
    return true;
  } catch {
    return false;
  }
}
interface WallParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}
/** The wall-clock parts as Intl gives them (formatToParts: exact, but slow for thousands of instants). */
function exactWallParts(instant: number, zone: string): WallParts {
  const p = Object.fromEntries(
    zoneFormat(zone)
      .formatToParts(new Date(instant))
      .map((x) => [x.type, x.value]),
  );
  return { year: +p.year, month: +p.month, day: +p.day, hour: +p.hour, minute: +p.minute, second: +p.second };
}
/** Offset of a zone from UTC at a whole second, in milliseconds (whole seconds: old local mean times). */
const exactOffset = (second: number, zone: string) => {
  const p = exactWallParts(second, zone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - second;
};
const HOUR_MS = 3_600_000;
/** Offset of a zone during one UTC hour, by `zone|hour`; null when the offset changes within that hour. */
const hourOffsets = new Map<string, number | null>();
/**
 * Wall-clock parts of an instant in a zone. Offsets change at whole seconds and never twice within an
 * hour, so an hour whose first and last second have the same offset has it throughout: its parts are
 * UTC arithmetic on that offset (cached per zone and hour), exactly what Intl answers. An hour holding
 * a change, and years Intl writes differently (before 1000, after 9999), ask Intl itself.
 */
function wallParts(instant: number, zone: string): WallParts {
  const hour = Math.floor(instant / HOUR_MS);
  const key = `${zone}|${hour}`;
  let offset = hourOffsets.get(key);
  if (offset === undefined) {
    const first = exactOffset(hour * HOUR_MS, zone);
    offset = first === exactOffset(hour * HOUR_MS + HOUR_MS - 1000, zone) ? first : null;
    if (hourOffsets.size >= 50_000) hourOffsets.clear();
    hourOffsets.set(key, offset);
  }
  if (offset === null) return exactWallParts(instant, zone);
  const wall = new Date(Math.floor(instant / 1000) * 1000 + offset);
  const year = wall.getUTCFullYear();
  if (year < 1000 || year > 9999) return exactWallParts(instant, zone);
  return {
    year,
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
}

/** Local date and minute of the day of an instant in a zone (the scheduler's zone is configurable). */
export function wallClockIn(instant: Date, zone: string): { date: string; minutes: number } {
  const p = wallParts(instant.getTime(), zone);
  return { date: `${p.year}-${pad(p.month)}-${pad(p.day)}`, minutes: p.hour * 60 + p.minute };
}
/** Local (Mexico City) date and minute of the day of an instant. */
export const wallClock = (instant: Date) => wallClockIn(instant, BUSINESS_TIME_ZONE);
/** Local date of an instant. */
export const localDate = (instant: Date) => wallClock(instant).date;
/**
 * The day a browser-local date stands for, read from its local fields: FullCalendar draws its columns in
 * the browser's zone and hands each column's day as the browser's midnight. Naming that midnight by the
 * firm's date (localDate) gives the day before in a browser east of Mexico City (Cancún) or in UTC.
 */
export const calendarDay = (date: Date) => toIsoDate(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()));
/**
 * Today's date (YYYY-MM-DD) in the firm's time zone: the one "today" of SIA, in the browser and on the
 * server alike. Never `new Date().toISOString().slice(0, 10)`: that is the UTC date, tomorrow after
 * 18:00 in Mexico City.
 */
export const businessToday = (now: Date = new Date()) => localDate(now);

/** Offset of a zone from UTC at an instant, in minutes (−360 for UTC−6). */
function offsetMinutes(instant: number, zone: string): number {
  const p = wallParts(instant, zone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** The instant of a wall-clock time (its fields read as UTC milliseconds) in a zone: two passes, right across offset changes. */
export function wallTimeInstant(wall: number, zone: string = BUSINESS_TIME_ZONE): Date {
  let instant = wall - offsetMinutes(wall, zone) * 60_000;
  instant = wall - offsetMinutes(instant, zone) * 60_000;
  return new Date(instant);
}
/** The instant of a local wall-clock time: a date plus milliseconds after local midnight. */
export const zonedInstant = (date: string, msOfDay = 0) => wallTimeInstant(parseIsoDate(date) + msOfDay);
export const zonedTime = (date: string, minutes: number) => zonedInstant(date, minutes * 60_000);
/** Local midnight that starts a date. */
export const startOfDay = (date: string) => zonedInstant(date, 0);
/** The last millisecond of a date (23:59:59.999 local). */
export const endOfDay = (date: string) => new Date(zonedInstant(addDays(date, 1), 0).getTime() - 1);

export interface Period {
  /** Inclusive local dates. */
  starts_on: string;
  ends_on: string;
  /** Instants: first and last millisecond. */
  start: Date;
  end: Date;
}
const period = (starts_on: string, ends_on: string): Period => ({
  starts_on,
  ends_on,
  start: startOfDay(starts_on),
  end: endOfDay(ends_on),
});

/** The week (Monday–Sunday) that contains a local date. */
export const weekOf = (date: string): Period => period(mondayOf(date), sundayOf(date));
/** The week before the one containing a date (SPEC §9: default report range is the previous ISO week). */
export const previousWeekOf = (date: string): Period => weekOf(addDays(mondayOf(date), -7));
/** The calendar month that contains a local date. */
export const monthOf = (date: string): Period => period(firstOfMonth(date), lastOfMonth(date));

/** True when a local date falls inside one of the (inclusive) periods. */
export const isDayFrozen = (date: string, periods: ReadonlyArray<{ starts_on: string; ends_on: string }>) =>
  periods.some((p) => p.starts_on <= date && date <= p.ends_on);

/** 'HH:mm' local time of an instant. */
export function hhmm(instant: Date): string {
  const { minutes } = wallClock(instant);
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
/** The prefix of an activity's errors in batch answers: 'HH:mm - HH:mm: '. */
export const timePrefix = (begins: Date, ends: Date) => `${hhmm(begins)} - ${hhmm(ends)}: `;

/** Parses 'YYYY-MM-DD' or an ISO date-time into the local date it designates; null if not real or out of range. */
export function localDateOf(value: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const ms = parseIsoDate(value);
    return Number.isNaN(ms) || toIsoDate(ms) !== value || !isDateInRange(value) ? null : value;
  }
  const instant = new Date(Date.parse(value));
  return isInstantInRange(instant) ? localDate(instant) : null;
}

/**
 * How SIA shows dates and times on every screen: DD/MM/AAAA, and DD/MM/AAAA HH:mm on a 24-hour clock in
 * the firm's zone. One formatter each, so no screen falls back on the browser's locale or zone (an
 * «a.m.», a «2026-11-30», a «27 nov 2026» or the date of a browser in another zone).
 */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Whether a value is a plain 'YYYY-MM-DD' date (a date column), not an instant. */
export const isIsoDate = (value: unknown): value is string => typeof value === "string" && ISO_DATE.test(value);
const instantOf = (value: string | Date) => (value instanceof Date ? value : new Date(value));
/**
 * 'DD/MM/AAAA' of a plain date ('2026-11-30' → '30/11/2026') or of an instant's local date; '—' when
 * empty or not a date.
 */
export function formatDate(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  let date: string;
  if (isIsoDate(value)) date = value;
  else {
    const instant = instantOf(value);
    if (Number.isNaN(instant.getTime())) return "—";
    date = localDate(instant);
  }
  return `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
}
/** 'DD/MM/AAAA HH:mm' (24 h) of an instant in the firm's zone; '—' when empty or not a date. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  const instant = instantOf(value);
  if (Number.isNaN(instant.getTime())) return "—";
  return `${formatDate(instant)} ${hhmm(instant)}`;
}

/** «9:00», «09:00», «0900» → «09:00»; null for anything that is not a time of day. */
export function readTime(text: string): string | null {
  const match = /^\s*(\d{1,2}):?(\d{2})\s*$/.exec(text);
  if (!match) return null;
  const [hours, minutes] = [Number(match[1]), Number(match[2])];
  if (hours > 23 || minutes > 59) return null;
  return `${String(hours).padStart(2, "0")}:${match[2]}`;
}
