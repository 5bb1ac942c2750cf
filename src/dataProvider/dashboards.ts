/** The dashboards (GET dashboards/…, server/modules/dashboards). */
import type { Identifier } from "react-admin";
import type { ClientDashboard, EmployeeDashboard, ProjectDashboard, TeamDashboard } from "../core/schemas/dashboard";
import { recordPath } from "./base";
import { apiFetch } from "./http";

export type { ClientDashboard, EmployeeDashboard, ProjectDashboard, TeamDashboard };

export const dashboardVerbs = {
  /** One employee's week (the own one unless an admin names another), containing `week`. */
  employeeDashboard: (week?: string, employeeId?: Identifier | null, signal?: AbortSignal) =>
    apiFetch<{ dashboard: EmployeeDashboard }>("dashboards/employee", {
      query: { week, employee_id: employeeId ?? undefined },
      signal,
    }).then((r) => r.dashboard),
  /** The team's weeks between two dates (administrators). */
  teamDashboard: (from?: string, to?: string, signal?: AbortSignal) =>
    apiFetch<{ dashboard: TeamDashboard }>("dashboards/team", { query: { from, to }, signal }).then((r) => r.dashboard),
  projectDashboard: (id: Identifier, signal?: AbortSignal) =>
    apiFetch<{ dashboard: ProjectDashboard }>(recordPath("dashboards/projects", id), { signal }).then((r) => r.dashboard),
  clientDashboard: (id: Identifier, year?: number, signal?: AbortSignal) =>
    apiFetch<{ dashboard: ClientDashboard }>(recordPath("dashboards/clients", id), {
      query: { year },
      signal,
    }).then((r) => r.dashboard),
};
