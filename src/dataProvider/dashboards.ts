/** The dashboards (GET dashboards/…, server/modules/dashboards). */
import type { Identifier } from "react-admin";
import type { Capacity, CapacityPerson, CapacityWeek } from "../core/schemas/capacity";
import type { ClientDashboard, EmployeeDashboard, ProjectDashboard, TeamDashboard } from "../core/schemas/dashboard";
import { recordPath } from "./base";
import { downloadCsv } from "./downloads";
import { apiFetch } from "./http";

export type { Capacity, CapacityPerson, CapacityWeek, ClientDashboard, EmployeeDashboard, ProjectDashboard, TeamDashboard };

/** What the capacity screen asks for: its weeks (Mondays) and, optionally, one workspace. */
export interface CapacityFilter {
  from: string;
  to: string;
  workspace_id?: Identifier | null;
}
const capacityParams = (filter: CapacityFilter) => ({
  from: filter.from,
  to: filter.to,
  workspace_id: filter.workspace_id ?? undefined,
});

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
  /** Capacity, assigned and logged hours per active employee and week (administrators). */
  capacity: (filter: CapacityFilter, signal?: AbortSignal) =>
    apiFetch<{ capacity: Capacity }>("capacity", { query: capacityParams(filter), signal }).then((r) => r.capacity),
  /** The same weeks as a CSV (GET capacity.csv), saved as the server names it. */
  downloadCapacityCsv: (filter: CapacityFilter) =>
    downloadCsv("capacity.csv", capacityParams(filter), { fallbackName: `capacidad_${filter.from}_${filter.to}.csv` }),
  clientDashboard: (id: Identifier, year?: number, signal?: AbortSignal) =>
    apiFetch<{ dashboard: ClientDashboard }>(recordPath("dashboards/clients", id), {
      query: { year },
      signal,
    }).then((r) => r.dashboard),
};
