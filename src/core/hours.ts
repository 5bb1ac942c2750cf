/**
 * Hours of activities: the one rule behind every number of hours the product writes or shows (the
 * «Horas» column of the activity CSVs, the dashboards). Each activity counts its length in whole
 * hundredths of an hour, rounded half up on its own; a total adds those hundredths. So a total on a
 * dashboard is always the sum of the CSV's «Horas» column for the same activities, to the cent.
 * The server's SQL aggregates use the same constant (server/modules/dashboards/service.ts).
 */
import { type ActionType, WORKING_DAY_HOURS, WORKING_WEEK_HOURS } from "./constants";
import { addDays, dayOfWeek } from "./week";

/** Milliseconds in a hundredth of an hour. */
export const CENTIHOUR_MS = 36_000;

/** Length of an activity in whole hundredths of an hour (half up). */
export const centihoursBetween = (begins: Date, ends: Date) => Math.round((ends.getTime() - begins.getTime()) / CENTIHOUR_MS);

/** Length of an activity in hours, two decimals. */
export const hoursBetween = (begins: Date, ends: Date) => centihoursBetween(begins, ends) / 100;

/** Adds hours written with two decimals (CSV cells, API totals) without floating-point drift. */
export function sumHours(hours: Iterable<number | string>): number {
  let centi = 0;
  for (const h of hours) centi += Math.round(Number(h) * 100);
  return centi / 100;
}

/** The hours expected of an employee in the week starting `monday`: the working week less each weekday holiday. */
export function expectedWeekHours(monday: string, holidays: Iterable<string>): number {
  const off = new Set(holidays);
  let days = 0;
  for (let i = 0; i < 5; i++) if (off.has(addDays(monday, i))) days++;
  return WORKING_WEEK_HOURS - days * WORKING_DAY_HOURS;
}

// What a person is expected to log, and how logged hours are grouped: one rule for the Tuesday reminder, the
// bosses' digest and the capacity screen. A working day is a weekday (Monday–Friday) that is not a holiday,
// from the person's start date on; on it they are expected their daily norm (8 h unless their employee
// record says otherwise). Vacation is logged as activities, so it counts as logged.

/** Hours rounded to the hundredth, as the report CSV writes them. */
export const roundHours = (hours: number) => Math.round(hours * 100) / 100;

/** The dates from `from` to `to`, both included. */
export function daysFrom(from: string, to: string): string[] {
  const out: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) out.push(day);
  return out;
}

export const isWeekday = (date: string) => dayOfWeek(date) >= 1 && dayOfWeek(date) <= 5;

/** The working days of [from, to] for someone who started on `startOn` (null: before all of them). */
export function workingDays(from: string, to: string, holidays: ReadonlySet<string>, startOn: string | null): string[] {
  return daysFrom(from, to).filter((d) => isWeekday(d) && !holidays.has(d) && (!startOn || d >= startOn));
}

export interface DayShortfall {
  date: string;
  logged: number;
  expected: number;
  missing: number;
}

/**
 * Each working day of the period with what was logged on it and what is missing, and the period's totals.
 * The person is short when the period's logged hours are under the expected ones (more on one day makes up
 * for less on another); `days` then names every working day that is under its norm.
 */
export function shortfall(
  workdays: readonly string[],
  loggedByDay: ReadonlyMap<string, number>,
  dailyHours: number,
  allLogged: number,
): { expected: number; logged: number; missing: number; days: DayShortfall[] } {
  const expected = roundHours(workdays.length * dailyHours);
  const logged = roundHours(allLogged);
  const days = workdays
    .map((date) => {
      const onDay = roundHours(loggedByDay.get(date) ?? 0);
      return { date, logged: onDay, expected: dailyHours, missing: roundHours(Math.max(0, dailyHours - onDay)) };
    })
    .filter((d) => d.missing > 0);
  return { expected, logged, missing: roundHours(Math.max(0, expected - logged)), days };
}

/** How the capacity screen splits logged hours: billable project work, support, internal work and vacation. */
export const LOGGED_GROUPS = ["project", "support", "internal", "vacation"] as const;
export type LoggedGroup = (typeof LOGGED_GROUPS)[number];
export const LOGGED_GROUP_OF: Record<ActionType, LoggedGroup> = {
  project: "project",
  support: "support",
  quote: "internal",
  internal: "internal",
  rh: "internal",
  vacation: "vacation",
};
