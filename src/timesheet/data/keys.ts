/** Query keys and requests of the timesheet's data: one definition for the page and for the prefetch. */
import type { GetListParams, Identifier } from "react-admin";
import { MAX_PER_PAGE } from "../../core/constants";
import { sundayOf } from "../../core/week";

export type { EmployeeChoice } from "../model/who";

export const timesheetKeys = {
  all: ["timesheet"] as const,
  week: (weekStart: string, employee: Identifier | "todos") => ["timesheet", "week", weekStart, String(employee)] as const,
  weekState: (weekStart: string, employee: Identifier) => ["timesheet", "weekState", weekStart, String(employee)] as const,
  submitPreview: (weekStart: string) => ["timesheet", "submitPreview", weekStart] as const,
  holidays: (weekStart: string) => ["timesheet", "holidays", weekStart] as const,
  settings: ["timesheet", "settings"] as const,
  employees: ["timesheet", "employees"] as const,
  sources: ["timesheet", "sources"] as const,
};

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

/** Week data is fresh for this long: moving back and forth between weeks does not ask again. */
export const WEEK_STALE_MS = 30_000;
