/** The dashboards (GET /api/v1/dashboards/…): their query parameters and answers, shared by the screens and the routes. */
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
export const employeeDashboardAnswer = z.object({
  employee: z.object({ id: z.number(), name: z.string() }),
  week: z.object({ starts_on: z.string(), ends_on: z.string() }),
  /** The employee's daily norm on each of their working days of the week (holidays and days before their start: 0). */
  expected_hours: z.number(),
  expected_by_day: z.array(z.number()),
  total_hours: z.number(),
  holidays: z.array(z.object({ date: z.string(), name: z.string().nullable() })),
  by_day: z.array(z.object({ date: z.string(), action_type: z.string(), hours: z.number() })),
  by_type: z.array(z.object({ action_type: z.string(), hours: z.number() })),
});
export type EmployeeDashboard = z.infer<typeof employeeDashboardAnswer>;

/** GET dashboards/team: the team's weeks between two dates. */
export const teamDashboardAnswer = z.object({
  from: z.string(),
  to: z.string(),
  weeks: z.array(z.object({ week: z.string(), expected_hours: z.number() })),
  by_workspace: z.array(
    z.object({ workspace_id: z.number().nullable(), workspace_name: z.string().nullable(), week: z.string(), hours: z.number() }),
  ),
  total_hours: z.number(),
  weeks_not_closed: z.array(
    z.object({
      employee_id: z.number(),
      employee_name: z.string(),
      workspace_name: z.string().nullable(),
      week: z.string(),
      hours: z.number(),
    }),
  ),
});
export type TeamDashboard = z.infer<typeof teamDashboardAnswer>;

/** GET dashboards/projects/:id: estimated against logged hours (estimates null for who may not read them). */
export const projectDashboardAnswer = z.object({
  project: z.object({ id: z.number(), name: z.string(), project_code: z.string() }),
  estimates_visible: z.boolean(),
  estimated_hours: z.number().nullable(),
  logged_hours: z.number(),
  by_position: z.array(
    z.object({
      position_id: z.number().nullable(),
      position_name: z.string().nullable(),
      estimated_hours: z.number().nullable(),
      logged_hours: z.number(),
    }),
  ),
  weekly: z.array(z.object({ week: z.string(), hours: z.number(), cumulative_hours: z.number() })),
  /** Null without an estimate (or to who may not read it). */
  forecast: z
    .object({
      pace_hours_per_week: z.number().describe("Horas por semana, promedio de las últimas 4 semanas completas"),
      runs_out_on: z.string().nullable().describe("Día en que se agotarían las horas estimadas a ese ritmo"),
      over_hours: z.number().describe("Horas registradas por encima de lo estimado"),
      percent: z.number().describe("Porcentaje de lo estimado ya registrado"),
    })
    .nullable(),
});
export type ProjectDashboard = z.infer<typeof projectDashboardAnswer>;

/** GET dashboards/clients/:id: a client's support hours in a year. */
export const clientDashboardAnswer = z.object({
  client: z.object({ id: z.number(), name: z.string() }),
  year: z.number(),
  annual_support_hours: z.number(),
  used_hours: z.number(),
  by_product: z.array(
    z.object({
      product_id: z.number().nullable(),
      product_name: z.string().nullable(),
      annual_support_hours: z.number().nullable(),
      used_hours: z.number(),
    }),
  ),
});
export type ClientDashboard = z.infer<typeof clientDashboardAnswer>;
