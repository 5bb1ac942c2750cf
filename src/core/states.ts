/**
 * State names and Spanish labels of projects, invoices and quotations (SPEC §4). The events between
 * them are the state machines of the pipeline issue; the names live here so the database CHECKs, the
 * filters and the screens agree.
 */
export const PROJECT_STATES = {
  requerimiento: "Requerimiento",
  propuesta: "Propuesta",
  en_ejecucion: "En Ejecución",
  validacion_cliente: "Validación del Cliente",
  autorizacion_cliente: "Autorización Cliente",
  garantia: "Garantía",
  terminado: "Terminado",
  cancelado: "Cancelado",
  no_autorizado: "No Autorizado",
} as const;
export type ProjectState = keyof typeof PROJECT_STATES;
export const ARCHIVED_PROJECT_STATES: ProjectState[] = ["no_autorizado", "cancelado", "terminado"];
export const PROJECT_STATUS_FILTERS = { todos: "Todos", vigentes: "Vigentes", archivados: "Archivados" } as const;

export const INVOICE_STATES = {
  pendiente: "Pendiente",
  enviada: "Enviada",
  resuelto: "Resuelto",
  cancelada: "Cancelada",
} as const;
export type InvoiceState = keyof typeof INVOICE_STATES;

export const QUOTATION_STATES = {
  demo: "Demo",
  contract: "Contrato",
  quote: "Cotización",
  finalizada: "Alta Cliente",
  rechazada: "Rechazada",
  cancelada: "Cancelada",
} as const;
export type QuotationState = keyof typeof QUOTATION_STATES;

export const INVOICE_ACTIONS = {
  partially_invoiced: "Parcialmente facturado",
  completely_invoiced: "100% facturas ya realizadas",
} as const;

export const sqlList = (values: readonly string[]) => values.map((v) => `'${v.replace(/'/g, "''")}'`).join(",");
