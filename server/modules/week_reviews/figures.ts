/**
 * A week's hours against what was expected of each person: one reading for the Tuesday reminder, the
 * bosses' digest and the weeks under review. Expected hours follow src/core/hours.ts (the person's daily norm
 * on each working day from their start date, holidays off); logged hours are counted in whole hundredths per
 * activity, by local date, as the report CSV counts them, and split in the capacity screen's groups.
 */
import { and, asc, eq, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import { ACTION_TYPES, type ActionType, WORKING_DAY_HOURS } from "../../../src/core/constants";
import { LOGGED_GROUP_OF, LOGGED_GROUPS, type LoggedGroup, roundHours, shortfall, workingDays } from "../../../src/core/hours";
import type { WeekFigures } from "../../../src/core/schemas/week_review";
import { addDays, endOfDay, startOfDay } from "../../../src/core/week";
import type { Tx } from "../../db/client";
import { activities, employees, holydays, users } from "../../db/schema";
import { centihours } from "../../http/sql";
import { localDaySql } from "../activities";

export interface PersonWeek {
  employee_id: number;
  workspace_id: number | null;
  name: string;
  /** Null: no user account. */
  email: string | null;
  figures: WeekFigures & { missing_hours: number };
  /** Holidays on the person's working days of the week (from their start date): taken off what is expected. */
  holidays: number;
}

/**
 * The week starting `starts_on` of the active employees `where` selects (all of them when absent), in name
 * order.
 */
export async function weekFigures(tx: Tx, starts_on: string, where?: SQL): Promise<PersonWeek[]> {
  const ends_on = addDays(starts_on, 6);
  const holidayRows = await tx
    .select({ date: holydays.date })
    .from(holydays)
    .where(and(gte(holydays.date, starts_on), lte(holydays.date, ends_on)));
  const holidays = new Set(holidayRows.map((h) => h.date));

  const people = await tx
    .select({
      id: employees.id,
      name: employees.name,
      email: users.email,
      workspace_id: employees.workspace_id,
      daily_hours: employees.daily_hours,
      start_on: employees.start_on,
    })
    .from(employees)
    .leftJoin(users, eq(users.id, employees.user_id))
    .where(where ?? eq(employees.is_active, true))
    .orderBy(asc(employees.name), asc(employees.id));
  if (!people.length) return [];

  const day = localDaySql(activities.begins_at);
  const logged = await tx
    .select({
      employee_id: activities.employee_id,
      day: sql<string>`(${day})::text`,
      action_type: activities.action_type,
      centihours: sql<string>`sum(${centihours(activities.begins_at, activities.ends_at)})`,
    })
    .from(activities)
    .where(
      and(
        inArray(
          activities.employee_id,
          people.map((p) => p.id),
        ),
        gte(activities.begins_at, startOfDay(starts_on)),
        lte(activities.begins_at, endOfDay(ends_on)),
      ),
    )
    .groupBy(activities.employee_id, day, activities.action_type);

  return people.map((person) => {
    const workdays = workingDays(starts_on, ends_on, holidays, person.start_on);
    const norm = Number(person.daily_hours ?? WORKING_DAY_HOURS);
    const byDay = new Map<string, number>();
    const groups = Object.fromEntries(LOGGED_GROUPS.map((g) => [g, 0])) as Record<LoggedGroup, number>;
    let total = 0;
    for (const l of logged) {
      if (l.employee_id !== person.id) continue;
      const centi = Number(l.centihours);
      byDay.set(l.day, (byDay.get(l.day) ?? 0) + centi);
      const type = (ACTION_TYPES as readonly string[]).includes(l.action_type) ? (l.action_type as ActionType) : "internal";
      groups[LOGGED_GROUP_OF[type]] += centi;
      total += centi;
    }
    const hoursByDay = new Map([...byDay].map(([d, centi]) => [d, centi / 100]));
    const result = shortfall(workdays, hoursByDay, norm, total / 100);
    return {
      employee_id: person.id,
      workspace_id: person.workspace_id,
      name: person.name,
      email: person.email,
      figures: {
        logged_hours: result.logged,
        expected_hours: result.expected,
        missing_hours: result.missing,
        groups: Object.fromEntries(LOGGED_GROUPS.map((g) => [g, roundHours(groups[g] / 100)])) as Record<LoggedGroup, number>,
        short_days: result.days,
        empty_days: workdays.filter((d) => !byDay.get(d)),
      },
      holidays: workingDays(starts_on, ends_on, new Set(), person.start_on).filter((d) => holidays.has(d)).length,
    };
  });
}
