/**
 * FullCalendar's clock set to the firm's (src/core/week.ts): a named-time-zone plugin on Intl, so the
 * calendar draws, drags and names its days in Mexico City's time whatever the browser's zone. Without it
 * FullCalendar uses the browser's zone: in Cancún or UTC a Friday 20:00 block was drawn on Saturday under
 * a header that counted it on Friday, and a drag at 20:00 saved 19:00. Our own Intl maths instead of the
 * luxon plugin: week.ts already converts both ways, and no second date library ships.
 */
import { createPlugin } from "@fullcalendar/core";
import { NamedTimeZoneImpl } from "@fullcalendar/core/internal";
import { parseIsoDate, wallClockIn, wallTimeInstant } from "../../core/week";

const MINUTE_MS = 60_000;

class IntlTimeZone extends NamedTimeZoneImpl {
  /** Minutes east of UTC (−360 in Mexico City) at a wall-clock time given as FullCalendar's array. */
  offsetForArray(a: number[]): number {
    const wall = Date.UTC(a[0], a[1] ?? 0, a[2] ?? 1, a[3] ?? 0, a[4] ?? 0, a[5] ?? 0, a[6] ?? 0);
    return Math.round((wall - wallTimeInstant(wall, this.timeZoneName).getTime()) / MINUTE_MS);
  }

  /** The wall-clock fields of an instant in the zone: [year, month (0-based), day, hour, minute, second, ms]. */
  timestampToArray(ms: number): number[] {
    const { date, minutes } = wallClockIn(new Date(ms), this.timeZoneName);
    const wall = new Date(parseIsoDate(date) + minutes * MINUTE_MS + (((ms % MINUTE_MS) + MINUTE_MS) % MINUTE_MS));
    return [
      wall.getUTCFullYear(),
      wall.getUTCMonth(),
      wall.getUTCDate(),
      wall.getUTCHours(),
      wall.getUTCMinutes(),
      wall.getUTCSeconds(),
      wall.getUTCMilliseconds(),
    ];
  }
}

export const businessTimeZonePlugin = createPlugin({ name: "sia-business-time-zone", namedTimeZonedImpl: IntlTimeZone });
