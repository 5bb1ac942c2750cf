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
