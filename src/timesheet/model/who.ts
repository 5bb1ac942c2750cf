/** Whose week the timesheet shows, and which week it opens on (pure). */

import type { Identifier } from "react-admin";
import { grantFor } from "../../core/permissions";
import type { SessionUser } from "../../core/session";
import { businessToday, isDateInRange, mondayOf } from "../../core/week";

/** 'todos' (admins: everyone), an employee id, or null (not chosen yet). */
export type EmployeeChoice = Identifier | "todos" | null;

/** Admins see the whole timesheet (and choose whose week); others only their own. */
export const isTimesheetAdmin = (me: SessionUser | null) => !!me && grantFor(me, "activities", "freeze_others") === "all";

/** The part of Web Storage the choice is kept in (sessionStorage: this tab, across reloads and views). */
type ChoiceStorage = Pick<Storage, "getItem" | "setItem">;
const tabStorage = (): ChoiceStorage | null => (typeof sessionStorage === "undefined" ? null : sessionStorage);
const choiceKey = (me: SessionUser) => `sia:timesheet-employee:${String(me.id)}`;

/**
 * Whose week opens: for admins, the employee they last chose in this tab (switching between calendar and
 * grid, or reloading, keeps it: an admin never lands on their own week while meaning someone else's), else
 * their own (everyone's when they have no employee record); others always their own.
 */
export function defaultChoice(me: SessionUser | null, storage: ChoiceStorage | null = tabStorage()): EmployeeChoice {
  const own = me?.employee?.id ?? null;
  if (!me || !isTimesheetAdmin(me)) return own;
  let kept: string | null = null;
  try {
    kept = storage?.getItem(choiceKey(me)) ?? null;
  } catch {
    kept = null;
  }
  if (kept === "todos") return "todos";
  if (kept && /^[1-9]\d{0,9}$/.test(kept)) return Number(kept);
  return own ?? "todos";
}

/** Keeps an admin's choice for this tab (see defaultChoice). */
export function rememberChoice(me: SessionUser | null, choice: EmployeeChoice, storage: ChoiceStorage | null = tabStorage()) {
  if (!me || !isTimesheetAdmin(me) || choice === null) return;
  try {
    storage?.setItem(choiceKey(me), String(choice));
  } catch {
    // A storage refused keeps the choice for this view only.
  }
}

/**
 * The date of the Monday the calendar opens on: the week of the firm's today, as the calendar (which runs
 * on the firm's clock) reports it in its datesSet, whatever the browser's zone.
 */
export function openingWeekStart(now = new Date()): string {
  return mondayOf(businessToday(now));
}

export { TIMESHEET_WEEK_PARAM as WEEK_PARAM } from "../../core/resources";

/** The week an address asks for (its Monday), else the opening week. */
export function askedWeekStart(asked: string | null, now = new Date()): string {
  return asked && /^\d{4}-\d{2}-\d{2}$/.test(asked) && isDateInRange(asked) ? mondayOf(asked) : openingWeekStart(now);
}
