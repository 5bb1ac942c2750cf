/** Whose week the timesheet shows, and which week it opens on (pure). */

import type { Identifier } from "react-admin";
import { grantFor } from "../../core/permissions";
import type { SessionUser } from "../../core/session";
import { businessToday, mondayOf } from "../../core/week";

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
 * The date of the Monday the calendar opens on: the week of the firm's today, as the calendar (which runs
 * on the firm's clock) reports it in its datesSet, whatever the browser's zone.
 */
export function openingWeekStart(now = new Date()): string {
  return mondayOf(businessToday(now));
}
