import { describe, expect, it } from "vitest";
import { INVOICE_EVENTS, permittedInvoiceEvents } from "../../src/core/invoiceMachine";
import { PROJECT_EVENTS, permittedEvents } from "../../src/core/projectMachine";
import { ARCHIVED_PROJECT_STATES, INVOICE_STATES, PROJECT_STATES } from "../../src/core/states";

const admin = { administrator_role: true };
const operator = { operator_role: true };
const finance = { finance_role: true };
const names = (events: Array<{ name: string }>) => events.map((e) => e.name).sort();

/** What an administrator may fire in each state (docs/decisions/007). */
const table: Array<[keyof typeof PROJECT_STATES, string[]]> = [
  ["requerimiento", ["cancelar", "enviar_propuesta", "no_autorizar"]],
  ["propuesta", ["cancelar", "iniciar_ejecucion", "no_autorizar"]],
  ["en_ejecucion", ["cancelar", "enviar_a_validacion"]],
  ["validacion_cliente", ["cancelar", "regresar_a_ejecucion", "solicitar_autorizacion"]],
  ["autorizacion_cliente", ["cancelar", "iniciar_garantia", "regresar_a_ejecucion"]],
  ["garantia", ["regresar_a_ejecucion", "terminar"]],
  ["terminado", ["reactivar"]],
  ["cancelado", ["reactivar"]],
  ["no_autorizado", ["reactivar_propuesta"]],
];

describe("project state machine", () => {
  it.each(table)("admin in %s may fire %j", (state, expected) => {
    expect(names(permittedEvents(state, admin))).toEqual(expected.sort());
  });
  it("covers every state", () => {
    expect(table.map(([s]) => s).sort()).toEqual(Object.keys(PROJECT_STATES).sort());
  });
  it("every event goes between known states; reactivation is admin-only and leaves the archive", () => {
    for (const e of PROJECT_EVENTS) {
      expect(Object.keys(PROJECT_STATES)).toContain(e.to);
      for (const from of e.from) expect(Object.keys(PROJECT_STATES)).toContain(from);
    }
    const reactivations = PROJECT_EVENTS.filter((e) => e.name.startsWith("reactivar"));
    expect(reactivations.every((e) => "adminOnly" in e && e.adminOnly)).toBe(true);
    expect(reactivations.flatMap((e) => e.from).sort()).toEqual([...ARCHIVED_PROJECT_STATES].sort());
  });
  it("operator and finance fire no project event; the system event is never offered", () => {
    for (const state of Object.keys(PROJECT_STATES)) {
      expect(permittedEvents(state, operator)).toEqual([]);
      expect(permittedEvents(state, finance)).toEqual([]);
      expect(names(permittedEvents(state, admin))).not.toContain("cerrar_garantia");
    }
    expect(permittedEvents("garantia", null)).toEqual([]);
  });
});

describe("invoice state machine", () => {
  const invoiceTable: Array<[keyof typeof INVOICE_STATES, string[]]> = [
    ["pendiente", ["cancelar", "enviar", "resolver"]],
    ["enviada", ["cancelar", "regresar_a_pendiente", "resolver"]],
    ["resuelto", []],
    ["cancelada", []],
  ];
  it.each(invoiceTable)("finance in %s may fire %j", (state, expected) => {
    expect(names(permittedInvoiceEvents(state, finance))).toEqual(expected.sort());
    expect(names(permittedInvoiceEvents(state, admin))).toEqual(expected.sort());
    expect(permittedInvoiceEvents(state, operator)).toEqual([]);
  });
  it("every event goes between known states", () => {
    for (const e of INVOICE_EVENTS) expect(Object.keys(INVOICE_STATES)).toContain(e.to);
  });
});
