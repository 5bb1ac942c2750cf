/**
 * The dashboards' numbers: one SQL aggregate per chart, grouped in the database. Hours follow the rule of
 * src/core/hours.ts: every activity counts its own whole hundredths of an hour (half up) and a total adds
 * those hundredths, so each number equals the sum of the «Horas» column of the activity CSV for the same
 * activities. Weeks are ISO weeks (Monday first) in America/Mexico_City, like the timesheet.
 */
import { type SQL, sql } from "drizzle-orm";
import { budgetForecast } from "../../../src/core/budget";
import { daysFrom, expectedWeekHours, roundHours, sumHours, workingDays } from "../../../src/core/hours";
import { addDays, BUSINESS_TIME_ZONE, endOfDay, mondayOf, startOfDay, weekOf } from "../../../src/core/week";
import type { Database } from "../../db/client";
import {
  activities,
  client_product_catalogs,
  clients,
  employee_positions,
  employees,
  estimated_work_hours,
  frozen_periods,
  holydays,
  products,
  projects,
  workspaces,
} from "../../db/schema";
import { centihours } from "../../http/sql";

export const TZ = sql.raw(`'${BUSINESS_TIME_ZONE}'`);
/** Whole hundredths of an hour of the activity aliased `a` (the rule of src/core/hours.ts, in SQL). */
export const CENTIHOURS = centihours(sql.raw("a.begins_at"), sql.raw("a.ends_at"));
/** Hours of a sum of hundredths, exact to two decimals. */
const hoursOf = (centihours: SQL) => sql`(coalesce(${centihours}, 0) / 100)::float8`;
const SUM_HOURS = hoursOf(sql`sum(${CENTIHOURS})`);
/** The local (Mexico City) Monday of the week an activity begins in. */
export const WEEK_OF_A = sql`(date_trunc('week', a.begins_at at time zone ${TZ}))::date`;
export const instant = (d: Date) => sql`${d.toISOString()}::timestamptz`;
export const isoDate = (column: SQL) => sql`to_char(${column}, 'YYYY-MM-DD')`;

export interface HoursByType {
  action_type: string;
  hours: number;
}

export async function holidaysBetween(database: Database, from: string, to: string) {
  return database.rows<{ date: string; name: string | null }>(
    sql`select ${isoDate(sql`h.date`)} as date, h.name from ${holydays} h where h.date between ${from}::date and ${to}::date order by h.date`,
  );
}

/** One employee's week: hours per day and action type, per action type, against the expected week. */
export async function employeeWeek(database: Database, employeeId: number, date: string) {
  const week = weekOf(date);
  const [person] = await database.rows<{ id: number; name: string; daily_hours: number | string; start_on: string | null }>(
    sql`select e.id, e.name, e.daily_hours, ${isoDate(sql`e.start_on`)} as start_on from ${employees} e where e.id = ${employeeId}`,
  );
  if (!person) return null;
  const employee = { id: person.id, name: person.name };
  const inWeek = sql`a.employee_id = ${employeeId} and a.begins_at >= ${instant(week.start)} and a.begins_at <= ${instant(week.end)}`;
  const [byDay, byType, holidays] = await Promise.all([
    database.rows<{ date: string; action_type: string; hours: number }>(
      sql`select ${isoDate(sql`(a.begins_at at time zone ${TZ})::date`)} as date, a.action_type, ${SUM_HOURS} as hours
          from ${activities} a where ${inWeek} group by 1, 2 order by 1, 2`,
    ),
    database.rows<HoursByType>(
      sql`select a.action_type, ${SUM_HOURS} as hours from ${activities} a where ${inWeek} group by 1 order by 2 desc, 1`,
    ),
    holidaysBetween(database, week.starts_on, week.ends_on),
  ]);
  // The person's own norm on each of their working days (src/core/hours.ts), as the reminder expects it.
  const workdays = new Set(workingDays(week.starts_on, week.ends_on, new Set(holidays.map((h) => h.date)), person.start_on));
  const norm = Number(person.daily_hours);
  const expectedByDay = daysFrom(week.starts_on, week.ends_on).map((d) => (workdays.has(d) ? norm : 0));
  return {
    employee,
    week: { starts_on: week.starts_on, ends_on: week.ends_on },
    expected_hours: roundHours(expectedByDay.reduce((sum, h) => sum + h, 0)),
    expected_by_day: expectedByDay,
    total_hours: sumHours(byType.map((t) => t.hours)),
    holidays,
    by_day: byDay,
    by_type: byType,
  };
}

/**
 * The team between two dates (whole weeks): hours per workspace (the employee's current one) and week,
 * and the employee-weeks already over that no frozen period covers entirely (weeks not closed): only the days
 * from the employee's start date on count, so someone hired today owes no week of before.
 */
export async function teamWeeks(database: Database, from: string, to: string, today: string) {
  const firstMonday = mondayOf(from);
  const lastMonday = mondayOf(to);
  const start = startOfDay(firstMonday);
  const end = endOfDay(addDays(lastMonday, 6));
  // Only weeks that are over can be late: the current week is still being written.
  const lastClosable = [addDays(mondayOf(today), -7), lastMonday].sort()[0];
  const [byWorkspace, notClosed, holidays] = await Promise.all([
    database.rows<{ workspace_id: number | null; workspace_name: string | null; week: string; hours: number }>(
      sql`select e.workspace_id, w.name as workspace_name, ${isoDate(WEEK_OF_A)} as week, ${SUM_HOURS} as hours
          from ${activities} a join ${employees} e on e.id = a.employee_id left join ${workspaces} w on w.id = e.workspace_id
          where a.begins_at >= ${instant(start)} and a.begins_at <= ${instant(end)}
          group by e.workspace_id, w.name, 3 order by 3, w.name nulls last`,
    ),
    lastClosable < firstMonday
      ? Promise.resolve([])
      : database.rows<{ employee_id: number; employee_name: string; workspace_name: string | null; week: string; hours: number }>(
          sql`select e.id as employee_id, e.name as employee_name, w.name as workspace_name, ${isoDate(sql`s.monday`)} as week,
                ${hoursOf(sql`(select sum(${CENTIHOURS}) from ${activities} a where a.employee_id = e.id
                  and a.begins_at >= (s.monday::timestamp at time zone ${TZ})
                  and a.begins_at < ((s.monday + 7)::timestamp at time zone ${TZ}))`)} as hours
              from ${employees} e left join ${workspaces} w on w.id = e.workspace_id
              cross join lateral (select d::date as monday from generate_series(${firstMonday}::date, ${lastClosable}::date, interval '7 day') d) s
              where e.is_active and exists (
                select 1 from generate_series(0, 6) as g(i)
                where (e.start_on is null or s.monday + g.i >= e.start_on) and not exists (
                  select 1 from ${frozen_periods} f where f.employee_id = e.id and (s.monday + g.i) between f.starts_on and f.ends_on))
              order by s.monday, e.name, e.id`,
        ),
    holidaysBetween(database, firstMonday, addDays(lastMonday, 6)),
  ]);
  const weeks: { week: string; expected_hours: number }[] = [];
  const holidayDates = holidays.map((h) => h.date);
  for (let monday = firstMonday; monday <= lastMonday; monday = addDays(monday, 7)) {
    weeks.push({ week: monday, expected_hours: expectedWeekHours(monday, holidayDates) });
  }
  return {
    from: firstMonday,
    to: addDays(lastMonday, 6),
    weeks,
    by_workspace: byWorkspace,
    total_hours: sumHours(byWorkspace.map((r) => r.hours)),
    weeks_not_closed: notClosed,
  };
}

/**
 * A project: estimated hours per position (estimated_work_hours) against the hours logged on it, per the
 * current position of who logged them; and the hours logged per week with their running total.
 * `withEstimates` false leaves the estimates out (who may not read estimated_work_hours sees logged hours only),
 * and with them the forecast of when the estimate runs out.
 */
export async function projectHours(database: Database, projectId: number, withEstimates: boolean, today: string) {
  const [project] = await database.rows<{ id: number; name: string; project_code: string }>(
    sql`select p.id, p.name, p.project_code from ${projects} p where p.id = ${projectId}`,
  );
  if (!project) return null;
  const estimates = withEstimates
    ? sql`select ewh.employee_position_id as position_id, ewh.estimated_hours * 100 as estimated_c, 0::numeric as logged_c
            from ${estimated_work_hours} ewh where ewh.project_id = ${projectId} union all`
    : sql``;
  const [byPosition, weekly] = await Promise.all([
    database.rows<{ position_id: number | null; position_name: string | null; estimated_hours: number; logged_hours: number }>(
      sql`select x.position_id, p.name as position_name, ${hoursOf(sql`sum(x.estimated_c)`)} as estimated_hours,
            ${hoursOf(sql`sum(x.logged_c)`)} as logged_hours
          from (${estimates}
            select e.employee_position_id as position_id, 0::numeric as estimated_c, ${CENTIHOURS} as logged_c
            from ${activities} a join ${employees} e on e.id = a.employee_id where a.project_id = ${projectId}) x
          left join ${employee_positions} p on p.id = x.position_id
          group by x.position_id, p.name order by p.name nulls last`,
    ),
    database.rows<{ week: string; hours: number; cumulative_hours: number }>(
      sql`with weekly as (
            select ${WEEK_OF_A} as week, sum(${CENTIHOURS}) as c from ${activities} a where a.project_id = ${projectId} group by 1),
          span as (
            select d::date as week from (select min(week) as lo, max(week) as hi from weekly) b,
              generate_series(b.lo, b.hi, interval '7 day') d)
          select ${isoDate(sql`s.week`)} as week, ${hoursOf(sql`w.c`)} as hours,
            ${hoursOf(sql`sum(coalesce(w.c, 0)) over (order by s.week)`)} as cumulative_hours
          from span s left join weekly w on w.week = s.week order by s.week`,
    ),
  ]);
  const estimated = withEstimates ? sumHours(byPosition.map((r) => r.estimated_hours)) : null;
  const logged = sumHours(byPosition.map((r) => r.logged_hours));
  return {
    project,
    estimates_visible: withEstimates,
    estimated_hours: estimated,
    logged_hours: logged,
    // When the estimate runs out at the pace of the last weeks (the rule of the morning budget alerts).
    forecast: estimated ? budgetForecast(weekly, estimated, logged, today) : null,
    by_position: byPosition.map((r) => (withEstimates ? r : { ...r, estimated_hours: null })),
    weekly,
  };
}

/** A client's support hours of a year per product against the product's annual_support_hours. */
export async function clientSupport(database: Database, clientId: number, year: number) {
  const [client] = await database.rows<{ id: number; name: string }>(
    sql`select c.id, c.name from ${clients} c where c.id = ${clientId}`,
  );
  if (!client) return null;
  const start = startOfDay(`${year}-01-01`);
  const end = endOfDay(`${year}-12-31`);
  const byProduct = await database.rows<{
    product_id: number | null;
    product_name: string | null;
    annual_support_hours: number | null;
    used_hours: number;
  }>(
    sql`select x.product_id, pr.name as product_name, max(x.annual)::float8 as annual_support_hours,
          ${hoursOf(sql`sum(x.used_c)`)} as used_hours
        from (
          select cpc.product_catalog_id as product_id, cpc.annual_support_hours as annual, 0::numeric as used_c
            from ${client_product_catalogs} cpc where cpc.client_id = ${clientId}
          union all
          select a.product_catalog_id, null, ${CENTIHOURS} from ${activities} a
            where a.action_type = 'support' and a.ownerable_type = 'Client' and a.ownerable_id = ${clientId}
              and a.begins_at >= ${instant(start)} and a.begins_at <= ${instant(end)}) x
        left join ${products} pr on pr.id = x.product_id
        group by x.product_id, pr.name order by pr.name nulls last`,
  );
  return {
    client,
    year,
    annual_support_hours: sumHours(byProduct.map((r) => r.annual_support_hours ?? 0)),
    used_hours: sumHours(byProduct.map((r) => r.used_hours)),
    by_product: byProduct,
  };
}
