/**
 * What /app/activities needs before its code has loaded (issue 10): main.tsx calls `startTimesheet` first
 * thing, so the page's chunk, the session and then the shown week's activities, its holidays and the
 * settings all load in parallel instead of one after another. The page asks for the very same requests
 * (the helpers below build them for both), and the first identical GET takes each early answer
 * (src/dataProvider/http.ts `prefetch`). Part of the main chunk: small, no FullCalendar.
 */
import type { GetListParams, Identifier } from "react-admin";
import { authProvider } from "../authProvider";
import { MAX_PER_PAGE } from "../core/constants";
import { grantFor } from "../core/permissions";
import { PAGE_PATHS } from "../core/resources";
import type { SessionUser } from "../core/session";
import { localDate, sundayOf } from "../core/week";
import { listQuery } from "../dataProvider";
import { dropEarly, earlyJson, prefetch } from "../dataProvider/http";

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
 * browser's time, named by its local (Mexico City) date as the calendar's datesSet reports it.
 */
export function openingWeekStart(now = new Date()): string {
  const monday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - ((now.getDay() + 6) % 7));
  return localDate(monday);
}

/** The list request of a week's activities. */
export const weekActivitiesParams = (weekStart: string, employee: Identifier | "todos"): GetListParams => ({
  pagination: { page: 1, perPage: MAX_PER_PAGE },
  sort: { field: "begins_at", order: "ASC" },
  filter: { "by_begins_at[start_date]": weekStart, "by_begins_at[end_date]": sundayOf(weekStart), by_employee: employee },
});

/** The employees an admin chooses from. */
export const employeeChoicesParams: GetListParams = {
  pagination: { page: 1, perPage: MAX_PER_PAGE },
  sort: { field: "name", order: "ASC" },
  filter: {},
};

/** The firm's settings row the activity form reads. */
export const SETTINGS_ID = 1;

const holidaysQuery = (weekStart: string) => ({ from: weekStart, to: sundayOf(weekStart) });

const weekRequests = (weekStart: string, employee: Identifier | "todos") => [
  { path: "activities", query: listQuery(weekActivitiesParams(weekStart, employee)) },
  { path: "holydays/holydays_by_date", query: holidaysQuery(weekStart) },
];

/**
 * The opening week's activities and holidays when both early answers have already come: the page then
 * draws them on its first render (the calendar mounts with its events instead of redrawing for them).
 */
export function earlyWeek<A>(weekStart: string, employee: Identifier | "todos") {
  const answers = earlyJson(weekRequests(weekStart, employee)) as
    | [{ activities?: A[] }, { holydays?: { date: string; name?: string | null }[] }]
    | undefined;
  if (!answers?.[0].activities || !answers[1].holydays) return null;
  return { activities: answers[0].activities, holidays: answers[1].holydays };
}

/** The early week has been shown: nobody else takes it. */
export const dropEarlyWeek = (weekStart: string, employee: Identifier | "todos") => dropEarly(weekRequests(weekStart, employee));

const TIMESHEET_PATHS = new Set(["/", "/app", "/app/", PAGE_PATHS.activities]);

/** On the timesheet's address: load its chunk and its first data now, alongside the main chunk's start. */
export function startTimesheet(pathname = window.location.pathname) {
  if (!TIMESHEET_PATHS.has(pathname)) return;
  void import("./ActivitiesPage").catch(() => undefined);
  void authProvider.getPermissions?.({}).then((me: SessionUser | null) => {
    if (!me) return;
    const choice = defaultChoice(me);
    prefetch(`app_settings/${SETTINGS_ID}`);
    if (isTimesheetAdmin(me)) prefetch("employees", listQuery(employeeChoicesParams));
    if (choice === null) return;
    const weekStart = openingWeekStart();
    prefetch("activities", listQuery(weekActivitiesParams(weekStart, choice)));
    prefetch("holydays/holydays_by_date", holidaysQuery(weekStart));
  });
}
