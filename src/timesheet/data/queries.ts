/**
 * The timesheet's reads as react-query queries on react-admin's client (src/queryClient.ts): the shown
 * week's activities, its holidays, whether it is closed, the firm's settings and (admins) the employees.
 * The fetchers take the data provider, so the prefetch (./prefetch.ts) runs the very same requests under
 * the very same keys before the page's code has loaded.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type Identifier, useDataProvider } from "react-admin";
import type { Activity } from "../../core/activity";
import { sundayOf } from "../../core/week";
import type { SiaDataProvider, WeekState } from "../../dataProvider";

export type { WeekState };

import {
  type EmployeeChoice,
  employeeChoicesParams,
  SETTINGS_ID,
  timesheetKeys,
  WEEK_STALE_MS,
  weekActivitiesParams,
} from "./keys";

export interface Holiday {
  date: string;
  name?: string | null;
}

export interface AppSettingsLite {
  default_customer_id?: number | null;
  default_customer_name?: string | null;
  support_excluded_customer_id?: number | null;
}

export const fetchers = {
  week: (dp: SiaDataProvider, weekStart: string, employee: Identifier | "todos", signal?: AbortSignal) =>
    dp.getList<Activity>("activities", { ...weekActivitiesParams(weekStart, employee), signal }).then((r) => r.data),
  holidays: (dp: SiaDataProvider, weekStart: string, signal?: AbortSignal) =>
    dp.holydaysByDate(weekStart, sundayOf(weekStart), signal).catch(() => [] as Holiday[]),
  weekState: (dp: SiaDataProvider, weekStart: string, employee: Identifier, signal?: AbortSignal) =>
    dp.weekState(weekStart, employee, signal),
  settings: (dp: SiaDataProvider) => dp.getOne("app_settings", { id: SETTINGS_ID }).then((r) => r.data as AppSettingsLite),
  employees: (dp: SiaDataProvider) =>
    dp.getList("employees", employeeChoicesParams).then((r) => r.data as { id: number; name: string }[]),
};

const NO_ACTIVITIES: Activity[] = [];
const NO_HOLIDAYS: Holiday[] = [];

/** The shown week's activities (empty until the first answer; the previous week's while the next loads). */
export function useWeekActivities(weekStart: string | null, employee: EmployeeChoice) {
  const dp = useDataProvider<SiaDataProvider>();
  const enabled = !!weekStart && employee !== null;
  const query = useQuery({
    queryKey: timesheetKeys.week(weekStart ?? "", employee ?? "todos"),
    queryFn: ({ signal }) => fetchers.week(dp, weekStart as string, employee as Identifier | "todos", signal),
    enabled,
    staleTime: WEEK_STALE_MS,
    placeholderData: keepPreviousData,
  });
  return {
    activities: enabled ? (query.data ?? NO_ACTIVITIES) : NO_ACTIVITIES,
    loading: query.isFetching,
    /** The answer shown is the week asked for (not the previous one kept while loading). */
    current: enabled && !query.isPlaceholderData && query.isSuccess,
    refetch: query.refetch,
  };
}

export function useHolidays(weekStart: string | null) {
  const dp = useDataProvider<SiaDataProvider>();
  const query = useQuery({
    queryKey: timesheetKeys.holidays(weekStart ?? ""),
    queryFn: ({ signal }) => fetchers.holidays(dp, weekStart as string, signal),
    enabled: !!weekStart,
    staleTime: 10 * 60_000,
  });
  return query.data ?? NO_HOLIDAYS;
}

/** Whether the shown employee's week is closed, and what the signed-in user may do about it. */
export function useWeekState(weekStart: string | null, employee: Identifier | null) {
  const dp = useDataProvider<SiaDataProvider>();
  const query = useQuery({
    queryKey: timesheetKeys.weekState(weekStart ?? "", employee ?? 0),
    queryFn: ({ signal }) => fetchers.weekState(dp, weekStart as string, employee as Identifier, signal),
    enabled: !!weekStart && employee !== null,
    staleTime: WEEK_STALE_MS,
  });
  return query.data ?? null;
}

/** What sending the week to review would show (its hours against the expected ones), asked when the question opens. */
export function useSubmitPreview(weekStart: string | null, enabled: boolean) {
  const dp = useDataProvider<SiaDataProvider>();
  const query = useQuery({
    queryKey: timesheetKeys.submitPreview(weekStart ?? ""),
    queryFn: ({ signal }) => dp.submitPreview(weekStart as string, signal),
    enabled: enabled && !!weekStart,
    staleTime: 0,
  });
  return query.data ?? null;
}

export function useSettings(enabled: boolean) {
  const dp = useDataProvider<SiaDataProvider>();
  const query = useQuery({
    queryKey: timesheetKeys.settings,
    queryFn: () => fetchers.settings(dp),
    enabled,
    staleTime: 5 * 60_000,
  });
  return query.data ?? {};
}

/** Whether Google Calendar can be read on this server: its buttons are offered only then. */
export function useGoogleCalendarAvailable(enabled: boolean) {
  const dp = useDataProvider<SiaDataProvider>();
  const query = useQuery({
    queryKey: timesheetKeys.sources,
    queryFn: () => dp.calendarSources(),
    enabled,
    staleTime: 10 * 60_000,
  });
  return !!query.data?.google;
}

export function useEmployeeChoices(enabled: boolean) {
  const dp = useDataProvider<SiaDataProvider>();
  const query = useQuery({
    queryKey: timesheetKeys.employees,
    queryFn: () => fetchers.employees(dp),
    enabled,
    staleTime: 5 * 60_000,
  });
  return query.data ?? [];
}
