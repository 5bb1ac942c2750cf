/**
 * Timesheet imports over HTTP. Both answer local events (src/core/localEvent.ts); nothing is
 * saved — the browser keeps them as the saved week until POST activities/validate and activities/batch.
 *   POST /api/v1/calendar_imports                       start_date (the week), optional day, and a
 *        multipart .ics `file` or `source: "google"`   → { events: LocalEvent[], warnings: string[] }
 *        (warnings: the events or lines of the file that could not be read, in Spanish)
 *   PUT  /api/v1/activities/import_activities_csv?date=  multipart CSV `file` (+ week start)
 *                                                      → { import_activities: LocalEvent[] }
 */
import type { MultipartFile } from "@fastify/multipart";
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { calendarMessages, importMessages, messages } from "../../../src/core/messages";
import { calendarImportAnswer, csvImportAnswer, importSourcesAnswer } from "../../../src/core/schemas/calendar_import";
import type { SessionUser } from "../../../src/core/session";
import { endOfDay, localDateOf, startOfDay, weekOf } from "../../../src/core/week";
import { users } from "../../db/schema";
import { currentUser, requires } from "../../http/auth";
import { HttpError, ValidationError } from "../../http/errors";
import { doc } from "../../http/openapi";
import { decryptSecret, encryptSecret, secretKey } from "../../http/secrets";
import { type CalendarInstance, CalendarTokenExpired, IcsError } from "../../ports/calendar";
import { icsPool } from "../../ports/calendar/icsPool";
import { CsvReadError } from "../../ports/text/csvRecords";
import { storeCloudToken } from "../users";
import { ACTIVITY_CSV_DELIMITERS, ACTIVITY_CSV_LIMITS, csvLocalEvents, parseActivitiesCsv, rowKey } from "./csv";
import { calendarLocalEvents, fitKey, importableWithNotes, loadResolver } from "./service";

const ICS_MIMETYPES = new Set(["text/calendar", "application/ics", "text/x-vcalendar", "application/octet-stream"]);
// A browser on a machine with no program for .csv sends the file as application/octet-stream: the name decides then.
const CSV_MIMETYPES = new Set([
  "text/csv",
  "application/vnd.ms-excel",
  "application/csv",
  "text/x-csv",
  "application/octet-stream",
]);

interface Upload {
  fields: Record<string, string>;
  file: { filename: string; mimetype: string; content: Buffer } | null;
}

/** Reads a multipart body (fields in any order, one file) or a JSON body; the query string fills the rest. */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    if (typeof value === "string") fields[key] = value;
  }
  if (!request.isMultipart()) {
    const body = (request.body && typeof request.body === "object" ? request.body : {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(body)) if (typeof value === "string") fields[key] = value;
    return { fields, file: null };
  }
  let file: Upload["file"] = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === "file") {
        const f = part as MultipartFile;
        const content = await f.toBuffer();
        if (!file) file = { filename: f.filename ?? "", mimetype: f.mimetype.toLowerCase(), content };
      } else if (typeof part.value === "string") fields[part.fieldname] = part.value;
    }
  } catch (error) {
    // A file over UPLOAD_LIMIT_BYTES answers 413 (server/http/errors.ts); any other broken body is a bad file.
    if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw error;
    throw ValidationError.base(importMessages.fileInvalid);
  }
  return { fields, file };
}

function ownEmployee(user: SessionUser): number {
  if (!user.employee) throw ValidationError.base(messages.noEmployee);
  return user.employee.id;
}

/** The range to import: start_date's week, or one day of it. */
function rangeOf(fields: Record<string, string>) {
  const startDate = fields.start_date ? localDateOf(fields.start_date) : null;
  if (!startDate) {
    throw ValidationError.field("start_date", fields.start_date ? messages.invalidDate : importMessages.startDateRequired);
  }
  const week = weekOf(startDate);
  if (!fields.day) return { week, range: { start: week.start, end: week.end } };
  const day = localDateOf(fields.day);
  if (!day) throw ValidationError.field("day", messages.invalidDate);
  if (day < week.starts_on || day > week.ends_on) throw ValidationError.field("day", importMessages.dayOutsideWeek);
  return { week, range: { start: startOfDay(day), end: endOfDay(day) } };
}

/** Users with a file (calendar or CSV) being read right now (this process). */
const readingUsers = new Set<number>();

/**
 * One read at a time per user: the threads are shared by everyone, so one person uploading many files at
 * once cannot take them all and make other people's imports wait or fail. A pool that is full answers 503.
 */
async function readAlone<T>(userId: number, reply: FastifyReply, oneAtATime: string, read: () => Promise<T>): Promise<T> {
  if (readingUsers.has(userId)) {
    reply.header("retry-after", "3");
    throw new HttpError(429, oneAtATime);
  }
  readingUsers.add(userId);
  try {
    return await read();
  } catch (error) {
    if (
      (error instanceof IcsError && error.message === importMessages.icsBusy) ||
      (error instanceof CsvReadError && error.message === importMessages.csvBusy)
    ) {
      reply.header("retry-after", "5");
      throw new HttpError(503, error.message);
    }
    if (error instanceof IcsError || error instanceof CsvReadError) throw ValidationError.base(error.message);
    throw error;
  } finally {
    readingUsers.delete(userId);
  }
}

export async function calendarImportRoutes(app: FastifyInstance) {
  // One reader thread started ahead of the first upload.
  icsPool().warm();
  app.get(
    "/calendar_imports/sources",
    {
      schema: doc({
        tags: ["calendar_imports"],
        summary: "Fuentes de importación disponibles (Google Calendar configurado o no)",
        response: { 200: importSourcesAnswer },
      }),
      config: requires("calendar_imports", "import"),
    },
    // The screen offers Google Calendar only where the server can read it.
    async () => ({ google: !!app.calendarReader }),
  );
  app.post(
    "/calendar_imports",
    {
      schema: doc({
        tags: ["calendar_imports"],
        summary:
          "Leer los eventos de una semana (archivo .ics en multipart `file`, o source «google»): start_date, day opcional. No guarda nada.",
        // Its input is a multipart form (or JSON) whose fields may also come in the query string; the
        // handler reads them, with its own messages (start_date required, day within the week).
        response: { 200: calendarImportAnswer },
      }),
      config: requires("calendar_imports", "import"),
    },
    async (request, reply) => {
      const user = currentUser(request);
      const employeeId = ownEmployee(user);
      const { fields, file } = await readUpload(request);
      const { range } = rangeOf(fields);
      let instances: CalendarInstance[];
      let warnings: string[] = [];
      if (file) {
        const isIcs = /\.ics$/i.test(file.filename) && (ICS_MIMETYPES.has(file.mimetype) || file.mimetype.startsWith("text/"));
        if (!isIcs || file.content.length === 0) throw ValidationError.base(importMessages.fileInvalid);
        // Read off the event loop, within a time budget (server/ports/calendar/icsPool.ts).
        const read = await readAlone(user.id, reply, importMessages.icsOneAtATime, () => icsPool().read(file.content, range));
        instances = read.instances;
        warnings = read.warnings;
      } else if (fields.source === "google") {
        const reader = app.calendarReader;
        if (!reader) throw ValidationError.base(importMessages.googleNotConfigured);
        const [row] = await app.db.db
          .select({ token: users.cloud_token_encrypted })
          .from(users)
          .where(eq(users.id, user.id))
          .limit(1);
        const token = row?.token ? decryptSecret(row.token, secretKey(app.config)) : null;
        if (!token) throw ValidationError.base(importMessages.googleTokenMissing);
        // Refreshed credentials are kept (encrypted) so the next import does not refresh again.
        const saveToken = (fresh: string) =>
          storeCloudToken(app.db.db, user.id, encryptSecret(fresh, secretKey(app.config)), undefined);
        try {
          instances = await reader.listInstances(token, range, saveToken);
        } catch (error) {
          if (error instanceof CalendarTokenExpired) throw ValidationError.base(calendarMessages.tokenExpired);
          if (error instanceof IcsError) throw ValidationError.base(error.message);
          request.log.warn({ err: error }, "calendar provider failed");
          throw ValidationError.base(importMessages.googleFailed);
        }
      } else if (fields.source && fields.source !== "ics") {
        throw ValidationError.field("source", importMessages.sourceInvalid);
      } else {
        throw ValidationError.base(importMessages.fileInvalid);
      }
      const { kept, merged } = importableWithNotes(instances, range);
      warnings.push(...merged);
      const resolver = await loadResolver(
        app.db.db,
        user.id,
        employeeId,
        kept.map((i) => fitKey(i.instanceId)),
      );
      return { events: calendarLocalEvents(kept, resolver), warnings };
    },
  );

  app.put(
    "/activities/import_activities_csv",
    {
      schema: doc({
        tags: ["activities"],
        summary: "Leer un CSV de actividades de una semana (multipart `file`, ?date= de la semana). No guarda nada.",
        // Its input is a multipart file whose week may come as a field or in the query string (see above).
        response: { 200: csvImportAnswer },
      }),
      config: requires("activities", "import"),
    },
    async (request, reply) => {
      const user = currentUser(request);
      const employeeId = ownEmployee(user);
      const { fields, file } = await readUpload(request);
      const isCsv = file && CSV_MIMETYPES.has(file.mimetype) && /\.csv$/i.test(file.filename);
      if (!file || !isCsv || file.content.length === 0) throw ValidationError.base(importMessages.fileInvalid);
      const date = localDateOf(fields.date ?? fields.start_date ?? "");
      if (!date) throw ValidationError.field("date", messages.invalidDate);
      const week = weekOf(date);
      // Records read off the event loop, bounded by ACTIVITY_CSV_LIMITS (blank lines, columns, characters).
      const read = await readAlone(user.id, reply, importMessages.uploadOneAtATime, () =>
        icsPool().readCsv(file.content, ACTIVITY_CSV_DELIMITERS, ACTIVITY_CSV_LIMITS),
      );
      const { rows, errors } = parseActivitiesCsv(read, week);
      if (errors.length) throw new ValidationError({ base: errors });
      const resolver = await loadResolver(
        app.db.db,
        user.id,
        employeeId,
        rows.map((r) => rowKey(r.row)),
      );
      return { import_activities: csvLocalEvents(rows, resolver) };
    },
  );
}
