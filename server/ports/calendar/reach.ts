/**
 * How far an event can reach, read from its raw jCal properties before ical.js builds anything: a Google
 * export with years of history holds thousands of events, and only those that can fall in the requested
 * week are worth turning into Events, zones and occurrences (docs/decisions/044-big-calendars-and-damaged-files.md).
 *
 * The bounds are wall-clock milliseconds (the written digits read as if UTC), because an event's zone is
 * not known here; the caller widens them by REACH_MARGIN_MS, more than any zone's offset, before comparing
 * them with the week. Anything this cannot read surely (a value it does not recognise, a rule whose end it
 * cannot bound) answers an open bound, so the event is read the full way, as before.
 */
import ICAL from "ical.js";

/** Wider than any two zones' offsets apart (UTC-12 to UTC+14), with room for a day's rounding. */
export const REACH_MARGIN_MS = 3 * 86_400_000;

const DAY_MS = 86_400_000;
const WALL = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z)?)?$/;

type JCalProperty = [string, Record<string, unknown>, string, ...unknown[]];

/** "2024-01-01T10:00:00", "…Z" or "2024-01-01" as wall-clock ms; null for anything else. */
export function wallMs(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const m = WALL.exec(value);
  if (!m) return null;
  const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  return Number.isFinite(ms) ? ms : null;
}

function durationMs(value: unknown): number | null {
  if (typeof value !== "string" || !/^[+-]?P/i.test(value)) return null;
  try {
    const seconds = ICAL.Duration.fromString(value).toSeconds();
    return Number.isFinite(seconds) ? seconds * 1000 : null;
  } catch {
    return null;
  }
}

/** What the reader needs before building an Event: identity, and the span its instances can reach. */
export interface RawEvent {
  uid: string;
  sequence: number;
  /** An override (RECURRENCE-ID): always read, it may replace an occurrence of the week. */
  override: boolean;
  hasStart: boolean;
  /** The DTSTART's TZID, if any. */
  tzid: string | null;
  /** Earliest wall-clock start of any instance, or -Infinity when unknown. */
  from: number;
  /** Latest wall-clock end of any instance, or +Infinity when unknown or unbounded. */
  to: number;
}

const OPEN = { from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY };

/**
 * The last occurrence a COUNT can reach, for the rules where every period surely holds an occurrence:
 * DAILY and WEEKLY (BYDAY of plain weekdays at most), MONTHLY on a day every month has, YEARLY on a day
 * every year has. Other rules (BYSETPOS, BYMONTHDAY=31, …) are left unbounded and walked.
 */
function countReach(rule: Record<string, unknown>, start: number): number {
  const count = Number(rule.count);
  if (!Number.isFinite(count) || count < 0) return Number.POSITIVE_INFINITY;
  const interval = Math.max(1, Number(rule.interval) || 1);
  const parts = Object.keys(rule).filter((key) => !["freq", "count", "interval", "wkst"].includes(key));
  const date = new Date(start);
  const freq = String(rule.freq).toUpperCase();
  // One period more than COUNT: the first period may hold no occurrence after DTSTART.
  const periods = (count + 1) * interval;
  if (freq === "DAILY" && !parts.length) return start + periods * DAY_MS;
  if (freq === "WEEKLY") {
    const days = rule.byday;
    const plain = (Array.isArray(days) ? days : days == null ? [] : [days]).every((d) =>
      /^(MO|TU|WE|TH|FR|SA|SU)$/.test(String(d)),
    );
    if (parts.every((key) => key === "byday") && plain) return start + periods * 7 * DAY_MS;
  }
  if (freq === "MONTHLY" && !parts.length && date.getUTCDate() <= 28)
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + periods, 28, 23, 59, 59);
  if (freq === "YEARLY" && !parts.length && !(date.getUTCMonth() === 1 && date.getUTCDate() === 29))
    return Date.UTC(date.getUTCFullYear() + periods, 11, 31, 23, 59, 59);
  return Number.POSITIVE_INFINITY;
}

/** A VEVENT's identity and reach, from its jCal (ICAL.Component#jCal). */
export function rawEvent(jcal: unknown[]): RawEvent {
  const properties = (Array.isArray(jcal[1]) ? jcal[1] : []) as JCalProperty[];
  let uid = "";
  let sequence = 0;
  let override = false;
  let start: JCalProperty | null = null;
  let end: JCalProperty | null = null;
  let duration: JCalProperty | null = null;
  const rules: unknown[] = [];
  const rdates: JCalProperty[] = [];
  for (const property of properties) {
    switch (property[0]) {
      case "uid":
        uid ||= String(property[3] ?? "").trim();
        break;
      case "sequence":
        sequence = Number(property[3]) || 0;
        break;
      case "recurrence-id":
        override = true;
        break;
      case "dtstart":
        start ??= property;
        break;
      case "dtend":
        end ??= property;
        break;
      case "duration":
        duration ??= property;
        break;
      case "rrule":
        rules.push(property[3]);
        break;
      case "rdate":
        rdates.push(property);
        break;
    }
  }
  const tzidValue = start?.[1]?.tzid;
  const tzid = typeof tzidValue === "string" ? tzidValue : Array.isArray(tzidValue) ? String(tzidValue[0] ?? "") : null;
  const base = { uid, sequence, override, hasStart: start !== null, tzid };
  const first = start ? wallMs(start[3]) : null;
  if (first === null) return { ...base, ...OPEN };

  // The length of one instance: DTEND (an end before the start is no length), DURATION, or none.
  let length = start?.[2] === "date" ? DAY_MS : 0;
  if (end) {
    const last = wallMs(end[3]);
    if (last === null) return { ...base, ...OPEN };
    length = Math.max(0, last - first);
  } else if (duration) {
    const ms = durationMs(duration[3]);
    if (ms === null) return { ...base, ...OPEN };
    length = Math.max(0, ms);
  }

  let from = first;
  let to = first + length;
  for (const property of rdates) {
    for (const value of property.slice(3)) {
      // RDATE;VALUE=PERIOD: [start, end or duration]
      const [startValue, periodValue] = Array.isArray(value) ? value : [value, null];
      const at = wallMs(startValue);
      if (at === null) return { ...base, ...OPEN };
      let periodEnd: number | null = at + length;
      if (periodValue != null) {
        const endWall = wallMs(periodValue);
        const periodLength = endWall === null ? durationMs(periodValue) : null;
        periodEnd = endWall ?? (periodLength === null ? null : at + periodLength);
      }
      if (periodEnd === null) return { ...base, ...OPEN };
      from = Math.min(from, at);
      to = Math.max(to, periodEnd, at + length);
    }
  }
  for (const value of rules) {
    if (!value || typeof value !== "object") return { ...base, from, to: Number.POSITIVE_INFINITY };
    const rule = value as Record<string, unknown>;
    const until = rule.until == null ? null : wallMs(rule.until);
    if (rule.until != null && until === null) return { ...base, from, to: Number.POSITIVE_INFINITY };
    const last = until ?? (rule.count != null ? countReach(rule, first) : Number.POSITIVE_INFINITY);
    to = Math.max(to, last + length);
  }
  return { ...base, from, to };
}

/** Whether nothing of the event can fall between `start` and `end` (instants, ms). */
export const outOfReach = (raw: RawEvent, start: number, end: number) =>
  raw.from > end + REACH_MARGIN_MS || raw.to < start - REACH_MARGIN_MS;
