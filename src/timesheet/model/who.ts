/** Whose week the timesheet shows, and which week it opens on (pure). */

import type { Identifier } from "react-admin";
import { grantFor } from "../../core/permissions";
import type { SessionUser } from "../../core/session";
import { calendarDay } from "../../core/week";

/** 'todos' (admins: everyone), an employee id, or null (not chosen yet). */
export type EmployeeChoice = Identifier | "todos" | null;

/** Admins see the whole timesheet (and choose whose week); others only their own. */
export const isTimesheetAdmin = (me: SessionUser | null) => !!me && grantFor(me, "activities", "freeze_others") === "all";

/** Whose week opens: admins their own (everyone's when they have no employee record), others their own. */
export function defaultChoice(me: SessionUser | null): EmployeeChoice {
  const own = me?.employee?.id ?? null;
  return isTimesheetAdmin(me) ? (own ?? "todos") : own;
}

/**
 * The date of the Monday the calendar opens on: FullCalendar's week (Monday first) around today in the
 * browser's time, named by its day as the calendar's datesSet reports it (calendarDay), whatever the
 * browser's zone.
 */
export function openingWeekStart(now = new Date()): string {
  return calendarDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - ((now.getDay() + 6) % 7)));
}
