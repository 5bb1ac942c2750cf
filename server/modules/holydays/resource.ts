import type { MultipartFile } from "@fastify/multipart";
import { z } from "zod";
import { importMessages, messages } from "../../../src/core/messages";
import { holydayImportAnswer, holydaySchema, holydaysByDateSchema, holydayUpdateSchema } from "../../../src/core/schemas/holyday";
import { holydays } from "../../db/schema";
import { requires } from "../../http/auth";
import { searchOf, sortableOf } from "../../http/columns";
import { HttpError, ValidationError } from "../../http/errors";
import { doc, fileAnswer } from "../../http/openapi";
import { recordSchema } from "../../http/records";
import { declareResource, sendCsv } from "../../http/resource";
import { icsPool } from "../../ports/calendar/icsPool";
import { CsvReadError, type CsvRecords } from "../../ports/text/csvRecords";
import {
  HOLYDAY_CSV_DELIMITERS,
  HOLYDAY_CSV_LIMITS,
  holydaysByDate,
  holydaysFormat,
  importHolydays,
  parseHolydaysCsv,
} from "./service";

const CSV_MIMETYPES = new Set(["text/csv", "application/vnd.ms-excel"]);
const tags = ["holydays"];

export const holydaysResource = declareResource({
  name: "holydays",
  singular: "holyday",
  table: holydays,
  createSchema: holydaySchema,
  updateSchema: holydayUpdateSchema,
  search: searchOf("holydays", { name: holydays.name }),
  sortable: sortableOf("holydays", {
    date: holydays.date,
    name: holydays.name,
    id: holydays.id,
    created_at: holydays.created_at,
  }),
  defaultSort: { column: "date", order: "asc" },
  routes(app, service) {
    app.get(
      "/holydays/holydays_by_date",
      {
        schema: doc({
          tags,
          summary: "Días festivos en un rango (máximo un año)",
          querystring: holydaysByDateSchema,
          response: { 200: z.object({ holydays: z.array(recordSchema(service.def)) }) },
        }),
        config: requires("holydays", "list"),
      },
      async (request) => ({
        holydays: await holydaysByDate(app.db.db, request.query as z.output<typeof holydaysByDateSchema>),
      }),
    );

    app.get(
      "/holydays/download_holydays_format",
      {
        schema: doc({
          tags,
          summary: "Formato CSV para importar días festivos",
          response: { 200: fileAnswer("text/csv", "El formato, con sus encabezados") },
        }),
        config: requires("holydays", "list"),
      },
      async (_request, reply) => sendCsv(reply, "formato_dias_festivos.csv", holydaysFormat()),
    );

    app.put(
      "/holydays/import_holydays",
      {
        // A multipart file, read and checked by the handler (its refusals name the file's rows).
        schema: doc({
          tags,
          summary: "Importar días festivos (CSV: fecha,nombre)",
          response: { 200: holydayImportAnswer },
        }),
        config: requires("holydays", "import"),
      },
      async (request, reply) => {
        let file: MultipartFile | undefined;
        try {
          file = request.isMultipart() ? await request.file() : undefined;
        } catch {
          file = undefined;
        }
        const isCsv = file && CSV_MIMETYPES.has(file.mimetype.toLowerCase()) && /\.csv$/i.test(file.filename ?? "");
        if (!file || !isCsv) {
          file?.file.resume();
          throw ValidationError.base(messages.holydaysFileInvalid);
        }
        const buffer = await file.toBuffer();
        if (buffer.length === 0) throw ValidationError.base(messages.holydaysFileInvalid);
        let read: CsvRecords;
        try {
          // Read off the event loop, bounded by what the file holds (HOLYDAY_CSV_LIMITS).
          read = await icsPool().readCsv(buffer, HOLYDAY_CSV_DELIMITERS, HOLYDAY_CSV_LIMITS);
        } catch (error) {
          if (!(error instanceof CsvReadError)) throw error;
          if (error.message === importMessages.csvBusy) {
            reply.header("retry-after", "5");
            throw new HttpError(503, error.message);
          }
          throw ValidationError.base(error.message);
        }
        const rows = parseHolydaysCsv(read);
        return importHolydays(app.db.db, rows);
      },
    );
  },
});
