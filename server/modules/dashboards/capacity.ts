/**
 * Capacity and utilisation (GET /api/v1/capacity and capacity.csv): four set-based statements whatever
 * the number of people and weeks (the active employees, their assignments in the range, the holidays, and
 * the hundredths logged per employee, week and logged group), then src/core/capacity.ts's rules in memory.
 * Logged hours follow the hours rule of the dashboards (CENTIHOURS, the week of the local begin date), so
 * they equal the activity report CSV's «Horas» for the same people and weeks.
 */
import { type SQL, sql } from "drizzle-orm";
import {
  ACTION_TYPES_OF_GROUP,
  type CapacityAssignment,
  type CapacityEmployee,
  capacityWeeks,
  type LoggedCentihours,
  mondaysBetween,
} from "../../../src/core/capacity";
import { LOGGED_GROUPS, type LoggedGroup } from "../../../src/core/hours";
import { capacityMessages } from "../../../src/core/messages";
import { type Capacity, type CapacityPerson, type CapacityWeek, UNDER_ASSIGNED_SHARE } from "../../../src/core/schemas/capacity";
import { addDays, mondayOf, startOfDay } from "../../../src/core/week";
import type { Database } from "../../db/client";
import { activities, assignments, employees, workspaces } from "../../db/schema";
import type { CsvColumn } from "../../http/csv";
import { CENTIHOURS, holidaysBetween, instant, isoDate, WEEK_OF_A } from "./service";

/** The hundredths of one logged group (its action types: LOGGED_GROUP_OF), zero when there are none. */
const sumOfGroup = (group: LoggedGroup) =>
  sql`coalesce(sum(${CENTIHOURS}) filter (where a.action_type in (${sql.raw(
    ACTION_TYPES_OF_GROUP[group].map((type) => `'${type}'`).join(", "),
  )})), 0) as ${sql.raw(group)}`;

/** The people and weeks of `from`…`to` (Mondays), of one workspace or all; `today` says which weeks are past. */
export async function capacityBetween(
  database: Database,
  from: string,
  to: string,
  workspaceId: number | null | undefined,
  today: string,
): Promise<Capacity> {
  const lastDay = addDays(to, 6);
  const currentWeek = mondayOf(today);
  const inScope: SQL = workspaceId ? sql`e.is_active and e.workspace_id = ${workspaceId}` : sql`e.is_active`;
  // Only weeks already begun have logged hours to show.
  const loggedUntil = currentWeek < to ? currentWeek : to;
  const [people, assigned, holidays, logged] = await Promise.all([
    database.rows<CapacityEmployee>(
      sql`select e.id, e.name, e.workspace_id, w.name as workspace_name, e.daily_hours::float8 as daily_hours,
            ${isoDate(sql`e.start_on`)} as start_on
          from ${employees} e left join ${workspaces} w on w.id = e.workspace_id
          where ${inScope} order by e.name, e.id`,
    ),
    database.rows<CapacityAssignment>(
      sql`select a.employee_id, ${isoDate(sql`a.start_on`)} as start_on, ${isoDate(sql`a.end_on`)} as end_on
          from ${assignments} a join ${employees} e on e.id = a.employee_id
          where ${inScope} and a.start_on <= ${lastDay}::date and a.end_on >= ${from}::date`,
    ),
    holidaysBetween(database, from, lastDay),
    loggedUntil < from
      ? Promise.resolve([] as LoggedCentihours[])
      : database.rows<LoggedCentihours>(
          sql`select x.employee_id, ${isoDate(sql`x.week`)} as week, ${sql.join(
            LOGGED_GROUPS.map((group) => sql`x.${sql.raw(group)}::float8 as ${sql.raw(group)}`),
            sql`, `,
          )}
              from (select a.employee_id, ${WEEK_OF_A} as week, ${sql.join(LOGGED_GROUPS.map(sumOfGroup), sql`, `)}
                from ${activities} a join ${employees} e on e.id = a.employee_id
                where ${inScope} and a.begins_at >= ${instant(startOfDay(from))}
                  and a.begins_at < ${instant(startOfDay(addDays(loggedUntil, 7)))}
                group by 1, 2) x`,
        ),
  ]);
  const weeks = mondaysBetween(from, to);
  return {
    from,
    to,
    current_week: currentWeek,
    weeks,
    holidays,
    under_share: UNDER_ASSIGNED_SHARE,
    employees: capacityWeeks({
      weeks,
      currentWeek,
      employees: people,
      assignments: assigned,
      holidays: holidays.map((h) => h.date),
      logged,
    }),
  };
}

/** One line of the CSV: a person's week. */
export interface CapacityLine {
  person: CapacityPerson;
  week: CapacityWeek;
}
/** Hours as the firm's CSVs write them: a dot and two decimals; blank where there is nothing to show. */
const csvHours = (hours: number | null | undefined) => (hours === null || hours === undefined ? "" : hours.toFixed(2));

/** The CSV's columns (capacityMessages.csvHeaders, in order): what the screen shows, one line per person and week. */
export const CAPACITY_CSV_COLUMNS: CsvColumn<CapacityLine>[] = (
  [
    (l) => l.person.name,
    (l) => l.person.workspace_name,
    (l) => l.week.week,
    (l) => csvHours(l.person.daily_hours),
    (l) => csvHours(l.week.capacity_hours),
    (l) => csvHours(l.week.assigned_hours),
    (l) => capacityMessages.states[l.week.state],
    (l) => csvHours(l.week.logged?.total),
    (l) => csvHours(l.week.logged?.project),
    (l) => csvHours(l.week.logged?.support),
    (l) => csvHours(l.week.logged?.internal),
    (l) => csvHours(l.week.logged?.vacation),
  ] satisfies ((line: CapacityLine) => unknown)[]
).map((value, i) => ({ header: capacityMessages.csvHeaders[i], value }));

export const capacityLines = (capacity: Capacity): CapacityLine[] =>
  capacity.employees.flatMap((person) => person.weeks.map((week) => ({ person, week })));

/** The CSV's file name: capacidad_<first Monday>_<last Monday>.csv. */
export const capacityFilename = (capacity: Capacity) => `capacidad_${capacity.from}_${capacity.to}.csv`;
