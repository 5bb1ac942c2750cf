import { describe, expect, it } from "vitest";
import {
  addDays,
  daysBetween,
  endOfDay,
  formatDate,
  formatDateTime,
  hhmm,
  isDayFrozen,
  localDate,
  localDateOf,
  mondayOf,
  monthOf,
  previousWeekOf,
  startOfDay,
  timePrefix,
  wallClock,
  wallClockIn,
  weekOf,
  zonedTime,
} from "../../src/core/week";

describe("week maths in America/Mexico_City", () => {
  it.each([
    // date, monday, sunday
    ["2024-04-03", "2024-04-01", "2024-04-07"],
    ["2024-04-01", "2024-04-01", "2024-04-07"],
    ["2024-04-07", "2024-04-01", "2024-04-07"],
    ["2024-12-31", "2024-12-30", "2025-01-05"],
    ["2025-01-01", "2024-12-30", "2025-01-05"],
    ["2024-02-29", "2024-02-26", "2024-03-03"],
  ])("the week of %s runs %s to %s", (date, monday, sunday) => {
    const week = weekOf(date);
    expect(week.starts_on).toBe(monday);
    expect(week.ends_on).toBe(sunday);
    expect(mondayOf(date)).toBe(monday);
  });

  it("a week starts Monday 00:00 and ends Sunday 23:59:59.999 local time (UTC−6 since 2022)", () => {
    const week = weekOf("2024-04-03");
    expect(week.start.toISOString()).toBe("2024-04-01T06:00:00.000Z");
    expect(week.end.toISOString()).toBe("2024-04-08T05:59:59.999Z");
  });

  it("is zone-correct in the DST era (2021 summer was UTC−5)", () => {
    expect(startOfDay("2021-07-05").toISOString()).toBe("2021-07-05T05:00:00.000Z");
    expect(startOfDay("2021-01-04").toISOString()).toBe("2021-01-04T06:00:00.000Z");
    expect(endOfDay("2021-07-05").toISOString()).toBe("2021-07-06T04:59:59.999Z");
    expect(zonedTime("2021-07-05", 9 * 60).toISOString()).toBe("2021-07-05T14:00:00.000Z");
  });

  it.each([
    ["2024-04-03", "2024-03-25", "2024-03-31"],
    ["2025-01-01", "2024-12-23", "2024-12-29"],
    ["2024-04-01", "2024-03-25", "2024-03-31"],
  ])("the previous ISO week of %s is %s – %s", (date, monday, sunday) => {
    const week = previousWeekOf(date);
    expect([week.starts_on, week.ends_on]).toEqual([monday, sunday]);
  });

  it.each([
    ["2024-02-10", "2024-02-01", "2024-02-29"],
    ["2023-02-10", "2023-02-01", "2023-02-28"],
    ["2024-12-31", "2024-12-01", "2024-12-31"],
  ])("the month of %s is %s – %s", (date, first, last) => {
    const month = monthOf(date);
    expect([month.starts_on, month.ends_on]).toEqual([first, last]);
    expect(month.start.toISOString()).toBe(startOfDay(first).toISOString());
  });

  it("an instant late in the evening belongs to the local day, not the UTC one", () => {
    const instant = new Date("2024-04-01T03:30:00Z"); // 21:30 on Sunday 31 March in Mexico City
    expect(localDate(instant)).toBe("2024-03-31");
    expect(wallClock(instant).minutes).toBe(21 * 60 + 30);
    expect(hhmm(instant)).toBe("21:30");
    expect(localDateOf("2024-04-01T03:30:00Z")).toBe("2024-03-31");
    expect(localDateOf("2024-04-01")).toBe("2024-04-01");
    expect(localDateOf("2024-02-30")).toBeNull();
    expect(localDateOf("mañana")).toBeNull();
  });

  it("freezing is exact to the day across a month boundary", () => {
    const march = monthOf("2024-03-15");
    const week = weekOf("2024-03-28"); // 25 – 31 March
    const jan = monthOf("2024-01-10");
    const boundary = weekOf("2024-02-01");
    expect([boundary.starts_on, boundary.ends_on]).toEqual(["2024-01-29", "2024-02-04"]);
    expect(isDayFrozen("2024-01-31", [jan])).toBe(true);
    expect(isDayFrozen("2024-02-01", [jan])).toBe(false);
    expect(isDayFrozen("2024-03-31", [march, week])).toBe(true);
    expect(isDayFrozen("2024-04-01", [march, week])).toBe(false);
  });

  it("prefixes errors with the local start and end times", () => {
    expect(timePrefix(zonedTime("2024-04-01", 9 * 60), zonedTime("2024-04-01", 10 * 60 + 15))).toBe("09:00 - 10:15: ");
    expect(addDays("2024-02-28", 2)).toBe("2024-03-01");
  });

  it("counts whole days between dates, across leap days and years, either way", () => {
    expect(daysBetween("2024-02-28", "2024-03-01")).toBe(2);
    expect(daysBetween("2024-03-01", "2024-02-28")).toBe(-2);
    expect(daysBetween("2023-12-31", "2025-01-01")).toBe(367);
    expect(addDays("1900-01-01", daysBetween("1900-01-01", "2100-12-31"))).toBe("2100-12-31");
  });
});

describe("wall-clock parts (cached per zone and hour) agree with Intl's formatToParts", () => {
  const reference = (instant: Date, zone: string) => {
    const p = Object.fromEntries(
      new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
      })
        .formatToParts(instant)
        .map((x) => [x.type, x.value]),
    );
    return { date: `${p.year}-${p.month}-${p.day}`, minutes: Number(p.hour) * 60 + Number(p.minute) };
  };
  const zones = [
    "America/Mexico_City",
    "America/New_York",
    "Europe/Madrid",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
    "UTC",
  ];
  it.each(zones)("around offset changes and over two centuries in %s", (zone) => {
    const instants: number[] = [];
    // Every 7 min 13 s across days holding offset changes (Mexico's last DST end, US/EU springs and falls,
    // Kathmandu's +5:30 → +5:45, Lord Howe's half-hour shift), then a spread from 1900 to 2100.
    for (const day of ["2022-10-30", "2022-03-13", "2022-11-06", "2023-03-26", "1985-12-31", "2023-04-02", "1942-09-01"]) {
      const start = Date.parse(`${day}T00:00:00Z`) - 86_400_000;
      for (let t = start; t < start + 3 * 86_400_000; t += 433_000) instants.push(t);
    }
    for (let t = Date.parse("1900-01-01T00:00:00Z"); t < Date.parse("2100-01-01T00:00:00Z"); t += 86_400_000 * 37 + 3_601_234)
      instants.push(t);
    for (const t of instants)
      expect(wallClockIn(new Date(t), zone), `${zone} ${new Date(t).toISOString()}`).toEqual(reference(new Date(t), zone));
  });
  it("zoned times of Mexico City read back as Intl reads them (before, across and after the last DST end)", () => {
    for (const date of ["2022-04-03", "2022-10-29", "2022-10-30", "2022-10-31", "2024-06-15"]) {
      for (const minutes of [0, 59, 60, 61, 119, 120, 121, 600, 1439]) {
        const instant = zonedTime(date, minutes);
        expect(wallClock(instant)).toEqual(reference(instant, "America/Mexico_City"));
      }
    }
  });
});

describe("the one date and date-time formatters of every screen", () => {
  it("writes dates DD/MM/AAAA, whatever the browser's locale", () => {
    expect(formatDate("2027-02-04")).toBe("04/02/2027");
    expect(formatDate("2025-12-31")).toBe("31/12/2025");
    expect(formatDate(null)).toBe("—");
    expect(formatDate("no es fecha")).toBe("—");
  });
  it("writes instants DD/MM/AAAA HH:mm on a 24-hour clock in Mexico City", () => {
    // 11:08 UTC is 05:08 in Mexico City (UTC−6): no «a.m.», and the firm's date, not the browser's.
    expect(formatDateTime("2026-11-27T11:08:00.000Z")).toBe("27/11/2026 05:08");
    expect(formatDateTime("2026-11-27T23:34:00.000Z")).toBe("27/11/2026 17:34");
    // 03:00 UTC on the 28th is still the 27th in Mexico City.
    expect(formatDateTime(new Date("2026-11-28T03:00:00.000Z"))).toBe("27/11/2026 21:00");
    expect(formatDate("2026-11-28T03:00:00.000Z")).toBe("27/11/2026");
    expect(formatDateTime(undefined)).toBe("—");
  });
});
