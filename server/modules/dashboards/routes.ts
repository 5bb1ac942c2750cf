/**
 * The dashboards (the pictures):
 *   GET /api/v1/dashboards/employee?week=YYYY-MM-DD[&employee_id]   one employee's week (own only, admins anyone's)
 *   GET /api/v1/dashboards/team?from&to                            hours per workspace and week; weeks not closed (admins)
 *   GET /api/v1/dashboards/projects/:id                            estimated vs logged hours (who may show the project)
 *   GET /api/v1/dashboards/clients/:id?year                        support hours per product vs annual (who may show the client)
 */
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { dashboardMessages, messages } from "../../../src/core/messages";
import { canOnProject } from "../../../src/core/permissions";
import {
  clientDashboardAnswer,
  clientDashboardQuery,
  employeeDashboardAnswer,
  employeeDashboardQuery,
  projectDashboardAnswer,
  TEAM_DASHBOARD_DEFAULT_WEEKS,
  TEAM_DASHBOARD_MAX_WEEKS,
  teamDashboardAnswer,
  teamDashboardQuery,
} from "../../../src/core/schemas/dashboard";
import { addDays, businessToday, daysBetween, mondayOf, sundayOf } from "../../../src/core/week";
import { projects } from "../../db/schema";
import { currentUser, grantOf, requires } from "../../http/auth";
import { forbidden, notFound, ValidationError } from "../../http/errors";
import { doc, idParams } from "../../http/openapi";
import { idOf } from "../../http/resource";
import { clientSupport, employeeWeek, projectHours, teamWeeks } from "./service";

const tags = ["dashboards"];

export async function dashboardRoutes(api: FastifyInstance) {
  api.get(
    "/dashboards/employee",
    {
      config: requires("dashboards", "show"),
      schema: doc({
        tags,
        summary: "Tablero de la semana de un empleado: horas por día y tipo contra la semana esperada",
        querystring: employeeDashboardQuery,
        response: { 200: z.object({ dashboard: employeeDashboardAnswer }) },
      }),
    },
    async (request) => {
      const grant = grantOf(request);
      const user = currentUser(request);
      const query = request.query as z.output<typeof employeeDashboardQuery>;
      const own = user.employee?.id;
      const employeeId = query.employee_id ?? own;
      if (grant === "own" && query.employee_id && query.employee_id !== own) throw forbidden();
      if (!employeeId) {
        throw grant === "all"
          ? ValidationError.field("employee_id", messages.selectEmployee)
          : ValidationError.base(messages.noEmployee);
      }
      const week = await employeeWeek(api.db, employeeId, query.week ?? businessToday());
      if (!week) throw notFound();
      return { dashboard: week };
    },
  );

  api.get(
    "/dashboards/team",
    {
      config: requires("dashboards", "list"),
      schema: doc({
        tags,
        summary: "Tablero del equipo: horas por espacio de trabajo y semana; semanas sin cerrar (administradores)",
        querystring: teamDashboardQuery,
        response: { 200: z.object({ dashboard: teamDashboardAnswer }) },
      }),
    },
    async (request) => {
      const query = request.query as z.output<typeof teamDashboardQuery>;
      const today = businessToday();
      const to = query.to ?? sundayOf(today);
      const from = query.from ?? addDays(mondayOf(to), -7 * (TEAM_DASHBOARD_DEFAULT_WEEKS - 1));
      if (from > to) throw ValidationError.field("from", dashboardMessages.rangeOrder);
      const weeks = daysBetween(mondayOf(from), mondayOf(to)) / 7 + 1;
      if (weeks > TEAM_DASHBOARD_MAX_WEEKS)
        throw ValidationError.field("to", dashboardMessages.rangeTooLong(TEAM_DASHBOARD_MAX_WEEKS));
      return { dashboard: await teamWeeks(api.db, from, to, today) };
    },
  );

  api.get(
    "/dashboards/projects/:id",
    {
      config: requires("projects", "show"),
      schema: doc({
        tags,
        summary: "Tablero de un proyecto: horas estimadas por puesto contra registradas, y acumulado semanal",
        params: idParams,
        response: { 200: z.object({ dashboard: projectDashboardAnswer }) },
      }),
    },
    async (request) => {
      const id = idOf(request);
      // Estimates to whoever reads them all, and to an Operador only on a project they lead (decision 029).
      const [leaders] = await api.db.db
        .select({ pm_id: projects.pm_id, rape_id: projects.rape_id })
        .from(projects)
        .where(eq(projects.id, id));
      if (!leaders) throw notFound();
      const withEstimates = canOnProject(currentUser(request), "estimated_work_hours", "list", leaders);
      const dashboard = await projectHours(api.db, id, withEstimates, businessToday());
      if (!dashboard) throw notFound();
      return { dashboard };
    },
  );

  api.get(
    "/dashboards/clients/:id",
    {
      config: requires("clients", "show"),
      schema: doc({
        tags,
        summary: "Tablero de un cliente: horas de soporte del año por producto contra las horas anuales contratadas",
        params: idParams,
        querystring: clientDashboardQuery,
        response: { 200: z.object({ dashboard: clientDashboardAnswer }) },
      }),
    },
    async (request) => {
      const query = request.query as z.output<typeof clientDashboardQuery>;
      const year = query.year ?? Number(businessToday().slice(0, 4));
      const dashboard = await clientSupport(api.db, idOf(request), year);
      if (!dashboard) throw notFound();
      return { dashboard };
    },
  );
}
