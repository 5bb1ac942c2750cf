import { MAX_INVOICED_PERCENTAGE } from "../invoiceMachine";
import { messages } from "../messages";
import { optionalIsoDate, optionalText, requiredId, z } from "./fields";
import { requiredComment } from "./project";

/** Percent points of the project, 0 < p ≤ 100, two decimals (docs/decisions/007). */
export const percentageValue = () =>
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.coerce
      .number({ error: messages.required })
      .refine((n) => Number.isFinite(n), { error: messages.mustBeNumber })
      .refine((n) => n > 0, { error: messages.mustBeGreaterThanZero })
      .refine((n) => n <= MAX_INVOICED_PERCENTAGE, { error: `debe ser menor o igual a ${MAX_INVOICED_PERCENTAGE}` })
      .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, { error: "admite como máximo dos decimales" }),
  );

const folio = () => optionalText(60);

const shape = {
  project_id: requiredId(),
  percentage_value: percentageValue(),
  date_of_invoice: optionalIsoDate(),
  audit_comment: optionalText(2000),
  folio: folio(),
};

/** Invoice (SPEC §3). `state` changes only through aasm_transition. */
export const invoiceSchema = z.object(shape);
export type InvoiceInput = z.infer<typeof invoiceSchema>;
/** An invoice never moves to another project. */
export const invoiceUpdateSchema = z.object(shape).omit({ project_id: true }).partial();

/** POST invoices/:id/aasm_transition {invoice: {event, audit_comment, date, folio}} (SPEC §4). */
export const invoiceTransitionSchema = z.object({
  event: z.string({ error: messages.required }).trim().min(1, { error: messages.required }).max(60),
  audit_comment: requiredComment(),
  date: optionalIsoDate(),
  folio: folio(),
});
export type InvoiceTransitionInput = z.infer<typeof invoiceTransitionSchema>;

/** GET invoices/percentage_to_invoice: the project whose percentage is asked (any bad value: required). */
export const percentageToInvoiceQuery = z.object({
  project_id: z.coerce
    .number({ error: messages.required })
    .int({ error: messages.required })
    .positive({ error: messages.required })
    .max(2_147_483_647, { error: messages.required }),
});

/** GET invoices/percentage_to_invoice: what is left to invoice of the project, in percent. */
export const percentageToInvoiceAnswer = z.object({ missing_percentage: z.number() });
