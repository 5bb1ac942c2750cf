/**
 * Invoice rules (SPEC §4, §9): the invoices of a project never add up to more than 100 % (checked
 * while the PROJECT row is locked, so concurrent creates and edits are judged one after the other);
 * the folio is written only on a resolved invoice and is unique; a resolved or cancelled invoice is
 * read-only but for its state events (docs/decisions/028); every state, folio, percentage and date change
 * is audited.
 */
import { and, eq, ne, notInArray, sql } from "drizzle-orm";
import {
  FOLIO_EDITABLE_STATE,
  invoiceEvent,
  invoiceStateLabel,
  MAX_INVOICED_PERCENTAGE,
  NON_BILLING_INVOICE_STATES,
  permittedInvoiceEvents,
} from "../../../src/core/invoiceMachine";
import { messages } from "../../../src/core/messages";
import type { SessionUser } from "../../../src/core/session";
import { businessToday } from "../../../src/core/week";
import { audit } from "../../db/audit";
import type { Db, Tx } from "../../db/client";
import { invoices, projects } from "../../db/schema";
import { notFound, ValidationError } from "../../http/errors";
import { staleVersion, withValidation } from "../../http/resource";

const cents = (n: number) => Math.round(n * 100);

/** Percent already invoiced on a project (cancelled invoices do not count), optionally without one invoice. */
export async function invoicedPercentage(db: Tx, projectId: number, exceptInvoiceId?: number): Promise<number> {
  const [row] = await db
    .select({ sum: sql<string>`coalesce(sum(${invoices.percentage_value}), 0)::text` })
    .from(invoices)
    .where(
      and(
        eq(invoices.project_id, projectId),
        notInArray(invoices.state, NON_BILLING_INVOICE_STATES),
        exceptInvoiceId ? ne(invoices.id, exceptInvoiceId) : undefined,
      ),
    );
  return cents(Number(row?.sum ?? 0)) / 100;
}

export async function missingPercentage(db: Tx, projectId: number): Promise<number> {
  return Math.max(0, cents(MAX_INVOICED_PERCENTAGE) - cents(await invoicedPercentage(db, projectId))) / 100;
}

/** Locks the project row; a project that does not exist is a 422 on project_id. */
export async function lockProjectFor(tx: Tx, projectId: number) {
  const [row] = await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).for("update");
  if (!row) throw ValidationError.field("project_id", messages.invalidReference);
}

/** Refuses a percentage that would take the project above 100 %. Call with the project row locked. */
export async function checkPercentage(tx: Tx, projectId: number, value: number, exceptInvoiceId?: number) {
  const already = await invoicedPercentage(tx, projectId, exceptInvoiceId);
  if (cents(already) + cents(value) > cents(MAX_INVOICED_PERCENTAGE)) {
    const remaining = Math.max(0, cents(MAX_INVOICED_PERCENTAGE) - cents(already)) / 100;
    throw ValidationError.field(
      "percentage_value",
      remaining === 0 ? messages.projectFullyInvoiced : messages.percentageExceeded(remaining),
    );
  }
}

/**
 * Refuses a folio another invoice already has, compared as the unique index `invoices_folio_unique` does
 * (trimmed, without case): the friendly answer first; two saves racing past it meet the index, whose
 * violation server/http/errors.ts turns into the same 422.
 */
export async function checkFolioFree(tx: Tx, folio: string | null | undefined, exceptInvoiceId?: number) {
  const value = folio?.trim();
  if (!value) return;
  const [taken] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      and(
        sql`upper(btrim(${invoices.folio})) = upper(btrim(${value}))`,
        exceptInvoiceId ? ne(invoices.id, exceptInvoiceId) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw ValidationError.field("folio", messages.folioTaken);
}

/**
 * Keeps «100% facturas ya realizadas» true: when the project's invoices stop adding up to 100 % (an invoice
 * cancelled, deleted or lowered), the project goes back to partially invoiced, audited with the user who
 * made the change and why. Call with the project row locked, after the change.
 */
export async function reconcileInvoiceAction(tx: Tx, projectId: number, userId: number | null) {
  const [project] = await tx.select({ action: projects.invoice_action }).from(projects).where(eq(projects.id, projectId));
  if (project?.action !== "completely_invoiced") return;
  const invoiced = await invoicedPercentage(tx, projectId);
  if (invoiced === MAX_INVOICED_PERCENTAGE) return;
  await tx.update(projects).set({ invoice_action: "partially_invoiced" }).where(eq(projects.id, projectId));
  await audit(
    tx,
    { type: "Project", id: projectId },
    [{ field: "invoice_action", old: "completely_invoiced", new: "partially_invoiced" }],
    { userId, comment: messages.invoiceActionReverted(invoiced) },
  );
}

/** The project of an invoice, its row locked before the invoice's (the order every invoice write takes). */
export async function lockProjectOfInvoice(tx: Tx, invoiceId: number): Promise<number | null> {
  const [row] = await tx.select({ project_id: invoices.project_id }).from(invoices).where(eq(invoices.id, invoiceId));
  if (!row) return null;
  await lockProjectFor(tx, row.project_id);
  return row.project_id;
}

export interface InvoiceTransitionInput {
  event: string;
  audit_comment: string;
  date?: string | null;
  folio?: string | null;
}

export async function transitionInvoice(db: Db, user: SessionUser, id: number, input: InvoiceTransitionInput, expected?: number) {
  await withValidation(() =>
    db.transaction(async (tx) => {
      // The project first, then the invoice: the order of every invoice write (no deadlock between them).
      if ((await lockProjectOfInvoice(tx, id)) === null) throw notFound();
      const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, id)).for("update");
      if (!invoice) throw notFound();
      // Taken from a screen another save has since changed (when the client says what it read): 409.
      if (expected !== undefined && invoice.lock_version !== expected) throw staleVersion("invoice");
      const event = permittedInvoiceEvents(invoice.state, user).find((e) => e.name === input.event);
      if (!event) {
        const label = invoiceEvent(input.event)?.label ?? input.event;
        throw new ValidationError({ invalid_transition: [messages.invalidTransition(label, invoiceStateLabel(invoice.state))] });
      }
      const hasFolio = input.folio !== undefined && input.folio !== null;
      if (hasFolio && event.to !== FOLIO_EDITABLE_STATE) throw ValidationError.field("folio", messages.folioOnlyWhenResolved);
      if (hasFolio) await checkFolioFree(tx, input.folio, id);
      const next = {
        state: event.to,
        audit_comment: input.audit_comment,
        date_of_invoice: input.date ?? invoice.date_of_invoice ?? businessToday(),
        folio: hasFolio ? (input.folio as string) : invoice.folio,
      };
      await tx.update(invoices).set(next).where(eq(invoices.id, id));
      await audit(
        tx,
        { type: "Invoice", id },
        [
          { field: "state", old: invoice.state, new: next.state },
          { field: "date_of_invoice", old: invoice.date_of_invoice, new: next.date_of_invoice },
          { field: "folio", old: invoice.folio, new: next.folio },
        ],
        { userId: user.id, comment: input.audit_comment },
      );
      await reconcileInvoiceAction(tx, invoice.project_id, user.id);
    }),
  );
}
