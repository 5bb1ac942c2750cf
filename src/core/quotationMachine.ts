/**
 * The quotation state machine (SPEC §4), in one table. A quotation is born in `demo` and moves by
 * named events, each asking for a comment (POST quotations/:id/aasm_transition):
 *
 *   event             from                      to          side effect (server/modules/quotations)
 *   approve_demo      demo                      contract    creates the prospect's "Cotizaciones" folder
 *   request_contract  contract                  quote       copies the PLD contract template into the
 *                                                           prospect's "Administración" folder
 *   approve_quote     quote                     finalizada  client (next code) + project (type 6, the
 *                                                           quotation's product, next code) + their
 *                                                           folder structures, all or nothing
 *   reject            demo, contract, quote     rechazada   none: the prospect declined
 *   cancel            demo, contract, quote     cancelada   none: the firm withdrew the offer
 *
 * `finalizada` (shown as "Alta Cliente"), `rechazada` and `cancelada` are final.
 */
import { QUOTATION_STATES, type QuotationState } from "./states";

export const QUOTATION_EVENTS = {
  approve_demo: { name: "Aprobar demo", from: ["demo"], to: "contract" },
  request_contract: { name: "Solicitar contrato", from: ["contract"], to: "quote" },
  approve_quote: { name: "Aprobar cotización", from: ["quote"], to: "finalizada" },
  reject: { name: "Rechazar", from: ["demo", "contract", "quote"], to: "rechazada" },
  cancel: { name: "Cancelar cotización", from: ["demo", "contract", "quote"], to: "cancelada" },
} as const satisfies Record<string, { name: string; from: readonly QuotationState[]; to: QuotationState }>;

export type QuotationEvent = keyof typeof QUOTATION_EVENTS;
export const QUOTATION_EVENT_NAMES = Object.keys(QUOTATION_EVENTS) as QuotationEvent[];
export const FINAL_QUOTATION_STATES: QuotationState[] = ["finalizada", "rechazada", "cancelada"];

/** The events allowed from a state, with their Spanish labels, in the table's order. */
export function permittedEvents(state: string): Array<{ id: QuotationEvent; name: string }> {
  return QUOTATION_EVENT_NAMES.filter((event) => (QUOTATION_EVENTS[event].from as readonly string[]).includes(state)).map(
    (event) => ({
      id: event,
      name: QUOTATION_EVENTS[event].name,
    }),
  );
}

/** The state an event leads to from `state`, or null when the event is not allowed there. */
export function nextState(state: string, event: string): QuotationState | null {
  const def = (QUOTATION_EVENTS as Record<string, { from: readonly string[]; to: QuotationState }>)[event];
  return def?.from.includes(state) ? def.to : null;
}

/** The states for the filter and the labels (GET quotations/quotation_states). */
export const quotationStateOptions = () =>
  (Object.keys(QUOTATION_STATES) as QuotationState[]).map((id) => ({ id, name: QUOTATION_STATES[id] }));
