import { eq, sql } from "drizzle-orm";
import {
  FINAL_INVOICE_STATES,
  FOLIO_EDITABLE_STATE,
  invoiceStateLabel,
  permittedInvoiceEvents,
} from "../../../src/core/invoiceMachine";
import { messages } from "../../../src/core/messages";
import { z } from "../../../src/core/schemas/fields";
import {
  invoiceSchema,
  invoiceTransitionSchema,
  invoiceUpdateSchema,
  percentageToInvoiceAnswer,
  percentageToInvoiceQuery,
} from "../../../src/core/schemas/invoice";
import { auditLogsAnswer } from "../../../src/core/schemas/project";
import { audit, auditTrail } from "../../db/audit";
import { invoices, projects } from "../../db/schema";
import { currentUser, requires } from "../../http/auth";
import { searchOf, sortableOf } from "../../http/columns";
import { ValidationError } from "../../http/errors";
import { doc, idParams } from "../../http/openapi";
import { answered, recordSchema } from "../../http/records";
import { declareResource, expectedVersion, filter, idOf } from "../../http/resource";
import { outer } from "../../http/sql";
import {
  checkFolioFree,
  checkPercentage,
  lockProjectFor,
  lockProjectOfInvoice,
  missingPercentage,
  reconcileInvoiceAction,
  transitionInvoice,
} from "./service";

const projectName = sql<
  string | null
>`(select ${sql.identifier("name")} from ${projects} where ${sql.identifier("id")} = ${outer(invoices.project_id)})`;
const projectCode = sql<
  string | null
>`(select ${sql.identifier("project_code")} from ${projects} where ${sql.identifier("id")} = ${outer(invoices.project_id)})`;

const AUDITED = ["percentage_value", "folio", "date_of_invoice"] as const;

const blank = (v: unknown) => v === null || v === undefined || (typeof v === "string" && v.trim() === "");
const same = (a: unknown, b: unknown) => (blank(a) && blank(b)) || String(a).trim() === String(b).trim();

/**
 * A resolved invoice is read-only but for its state events; the one thing still written is a folio it was
 * resolved without (SPEC §4 «folio then editable», once), with its comment. Values sent unchanged (a form
 * sends every field) are not changes. Field → Spanish reason, empty when the write may go on.
 */
function resolvedInvoiceErrors(values: Record<string, unknown>, existing: Record<string, unknown>) {
  const errors: Record<string, string[]> = {};
  const capturingFolio = blank(existing.folio) && "folio" in values && !blank(values.folio);
  if ("folio" in values && !same(values.folio, existing.folio) && !capturingFolio) {
    errors.folio = [messages.invoiceFolioFixed];
  }
  for (const field of ["percentage_value", "date_of_invoice", "audit_comment"]) {
    if (field === "audit_comment" && capturingFolio) continue;
    if (field in values && !same(values[field], existing[field])) errors[field] = [messages.invoiceResolvedLocked];
  }
  return errors;
}

export const invoicesResource = declareResource({
  // Its computed columns, typed (server/http/records.ts).
  answer: {
    project_name: answered.text,
    project_code: answered.text,
  },
  name: "invoices",
  singular: "invoice",
  table: invoices,
  createSchema: invoiceSchema,
  updateSchema: invoiceUpdateSchema,
  search: searchOf("invoices", { folio: invoices.folio }),
  sortable: sortableOf("invoices", {
    id: invoices.id,
    folio: invoices.folio,
    date_of_invoice: invoices.date_of_invoice,
    percentage_value: invoices.percentage_value,
    state: invoices.state,
    audit_comment: invoices.audit_comment,
    created_at: invoices.created_at,
    project_name: projectName,
  }),
  defaultSort: { column: "id", order: "asc" },
  filters: { project_id: filter.idEquals(invoices.project_id), by_state: filter.valueIn(invoices.state) },
  computed: {
    project_name: projectName.as("project_name"),
    project_code: projectCode.as("project_code"),
  },
  present(record, ctx) {
    return {
      ...record,
      state_label: invoiceStateLabel(String(record.state)),
      folio_editable: record.state === FOLIO_EDITABLE_STATE && blank(record.folio),
      // Pendiente and Enviada are edited; a resolved invoice only to capture a folio it lacks.
      editable:
        !(FINAL_INVOICE_STATES as string[]).includes(String(record.state)) ||
        (record.state === FOLIO_EDITABLE_STATE && blank(record.folio)),
      permitted_events: permittedInvoiceEvents(String(record.state), ctx.user).map((e) => ({
        name: e.name,
        label: e.label,
        to: e.to,
      })),
    };
  },
  deleteGuards: [
    async (id, db) => {
      // Locked in the order every invoice write takes (project, then invoice): a delete racing a
      // resolution waits for it and is judged against the state it left.
      await lockProjectOfInvoice(db, id);
      const [row] = await db.select({ state: invoices.state }).from(invoices).where(eq(invoices.id, id)).for("update");
      return row && (FINAL_INVOICE_STATES as string[]).includes(row.state)
        ? messages.invoiceFinalDelete(invoiceStateLabel(row.state))
        : null;
    },
  ],
  async afterDelete(record, ctx) {
    await reconcileInvoiceAction(ctx.db, record.project_id, ctx.user.id);
  },
  async beforeWrite(values, ctx, existing) {
    const projectId = existing ? existing.project_id : values.project_id;
    // The project row is the lock every percentage check of that project waits on.
    await lockProjectFor(ctx.db, projectId);
    let state = "pendiente";
    if (existing) {
      const [current] = await ctx.db
        .select({ state: invoices.state })
        .from(invoices)
        .where(eq(invoices.id, existing.id))
        .for("update");
      state = current?.state ?? String(existing.state);
      if (state === "cancelada") throw ValidationError.base(messages.invoiceCancelledLocked);
      if (state === FOLIO_EDITABLE_STATE) {
        const errors = resolvedInvoiceErrors(values, existing);
        if (Object.keys(errors).length) throw new ValidationError(errors);
      }
    }
    if (
      values.folio !== undefined &&
      values.folio !== null &&
      values.folio !== (existing?.folio ?? null) &&
      state !== FOLIO_EDITABLE_STATE
    ) {
      throw ValidationError.field("folio", messages.folioOnlyWhenResolved);
    }
    if (values.folio !== undefined && values.folio !== null && !same(values.folio, existing?.folio)) {
      await checkFolioFree(ctx.db, values.folio, existing?.id);
    }
    if (values.percentage_value !== undefined) {
      await checkPercentage(ctx.db, projectId, values.percentage_value, existing?.id);
    }
    return values;
  },
  async afterWrite(saved, ctx, existing) {
    const comment = saved.audit_comment ?? null;
    await audit(
      ctx.db,
      { type: "Invoice", id: saved.id },
      [
        ...(existing ? [] : [{ field: "state", old: null, new: saved.state }]),
        ...AUDITED.map((field) => ({ field, old: existing ? existing[field] : null, new: saved[field] })),
      ],
      { userId: ctx.user.id, comment },
    );
    // A lowered percentage can take the project below 100 %: its «100%» flag follows.
    if (existing) await reconcileInvoiceAction(ctx.db, saved.project_id, ctx.user.id);
  },
  routes(app, service) {
    const tags = ["invoices"];

    app.get(
      "/invoices/percentage_to_invoice",
      {
        config: requires("invoices", "list"),
        schema: doc({
          tags,
          summary: "Porcentaje que falta por facturar",
          querystring: percentageToInvoiceQuery,
          response: { 200: percentageToInvoiceAnswer },
        }),
      },
      async (request) => {
        const { project_id } = request.query as z.output<typeof percentageToInvoiceQuery>;
        const [project] = await app.db.db.select({ id: projects.id }).from(projects).where(eq(projects.id, project_id));
        if (!project) throw ValidationError.field("project_id", messages.invalidReference);
        return { missing_percentage: await missingPercentage(app.db.db, project_id) };
      },
    );

    app.post(
      "/invoices/:id/aasm_transition",
      {
        config: requires("invoices", "transition"),
        // The body is read after the invoice is found (404 first): parseBody, not a declared body.
        schema: doc({
          tags,
          summary: "Cambiar el estado de la factura",
          params: idParams,
          version: "optional",
          current: { key: "invoice", schema: recordSchema(service.def) },
          response: { 200: z.object({ invoice: recordSchema(service.def) }) },
        }),
      },
      async (request) => {
        const id = idOf(request);
        await service.find(service.context(app, request, "show"), id);
        const input = service.parseBody(request.body, invoiceTransitionSchema) as z.infer<typeof invoiceTransitionSchema>;
        await transitionInvoice(app.db.db, currentUser(request), id, input, expectedVersion(request, request.body, "invoice"));
        return { invoice: await service.show(service.context(app, request, "show"), id) };
      },
    );

    app.get(
      "/invoices/:id/audit_logs",
      {
        config: requires("invoices", "show"),
        schema: doc({
          tags,
          summary: "Bitácora de cambios de la factura",
          params: idParams,
          response: { 200: auditLogsAnswer },
        }),
      },
      async (request) => {
        const ctx = service.context(app, request, "show");
        const id = idOf(request);
        await service.find(ctx, id);
        return { audit_logs: await auditTrail(app.db.db, "Invoice", id) };
      },
    );
  },
});
