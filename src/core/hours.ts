/**
 * Hours of activities: the one rule behind every number of hours the product writes or shows (the
 * «Horas» column of the activity CSVs, the dashboards). Each activity counts its length in whole
 * hundredths of an hour, rounded half up on its own; a total adds those hundredths. So a total on a
 * dashboard is always the sum of the CSV's «Horas» column for the same activities, to the cent.
 * The server's SQL aggregates use the same constant (server/modules/dashboards/service.ts).
 */
import { WORKING_DAY_HOURS, WORKING_WEEK_HOURS } from "./constants";
import { addDays } from "./week";

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
