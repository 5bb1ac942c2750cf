/** The calendar's clock: FullCalendar's named-time-zone plugin on Intl answers Mexico City's wall clock. */
import { describe, expect, it } from "vitest";
import { businessTimeZonePlugin } from "../../src/timesheet/components/businessTimeZone";

type Impl = { offsetForArray(a: number[]): number; timestampToArray(ms: number): number[] };
const Zone = businessTimeZonePlugin.namedTimeZonedImpl as unknown as new (name: string) => Impl;
const mexico = new Zone("America/Mexico_City");

describe("the business time-zone plugin", () => {
  it("reads an instant as Mexico City's wall clock", () => {
    // Friday 27 November 2026, 20:00 in Mexico City = Saturday 02:00 UTC.
    expect(mexico.timestampToArray(Date.parse("2026-11-28T02:00:00.250Z"))).toEqual([2026, 10, 27, 20, 0, 0, 250]);
    expect(mexico.timestampToArray(Date.parse("2026-11-23T06:00:00Z"))).toEqual([2026, 10, 23, 0, 0, 0, 0]);
  });

  it("gives the offset of a wall-clock time, so FullCalendar writes the same instant back", () => {
    expect(mexico.offsetForArray([2026, 10, 27, 20, 0, 0, 0])).toBe(-360);
    // Summer 2021, when Mexico City still kept daylight time (UTC−5).
    expect(mexico.offsetForArray([2021, 6, 1, 12, 0, 0, 0])).toBe(-300);
    expect(new Zone("America/Cancun").offsetForArray([2026, 10, 27, 20])).toBe(-300);
    expect(new Zone("UTC").offsetForArray([2026, 10, 27, 20])).toBe(0);
  });

  it("round-trips every quarter hour of a week", () => {
    const start = Date.parse("2026-11-23T06:00:00Z");
    for (let ms = start; ms < start + 7 * 86_400_000; ms += 900_000) {
      const a = mexico.timestampToArray(ms);
      const wall = Date.UTC(a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
      expect(wall - mexico.offsetForArray(a) * 60_000).toBe(ms);
    }
  });
});
