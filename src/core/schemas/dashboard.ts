/** Query parameters of the dashboards (GET /api/v1/dashboards/…), shared by the screens and the routes. */
import { dashboardMessages } from "../messages";
import { isoDate, optionalId, z } from "./fields";

const emptyToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);
const optionalDate = () => z.preprocess(emptyToUndefined, isoDate().optional());

/** The most weeks the team dashboard covers in one request. */
export const TEAM_DASHBOARD_MAX_WEEKS = 53;
/** Weeks the team dashboard covers when no range is given (the current one included). */
export const TEAM_DASHBOARD_DEFAULT_WEEKS = 8;

export const employeeDashboardQuery = z.object({
  /** Any date of the week to show; today when absent. */
  week: optionalDate(),
  employee_id: optionalId(),
});

export const teamDashboardQuery = z
  .object({ from: optionalDate(), to: optionalDate() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ["from"], error: dashboardMessages.rangeOrder });

export const clientDashboardQuery = z.object({
  year: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: dashboardMessages.year })
      .int({ error: dashboardMessages.year })
      .min(2000, { error: dashboardMessages.year })
      .max(2100, { error: dashboardMessages.year })
      .optional(),
  ),
});

/** GET dashboards/employee: one employee's week. */
export interface EmployeeDashboard {
  employee: { id: number; name: string };
  week: { starts_on: string; ends_on: string };
  expected_hours: number;
  total_hours: number;
  holidays: { date: string; name: string | null }[];
  by_day: { date: string; action_type: string; hours: number }[];
  by_type: { action_type: string; hours: number }[];
}
/** GET dashboards/team: the team's weeks between two dates. */
export interface TeamDashboard {
  from: string;
  to: string;
  weeks: { week: string; expected_hours: number }[];
  by_workspace: { workspace_id: number | null; workspace_name: string | null; week: string; hours: number }[];
  total_hours: number;
  weeks_not_closed: { employee_id: number; employee_name: string; workspace_name: string | null; week: string; hours: number }[];
}
/** GET dashboards/projects/:id: estimated against logged hours. */
export interface ProjectDashboard {
  project: { id: number; name: string; project_code: string };
  estimates_visible: boolean;
  estimated_hours: number | null;
  logged_hours: number;
  by_position: {
    position_id: number | null;
    position_name: string | null;
    estimated_hours: number | null;
    logged_hours: number;
  }[];
  weekly: { week: string; hours: number; cumulative_hours: number }[];
}
/** GET dashboards/clients/:id: a client's support hours in a year. */
export interface ClientDashboard {
  client: { id: number; name: string };
  year: number;
  annual_support_hours: number;
  used_hours: number;
  by_product: {
    product_id: number | null;
    product_name: string | null;
    annual_support_hours: number | null;
    used_hours: number;
  }[];
}
