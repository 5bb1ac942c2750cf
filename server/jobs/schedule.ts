/**
 * When the weekly jobs are due, in a configurable zone (JOBS_TIMEZONE) and time (WEEKLY_JOBS_TIME).
 * A weekly run covers the ISO week (Monday–Sunday) before the week it runs in; it is due from that
 * week's Tuesday (WEEKLY_JOBS_WEEKDAY) at the configured time on, so a server that was down on Tuesday
 * catches up when it comes back, and the recorded run keeps it to once per week.
 */
import { WEEKLY_JOBS_WEEKDAY } from "../../src/core/constants";
import { addDays, dayOfWeek, daysBetween, mondayOf, wallClockIn } from "../../src/core/week";

export interface ScheduleConfig {
  JOBS_TIMEZONE: string;
  WEEKLY_JOBS_TIME: string;
  DAILY_JOBS_TIME: string;
}

/** A job's period: what one recorded run covers. */
export interface JobPeriod {
  key: string;
  /** Inclusive local dates (weekly periods). */
  starts_on?: string;
  ends_on?: string;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** ISO 8601 week key of the week starting on a Monday: '2026-W47'. */
export function isoWeekKey(monday: string): string {
  const thursday = addDays(monday, 3);
  const year = Number(thursday.slice(0, 4));
  const week = Math.floor(daysBetween(`${year}-01-01`, thursday) / 7) + 1;
  return `${year}-W${pad(week)}`;
}

/** The week before the one `now` falls in (in the jobs' zone). */
export function previousWeekPeriod(now: Date, schedule: ScheduleConfig): JobPeriod & { starts_on: string; ends_on: string } {
  const { date } = wallClockIn(now, schedule.JOBS_TIMEZONE);
  const starts_on = addDays(mondayOf(date), -7);
  return { key: isoWeekKey(starts_on), starts_on, ends_on: addDays(starts_on, 6) };
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return h * 60 + m;
};

/** A daily run covers the local day (jobs' zone) it runs in. */
export const dayPeriod = (now: Date, schedule: ScheduleConfig): JobPeriod => ({
  key: wallClockIn(now, schedule.JOBS_TIMEZONE).date,
});

/** True each day from the morning jobs' time (DAILY_JOBS_TIME, jobs' zone) until midnight. */
export const dailyDue = (now: Date, schedule: ScheduleConfig) =>
  wallClockIn(now, schedule.JOBS_TIMEZONE).minutes >= minutesOf(schedule.DAILY_JOBS_TIME);

/** True from this week's Tuesday at the configured time (jobs' zone) until Sunday night. */
export function weeklyDue(now: Date, schedule: ScheduleConfig): boolean {
  const { date, minutes } = wallClockIn(now, schedule.JOBS_TIMEZONE);
  const weekday = (dayOfWeek(date) + 6) % 7; // 0 = Monday
  const dueWeekday = (WEEKLY_JOBS_WEEKDAY + 6) % 7;
  return weekday > dueWeekday || (weekday === dueWeekday && minutes >= minutesOf(schedule.WEEKLY_JOBS_TIME));
}

/** Hourly periods (UTC): '2026-11-22T21'. */
export const hourPeriod = (now: Date): JobPeriod => ({ key: now.toISOString().slice(0, 13) });
