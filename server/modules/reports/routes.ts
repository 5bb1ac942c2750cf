/**
 * GET /api/v1/activities/reporting_activities.csv (SPEC §7; docs/reports.md): the activity report of the
 * reporting screen, streamed. Parameters parsed by the screen's own schema (src/core/schemas/report.ts).
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Grant } from "../../../src/core/permissions";
import {
  REPORT_KINDS,
  reportFilename,
  reportFilterSchema,
  reportIdParam,
  reportQueryInput,
} from "../../../src/core/schemas/report";
import { currentUser, requires } from "../../http/auth";
import { doc, fileAnswer } from "../../http/openapi";
import { sendCsv } from "../../http/resource";
import { reportCsvStream } from "./report";

const text = (description: string) => ({ type: "string", description });
/** The screen's own schema reads the query; the parameters are documented one by one. */
const documented = {
  type: "object",
  properties: {
    current_filter: { type: "string", enum: [...REPORT_KINDS], description: "Tipo de filtro" },
    ...Object.fromEntries(REPORT_KINDS.map((k) => [reportIdParam(k), text(`Id del elemento cuando current_filter=${k}`)])),
    start_date: text("Fecha de inicio (YYYY-MM-DD, día local de Ciudad de México, incluida)"),
    end_date: text("Fecha de fin (YYYY-MM-DD, incluida)"),
    excluded_ids: text(
      "Ids separados por comas: clientes excluidos (client_group) o empleados excluidos (workspace); se ignora en los demás tipos",
    ),
    approved_only: {
      type: "string",
      enum: ["true", "false"],
      description:
        "true: solo horas aprobadas: las de días cerrados para su empleado (semana aprobada o cerrada por un administrador, mes cerrado) que no esperan revisión",
    },
  },
};

const querystring = z
  .preprocess((raw) => reportQueryInput((raw ?? {}) as Record<string, unknown>), reportFilterSchema)
  .meta(documented);

export async function reportRoutes(app: FastifyInstance) {
  app.get(
    "/activities/reporting_activities.csv",
    {
      schema: doc({
        tags: ["activities"],
        summary:
          "Reporte de actividades (CSV con BOM, ordenado por empleado e inicio; archivo reporte_actividades_<inicio>_<fin>.csv, o reporte_actividades_aprobadas_… con approved_only). Quien no es administrador ni Finanzas solo recibe sus propias actividades.",
        querystring,
        response: { 200: fileAnswer("text/csv", "Las actividades del periodo como CSV") },
      }),
      config: requires("reports", "export"),
    },
    async (request, reply) => {
      const filter = request.query as z.output<typeof reportFilterSchema>;
      const viewer = { grant: request.grant as Grant, employeeId: currentUser(request).employee?.id ?? null };
      return sendCsv(reply, reportFilename(filter), reportCsvStream(app.db, filter, viewer));
    },
  );
}
