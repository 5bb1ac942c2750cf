/**
 * What /app/activities needs before its code has loaded: main.tsx calls `startTimesheet` first thing, so
 * the page's chunk, the session and then the opening week's activities, holidays, state and the settings
 * load in parallel. They are react-query prefetches on react-admin's own client under the page's keys:
 * the page's queries find them (no private cache beside react-query). Part of the main chunk: no
 * FullCalendar, no page code.
 */
import { authProvider } from "../../authProvider";
import { PAGE_PATHS } from "../../core/resources";
import type { SessionUser } from "../../core/session";
import { dataProvider, type SiaDataProvider } from "../../dataProvider";
import { queryClient } from "../../queryClient";
import { askedWeekStart, defaultChoice, isTimesheetAdmin, WEEK_PARAM } from "../model/who";
import { timesheetKeys, WEEK_STALE_MS } from "./keys";
import { fetchers } from "./queries";

const TIMESHEET_PATHS = new Set(["/", "/app", "/app/", PAGE_PATHS.activities]);

/** Prefetches the opening week of `me` into the shared client. */
export function prefetchOpeningWeek(
  me: SessionUser,
  dp: SiaDataProvider = dataProvider as SiaDataProvider,
  client = queryClient,
) {
  const choice = defaultChoice(me);
  // The week the address names (?semana=, the view switch keeps it), else this one.
  const weekStart = askedWeekStart(new URLSearchParams(globalThis.location?.search ?? "").get(WEEK_PARAM));
  void client.prefetchQuery({ queryKey: timesheetKeys.settings, queryFn: () => fetchers.settings(dp), staleTime: 60_000 });
  if (isTimesheetAdmin(me))
    void client.prefetchQuery({ queryKey: timesheetKeys.employees, queryFn: () => fetchers.employees(dp), staleTime: 60_000 });
  void client.prefetchQuery({
    queryKey: timesheetKeys.holidays(weekStart),
    queryFn: ({ signal }) => fetchers.holidays(dp, weekStart, signal),
    staleTime: 60_000,
  });
  if (choice === null) return;
  void client.prefetchQuery({
    queryKey: timesheetKeys.week(weekStart, choice),
    queryFn: ({ signal }) => fetchers.week(dp, weekStart, choice, signal),
    staleTime: WEEK_STALE_MS,
  });
  if (choice !== "todos")
    void client.prefetchQuery({
      queryKey: timesheetKeys.weekState(weekStart, choice),
      queryFn: () => fetchers.weekState(dp, weekStart, choice),
      staleTime: WEEK_STALE_MS,
    });
}

/** On the timesheet's address: load its chunk and its first data now, alongside the main chunk's start. */
export function startTimesheet(pathname = window.location.pathname) {
  if (!TIMESHEET_PATHS.has(pathname)) return;
  void import("../ActivitiesPage").catch(() => undefined);
  void authProvider
    .getPermissions?.({})
    .then((me: SessionUser | null) => {
      if (me) prefetchOpeningWeek(me);
    })
    .catch(() => undefined);
}
