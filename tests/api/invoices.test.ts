import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoices } from "../../server/db/schema";
import { databaseValidationError } from "../../server/http/errors";
import type { ApiClient } from "../support/factories";
import { buildInvoice, buildProject } from "../support/project-factories";
import { type AppWithRoles, buildAppWithRoles } from "../support/roles";

let { t, admin, operator, finance } = {} as AppWithRoles;

beforeAll(async () => {
  ({ t, admin, operator, finance } = await buildAppWithRoles());
});
afterAll(() => t.close());

const db = () => t.app.db.db;
const missing = async (projectId: number) =>
  (await finance.get(`/api/v1/invoices/percentage_to_invoice?project_id=${projectId}`)).body.missing_percentage;
const move = (api: ApiClient, id: number, event: string, extra: Record<string, unknown> = {}) =>
  api.post(`/api/v1/invoices/${id}/aasm_transition`, { invoice: { event, audit_comment: `Comentario ${event}`, ...extra } });

describe("invoices", () => {
  it("finance creates, lists by project, shows and updates; missing_percentage follows", async () => {
    const p = await buildProject(db(), { name: "Portal" });
    expect(await missing(p.id)).toBe(100);
    const created = await finance.post("/api/v1/invoices", {
      invoice: { project_id: p.id, percentage_value: "33.33", audit_comment: "Anticipo" },
    });
    expect(created.status).toBe(201);
    expect(created.body.invoice).toMatchObject({
      percentage_value: 33.33,
      state: "pendiente",
      state_label: "Pendiente",
      project_name: "Portal",
      folio_editable: false,
    });
    expect(created.body.invoice.permitted_events.map((e: { name: string }) => e.name).sort()).toEqual([
      "cancelar",
      "enviar",
      "resolver",
    ]);
    expect(await missing(p.id)).toBe(66.67);
    const list = await finance.get(`/api/v1/invoices?project_id=${p.id}`);
    expect(list.body.invoices).toHaveLength(1);
    const upd = await finance.put(`/api/v1/invoices/${created.body.invoice.id}`, {
      invoice: { percentage_value: 50, audit_comment: "Ajuste" },
    });
    expect(upd.status).toBe(200);
    expect(await missing(p.id)).toBe(50);
    const logs = await finance.get(`/api/v1/invoices/${created.body.invoice.id}/audit_logs`);
    expect(logs.body.audit_logs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "state", old_value: null, new_value: "pendiente" }),
        expect.objectContaining({ field: "percentage_value", old_value: "33.33", new_value: "50", comment: "Ajuste" }),
      ]),
    );
  });

  it("sorts a project's invoices by «Comentario», the column the list offers", async () => {
    const p = await buildProject(db());
    for (const [percentage_value, audit_comment] of [
      [10, "Beta"],
      [20, "Alfa"],
    ] as const) {
      expect(
        (await finance.post("/api/v1/invoices", { invoice: { project_id: p.id, percentage_value, audit_comment } })).status,
      ).toBe(201);
    }
    for (const order of ["asc", "desc"] as const) {
      const res = await finance.get(
        `/api/v1/invoices?project_id=${p.id}&by_column[column]=audit_comment&by_column[order]=${order}`,
      );
      expect(res.status).toBe(200);
      const comments = res.body.invoices.map((i: { audit_comment: string }) => i.audit_comment);
      expect(comments).toEqual(order === "asc" ? ["Alfa", "Beta"] : ["Beta", "Alfa"]);
    }
  });

  it("percentage is required, above 0, at most 100, two decimals", async () => {
    const p = await buildProject(db());
    for (const [value, status] of [
      [undefined, 422],
      [0, 422],
      [-5, 422],
      [100.5, 422],
      ["abc", 422],
      [1.234, 422],
      [100, 201],
    ] as const) {
      const res = await finance.post("/api/v1/invoices", { invoice: { project_id: p.id, percentage_value: value } });
      expect(res.status, `value ${value}`).toBe(status);
      if (status === 422) expect(res.body.errors.percentage_value).toBeDefined();
    }
  });

  it("the sum never exceeds 100: create and update answer 422 with what remains", async () => {
    const p = await buildProject(db());
    await finance.post("/api/v1/invoices", { invoice: { project_id: p.id, percentage_value: 60 } });
    const second = await finance.post("/api/v1/invoices", { invoice: { project_id: p.id, percentage_value: 30 } });
    const over = await finance.post("/api/v1/invoices", { invoice: { project_id: p.id, percentage_value: 10.01 } });
    expect(over.status).toBe(422);
    expect(over.body.errors.percentage_value[0]).toContain("queda 10 %");
    const exact = await finance.post("/api/v1/invoices", { invoice: { project_id: p.id, percentage_value: 10 } });
    expect(exact.status).toBe(201);
    expect(await missing(p.id)).toBe(0);
    const updOver = await finance.put(`/api/v1/invoices/${second.body.invoice.id}`, { invoice: { percentage_value: 31 } });
    expect(updOver.status).toBe(422);
    // A cancelled invoice frees its percentage.
    expect((await move(finance, exact.body.invoice.id, "cancelar")).status).toBe(200);
    expect(await missing(p.id)).toBe(10);
  });

  it("concurrent creates never take a project above 100", async () => {
    const p = await buildProject(db());
    const results = await Promise.all(
      Array.from({ length: 6 }, () => finance.post("/api/v1/invoices", { invoice: { project_id: p.id, percentage_value: 30 } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 422)).toHaveLength(3);
    const rows = await db().select().from(invoices).where(eq(invoices.project_id, p.id));
    expect(rows.reduce((s, r) => s + r.percentage_value, 0)).toBe(90);
  });

  it("states: enviar, resolver with folio and date, audit rows; folio only once Resuelto", async () => {
    const p = await buildProject(db());
    const inv = await buildInvoice(db(), p.id, { percentage_value: 20 });
    const folioEarly = await finance.put(`/api/v1/invoices/${inv.id}`, { invoice: { folio: "A-1" } });
    expect(folioEarly.status).toBe(422);
    expect(folioEarly.body.errors.folio).toEqual(["solo se puede capturar cuando la factura está Resuelto"]);
    const noComment = await finance.post(`/api/v1/invoices/${inv.id}/aasm_transition`, { invoice: { event: "enviar" } });
    expect(noComment.status).toBe(422);
    expect(noComment.body.errors.audit_comment).toEqual(["Por favor, agregue un comentario"]);
    const folioOnSend = await move(finance, inv.id, "enviar", { folio: "A-1" });
    expect(folioOnSend.status).toBe(422);
    expect(folioOnSend.body.errors.folio).toBeDefined();
    const sent = await move(finance, inv.id, "enviar", { date: "2029-03-01" });
    expect(sent.body.invoice).toMatchObject({ state: "enviada", date_of_invoice: "2029-03-01" });
    expect((await move(finance, inv.id, "enviar")).status).toBe(422);
    const resolved = await move(admin, inv.id, "resolver", { date: "2029-03-10", folio: "A-100" });
    expect(resolved.status).toBe(200);
    expect(resolved.body.invoice).toMatchObject({
      state: "resuelto",
      folio: "A-100",
      date_of_invoice: "2029-03-10",
      folio_editable: false,
      editable: false,
      permitted_events: [],
    });
    const logs = (await finance.get(`/api/v1/invoices/${inv.id}/audit_logs`)).body.audit_logs as Array<Record<string, unknown>>;
    expect(logs.filter((l) => l.field === "state").map((l) => `${l.old_value}→${l.new_value}`)).toEqual(
      ["enviada→resuelto", "pendiente→enviada"].reverse(),
    );
    expect(logs.filter((l) => l.field === "folio").map((l) => `${l.old_value}→${l.new_value}`)).toEqual(["null→A-100"]);
    expect(logs.every((l) => l.user_name)).toBe(true);
    expect((await admin.delete(`/api/v1/invoices/${inv.id}`)).status).toBe(422);
  });

  it("a cancelled invoice cannot be edited, moved again or deleted", async () => {
    const p = await buildProject(db());
    const inv = await buildInvoice(db(), p.id);
    await move(finance, inv.id, "cancelar");
    expect((await finance.put(`/api/v1/invoices/${inv.id}`, { invoice: { percentage_value: 5 } })).status).toBe(422);
    expect((await move(finance, inv.id, "enviar")).status).toBe(422);
    const del = await admin.delete(`/api/v1/invoices/${inv.id}`);
    expect(del.status).toBe(422);
    expect(del.body.errors.base).toEqual(["No se puede eliminar: la factura está en «Cancelada», un estado final"]);
    expect((await finance.get(`/api/v1/invoices/${inv.id}`)).body.invoice.editable).toBe(false);
  });

  it("a resolved invoice is read-only but for its state: percentage, date, comment and folio are refused", async () => {
    const p = await buildProject(db());
    const inv = await buildInvoice(db(), p.id, { percentage_value: 20, date_of_invoice: "2029-04-01" });
    expect((await move(finance, inv.id, "resolver", { folio: "R-1" })).status).toBe(200);
    const before = (await finance.get(`/api/v1/invoices/${inv.id}`)).body.invoice;
    for (const api of [finance, admin]) {
      const res = await api.put(`/api/v1/invoices/${inv.id}`, {
        invoice: { percentage_value: 25, date_of_invoice: "2029-05-01", audit_comment: "Cambio", folio: "R-2" },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({
        percentage_value: ["la factura está resuelta: solo cambia con un cambio de estado"],
        date_of_invoice: ["la factura está resuelta: solo cambia con un cambio de estado"],
        audit_comment: ["la factura está resuelta: solo cambia con un cambio de estado"],
        folio: ["la factura resuelta ya tiene folio y no se puede cambiar"],
      });
      for (const field of ["percentage_value", "date_of_invoice", "folio"]) {
        const one = await api.put(`/api/v1/invoices/${inv.id}`, { invoice: { [field]: field === "folio" ? null : 30 } });
        expect(one.status, field).toBe(422);
        expect(Object.keys(one.body.errors), field).toEqual([field]);
      }
    }
    // The form sends every field: unchanged values are not changes.
    const same = await finance.put(`/api/v1/invoices/${inv.id}`, {
      invoice: {
        percentage_value: 20,
        date_of_invoice: before.date_of_invoice,
        folio: " R-1 ",
        audit_comment: before.audit_comment,
      },
    });
    expect(same.status).toBe(200);
    const after = (await finance.get(`/api/v1/invoices/${inv.id}`)).body.invoice;
    expect(after).toMatchObject({
      percentage_value: 20,
      folio: "R-1",
      date_of_invoice: before.date_of_invoice,
      state: "resuelto",
    });
    const del = await admin.delete(`/api/v1/invoices/${inv.id}`);
    expect(del.status).toBe(422);
    expect(del.body.errors.base).toEqual(["No se puede eliminar: la factura está en «Resuelto», un estado final"]);
    expect((await operator.put(`/api/v1/invoices/${inv.id}`, { invoice: { folio: "X" } })).status).toBe(403);
  });

  it("a resolved invoice without folio takes one later, once (SPEC §4: folio then editable)", async () => {
    const p = await buildProject(db());
    const inv = await buildInvoice(db(), p.id, { percentage_value: 15 });
    const resolved = await move(finance, inv.id, "resolver");
    expect(resolved.body.invoice).toMatchObject({ state: "resuelto", folio: null, folio_editable: true, editable: true });
    const capture = await finance.put(`/api/v1/invoices/${inv.id}`, {
      invoice: { folio: "L-9", audit_comment: "Llegó el folio" },
    });
    expect(capture.status).toBe(200);
    expect(capture.body.invoice).toMatchObject({
      folio: "L-9",
      folio_editable: false,
      editable: false,
      audit_comment: "Llegó el folio",
    });
    const again = await finance.put(`/api/v1/invoices/${inv.id}`, { invoice: { folio: "L-10" } });
    expect(again.status).toBe(422);
    expect(again.body.errors.folio).toEqual(["la factura resuelta ya tiene folio y no se puede cambiar"]);
  });

  it("folios are unique across invoices, without case or outer spaces", async () => {
    const p = await buildProject(db());
    const q = await buildProject(db());
    const a = await buildInvoice(db(), p.id);
    const b = await buildInvoice(db(), q.id);
    const c = await buildInvoice(db(), q.id);
    expect((await move(finance, a.id, "resolver", { folio: "Serie-A 001" })).status).toBe(200);
    for (const folio of ["Serie-A 001", "  serie-a 001 ", "SERIE-A 001"]) {
      const res = await move(admin, b.id, "resolver", { folio });
      expect(res.status, folio).toBe(422);
      expect(res.body.errors).toEqual({ folio: ["ya está registrado en otra factura"] });
    }
    expect((await finance.get(`/api/v1/invoices/${b.id}`)).body.invoice.state).toBe("pendiente");
    // Resolved without one, the later capture is checked the same way.
    expect((await move(finance, b.id, "resolver")).status).toBe(200);
    const capture = await finance.put(`/api/v1/invoices/${b.id}`, { invoice: { folio: "serie-a 001" } });
    expect(capture.status).toBe(422);
    expect(capture.body.errors).toEqual({ folio: ["ya está registrado en otra factura"] });
    expect((await move(finance, c.id, "resolver", { folio: "Serie-A 002" })).status).toBe(200);
  });

  it("two parallel resolutions with one folio: one is written, the other gets the same Spanish 422", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await buildInvoice(db(), (await buildProject(db())).id)).id);
    const answers = await Promise.all(ids.map((id) => move(finance, id, "resolver", { folio: "PAR-77" })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const res of answers.filter((r) => r.status !== 200)) {
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ folio: ["ya está registrado en otra factura"] });
    }
  });

  it("the unique index's own violation answers the folio message, never a 500", async () => {
    const p = await buildProject(db());
    await buildInvoice(db(), p.id, { folio: "IDX-1", state: "resuelto" });
    const error = await buildInvoice(db(), p.id, { folio: " idx-1", state: "resuelto" }).catch((e: unknown) => e);
    expect(databaseValidationError(error)?.errors).toEqual({ folio: ["ya está registrado en otra factura"] });
  });

  it("at 100 % the project takes no new invoice", async () => {
    const p = await buildProject(db());
    await buildInvoice(db(), p.id, { percentage_value: 70 });
    await buildInvoice(db(), p.id, { percentage_value: 30, state: "resuelto" });
    const res = await finance.post("/api/v1/invoices", { invoice: { project_id: p.id, percentage_value: 1 } });
    expect(res.status).toBe(422);
    expect(res.body.errors.percentage_value).toEqual(["El proyecto ya está facturado al 100 %: no admite más facturas"]);
    expect(await missing(p.id)).toBe(0);
  });

  it("percentage_to_invoice needs an existing project", async () => {
    expect((await finance.get("/api/v1/invoices/percentage_to_invoice")).status).toBe(422);
    expect((await finance.get("/api/v1/invoices/percentage_to_invoice?project_id=999999")).status).toBe(422);
    expect((await finance.post("/api/v1/invoices", { invoice: { project_id: 999999, percentage_value: 5 } })).status).toBe(422);
  });

  it("roles: operator gets 403; finance cannot delete", async () => {
    const p = await buildProject(db());
    const inv = await buildInvoice(db(), p.id);
    expect((await operator.get("/api/v1/invoices")).status).toBe(403);
    expect((await operator.get(`/api/v1/invoices/percentage_to_invoice?project_id=${p.id}`)).status).toBe(403);
    expect((await operator.post("/api/v1/invoices", { invoice: { project_id: p.id, percentage_value: 5 } })).status).toBe(403);
    expect((await operator.put(`/api/v1/invoices/${inv.id}`, { invoice: { percentage_value: 5 } })).status).toBe(403);
    expect((await move(operator, inv.id, "enviar")).status).toBe(403);
    expect((await finance.delete(`/api/v1/invoices/${inv.id}`)).status).toBe(403);
    expect((await admin.delete(`/api/v1/invoices/${inv.id}`)).status).toBe(200);
  });
});
