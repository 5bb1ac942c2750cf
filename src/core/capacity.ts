/**
 * Capacity and utilisation, week by week: what a person can work (their daily norm on each working day),
 * what is assigned to them (the same norm on each working day an assignment covers; overlapping assignments
 * add up) and what they logged, split as LOGGED_GROUPS. Working days and the hours rule are those of
 * ./hours.ts; the server reads the rows with set-based SQL and hands them here.
 */

import type { ActionType } from "./constants";
import { LOGGED_GROUP_OF, LOGGED_GROUPS, type LoggedGroup, roundHours, workingDays } from "./hours";
import {
  CAPACITY_WEEKS_AHEAD,
  CAPACITY_WEEKS_BACK,
  type CapacityPerson,
  type CapacityState,
  type CapacityWeek,
  type LoggedHours,
  UNDER_ASSIGNED_SHARE,
} from "./schemas/capacity";
import { addDays, mondayOf } from "./week";

/** Over: more assigned than the capacity. Under: less than UNDER_ASSIGNED_SHARE of it. None: no capacity. */
export function capacityState(assigned: number, capacity: number): CapacityState {
  if (assigned > capacity) return "over";
  if (capacity <= 0) return "none";
  if (assigned < capacity * UNDER_ASSIGNED_SHARE) return "under";
  return "ok";
}

/** The weeks shown when none are asked for: CAPACITY_WEEKS_BACK before the current one to CAPACITY_WEEKS_AHEAD after. */
export function defaultCapacityRange(today: string): { from: string; to: string } {
  const current = mondayOf(today);
  return { from: addDays(current, -7 * CAPACITY_WEEKS_BACK), to: addDays(current, 7 * CAPACITY_WEEKS_AHEAD) };
}

/** The Mondays from `from` to `to` (both Mondays), in order. */
export function mondaysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let monday = from; monday <= to; monday = addDays(monday, 7)) out.push(monday);
  return out;
}

export interface CapacityEmployee {
  id: number;
  name: string;
  workspace_id: number | null;
  workspace_name: string | null;
  daily_hours: number;
  start_on: string | null;
}
export interface CapacityAssignment {
  employee_id: number;
  start_on: string;
  end_on: string;
}
/** Whole hundredths of an hour an employee logged in a week, per LOGGED_GROUPS (the product's hours rule). */
export type LoggedCentihours = { employee_id: number; week: string } & Record<LoggedGroup, number>;

/** The action types of each logged group (LOGGED_GROUP_OF read the other way), for the server's SQL. */
export const ACTION_TYPES_OF_GROUP = Object.fromEntries(
  LOGGED_GROUPS.map((group) => [
    group,
    (Object.keys(LOGGED_GROUP_OF) as ActionType[]).filter((type) => LOGGED_GROUP_OF[type] === group),
  ]),
) as Record<LoggedGroup, ActionType[]>;

/** Every person's weeks. `currentWeek` and the weeks before it carry the logged hours; later ones null. */
export function capacityWeeks(input: {
  weeks: readonly string[];
  currentWeek: string;
  employees: readonly CapacityEmployee[];
  assignments: readonly CapacityAssignment[];
  holidays: Iterable<string>;
  logged: readonly LoggedCentihours[];
}): CapacityPerson[] {
  const holidays = new Set(input.holidays);
  // People and assignments mostly cover the same whole weeks: each span's working days are counted once.
  const counted = new Map<string, number>();
  const workingDayCount = (from: string, to: string, startOn: string | null) => {
    const key = `${from}|${to}|${startOn}`;
    let days = counted.get(key);
    if (days === undefined) {
      days = workingDays(from, to, holidays, startOn).length;
      counted.set(key, days);
    }
    return days;
  };
  const assignmentsOf = new Map<number, CapacityAssignment[]>();
  for (const a of input.assignments) {
    const list = assignmentsOf.get(a.employee_id);
    if (list) list.push(a);
    else assignmentsOf.set(a.employee_id, [a]);
  }
  // Hundredths per employee, week and group: adding hundredths keeps every total equal to the CSV's.
  const loggedOf = new Map<string, LoggedCentihours>();
  for (const row of input.logged) loggedOf.set(`${row.employee_id}|${row.week}`, row);
  const spans = input.weeks.map((monday) => [monday, addDays(monday, 6)] as const);
  return input.employees.map((employee) => {
    const own = assignmentsOf.get(employee.id) ?? [];
    const weeks = spans.map(([monday, sunday]): CapacityWeek => {
      const capacity = roundHours(employee.daily_hours * workingDayCount(monday, sunday, employee.start_on));
      let assignedDays = 0;
      for (const a of own) {
        // The part of the assignment inside the week (ISO dates compare as text).
        let from = monday;
        if (a.start_on > from) from = a.start_on;
        let to = sunday;
        if (a.end_on < to) to = a.end_on;
        if (from <= to) assignedDays += workingDayCount(from, to, employee.start_on);
      }
      const assigned = roundHours(employee.daily_hours * assignedDays);
      let logged: LoggedHours | null = null;
      if (monday <= input.currentWeek) {
        const row = loggedOf.get(`${employee.id}|${monday}`);
        const centi = (group: LoggedGroup) => Number(row?.[group] ?? 0);
        const total = LOGGED_GROUPS.reduce((sum, g) => sum + centi(g), 0);
        logged = {
          project: centi("project") / 100,
          support: centi("support") / 100,
          internal: centi("internal") / 100,
          vacation: centi("vacation") / 100,
          total: total / 100,
        };
      }
      return {
        week: monday,
        capacity_hours: capacity,
        assigned_hours: assigned,
        state: capacityState(assigned, capacity),
        logged,
      };
    });
    return { ...employee, weeks };
  });
}
