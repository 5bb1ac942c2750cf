/**
 * Tuesday reminder, for the previous ISO week (Monday–Sunday). Only who logged fewer hours than expected
 * hears from it: their daily norm (employees.daily_hours) on each working day (src/core/hours.ts), vacation
 * included as logged. Each gets one e-mail naming the hours missing on each day, with a link to that week;
 * whoever is complete gets nothing, closed week or not. Each workspace boss then gets one digest of their
 * people who are short (nothing when all are complete). Hours follow the product's rule (whole hundredths of
 * an hour per activity), so they add up as the activity report does.
 */
import { and, asc, eq, gte, inArray, lte } from "drizzle-orm";
import { type DayShortfall, roundHours } from "../../src/core/hours";
import { jobMessages, reviewMessages } from "../../src/core/messages";
import { PAGE_PATHS, TIMESHEET_WEEK_PARAM } from "../../src/core/resources";
import { addDays, isDayFrozen } from "../../src/core/week";
import { publicAddress } from "../config";
import type { Tx } from "../db/client";
import { bosses_workspaces, employees, frozen_periods, users } from "../db/schema";
import { pendingReviews, weekFigures } from "../modules/week_reviews";
import type { MailMessage } from "../ports/mail";
import { type JobDefinition, sendEach } from "./runner";
import { previousWeekPeriod, weeklyDue } from "./schedule";

export const WEEKLY_REMINDER_LOCK_KEY = 7_310_061;

export interface WeekShortfall {
  employee_id: number;
  workspace_id: number | null;
  name: string;
  /** Null: no user account (the boss's digest names them; no reminder can reach them). */
  email: string | null;
  closed: boolean;
  logged_hours: number;
  expected_hours: number;
  missing_hours: number;
  /** The working days under the person's norm, with the hours missing on each. */
  days: DayShortfall[];
  /** Holidays on the person's working days of the week (from their start date): taken off what is expected. */
  holidays: number;
}

/** Every active employee who logged fewer hours than expected in the week [starts_on, starts_on+6]. */
export async function weekShortfalls(tx: Tx, starts_on: string): Promise<WeekShortfall[]> {
  const ends_on = addDays(starts_on, 6);
  const short = (await weekFigures(tx, starts_on)).filter((p) => p.figures.missing_hours > 0);
  if (!short.length) return [];
  const frozen = await tx
    .select({ employee_id: frozen_periods.employee_id, starts_on: frozen_periods.starts_on, ends_on: frozen_periods.ends_on })
    .from(frozen_periods)
    .where(
      and(
        inArray(
          frozen_periods.employee_id,
          short.map((p) => p.employee_id),
        ),
        lte(frozen_periods.starts_on, ends_on),
        gte(frozen_periods.ends_on, starts_on),
      ),
    );
  return short.map((person) => {
    const periods = frozen.filter((f) => f.employee_id === person.employee_id);
    return {
      employee_id: person.employee_id,
      workspace_id: person.workspace_id,
      name: person.name,
      email: person.email,
      closed: Array.from({ length: 7 }, (_, i) => addDays(starts_on, i)).every((d) => isDayFrozen(d, periods)),
      logged_hours: person.figures.logged_hours,
      expected_hours: person.figures.expected_hours,
      missing_hours: person.figures.missing_hours,
      days: person.figures.short_days,
      holidays: person.holidays,
    };
  });
}

/** The timesheet on that week, for the e-mails (`base`: publicAddress of the config). */
export const weekLink = (starts_on: string, base: string) =>
  new URL(`${PAGE_PATHS.activities}?${TIMESHEET_WEEK_PARAM}=${starts_on}`, base).toString();

export function reminderText(s: WeekShortfall, starts_on: string, ends_on: string, base: string): string {
  const lines = [
    jobMessages.reminderGreeting(s.name),
    "",
    jobMessages.reminderSummary(starts_on, ends_on, s.logged_hours, s.expected_hours),
    "",
    jobMessages.reminderDaysHeading,
    ...s.days.map((d) => `- ${jobMessages.reminderDay(jobMessages.dayName(d.date), d.missing, d.logged, d.expected)}`),
    "",
  ];
  // More on some days made up for part of the others: the days add up to more than the week misses.
  const byDays = roundHours(s.days.reduce((sum, d) => sum + d.missing, 0));
  if (byDays > s.missing_hours)
    lines.push(jobMessages.reminderCompensated(roundHours(byDays - s.missing_hours), s.missing_hours));
  if (s.holidays) lines.push(jobMessages.reminderHolidays(s.holidays));
  if (byDays > s.missing_hours || s.holidays) lines.push("");
  const link = weekLink(starts_on, base);
  // A closed week cannot be completed by its owner: say who can reopen it instead of asking to complete it.
  lines.push(s.closed ? jobMessages.reminderClosed(link) : jobMessages.reminderLink(link), "", jobMessages.reminderClosing);
  return lines.join("\n");
}

export interface PendingReview {
  employee_id: number;
  workspace_id: number | null;
  name: string;
  starts_on: string;
}

export function digestText(
  bossName: string,
  people: WeekShortfall[],
  starts_on: string,
  ends_on: string,
  pending: PendingReview[],
  base: string,
): string {
  const lines = [jobMessages.reminderGreeting(bossName), ""];
  if (people.length)
    lines.push(
      jobMessages.digestIntro(starts_on, ends_on, people.length),
      "",
      ...people.map(
        (p) =>
          `- ${jobMessages.digestLine(
            p.name,
            p.missing_hours,
            p.expected_hours,
            p.days.map((d) => jobMessages.digestDay(jobMessages.dayName(d.date), d.missing)),
            { closed: p.closed, noAccount: p.email === null },
          )}`,
      ),
      "",
    );
  if (pending.length)
    lines.push(
      reviewMessages.digestPendingHeading(pending.length),
      "",
      ...pending.map((r) => `- ${reviewMessages.digestPendingLine(r.name, r.starts_on, addDays(r.starts_on, 6))}`),
      "",
      reviewMessages.digestPendingLink(pending.length, new URL(PAGE_PATHS.week_reviews, base).toString()),
      "",
    );
  lines.push(jobMessages.reminderClosing);
  return lines.join("\n");
}

/** One digest per active boss with an e-mail, of the short people of the workspaces they lead (not themselves). */
export async function bossDigests(
  tx: Tx,
  shortfalls: WeekShortfall[],
  starts_on: string,
  ends_on: string,
  pending: PendingReview[],
  base: string,
): Promise<MailMessage[]> {
  if (!shortfalls.length && !pending.length) return [];
  const bosses = await tx
    .select({
      employee_id: employees.id,
      name: employees.name,
      email: users.email,
      workspace_id: bosses_workspaces.workspace_id,
    })
    .from(bosses_workspaces)
    .innerJoin(employees, eq(employees.id, bosses_workspaces.employee_id))
    .innerJoin(users, eq(users.id, employees.user_id))
    .where(eq(employees.is_active, true))
    .orderBy(asc(users.email), asc(employees.id));
  const byBoss = new Map<number, { name: string; email: string; workspaces: Set<number> }>();
  for (const b of bosses) {
    const entry = byBoss.get(b.employee_id) ?? { name: b.name, email: b.email, workspaces: new Set<number>() };
    entry.workspaces.add(b.workspace_id);
    byBoss.set(b.employee_id, entry);
  }
  const messages: MailMessage[] = [];
  for (const [bossId, boss] of byBoss) {
    const people = shortfalls.filter(
      (s) => s.employee_id !== bossId && s.workspace_id !== null && boss.workspaces.has(s.workspace_id),
    );
    const waiting = pending.filter(
      (r) => r.employee_id !== bossId && r.workspace_id !== null && boss.workspaces.has(r.workspace_id),
    );
    if (!people.length && !waiting.length) continue;
    messages.push({
      to: boss.email,
      subject: people.length
        ? jobMessages.digestSubject(starts_on, ends_on)
        : reviewMessages.digestPendingSubject(waiting.length),
      text: digestText(boss.name, people, starts_on, ends_on, waiting, base),
    });
  }
  return messages;
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
    const reminders: MailMessage[] = shortfalls.flatMap((s) =>
      s.email
        ? [
            {
              to: s.email,
              subject: jobMessages.reminderSubject(starts_on, ends_on),
              text: reminderText(s, starts_on, ends_on, publicAddress(config)),
            },
          ]
        : [],
    );
    const pending = await pendingReviews(tx);
    const digests = await bossDigests(tx, shortfalls, starts_on, ends_on, pending, publicAddress(config));
    const { sent, sentIndexes, failed } = await sendEach(mail, [...reminders, ...digests]);
    const digestsSent = sentIndexes.filter((i) => i >= reminders.length).length;
    return {
      count: sent.length,
      message:
        jobMessages.jobRemindersSent(sent.length - digestsSent, digestsSent) +
        (failed.length ? jobMessages.jobSendFailures(failed.length) : ""),
      recipients: sent,
      failed,
      short: shortfalls.map((s) => ({ name: s.name, email: s.email, missing_hours: s.missing_hours })),
    };
  },
};
