/**
 * Each morning (DAILY_JOBS_TIME), every open project with an estimate (the sum of its estimated hours per
 * position) is compared with the hours logged on it. When it has reached 50 %, 80 % or 100 % of the
 * estimate since the last run, its PM, its responsible (RAPE) and the administrators get one e-mail naming
 * the highest threshold reached, with the pace and the forecast of when the estimate runs out. A threshold
 * is told once (project_budget_alerts keeps the highest told and the estimate it was measured against); a
 * project over 100 % is told again every BUDGET_REPEAT_DAYS; a raised estimate re-arms the thresholds the
 * project is no longer over. Hours follow the product's rule (whole hundredths of an hour per activity).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { BUDGET_PACE_WEEKS, BUDGET_REPEAT_DAYS, type BudgetThreshold, budgetForecast, budgetLevel } from "../../src/core/budget";
import { jobMessages } from "../../src/core/messages";
import { screenPath } from "../../src/core/resources";
import { ARCHIVED_PROJECT_STATES } from "../../src/core/states";
import { addDays, BUSINESS_TIME_ZONE, daysBetween, mondayOf, startOfDay, wallClockIn } from "../../src/core/week";
import { publicAddress } from "../config";
import type { Tx } from "../db/client";
import { activities, employees, estimated_work_hours, project_budget_alerts, projects, users } from "../db/schema";
import { centihours } from "../http/sql";
import type { MailMessage } from "../ports/mail";
import { type JobDefinition, sendEach } from "./runner";
import { dailyDue, dayPeriod } from "./schedule";

export const BUDGET_ALERTS_LOCK_KEY = 7_310_064;

const CENTI = centihours(sql.raw("a.begins_at"), sql.raw("a.ends_at"));
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

interface ProjectBudget {
  id: number;
  project_code: string;
  name: string;
  pm_id: number | null;
  rape_id: number | null;
  estimate: number;
  logged: number;
  told: number | null;
  told_estimate: number | null;
  sent_on: string | null;
}

/** Open projects with an estimate: their hours and what was last told of them. */
async function projectBudgets(tx: Tx): Promise<ProjectBudget[]> {
  const archived = sql.join(
    ARCHIVED_PROJECT_STATES.map((s) => sql`${s}`),
    sql`, `,
  );
  const rows = rowsOf<Record<string, unknown>>(
    await tx.execute(sql`
      with estimate as (
        select ewh.project_id, sum(ewh.estimated_hours) as hours from ${estimated_work_hours} ewh group by 1),
      logged as (
        select a.project_id, sum(${CENTI}) as c from ${activities} a
        where a.project_id in (select project_id from estimate) group by 1)
      select p.id, p.project_code, p.name, p.pm_id, p.rape_id, e.hours::float8 as estimate,
        (coalesce(l.c, 0) / 100)::float8 as logged, s.threshold as told, s.estimate_hours::float8 as told_estimate,
        to_char(s.sent_on, 'YYYY-MM-DD') as sent_on
      from ${projects} p
      join estimate e on e.project_id = p.id
      left join logged l on l.project_id = p.id
      left join ${project_budget_alerts} s on s.project_id = p.id
      where p.state not in (${archived})
      order by p.id`),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    project_code: String(r.project_code),
    name: String(r.name),
    pm_id: r.pm_id === null ? null : Number(r.pm_id),
    rape_id: r.rape_id === null ? null : Number(r.rape_id),
    estimate: Number(r.estimate),
    logged: Number(r.logged),
    told: r.told === null ? null : Number(r.told),
    told_estimate: r.told_estimate === null ? null : Number(r.told_estimate),
    sent_on: (r.sent_on as string | null) ?? null,
  }));
}

export interface BudgetDecision {
  /** The threshold to tell now, or null. */
  tell: BudgetThreshold | null;
  repeated: boolean;
  /** What the state row should hold after this run, told or not (null: no row). */
  keep: { threshold: BudgetThreshold; estimate: number; sent_on: string } | null;
}

/** What to do with one project today: the rule of the thresholds, re-arming and weekly repetition. */
export function decide(
  p: Pick<ProjectBudget, "estimate" | "logged" | "told" | "told_estimate" | "sent_on">,
  today: string,
): BudgetDecision {
  const level = budgetLevel(p.logged, p.estimate);
  let told = (p.told ?? 0) as BudgetThreshold | 0;
  // A raised estimate re-arms every threshold the project is no longer over.
  if (told && p.told_estimate !== null && p.estimate > p.told_estimate && level < told) told = level;
  if (level > told)
    return {
      tell: level as BudgetThreshold,
      repeated: false,
      keep: { threshold: level as BudgetThreshold, estimate: p.estimate, sent_on: today },
    };
  if (level === 100 && told === 100 && p.sent_on && daysBetween(p.sent_on, today) >= BUDGET_REPEAT_DAYS)
    return { tell: 100, repeated: true, keep: { threshold: 100, estimate: p.estimate, sent_on: today } };
  if (!told) return { tell: null, repeated: false, keep: null };
  return { tell: null, repeated: false, keep: { threshold: told, estimate: p.estimate, sent_on: p.sent_on ?? today } };
}

/** Hours per week of the last BUDGET_PACE_WEEKS full weeks of these projects. */
async function recentWeeks(tx: Tx, ids: number[], today: string) {
  if (!ids.length) return new Map<number, Array<{ week: string; hours: number }>>();
  const from = addDays(mondayOf(today), -7 * BUDGET_PACE_WEEKS);
  const zone = sql.raw(`'${BUSINESS_TIME_ZONE}'`);
  const rows = rowsOf<{ project_id: number; week: string; hours: number }>(
    await tx.execute(sql`
      select a.project_id, to_char(date_trunc('week', a.begins_at at time zone ${zone}), 'YYYY-MM-DD') as week,
        (sum(${CENTI}) / 100)::float8 as hours
      from ${activities} a
      where a.project_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}) and a.begins_at >= ${startOfDay(from).toISOString()}::timestamptz
      group by 1, 2`),
  );
  const out = new Map<number, Array<{ week: string; hours: number }>>();
  for (const r of rows) {
    const list = out.get(Number(r.project_id)) ?? [];
    list.push({ week: r.week, hours: Number(r.hours) });
    out.set(Number(r.project_id), list);
  }
  return out;
}

/** The e-mail addresses of the administrators who may still sign in, and of the given employees. */
async function recipientsOf(tx: Tx, employeeIds: number[]) {
  const admins = rowsOf<{ email: string }>(
    await tx.execute(sql`
      select u.email from ${users} u
      where u.administrator_role and not exists (
        select 1 from ${employees} e where e.user_id = u.id and not e.is_active)
      order by u.email`),
  ).map((r) => r.email);
  const leaders = employeeIds.length
    ? await tx
        .select({ id: employees.id, email: users.email })
        .from(employees)
        .innerJoin(users, eq(users.id, employees.user_id))
        .where(and(inArray(employees.id, employeeIds), eq(employees.is_active, true)))
    : [];
  return { admins, leaders: new Map(leaders.filter((l) => l.email).map((l) => [l.id, l.email])) };
}

export function budgetText(
  p: Pick<ProjectBudget, "id" | "project_code" | "name" | "estimate" | "logged">,
  weekly: Array<{ week: string; hours: number }>,
  today: string,
  repeated: boolean,
  base: string,
) {
  const forecast = budgetForecast(weekly, p.estimate, p.logged, today);
  const lines = [
    jobMessages.budgetIntro(p.project_code, p.name),
    jobMessages.budgetHours(p.logged, p.estimate, forecast.percent),
  ];
  if (forecast.over_hours > 0) lines.push(jobMessages.budgetOver(forecast.over_hours));
  lines.push(jobMessages.budgetPace(forecast.pace_hours_per_week, BUDGET_PACE_WEEKS));
  if (forecast.runs_out_on) lines.push(jobMessages.budgetRunsOut(forecast.runs_out_on));
  else if (forecast.over_hours === 0) lines.push(jobMessages.budgetNoPace);
  if (repeated || forecast.over_hours > 0) lines.push(jobMessages.budgetRepeat);
  const link = new URL(screenPath("projects", "show", p.id), base).toString();
  lines.push("", jobMessages.budgetLink(link), "", jobMessages.reminderClosing);
  return lines.join("\n");
}

export const budgetAlertsJob: JobDefinition = {
  name: "budget_alerts",
  lockKey: BUDGET_ALERTS_LOCK_KEY,
  period: dayPeriod,
  due: dailyDue,
  async run({ tx, now, config, mail }) {
    const today = wallClockIn(now, config.JOBS_TIMEZONE).date;
    const budgets = await projectBudgets(tx);
    const decisions = budgets.map((p) => ({ p, d: decide(p, today) }));
    const toTell = decisions.filter((x) => x.d.tell !== null);
    const weeks = await recentWeeks(
      tx,
      toTell.map((x) => x.p.id),
      today,
    );
    const { admins, leaders } = await recipientsOf(
      tx,
      toTell.flatMap((x) => [x.p.pm_id, x.p.rape_id]).filter((id): id is number => id !== null),
    );
    const messages: MailMessage[] = [];
    const told: typeof toTell = [];
    for (const x of toTell) {
      const to = [
        ...new Set([x.p.pm_id, x.p.rape_id].map((id) => (id === null ? undefined : leaders.get(id))).filter(Boolean) as string[]),
      ];
      for (const a of admins) if (!to.includes(a)) to.push(a);
      if (!to.length) continue;
      told.push(x);
      messages.push({
        to,
        subject: jobMessages.budgetSubject(x.p.project_code, x.p.name, x.d.tell as number, x.d.repeated),
        text: budgetText(x.p, weeks.get(x.p.id) ?? [], today, x.d.repeated, publicAddress(config)),
      });
    }
    const { sent, sentIndexes, failed } = await sendEach(mail, messages);
    const wentOut = new Set(sentIndexes.map((i) => told[i].p.id));
    // The state moves only for what went out (a refused message is tried again tomorrow) and for estimates
    // changed since (so a raised estimate re-arms, and a lowered one does not).
    for (const { p, d } of decisions) {
      if (d.tell !== null && !wentOut.has(p.id)) continue;
      if (!d.keep) {
        if (p.told !== null) await tx.delete(project_budget_alerts).where(eq(project_budget_alerts.project_id, p.id));
        continue;
      }
      if (p.told === d.keep.threshold && p.told_estimate === d.keep.estimate && p.sent_on === d.keep.sent_on) continue;
      await tx
        .insert(project_budget_alerts)
        .values({ project_id: p.id, threshold: d.keep.threshold, estimate_hours: d.keep.estimate, sent_on: d.keep.sent_on })
        .onConflictDoUpdate({
          target: project_budget_alerts.project_id,
          set: { threshold: d.keep.threshold, estimate_hours: d.keep.estimate, sent_on: d.keep.sent_on },
        });
    }
    return {
      count: wentOut.size,
      message: jobMessages.jobBudgetAlertsSent(wentOut.size) + (failed.length ? jobMessages.jobSendFailures(failed.length) : ""),
      recipients: sent,
      failed,
      projects: [...wentOut],
    };
  },
};
