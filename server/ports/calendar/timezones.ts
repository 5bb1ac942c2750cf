/**
 * Which IANA zone a calendar's TZID names, whoever wrote it (docs/decisions/019-ics-calendar-reader.md):
 * - an IANA name (America/New_York) is that zone;
 * - a vendor-prefixed id (/mozilla.org/20050126_1/America/New_York, /softwarestudio.org/Olson_…/Pacific/Auckland,
 *   /freeassociation.sourceforge.net/Tzfile/Europe/London) is the IANA zone at its end;
 * - a Windows name (Pacific Standard Time) or the display name OWA writes ("(UTC-05:00) Eastern Time (US &
 *   Canada)", also "(GMT-05:00) …") maps through CLDR's windowsZones table (windowsZones.ts);
 * - anything else is null: the caller then uses the file's VTIMEZONE block, or the floating rule.
 */
import { isKnownTimeZone } from "../../../src/core/week";
import { WINDOWS_ZONES } from "./windowsZones";

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, " ");
const BY_WINDOWS_ID = new Map(WINDOWS_ZONES.map(([, id, iana]) => [norm(id), iana]));
/** Older Outlook separates the places with " / " where Windows now writes ", ". */
const place = (s: string) => norm(s).replace(/\s*[/,]\s*/g, ", ");
const BY_DISPLAY = new Map(WINDOWS_ZONES.map(([display, , iana]) => [place(display), iana]));

const cache = new Map<string, string | null>();

/** A zone Intl knows and that names a place or UTC (not a bare abbreviation such as "EST"). */
function iana(name: string): string | null {
  if (!name) return null;
  if (/^(utc|gmt|z|etc\/utc|etc\/gmt)$/i.test(name)) return "UTC";
  if (!name.includes("/")) return null;
  return isKnownTimeZone(name) ? name : null;
}

function resolve(raw: string): string | null {
  const tzid = raw
    .trim()
    .replace(/^"+|"+$/g, "")
    .trim();
  if (!tzid) return null;
  const direct = iana(tzid);
  if (direct) return direct;
  // A path: the longest tail that is an IANA zone (vendor prefixes, Olson version folders).
  if (tzid.includes("/")) {
    const parts = tzid.split("/").filter(Boolean);
    for (let i = 0; i < parts.length - 1; i++) {
      const tail = iana(parts.slice(i).join("/"));
      if (tail) return tail;
    }
  }
  const windows = BY_WINDOWS_ID.get(norm(tzid));
  if (windows) return windows;
  // "(UTC-05:00) Eastern Time (US & Canada)", "(GMT+01.00) Amsterdam / Berlin …".
  const display = tzid.match(/^\(\s*(?:UTC|GMT)\s*(?:([+-])(\d{1,2})[:.]?(\d{2}))?\s*\)\s*(.*)$/i);
  if (display) {
    const [, sign, hours, minutes, rest] = display;
    const byName = BY_DISPLAY.get(place(rest)) ?? BY_WINDOWS_ID.get(norm(rest));
    if (byName) return byName;
    if (!sign) return "UTC";
    // An unknown place but a whole-hour offset: that offset, without daylight saving time.
    if (minutes === "00") return Number(hours) === 0 ? "UTC" : `Etc/GMT${sign === "+" ? "-" : "+"}${Number(hours)}`;
  }
  return null;
}

/** The IANA zone a TZID names, or null. */
export function ianaZoneOf(tzid: string | null | undefined): string | null {
  if (tzid == null) return null;
  let zone = cache.get(tzid);
  if (zone === undefined) {
    zone = resolve(tzid);
    if (cache.size < 1000) cache.set(tzid, zone);
  }
  return zone;
}
