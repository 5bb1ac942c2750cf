import type { MultipartFile } from "@fastify/multipart";
import { messages } from "../../../src/core/messages";
import { holydaySchema, holydayUpdateSchema } from "../../../src/core/schemas/holyday";
import { holydays } from "../../db/schema";
import { authorize } from "../../http/auth";
import { ValidationError } from "../../http/errors";
import { doc } from "../../http/openapi";
import { declareResource, sendCsv } from "../../http/resource";
import { decodeText } from "../../ports/text/decode";
import { holydaysByDate, holydaysFormat, importHolydays, parseHolydaysCsv } from "./service";

const CSV_MIMETYPES = new Set(["text/csv", "application/vnd.ms-excel"]);
const tags = ["holydays"];

export const holydaysResource = declareResource({
  name: "holydays",
  singular: "holyday",
  table: holydays,
  createSchema: holydaySchema,
  updateSchema: holydayUpdateSchema,
  search: [holydays.name],
  sortable: { date: holydays.date, name: holydays.name, id: holydays.id, created_at: holydays.created_at },
  defaultSort: { column: "date", order: "asc" },
  routes(app) {
    app.get(
      "/holydays/holydays_by_date",
      { schema: doc({ tags, summary: "Días festivos en un rango (máximo un año)" }) },
      async (request) => {
        authorize(request, "holydays", "list");
        return { holydays: await holydaysByDate(app.db.db, request.query) };
      },
    );

    app.get(
      "/holydays/download_holydays_format",
      { schema: doc({ tags, summary: "Formato CSV para importar días festivos" }) },
      async (request, reply) => {
        authorize(request, "holydays", "list");
        return sendCsv(reply, "formato_dias_festivos.csv", holydaysFormat());
      },
    );

    app.put(
      "/holydays/import_holydays",
      { schema: doc({ tags, summary: "Importar días festivos (CSV: fecha,nombre)" }) },
      async (request) => {
        authorize(request, "holydays", "import");
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
        const rows = parseHolydaysCsv(decodeText(buffer).text);
        return importHolydays(app.db.db, rows);
      },
    );
  },
});
