/**
 * Tuesday reminder: for the previous ISO week (Monday–Sunday), every active employee with a user e-mail
 * whose week is not closed (some day of it is in no frozen week or month) or whose logged hours are under
 * the expected ones (WORKING_WEEK_HOURS minus WORKING_DAY_HOURS per holiday on a weekday) gets one e-mail saying
 * what is missing.
 */
import { and, asc, eq, gte, inArray, isNotNull, lte, sql } from "drizzle-orm";
import { WORKING_DAY_HOURS, WORKING_WEEK_HOURS } from "../../src/core/constants";
import { jobMessages } from "../../src/core/messages";
import { addDays, dayOfWeek, endOfDay, isDayFrozen, startOfDay } from "../../src/core/week";
import type { Tx } from "../db/client";
import { activities, employees, frozen_periods, holydays, users } from "../db/schema";
import { localDaySql } from "../modules/activities";
import { type JobDefinition, sendEach } from "./runner";
import { previousWeekPeriod, weeklyDue } from "./schedule";

export const WEEKLY_REMINDER_LOCK_KEY = 7_310_061;

export interface WeekShortfall {
  employee_id: number;
  name: string;
  email: string;
  closed: boolean;
  logged_hours: number;
  expected_hours: number;
  /** Weekdays (not holidays) with no activity. */
  empty_days: string[];
  holidays: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Every active employee with a user whose week [starts_on, starts_on+6] is not closed or is short of hours. */
export async function weekShortfalls(tx: Tx, starts_on: string): Promise<WeekShortfall[]> {
  const ends_on = addDays(starts_on, 6);
  const days = Array.from({ length: 7 }, (_, i) => addDays(starts_on, i));
  const weekdays = days.filter((d) => dayOfWeek(d) >= 1 && dayOfWeek(d) <= 5);
  const holidayRows = await tx
    .select({ date: holydays.date })
    .from(holydays)
    .where(and(gte(holydays.date, starts_on), lte(holydays.date, ends_on)));
  const holidays = new Set(holidayRows.map((h) => h.date).filter((d) => weekdays.includes(d)));
  const workdays = weekdays.filter((d) => !holidays.has(d));
  const expected = WORKING_WEEK_HOURS - WORKING_DAY_HOURS * holidays.size;

  const people = await tx
    .select({ id: employees.id, name: employees.name, email: users.email })
    .from(employees)
    .innerJoin(users, eq(users.id, employees.user_id))
    .where(and(eq(employees.is_active, true), isNotNull(employees.user_id)))
    .orderBy(asc(employees.id));
  if (!people.length) return [];
  const ids = people.map((p) => p.id);

  const day = localDaySql(activities.begins_at);
  const logged = await tx
    .select({
      employee_id: activities.employee_id,
      day: sql<string>`(${day})::text`,
      hours: sql<string>`sum(extract(epoch from ${activities.ends_at} - ${activities.begins_at})) / 3600`,
    })
    .from(activities)
    .where(
      and(
        inArray(activities.employee_id, ids),
        gte(activities.begins_at, startOfDay(starts_on)),
        lte(activities.begins_at, endOfDay(ends_on)),
      ),
    )
    .groupBy(activities.employee_id, day);
  const frozen = await tx
    .select({ employee_id: frozen_periods.employee_id, starts_on: frozen_periods.starts_on, ends_on: frozen_periods.ends_on })
    .from(frozen_periods)
    .where(
      and(
        inArray(frozen_periods.employee_id, ids),
        lte(frozen_periods.starts_on, ends_on),
        gte(frozen_periods.ends_on, starts_on),
      ),
    );

  const out: WeekShortfall[] = [];
  for (const person of people) {
    const mine = logged.filter((l) => l.employee_id === person.id);
    const hours = round2(mine.reduce((sum, l) => sum + Number(l.hours), 0));
    const periods = frozen.filter((f) => f.employee_id === person.id);
    const closed = days.every((d) => isDayFrozen(d, periods));
    const withActivity = new Set(mine.map((l) => l.day));
    const empty = workdays.filter((d) => !withActivity.has(d));
    if (closed && hours >= expected) continue;
    out.push({
      employee_id: person.id,
      name: person.name,
      email: person.email,
      closed,
      logged_hours: hours,
      expected_hours: expected,
      empty_days: empty,
      holidays: holidays.size,
    });
  }
  return out;
}

export function reminderText(s: WeekShortfall, starts_on: string, ends_on: string, publicUrl?: string): string {
  const lines = [jobMessages.reminderGreeting(s.name), "", jobMessages.reminderIntro(starts_on, ends_on), ""];
  if (!s.closed) lines.push(`- ${jobMessages.reminderNotClosed}`);
  if (s.logged_hours < s.expected_hours) lines.push(`- ${jobMessages.reminderHours(s.logged_hours, s.expected_hours)}`);
  if (s.empty_days.length) lines.push(`- ${jobMessages.reminderEmptyDays(s.empty_days.map(jobMessages.dayName))}`);
  if (s.holidays) lines.push(`- ${jobMessages.reminderHolidays(s.holidays)}`);
  lines.push("");
  if (publicUrl) lines.push(jobMessages.reminderLink(new URL("/app/activities", publicUrl).toString()), "");
  lines.push(jobMessages.reminderClosing);
  return lines.join("\n");
}

export const weeklyReminderJob: JobDefinition = {
  name: "weekly_reminder",
  lockKey: WEEKLY_REMINDER_LOCK_KEY,
  period: previousWeekPeriod,
  due: weeklyDue,
  async run({ tx, period, mail, config }) {
    const starts_on = period.starts_on as string;
    const ends_on = period.ends_on as string;
    const shortfalls = await weekShortfalls(tx, starts_on);
    const { sent, failed } = await sendEach(
      mail,
      shortfalls.map((s) => ({
        to: s.email,
        subject: jobMessages.reminderSubject(starts_on, ends_on),
        text: reminderText(s, starts_on, ends_on, config.PUBLIC_URL),
      })),
    );
    return {
      count: sent.length,
      message: jobMessages.jobRemindersSent(sent.length) + (failed.length ? jobMessages.jobSendFailures(failed.length) : ""),
      recipients: sent,
      failed,
    };
  },
};
