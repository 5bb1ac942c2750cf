/**
 * Activities: the declared CRUD (own scope for non-admins) plus the timesheet calls of SPEC §7. Each route
 * declares its permission, parses its input and calls a rule of ./service, ./weekSave, ./copyWeek or
 * ./freeze in a transaction; what stays here is the shape of the answers.
 */
import { and, eq, gte, lte, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { VACATION_DESCRIPTION } from "../../../src/core/constants";
import { messages } from "../../../src/core/messages";
import { grantFor } from "../../../src/core/permissions";
import {
  ACTIVITY_CSV_COLUMNS,
  type ActivityBatch,
  activityBatchSchema,
  activitySchema,
  activityUpdateSchema,
  copyWeekAnswerOf,
  freezeAnswer,
  recentActivitiesQuery,
  ticketsAnswer,
  weekSaveAnswerOf,
  weekStateAnswer,
  weekStateQuery,
  weekValidAnswer,
} from "../../../src/core/schemas/activity";
import { returnReason } from "../../../src/core/schemas/week_review";
import { endOfDay, isInstantInRange, localDateOf, mondayOf, startOfDay } from "../../../src/core/week";
import type { Db } from "../../db/client";
import {
  activities,
  activity_type_catalogs,
  clients,
  employees,
  frozen_periods,
  products,
  projects,
  prospects,
} from "../../db/schema";
import { authorize, currentUser, requires } from "../../http/auth";
import { searchOf, sortableOf } from "../../http/columns";
import { type CsvColumn, csvStream } from "../../http/csv";
import { HttpError, ValidationError } from "../../http/errors";
import { doc, fileAnswer } from "../../http/openapi";
import { answered, recordSchema } from "../../http/records";
import {
  declareResource,
  etagOf,
  filter,
  idOf,
  type RequestContext,
  type ResourceService,
  sendCsv,
  withValidation,
  withVersion,
} from "../../http/resource";
import { outer } from "../../http/sql";
import { searchTickets } from "../integrations";
import { ACTIVITY_REPORT_HEADERS, activityLine } from "../reports";
import {
  maySubmitOn,
  type ReturnedWeek,
  returnWeek,
  reviewOfWeek,
  submitWeek,
  tellReturned,
  weekReviewState,
} from "../week_reviews";
import { copyWeek, weekCopyOf } from "./copyWeek";
import { freezeTarget, setFrozen } from "./freeze";
import { employeeFor, isAdmin, localDaySql, parseRange, prepareActivityWrite, rangeStartDate, weekState } from "./service";
import { lockEmployeeWeeks } from "./weekLock";
import { planWeekSave, type SaveGrants, saveWeek } from "./weekSave";

type Row = Record<string, unknown> & { id: number };

const day = localDaySql(outer(activities.begins_at));
const frozenExists = (kind?: "week" | "month") =>
  sql`exists (select 1 from ${frozen_periods} where ${frozen_periods.employee_id} = ${outer(activities.employee_id)}${
    kind ? sql` and ${frozen_periods.kind} = ${kind}` : sql``
  } and ${day} between ${frozen_periods.starts_on} and ${frozen_periods.ends_on})`;

const projectObject = sql`(select json_build_object('id', ${projects.id}, 'name', ${projects.name}, 'project_code', ${projects.project_code}, 'color_tag', ${projects.color_tag}) from ${projects} where ${projects.id} = ${outer(activities.project_id)})`;
const projectCode = sql<
  string | null
>`(select ${projects.project_code} from ${projects} where ${projects.id} = ${outer(activities.project_id)})`;
const projectName = sql<
  string | null
>`(select ${projects.name} from ${projects} where ${projects.id} = ${outer(activities.project_id)})`;
const ownerableName = sql<string | null>`(case ${outer(activities.ownerable_type)}
  when 'Client' then (select ${clients.name} from ${clients} where ${clients.id} = ${outer(activities.ownerable_id)})
  when 'Prospect' then (select ${prospects.name} from ${prospects} where ${prospects.id} = ${outer(activities.ownerable_id)}) end)`;
const productName = sql<
  string | null
>`(select ${products.name} from ${products} where ${products.id} = ${outer(activities.product_catalog_id)})`;
const typeCode = sql<
  string | null
>`(select ${activity_type_catalogs.code} from ${activity_type_catalogs} where ${activity_type_catalogs.id} = ${outer(activities.activity_type_catalog_id)})`;
const employeeName = sql<string>`(select ${employees.name} from ${employees} where ${employees.id} = ${outer(activities.employee_id)})`;
const isMonthFrozen = sql<boolean>`${frozenExists("month")}`;
const isEditable = sql<boolean>`(${outer(activities.is_editable)} and not ${frozenExists()})`;

/** by_begins_at bounds: a date means that whole local day; a date-time is taken as it is. */
const boundOf = (value: string, end: boolean): Date | null => {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const date = localDateOf(value);
    return date ? (end ? endOfDay(date) : startOfDay(date)) : null;
  }
  const instant = new Date(Date.parse(value));
  return isInstantInRange(instant) ? instant : null;
};
const boundSchema = (end: boolean) =>
  z.string().transform((v, ctx) => {
    const bound = boundOf(v, end);
    if (!bound) {
      ctx.addIssue({ code: "custom", message: messages.invalidDate });
      return z.NEVER;
    }
    return bound;
  });
const rangeSchema = z.unknown().transform((v, ctx) => {
  const range = parseRange(v);
  const start = range.start ? boundOf(range.start, false) : undefined;
  const end = range.end ? boundOf(range.end, true) : undefined;
  if (start === null || end === null || (!range.start && !range.end)) {
    ctx.addIssue({ code: "custom", message: messages.invalidDate });
    return z.NEVER;
  }
  return { start, end };
});
const rangeWhere = (start?: Date, end?: Date): SQL | undefined =>
  and(start ? gte(activities.begins_at, start) : undefined, end ? lte(activities.begins_at, end) : undefined);

/** by_employee: an admin's choice (an id or 'todos'); ignored for everyone else (the own scope applies). */
const employeeFilter = filter.custom(
  z.union([z.literal("todos"), z.literal("Todos"), z.coerce.number().int().positive()]),
  (value, ctx) => (ctx.grant === "all" && typeof value === "number" ? eq(activities.employee_id, value) : undefined),
);

export const activitiesResource = declareResource({
  // Its computed columns, typed (server/http/records.ts).
  answer: {
    is_editable: answered.flag,
    project: answered.object({
      id: z.number().int(),
      name: z.string(),
      project_code: z.string().nullable(),
      color_tag: z.string().nullable(),
    }),
    project_code: answered.text,
    project_name: answered.text,
    ownerable_name: answered.text,
    product_name: answered.text,
    activity_type_code: answered.text,
    employee_name: answered.text,
    is_month_frozen: answered.flag,
  },
  name: "activities",
  singular: "activity",
  table: activities,
  createSchema: activitySchema,
  updateSchema: activityUpdateSchema,
  search: searchOf("activities", { description: activities.description }),
  sortable: sortableOf("activities", {
    id: activities.id,
    begins_at: activities.begins_at,
    ends_at: activities.ends_at,
    description: activities.description,
    action_type: activities.action_type,
    employee_name: employeeName,
  }),
  defaultSort: { column: "begins_at", order: "asc" },
  filters: {
    by_begins_at: filter.custom(rangeSchema, (v) => rangeWhere(v.start, v.end)),
    "by_begins_at[start_date]": filter.custom(boundSchema(false), (v) => rangeWhere(v)),
    "by_begins_at[end_date]": filter.custom(boundSchema(true), (v) => rangeWhere(undefined, v)),
    by_employee: employeeFilter,
    employee_id: employeeFilter,
    by_favorite: filter.bool(activities.is_favorite),
    action_type: filter.valueIn(activities.action_type),
  },
  computed: {
    project: projectObject.as("project"),
    project_code: projectCode.as("project_code"),
    project_name: projectName.as("project_name"),
    ownerable_name: ownerableName.as("ownerable_name"),
    product_name: productName.as("product_name"),
    activity_type_code: typeCode.as("activity_type_code"),
    employee_name: employeeName.as("employee_name"),
    is_month_frozen: isMonthFrozen.as("is_month_frozen"),
    is_editable: isEditable.as("is_editable"),
  },
  own: (user) => (user.employee ? eq(activities.employee_id, user.employee.id) : sql`false`),
  // The generic create parses with activitySchema; the service re-parses the raw body with the update merge.
  beforeWrite: prepareActivityWrite,
  deleteGuards: [
    async (id, db) => {
      // Under the owner's lock (./weekLock.ts): a close of the week cannot commit between this check and the delete.
      const [owner] = await db.select({ id: activities.employee_id }).from(activities).where(eq(activities.id, id));
      if (owner) await lockEmployeeWeeks(db, [owner.id]);
      const [row] = (await db.select({ is_editable: isEditable }).from(activities).where(eq(activities.id, id))) as {
        is_editable: boolean;
      }[];
      if (row && !row.is_editable) throw ValidationError.rule("frozen", messages.activityFrozen);
      return null;
    },
  ],
  // Every activity CSV writes the report's line (server/modules/reports/report.ts).
  csv: { filename: "actividades.csv", headers: ACTIVITY_REPORT_HEADERS, line: activityLine },
  without: ["update"],
  routes: (app, service) => activityRoutes(app, service),
});

const tags = ["activities"];
const paramsOf = (request: FastifyRequest) => ({
  ...((request.query ?? {}) as Record<string, unknown>),
  ...((request.body && typeof request.body === "object" ? request.body : {}) as Record<string, unknown>),
});

/** Rows with computed columns, by id, in the given order. */
async function rowsByIds(service: ResourceService, ctx: RequestContext, ids: number[]): Promise<Row[]> {
  if (!ids.length) return [];
  const { rows } = await service.list({ ...ctx, grant: "all" }, { ids: JSON.stringify([...new Set(ids)]), per_page: "all" });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter(Boolean) as Row[];
}

/** The timesheet calls of SPEC §7 beside the declared CRUD; their rules live in ./service, ./weekSave, ./copyWeek, ./freeze. */
function activityRoutes(app: FastifyInstance, service: ResourceService) {
  const db = () => app.db.db as Db;
  const activityRecord = recordSchema(service.def);

  app.put(
    "/activities/:id",
    {
      schema: doc({
        tags,
        summary: "Actualizar actividad",
        // No declared params: a bad id answers this route's own 404 (activityNotFoundForUpdate), below.
        body: withVersion(activityUpdateSchema),
        wrap: "activity",
        version: "required",
        response: { 200: z.object({ activity: activityRecord, message: z.string() }) },
      }),
      config: requires("activities", "update"),
    },
    async (request, reply) => {
      const ctx = service.context(app, request, "update");
      try {
        const activity = await service.update(
          ctx,
          idOf(request),
          (request.body as { activity: Record<string, unknown> }).activity,
        );
        const etag = etagOf(activity);
        if (etag) reply.header("etag", etag);
        return { activity, message: messages.activityEdited };
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 404) throw new HttpError(404, messages.activityNotFoundForUpdate);
        throw error;
      }
    },
  );

  app.get(
    "/activities/recent_activities",
    {
      schema: doc({
        tags,
        summary: "Actividades recientes (para iniciar una nueva)",
        querystring: recentActivitiesQuery,
        response: { 200: z.object({ activities: z.array(activityRecord) }) },
      }),
      config: requires("activities", "list"),
    },
    async (request) => {
      const ctx = service.context(app, request, "list");
      const q = request.query as z.output<typeof recentActivitiesQuery>;
      const employeeId = employeeFor(ctx.user, q.employee_id ?? q.by_employee);
      const { rows } = await service.list(ctx, {
        by_employee: String(employeeId),
        per_page: "200",
        "by_column[column]": "begins_at",
        "by_column[order]": "desc",
      });
      return { activities: recentOf(rows) };
    },
  );

  /**
   * A save body's parts beyond the route's own create permission: changes and deletions each need their
   * grant (403 for a part the role may not do), read from the matrix because they depend on the body.
   */
  const saveGrants = (request: FastifyRequest, body: ActivityBatch): SaveGrants => ({
    update: body.updates.length ? authorize(request, "activities", "update") : undefined,
    delete: body.deletions.length ? authorize(request, "activities", "delete") : undefined,
  });

  app.post(
    "/activities/validate",
    {
      schema: doc({
        tags,
        summary: "Validar un guardado de la semana (altas, cambios y bajas) sin escribir",
        body: activityBatchSchema,
        response: { 200: weekValidAnswer },
      }),
      config: requires("activities", "create"),
    },
    async (request) => {
      const body = request.body as ActivityBatch;
      await planWeekSave(db(), currentUser(request), saveGrants(request, body), body, false);
      return { valid: true };
    },
  );

  app.post(
    "/activities/batch",
    {
      schema: doc({
        tags,
        summary: "Guardar la semana: altas, cambios y bajas juntos (todo o nada)",
        description: "Con `Prefer: return=minimal` las actividades llevan solo su id.",
        body: activityBatchSchema,
        response: { 200: weekSaveAnswerOf(activityRecord) },
      }),
      config: requires("activities", "create"),
    },
    async (request, reply) => {
      const body = request.body as ActivityBatch;
      const grants = saveGrants(request, body);
      const ctx = service.context(app, request, "create");
      const saved = await withValidation(() => db().transaction((tx) => saveWeek(tx, ctx.user, grants, body)));
      const counts = {
        deleted: saved.deleted,
        created: saved.created.filter((i) => i.created).length,
        existing: saved.created.filter((i) => !i.created).length,
        message: messages.activitiesSaved,
      };
      // `Prefer: return=minimal` (RFC 7240): a client that reads the week again anyway (the timesheet) gets
      // the ids only, without reading every row back with its names and flags.
      if (/\breturn=minimal\b/.test(String(request.headers.prefer ?? ""))) {
        reply.header("preference-applied", "return=minimal");
        return {
          activities: saved.created.map((i) => ({ id: i.id })),
          updated: saved.updated.map((id) => ({ id })),
          ...counts,
        };
      }
      const rows = await rowsByIds(service, ctx, [...saved.created.map((i) => i.id), ...saved.updated]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const pick = (ids: number[]) => ids.map((id) => byId.get(id)).filter(Boolean) as Row[];
      return { activities: pick(saved.created.map((i) => i.id)), updated: pick(saved.updated), ...counts };
    },
  );

  app.post(
    "/activities/copy_previous_week",
    {
      // Its parameters come in the query or in the body (either, as SPEC §7's clients send them), and an
      // unreadable week answers dateOutOfRange: weekCopyOf reads them (a declared part reads one of the two).
      schema: doc({
        tags,
        summary: "Copiar las actividades de la semana anterior",
        response: { 200: copyWeekAnswerOf(activityRecord) },
      }),
      config: requires("activities", "create"),
    },
    async (request) => {
      const ctx = service.context(app, request, "create");
      const copy = weekCopyOf(ctx.user, paramsOf(request));
      return withValidation(() =>
        db().transaction(async (tx) => {
          const result = await copyWeek(tx, copy, ctx.user.id);
          if (result.dry_run) {
            const { dry_run, total, to_copy, skipped, message } = result;
            return { dry_run, total, created: 0, activities: [], to_copy, skipped, message };
          }
          const { total, created, skipped, message } = result;
          const rows = await rowsByIds(service, { ...ctx, db: tx }, created);
          return { total, created: created.length, activities: rows, skipped, message };
        }),
      );
    },
  );

  app.get(
    "/activities/week_state",
    {
      schema: doc({
        tags,
        summary: "Estado de la semana: cerrada o abierta y qué puede hacer quien pregunta",
        querystring: weekStateQuery,
        response: { 200: weekStateAnswer },
      }),
      config: requires("activities", "list"),
    },
    async (request) => {
      const user = currentUser(request);
      const q = request.query as z.output<typeof weekStateQuery>;
      const employeeId = employeeFor(user, q.by_employee ?? q.employee_id);
      const state = await weekState(db(), user, employeeId, q.week_start);
      const review = await weekReviewState(db(), employeeId, q.week_start.starts_on);
      // Its own employee sends it (an administrator may through the API, for anyone).
      const can_submit =
        user.employee?.id === employeeId &&
        !!grantFor(user, "week_reviews", "create") &&
        state.frozen_days.length === 0 &&
        (!review || review.state === "returned") &&
        maySubmitOn(q.week_start.starts_on);
      return { ...state, review, can_submit };
    },
  );

  for (const [path, kind, close] of [
    ["close_activities", "week", true],
    ["open_activities", "week", false],
    ["close_month_activities", "month", true],
    ["open_month_activities", "month", false],
  ] as const) {
    app.put(
      `/activities/${path}`,
      {
        // Like copying a week, its parameters come in the query or in the body: read by rangeStartDate.
        schema: doc({
          tags,
          summary: `${close ? "Cerrar" : "Abrir"} ${kind === "week" ? "la semana" : "el mes"}`,
          response: { 200: freezeAnswer },
        }),
        // Everyone closes their own week; opening a week and any month are the administrators'.
        config: requires("activities", kind === "week" && close ? "freeze" : "freeze_others"),
      },
      async (request) => {
        const user = currentUser(request);
        const params = paramsOf(request);
        const employeeId = freezeTarget(user, params.by_employee, kind, close);
        const date = rangeStartDate(params);
        if (!date) throw ValidationError.field("by_begins_at", messages.invalidDate);
        // An employee closing their own week sends it to review: only a reviewer's approval (or an
        // administrator) closes it for good (docs/decisions/050-week-approval.md).
        if (kind === "week" && close && !isAdmin(user)) {
          const sent = await db().transaction((tx) => submitWeek(tx, user, employeeId, date));
          const review = sent.week_review;
          return {
            frozen: true,
            frozen_period: { employee_id: employeeId, kind, starts_on: review.starts_on, ends_on: review.ends_on },
            message: sent.message,
          };
        }
        let returned: ReturnedWeek | null = null;
        const answer = await db().transaction(async (tx) => {
          // A week in review or approved goes back to its employee with a reason, as a reviewer's return.
          const review = kind === "week" && !close ? await reviewOfWeek(tx, employeeId, mondayOf(date)) : null;
          if (review && review.state !== "returned") {
            const reason = returnReason().safeParse(params.reason);
            if (!reason.success) throw ValidationError.field("reason", reason.error.issues[0].message);
            returned = await returnWeek(tx, user, review.id, { reason: reason.data, lock_version: review.lock_version });
          }
          return setFrozen(tx, user, { kind, close, date, employeeId });
        });
        if (returned) tellReturned(app, returned, user.name);
        return answer;
      },
    );
  }

  app.get(
    "/activities/download_personal_report.csv",
    {
      schema: doc({
        tags,
        summary: "Reporte personal de actividades (CSV)",
        response: { 200: fileAnswer("text/csv", "Las actividades propias como CSV") },
      }),
      config: requires("activities", "export"),
    },
    async (request, reply) => {
      const ctx = service.context(app, request, "export");
      const { by_employee: _a, employee_id: _b, ...query } = request.query as Record<string, unknown>;
      return sendCsv(reply, "reporte_personal_actividades.csv", service.csv({ ...ctx, grant: "own" }, query));
    },
  );

  app.get(
    "/activities/download_csv_format",
    {
      schema: doc({
        tags,
        summary: "Formato CSV para importar actividades",
        response: { 200: fileAnswer("text/csv", "El formato, con sus encabezados") },
      }),
      config: requires("activities", "import"),
    },
    async (_request, reply) => sendCsv(reply, "formato_actividades.csv", csvFormat()),
  );

  app.post(
    "/activities/get_ticket_by_proyect",
    {
      // Its parameters come in the query or in the body; an id that is not one is no filter (null), not a 422.
      schema: doc({ tags, summary: "Buscar tickets (Azure Devops)", response: { 200: ticketsAnswer } }),
      config: requires("activities", "create"),
    },
    async (request) => {
      const user = currentUser(request);
      const p = paramsOf(request);
      // Only a number or its digits is an id; anything else (an object, an array) is no filter.
      const id = (v: unknown) => ((typeof v === "number" || typeof v === "string") && v !== "" ? Number(v) || null : null);
      const tickets = await searchTickets(app, request, {
        search: (typeof p.search === "string" || typeof p.search === "number" ? String(p.search) : "").slice(0, 200),
        project_id: id(p.project_id),
        client_id: id(p.client_id),
        product_catalog_id: id(p.product_catalog_id),
        user_id: user.id,
      });
      return { tickets };
    },
  );
}

/** The 15 latest distinct activities (by what a new one would copy), newest first. */
function recentOf(rows: Row[]): Row[] {
  const seen = new Set<string>();
  const recent: Row[] = [];
  for (const r of rows) {
    const key = JSON.stringify([
      r.action_type,
      r.description,
      r.project_id,
      r.ownerable_type,
      r.ownerable_id,
      r.product_catalog_id,
      r.activity_type_catalog_id,
    ]);
    if (seen.has(key)) continue;
    seen.add(key);
    recent.push(r);
    if (recent.length >= 15) break;
  }
  return recent;
}

/** The activity import file's format: its columns and one example of each kind of line. */
function csvFormat() {
  const columns: CsvColumn<Record<string, string>>[] = ACTIVITY_CSV_COLUMNS.map((c) => ({ header: c, value: (r) => r[c] }));
  const examples = [
    {
      fecha: "2025-01-06",
      hora_inicio: "09:00",
      hora_fin: "11:00",
      tipo: "P",
      cliente_o_prospecto: "",
      codigo_proyecto: "PRY-001",
      producto: "",
      tipo_actividad: "DE",
      ticket: "",
      descripcion: "Desarrollo del módulo",
    },
    {
      fecha: "2025-01-06",
      hora_inicio: "11:00",
      hora_fin: "12:00",
      tipo: "S",
      cliente_o_prospecto: "Cliente",
      codigo_proyecto: "",
      producto: "Producto",
      tipo_actividad: "ST",
      ticket: "1234",
      descripcion: "Atención de incidencia",
    },
    {
      fecha: "2025-01-07",
      hora_inicio: "09:00",
      hora_fin: "18:00",
      tipo: "V",
      cliente_o_prospecto: "",
      codigo_proyecto: "",
      producto: "",
      tipo_actividad: "",
      ticket: "",
      descripcion: VACATION_DESCRIPTION,
    },
    // One line of every other kind the import reads, so the file shows each one's columns.
    {
      fecha: "2025-01-08",
      hora_inicio: "09:00",
      hora_fin: "10:00",
      tipo: "PC",
      cliente_o_prospecto: "Cliente o prospecto",
      codigo_proyecto: "",
      producto: "Producto",
      tipo_actividad: "",
      ticket: "",
      descripcion: "Demostración del producto",
    },
    {
      fecha: "2025-01-08",
      hora_inicio: "10:00",
      hora_fin: "11:00",
      tipo: "AS",
      cliente_o_prospecto: "",
      codigo_proyecto: "",
      producto: "",
      tipo_actividad: "CI",
      ticket: "",
      descripcion: "Capacitación interna",
    },
    {
      fecha: "2025-01-08",
      hora_inicio: "11:00",
      hora_fin: "12:00",
      tipo: "RH",
      cliente_o_prospecto: "",
      codigo_proyecto: "",
      producto: "",
      tipo_actividad: "",
      ticket: "",
      descripcion: "Evaluación de desempeño",
    },
  ];
  return csvStream(columns, examples);
}
