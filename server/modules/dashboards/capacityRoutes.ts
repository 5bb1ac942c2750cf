/**
 * Capacity and utilisation (administrators):
 *   GET /api/v1/capacity?from&to&workspace_id        each active employee's weeks: capacity, assigned, logged
 *   GET /api/v1/capacity.csv?from&to&workspace_id    the same, one CSV line per person and week
 * from and to are Mondays; without them, CAPACITY_WEEKS_BACK weeks before the current one to
 * CAPACITY_WEEKS_AHEAD after it.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { defaultCapacityRange } from "../../../src/core/capacity";
import { capacityMessages } from "../../../src/core/messages";
import { CAPACITY_MAX_WEEKS, capacityAnswer, capacityQuery } from "../../../src/core/schemas/capacity";
import { addDays, businessToday, daysBetween } from "../../../src/core/week";
import { requires } from "../../http/auth";
import { toCsv } from "../../http/csv";
import { ValidationError } from "../../http/errors";
import { doc, fileAnswer } from "../../http/openapi";
import { sendCsv } from "../../http/resource";
import { CAPACITY_CSV_COLUMNS, capacityBetween, capacityFilename, capacityLines } from "./capacity";

const tags = ["capacity"];

/** The range asked for, the defaults filled in, refused when it runs backwards or is too long. */
function capacityOf(api: FastifyInstance, request: FastifyRequest) {
  const query = request.query as z.output<typeof capacityQuery>;
  const today = businessToday();
  const range = defaultCapacityRange(today);
  // One end given: the other keeps the default span of weeks from it, so an error names what was sent.
  const span = daysBetween(range.from, range.to);
  const from = query.from ?? (query.to ? addDays(query.to, -span) : range.from);
  const to = query.to ?? (query.from ? addDays(query.from, span) : range.to);
  if (to < from) throw ValidationError.field(query.to ? "to" : "from", capacityMessages.rangeOrder);
  if (daysBetween(from, to) / 7 + 1 > CAPACITY_MAX_WEEKS)
    throw ValidationError.field(query.to ? "to" : "from", capacityMessages.rangeTooLong(CAPACITY_MAX_WEEKS));
  return capacityBetween(api.db, from, to, query.workspace_id, today);
}

export async function capacityRoutes(api: FastifyInstance) {
  api.get(
    "/capacity",
    {
      config: requires("capacity", "list"),
      schema: doc({
        tags,
        summary:
          "Capacidad y utilización: por empleado activo y semana, horas de capacidad, asignadas y (semanas pasadas y la actual) registradas por grupo",
        querystring: capacityQuery,
        response: { 200: z.object({ capacity: capacityAnswer }) },
      }),
    },
    async (request) => ({ capacity: await capacityOf(api, request) }),
  );

  api.get(
    "/capacity.csv",
    {
      config: requires("capacity", "export"),
      schema: doc({
        tags,
        summary:
          "Capacidad y utilización como CSV (con BOM): una línea por empleado y semana; archivo capacidad_<inicio>_<fin>.csv",
        querystring: capacityQuery,
        response: { 200: fileAnswer("text/csv", "Las semanas de cada empleado como CSV") },
      }),
    },
    async (request, reply) => {
      const capacity = await capacityOf(api, request);
      return sendCsv(reply, capacityFilename(capacity), toCsv(CAPACITY_CSV_COLUMNS, capacityLines(capacity)));
    },
  );
}
