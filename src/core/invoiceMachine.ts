/**
 * The invoice state machine (SPEC §4) as ONE table, and the percentage rule (SPEC §9). Decided in
 * docs/decisions/007-project-and-invoice-states.md.
 */
import { canAccess, type RoleHolder } from "./permissions";
import type { MachineEvent } from "./projectMachine";
import { INVOICE_STATES, type InvoiceState } from "./states";

export const INVOICE_EVENTS = [
  { name: "enviar", label: "Enviar", from: ["pendiente"], to: "enviada" },
  { name: "resolver", label: "Resolver", from: ["pendiente", "enviada"], to: "resuelto" },
  { name: "regresar_a_pendiente", label: "Regresar a pendiente", from: ["enviada"], to: "pendiente" },
  { name: "cancelar", label: "Cancelar factura", from: ["pendiente", "enviada"], to: "cancelada" },
] as const satisfies readonly MachineEvent<InvoiceState>[];

export type InvoiceEventName = (typeof INVOICE_EVENTS)[number]["name"];

export const invoiceEvent = (name: string): MachineEvent<InvoiceState> | undefined =>
  (INVOICE_EVENTS as readonly MachineEvent<InvoiceState>[]).find((e) => e.name === name);

export function permittedInvoiceEvents(state: string, user: RoleHolder | null | undefined): MachineEvent<InvoiceState>[] {
  if (!canAccess({ user, resource: "invoices", action: "transition" })) return [];
  return (INVOICE_EVENTS as readonly MachineEvent<InvoiceState>[]).filter((e) => (e.from as readonly string[]).includes(state));
}

/** The folio is written only on a resolved invoice (SPEC §4: "Resuelto (folio then editable)"). */
export const FOLIO_EDITABLE_STATE: InvoiceState = "resuelto";
/**
 * Final states (no event leaves them): read-only but for what their state allows (a resolved invoice's
 * missing folio), never deleted (docs/decisions/028-final-records-read-only.md).
 */
export const FINAL_INVOICE_STATES: InvoiceState[] = ["resuelto", "cancelada"];
/** States whose percentage no longer counts towards the project's 100 %. */
export const NON_BILLING_INVOICE_STATES: InvoiceState[] = ["cancelada"];
/**
 * percentage_value is in percent points of the project's amount, 0 < p ≤ 100 (two decimals). SPEC §9's
 * "default 1" is the form's initial value: 1 %, the smallest whole percentage (not a fraction meaning
 * 100 %). The API does not invent it: a missing percentage answers 422.
 */
export const INVOICE_PERCENTAGE_DEFAULT = 1;
export const MAX_INVOICED_PERCENTAGE = 100;

export const invoiceStateLabel = (state: string) => INVOICE_STATES[state as InvoiceState] ?? state;
