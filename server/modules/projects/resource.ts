import { eq, exists, inArray, ne, or, type SQL, sql } from "drizzle-orm";
import { NON_BILLING_INVOICE_STATES } from "../../../src/core/invoiceMachine";
import { boardMessages, messages } from "../../../src/core/messages";
import { grantFor } from "../../../src/core/permissions";
import { permittedEvents, projectStateLabel } from "../../../src/core/projectMachine";
import { screenPath } from "../../../src/core/resources";
import { optionalText, z } from "../../../src/core/schemas/fields";
import {
  auditLogsAnswer,
  extendProjectSchema,
  nextProjectCodeAnswer,
  notifyUserAnswer,
  notifyUserSchema,
  projectSchema,
  projectStagesAnswer,
  projectTransitionSchema,
  projectUpdateSchema,
  requiredComment,
} from "../../../src/core/schemas/project";
import { ARCHIVED_PROJECT_STATES, INVOICE_ACTIONS, PROJECT_STATES, PROJECT_STATUS_FILTERS } from "../../../src/core/states";
import { audit, auditTrail } from "../../db/audit";
import {
  activities,
  assignments,
  clients,
  employees,
  estimated_work_hours,
  invoices,
  products,
  project_types,
  projects,
} from "../../db/schema";
import { currentUser, requires } from "../../http/auth";
import { csvOf, searchOf, sortableOf } from "../../http/columns";
import { forbidden, ValidationError } from "../../http/errors";
import { doc, idParams } from "../../http/openapi";
import { answered, recordSchema } from "../../http/records";
import { declareResource, expectedVersion, filter, idOf } from "../../http/resource";
import { outer } from "../../http/sql";
import { memberSql, unreadCountSql } from "../board";
import {
  assertFolderFree,
  driveFailure,
  driveWorkOf,
  placeProjectFolder,
  resolveDriveFolder,
  touchesFolder,
  undoDriveWorkOnFailure,
  withDriveWork,
} from "../drive";
import { pushNotified } from "../notifications";
import {
  checkEtaAfterProjectDate,
  extendProject,
  nextProjectCode,
  notifyProjectPeople,
  PROJECT_COMMENT_FIELD,
  peopleChanges,
  projectStages,
  recordCreation,
  setInvoiceAction,
  transitionProject,
} from "./service";

const nameOf = (table: typeof clients | typeof products | typeof project_types | typeof employees, column: SQL) =>
  sql<string | null>`(select ${sql.identifier("name")} from ${table} where ${sql.identifier("id")} = ${column})`;

const clientName = nameOf(clients, outer(projects.client_id));
const productName = nameOf(products, outer(projects.product_catalog_id));
const projectTypeName = nameOf(project_types, outer(projects.project_type_catalog_id));
const pmName = nameOf(employees, outer(projects.pm_id));
const rapeName = nameOf(employees, outer(projects.rape_id));
const nonBilling = sql.raw(NON_BILLING_INVOICE_STATES.map((s) => `'${s}'`).join(","));
/** Percent of the project already invoiced (cancelled invoices do not count). */
const invoicedPercentage = sql<number>`(select coalesce(sum(${sql.identifier("percentage_value")}), 0)::float8 from ${invoices} where ${sql.identifier("project_id")} = ${outer(projects.id)} and ${sql.identifier("state")} not in (${nonBilling}))`;

/** A project's fields that tell its invoicing (hidden without project_invoicing × show). */
export const INVOICING_FIELDS = ["invoiced_percentage", "invoice_action", "invoice_action_label"] as const;

const ARCHIVED = ARCHIVED_PROJECT_STATES as string[];
const CURRENT = Object.keys(PROJECT_STATES).filter((s) => !ARCHIVED.includes(s));
const statusValue = z.enum([...Object.keys(PROJECT_STATUS_FILTERS), ...Object.keys(PROJECT_STATES)] as [string, ...string[]], {
  error: messages.invalidValue,
});
const statusList = z.preprocess((v) => {
  if (typeof v !== "string") return v;
  try {
    const parsed = JSON.parse(v);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return v.split(",").filter(Boolean);
  }
}, z.array(statusValue).max(20));

/** by_status: 'todos' | 'vigentes' | 'archivados' or state keys, combined with OR (SPEC §9). */
function statusCondition(values: string[]): SQL | undefined {
  if (values.length === 0 || values.includes("todos")) return undefined;
  const states = new Set<string>();
  for (const v of values) {
    if (v === "vigentes") for (const s of CURRENT) states.add(s);
    else if (v === "archivados") for (const s of ARCHIVED) states.add(s);
    else states.add(v);
  }
  return inArray(projects.state, [...states]);
}

/** Projects an employee is involved in: as PM, as responsible, by activities or by an assignment. */
function involvedCondition(employeeId: number): SQL {
  return or(
    eq(projects.pm_id, employeeId),
    eq(projects.rape_id, employeeId),
    exists(
      sql`(select 1 from ${activities} where ${activities.project_id} = ${outer(projects.id)} and ${activities.employee_id} = ${employeeId})`,
    ),
    exists(
      sql`(select 1 from ${assignments} where ${assignments.employee_id} = ${employeeId} and ${assignments.client_id} = ${outer(projects.client_id)} and ${assignments.product_catalog_id} = ${outer(projects.product_catalog_id)})`,
    ),
  ) as SQL;
}

const eventView = (e: { name: string; label: string; to: string; adminOnly?: boolean }) => ({
  name: e.name,
  label: e.label,
  to: e.to,
  admin_only: Boolean(e.adminOnly),
});

export const projectsResource = declareResource({
  // The invoicing columns go only to who may see a project's invoicing (present, below).
  answer: {
    // Its computed columns, typed (server/http/records.ts).
    client_name: answered.text,
    product_name: answered.text,
    project_type_name: answered.text,
    pm_name: answered.text,
    rape_name: answered.text,
    unread_messages: answered.whole,
    board_member: answered.flag,
    // The invoicing columns go only to who may see a project's invoicing.
    invoiced_percentage: answered.number.optional(),
    invoice_action: answered.text.optional(),
    invoice_action_label: answered.text.optional(),
  },
  name: "projects",
  singular: "project",
  table: projects,
  createSchema: projectSchema,
  updateSchema: projectUpdateSchema,
  search: searchOf("projects", { name: projects.name, project_code: projects.project_code }),
  sortable: sortableOf("projects", {
    id: projects.id,
    project_code: projects.project_code,
    name: projects.name,
    project_date: projects.project_date,
    eta: projects.eta,
    state: projects.state,
    state_changed_at: projects.state_changed_at,
    created_at: projects.created_at,
    client_name: clientName,
    product_name: productName,
    project_type_name: projectTypeName,
    pm_name: pmName,
    rape_name: rapeName,
  }),
  defaultSort: { column: "project_code", order: "desc" },
  filters: {
    by_project_type: filter.idIn(projects.project_type_catalog_id),
    by_product: filter.idIn(projects.product_catalog_id),
    by_status: filter.custom(statusList, (v) => statusCondition(v as string[])),
    by_client: filter.idIn(projects.client_id),
    client_id: filter.idEquals(projects.client_id),
    by_pm: filter.idIn(projects.pm_id),
    by_rape: filter.idIn(projects.rape_id),
    involved_projects_by_employee: filter.custom(z.coerce.number({ error: messages.invalidValue }).int().positive(), (v, ctx) => {
      // Where someone else logged time is theirs to show (permission matrix: employee_work).
      const grant = grantFor(ctx.user, "employee_work", "list");
      if (grant !== "all" && !(grant === "own" && ctx.user.employee?.id === v)) throw forbidden();
      return involvedCondition(v as number);
    }),
    ignore_proyect_invoiced: filter.custom(
      z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1"),
      (v, ctx) => {
        if (!grantFor(ctx.user, "project_invoicing", "show")) throw forbidden();
        return v ? or(sql`${projects.invoice_action} is null`, ne(projects.invoice_action, "completely_invoiced")) : undefined;
      },
    ),
  },
  computed: {
    client_name: clientName.as("client_name"),
    product_name: productName.as("product_name"),
    project_type_name: projectTypeName.as("project_type_name"),
    pm_name: pmName.as("pm_name"),
    rape_name: rapeName.as("rape_name"),
    invoiced_percentage: invoicedPercentage.as("invoiced_percentage"),
    // Board messages the signed-in user has not read: 0 outside the projects they are on.
    unread_messages: (ctx) => unreadCountSql(ctx.user.id, outer(projects.id)).as("unread_messages"),
    // Whether the signed-in user reads the project's board (administrators, members): the page asks for the
    // board only then, instead of asking and being refused (decision 029).
    board_member: (ctx) =>
      (ctx.user.administrator_role ? sql<boolean>`true` : memberSql(ctx.user.id, outer(projects.id))).as("board_member"),
  },
  present(record, ctx) {
    const presented: typeof record & Record<string, unknown> = {
      ...record,
      aasm_statuses_with_i18n: projectStateLabel(String(record.state)),
      invoice_action_label: record.invoice_action ? INVOICE_ACTIONS[record.invoice_action as keyof typeof INVOICE_ACTIONS] : null,
      permitted_events: permittedEvents(String(record.state), ctx.user).map(eventView),
    };
    // The project's billing only for who reads invoices (permission matrix: project_invoicing).
    if (!grantFor(ctx.user, "project_invoicing", "show")) for (const key of INVOICING_FIELDS) delete presented[key];
    return presented;
  },
  deleteGuards: [
    async (id, db) => {
      const count = async (
        table: typeof invoices | typeof activities | typeof estimated_work_hours,
        column: typeof invoices.project_id,
      ) => {
        const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table).where(eq(column, id));
        return row?.n ?? 0;
      };
      const [i, a, h] = [
        await count(invoices, invoices.project_id),
        await count(activities, activities.project_id as never),
        await count(estimated_work_hours, estimated_work_hours.project_id as never),
      ];
      return i + a + h > 0 ? messages.projectInUse(i, a, h) : null;
    },
  ],
  // A failed create or update undoes the folders its hooks made, renamed or moved.
  aroundWrite: undoDriveWorkOnFailure,
  async beforeWrite(values, ctx, existing) {
    if (!existing && (values.project_code === undefined || values.project_code === "0")) {
      values.project_code = await nextProjectCode(ctx.db);
    }
    if (existing && values.project_code === "0") delete values.project_code;
    // A folder given (SPEC §5: a URL of this drive's folders, else 'Favor de verificar la ruta del
    // proyecto.') becomes the project's folder, and must be its alone (decision 027); it is then put in place.
    if (touchesFolder(values, existing)) {
      const folder = await resolveDriveFolder(ctx.app.documents, values);
      const clientId = existing ? (values.client_id ?? existing.client_id) : values.client_id;
      if (folder) await assertFolderFree(ctx.db, ctx.app.documents, folder, { kind: "project", id: existing?.id, clientId });
    }
    // Checked when either date changes: an older project out of order still takes other edits.
    if (
      ("eta" in values && (values.eta ?? null) !== (existing?.eta ?? null)) ||
      ("project_date" in values && (values.project_date ?? null) !== (existing?.project_date ?? null))
    ) {
      checkEtaAfterProjectDate(
        "eta" in values ? values.eta : existing?.eta,
        "project_date" in values ? values.project_date : existing?.project_date,
      );
    }
    // An ETA changed by an edit is audited, so it needs its comment like an extension (SPEC §5).
    if (existing && "eta" in values && (values.eta ?? null) !== (existing.eta ?? null)) {
      const comment = requiredComment().safeParse(values.audit_comment);
      if (!comment.success) throw ValidationError.field("audit_comment", messages.commentRequired);
    }
    return values;
  },
  async afterWrite(saved, ctx, existing) {
    const user = ctx.user;
    // Its folder follows it (decision 027): made on create, renamed with its code or name, moved with its client.
    const follows = ["drive_root_id", "project_code", "name", "client_id"] as const;
    if (!existing || follows.some((key) => existing[key] !== saved[key])) {
      try {
        await placeProjectFolder(ctx.db, driveWorkOf(ctx.app, ctx.request), saved, { bump: false });
      } catch (error) {
        driveFailure(error);
      }
    }
    if (!existing) {
      await recordCreation(ctx.db, saved, user.id);
      return;
    }
    const written = await audit(
      ctx.db,
      { type: "Project", id: saved.id },
      [{ field: "eta", old: existing.eta, new: saved.eta }, ...peopleChanges(existing, saved)],
      { userId: user.id, comment: saved.audit_comment },
    );
    // A comment saved on its own is part of the project's history: the project keeps only its latest
    // comment (the next state change replaces it), the change log keeps them all.
    const comment = saved.audit_comment?.trim();
    if (written === 0 && comment && comment !== existing.audit_comment?.trim()) {
      await audit(ctx.db, { type: "Project", id: saved.id }, [{ field: PROJECT_COMMENT_FIELD, old: null, new: comment }], {
        userId: user.id,
        comment,
      });
    }
  },
  csv: {
    filename: "projects.csv",
    columns: csvOf("projects"),
  },
  routes(app, service) {
    const tags = ["projects"];
    const answer = z.object({ project: recordSchema(service.def) });
    const showAfter = async (request: Parameters<typeof idOf>[0], id: number) => ({
      project: await service.show(service.context(app, request, "show"), id),
    });

    app.get(
      "/projects/get_next_project_code",
      {
        config: requires("projects", "create"),
        schema: doc({ tags, summary: "Siguiente código de proyecto", response: { 200: nextProjectCodeAnswer } }),
      },
      async () => ({ next_project_code: await nextProjectCode(app.db.db) }),
    );

    app.post(
      "/projects/:id/aasm_transition",
      {
        config: requires("projects", "transition"),
        // The body is read after the project is found (404 first): parseBody, not a declared body.
        schema: doc({
          tags,
          summary: "Aplicar un evento de estado al proyecto",
          params: idParams,
          version: "optional",
          current: { key: "project", schema: recordSchema(service.def) },
          response: { 200: answer },
        }),
      },
      async (request) => {
        const id = idOf(request);
        await service.find(service.context(app, request, "show"), id);
        const input = service.parseBody(request.body, projectTransitionSchema) as z.infer<typeof projectTransitionSchema>;
        await transitionProject(app.db.db, currentUser(request), id, input, expectedVersion(request, request.body, "project"));
        return showAfter(request, id);
      },
    );

    app.get(
      "/projects/:id/project_stages",
      {
        config: requires("projects", "show"),
        schema: doc({
          tags,
          summary: "Historial de estados del proyecto",
          params: idParams,
          response: { 200: projectStagesAnswer },
        }),
      },
      async (request) => {
        const ctx = service.context(app, request, "show");
        const id = idOf(request);
        await service.find(ctx, id);
        return { project_stages: await projectStages(app.db.db, id) };
      },
    );

    app.get(
      "/projects/:id/audit_logs",
      {
        config: requires("projects", "show"),
        schema: doc({
          tags,
          summary: "Bitácora de cambios del proyecto",
          params: idParams,
          response: { 200: auditLogsAnswer },
        }),
      },
      async (request) => {
        const ctx = service.context(app, request, "show");
        const id = idOf(request);
        await service.find(ctx, id);
        const trail = await auditTrail(app.db.db, "Project", id);
        const billing = Boolean(grantFor(ctx.user, "project_invoicing", "show"));
        return {
          audit_logs: billing ? trail : trail.filter((row) => !(INVOICING_FIELDS as readonly string[]).includes(row.field)),
        };
      },
    );

    app.post(
      "/projects/:id/extend_project",
      {
        config: requires("projects", "update"),
        // The body is read after the project is found (404 first): parseBody, not a declared body.
        schema: doc({
          tags,
          summary: "Extender la ETA del proyecto",
          params: idParams,
          version: "optional",
          current: { key: "project", schema: recordSchema(service.def) },
          response: { 200: answer },
        }),
      },
      async (request) => {
        const ctx = service.context(app, request, "update");
        const id = idOf(request);
        await service.find(ctx, id);
        const input = service.parseBody(request.body, extendProjectSchema) as z.infer<typeof extendProjectSchema>;
        // A new name renames the project's folder in the same transaction (undone if it fails).
        await withDriveWork(app, request, (work) =>
          extendProject(
            app.db.db,
            ctx.user.id,
            id,
            { ...input, eta: input.eta ?? null },
            expectedVersion(request, request.body, "project"),
            work,
          ),
        );
        return showAfter(request, id);
      },
    );

    const invoiceComment = z.object({ audit_comment: optionalText(2000) });
    for (const action of Object.keys(INVOICE_ACTIONS) as Array<keyof typeof INVOICE_ACTIONS>) {
      app.post(
        `/projects/:id/${action}`,
        {
          config: requires("projects", "invoice"),
          // The body is read after the project is found (404 first): parseBody, not a declared body.
          schema: doc({
            tags,
            summary: INVOICE_ACTIONS[action],
            params: idParams,
            version: "optional",
            current: { key: "project", schema: recordSchema(service.def) },
            response: { 200: answer },
          }),
        },
        async (request) => {
          const ctx = service.context(app, request, "invoice");
          const id = idOf(request);
          await service.find(ctx, id);
          const input = service.parseBody(request.body ?? {}, invoiceComment);
          await setInvoiceAction(
            app.db.db,
            ctx.user.id,
            id,
            action,
            (input.audit_comment as string | null | undefined) ?? null,
            expectedVersion(request, request.body, "project"),
          );
          return showAfter(request, id);
        },
      );
    }

    app.post(
      "/projects/:id/notify_user",
      {
        config: requires("projects", "notify"),
        // The body is read after the project is found (404 first): parseBody, not a declared body.
        schema: doc({
          tags,
          summary: "Avisar al PM y al responsable del proyecto",
          params: idParams,
          response: { 200: notifyUserAnswer },
        }),
      },
      async (request) => {
        const ctx = service.context(app, request, "notify");
        const id = idOf(request);
        const project = await service.find(ctx, id);
        const input = service.parseBody(request.body ?? {}, notifyUserSchema);
        const { notified: rows, text } = await app.db.db.transaction((tx) =>
          notifyProjectPeople(
            tx,
            ctx.user,
            project as typeof projects.$inferSelect,
            (input.message as string | null | undefined) ?? null,
          ),
        );
        pushNotified(
          app,
          rows.map((row) => row.user_id),
          {
            title: boardMessages.projectNoticeTitle(project.project_code as string, ctx.user.name),
            body: text,
            url: screenPath("projects", "show", id),
            tag: `project-notice-${id}`,
          },
        );
        return {
          notified: rows.length,
          notifications: rows,
          email_sent: false,
          message: messages.notificationRecorded(rows.length),
        };
      },
    );
  },
});
