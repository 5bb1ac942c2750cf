import { eq, sql } from "drizzle-orm";
import { FOLIO_EDITABLE_STATE, invoiceStateLabel, permittedInvoiceEvents } from "../../../src/core/invoiceMachine";
import { messages } from "../../../src/core/messages";
import { z } from "../../../src/core/schemas/fields";
import { invoiceSchema, invoiceTransitionSchema, invoiceUpdateSchema } from "../../../src/core/schemas/invoice";
import { invoices, projects } from "../../db/schema";
import { authorize, currentUser } from "../../http/auth";
import { ValidationError } from "../../http/errors";
import { doc } from "../../http/openapi";
import { declareResource, expectedVersion, filter, idOf, ResourceService } from "../../http/resource";
import { outer } from "../../http/sql";
import { audit, auditTrail } from "../projects/audit";
import { checkPercentage, lockProjectFor, missingPercentage, transitionInvoice } from "./service";

const projectName = sql<
  string | null
>`(select ${sql.identifier("name")} from ${projects} where ${sql.identifier("id")} = ${outer(invoices.project_id)})`;
const projectCode = sql<
  string | null
>`(select ${sql.identifier("project_code")} from ${projects} where ${sql.identifier("id")} = ${outer(invoices.project_id)})`;

const AUDITED = ["percentage_value", "folio", "date_of_invoice"] as const;

export const invoicesResource = declareResource({
  name: "invoices",
  singular: "invoice",
  table: invoices,
  createSchema: invoiceSchema,
  updateSchema: invoiceUpdateSchema,
  search: [invoices.folio],
  sortable: {
    id: invoices.id,
    folio: invoices.folio,
    date_of_invoice: invoices.date_of_invoice,
    percentage_value: invoices.percentage_value,
    state: invoices.state,
    created_at: invoices.created_at,
    project_name: projectName,
  },
  defaultSort: { column: "id", order: "asc" },
  filters: { project_id: filter.idEquals(invoices.project_id), by_state: filter.valueIn(invoices.state) },
  computed: {
    project_name: projectName.as("project_name") as never,
    project_code: projectCode.as("project_code") as never,
  },
  present(record, ctx) {
    return {
      ...record,
      state_label: invoiceStateLabel(String(record.state)),
      folio_editable: record.state === FOLIO_EDITABLE_STATE,
      permitted_events: permittedInvoiceEvents(String(record.state), ctx.user).map((e) => ({
        name: e.name,
        label: e.label,
        to: e.to,
      })),
    };
  },
  deleteGuards: [
    async (id, db) => {
      const [row] = await db.select({ state: invoices.state }).from(invoices).where(eq(invoices.id, id));
      return row?.state === FOLIO_EDITABLE_STATE ? "la factura ya está resuelta" : null;
    },
  ],
  async beforeWrite(values, ctx, existing) {
    const projectId = (existing?.project_id ?? values.project_id) as number;
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
    }
    if (
      values.folio !== undefined &&
      values.folio !== null &&
      values.folio !== (existing?.folio ?? null) &&
      state !== FOLIO_EDITABLE_STATE
    ) {
      throw ValidationError.field("folio", messages.folioOnlyWhenResolved);
    }
    if (values.percentage_value !== undefined) {
      await checkPercentage(ctx.db, projectId, values.percentage_value as number, existing?.id);
    }
    return values;
  },
  async afterWrite(saved, ctx, existing) {
    const comment = (saved.audit_comment as string | null) ?? null;
    await audit(
      ctx.db,
      { type: "Invoice", id: saved.id },
      [
        ...(existing ? [] : [{ field: "state", old: null, new: saved.state }]),
        ...AUDITED.map((field) => ({ field, old: existing ? existing[field] : null, new: saved[field] })),
      ],
      { userId: ctx.user.id, comment },
    );
  },
  routes(app, def) {
    const service = new ResourceService(def);
    const tags = ["invoices"];

    app.get(
      "/invoices/percentage_to_invoice",
      { schema: doc({ tags, summary: "Porcentaje que falta por facturar" }) },
      async (request) => {
        authorize(request, "invoices", "list");
        const parsed = z.coerce
          .number()
          .int()
          .positive()
          .max(2_147_483_647)
          .safeParse((request.query as Record<string, unknown>).project_id);
        if (!parsed.success) throw ValidationError.field("project_id", messages.required);
        const [project] = await app.db.db.select({ id: projects.id }).from(projects).where(eq(projects.id, parsed.data));
        if (!project) throw ValidationError.field("project_id", messages.invalidReference);
        return { missing_percentage: await missingPercentage(app.db.db, parsed.data) };
      },
    );

    app.post(
      "/invoices/:id/aasm_transition",
      { schema: doc({ tags, summary: "Cambiar el estado de la factura", version: "optional" }) },
      async (request) => {
        authorize(request, "invoices", "transition");
        const id = idOf(request);
        await service.find(service.context(app, request, "show"), id);
        const input = service.parseBody(request.body, invoiceTransitionSchema) as z.infer<typeof invoiceTransitionSchema>;
        await transitionInvoice(app.db.db, currentUser(request), id, input, expectedVersion(request, request.body, "invoice"));
        return { invoice: await service.show(service.context(app, request, "show"), id) };
      },
    );

    app.get(
      "/invoices/:id/audit_logs",
      { schema: doc({ tags, summary: "Bitácora de cambios de la factura" }) },
      async (request) => {
        const ctx = service.context(app, request, "show");
        const id = idOf(request);
        await service.find(ctx, id);
        return { audit_logs: await auditTrail(app.db.db, "Invoice", id) };
      },
    );
  },
});
