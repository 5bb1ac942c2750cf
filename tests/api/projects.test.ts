import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  activities,
  audit_logs,
  employee_positions,
  estimated_work_hours,
  notifications,
  projects,
} from "../../server/db/schema";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildClient, buildProduct, buildUser, signInAs } from "../support/factories";
import { projectBasics as buildBasics, buildInvoice, buildProject } from "../support/project-factories";

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let finance: ApiClient;
let adminEmployeeId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const a = await signInAs(t.app, "admin");
  admin = a.api;
  adminEmployeeId = a.employee?.id as number;
  operator = (await signInAs(t.app, "operator")).api;
  finance = (await signInAs(t.app, "finance")).api;
});
afterAll(() => t.close());

const db = () => t.app.db.db;
const projectBasics = () => buildBasics(db());
const transition = (api: ApiClient, id: number, event: string, extra: Record<string, unknown> = {}) =>
  api.post(`/api/v1/projects/${id}/aasm_transition`, { project: { event, audit_comment: `Comentario ${event}`, ...extra } });

describe("projects: create, code, read", () => {
  it("creates with the next project code, records the 'crear' stage and an audit row", async () => {
    const code = await admin.get("/api/v1/projects/get_next_project_code");
    expect(code.status).toBe(200);
    expect(code.body.next_project_code).toMatch(/^PRY-\d{4,}$/);
    const client = await buildClient(db(), { name: "Cliente Ñ" });
    const product = await buildProduct(db(), { name: "Siglo CD" });
    const res = await admin.post("/api/v1/projects", {
      project: {
        name: "Implementación",
        project_code: code.body.next_project_code,
        ...(await projectBasics()),
        client_id: client.id,
        product_catalog_id: product.id,
        pm_id: adminEmployeeId,
        eta: "2030-01-31",
        color_tag: "#aabbcc",
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.project).toMatchObject({
      project_code: code.body.next_project_code,
      state: "requerimiento",
      aasm_statuses_with_i18n: "Requerimiento",
      client_name: "Cliente Ñ",
      product_name: "Siglo CD",
      color_tag: "#AABBCC",
      invoiced_percentage: 0,
    });
    expect(res.body.project.pm_name).toBeTruthy();
    expect(res.body.project.permitted_events.map((e: { name: string }) => e.name).sort()).toEqual([
      "cancelar",
      "enviar_propuesta",
      "no_autorizar",
    ]);
    const next = await admin.get("/api/v1/projects/get_next_project_code");
    expect(next.body.next_project_code).not.toBe(code.body.next_project_code);
    const stages = await admin.get(`/api/v1/projects/${res.body.project.id}/project_stages`);
    expect(stages.body.project_stages).toHaveLength(1);
    expect(stages.body.project_stages[0]).toMatchObject({ event: "crear", to_state: "requerimiento" });
    const logs = await admin.get(`/api/v1/projects/${res.body.project.id}/audit_logs`);
    expect(logs.body.audit_logs.map((l: { field: string }) => l.field).sort()).toEqual(["eta", "state"]);
  });

  it("assigns a code when '0' or missing, and state cannot be written by create or update", async () => {
    const client = await buildClient(db());
    const res = await admin.post("/api/v1/projects", {
      project: { name: "Sin código", client_id: client.id, state: "terminado", ...(await projectBasics()) },
    });
    expect(res.status).toBe(201);
    expect(res.body.project.project_code).toMatch(/^PRY-/);
    expect(res.body.project.state).toBe("requerimiento");
    const upd = await admin.put(`/api/v1/projects/${res.body.project.id}`, { project: { state: "terminado", name: "Otro" } });
    expect(upd.status).toBe(200);
    expect(upd.body.project).toMatchObject({ state: "requerimiento", name: "Otro" });
  });

  it("answers 422 in Spanish for missing fields", async () => {
    const res = await admin.post("/api/v1/projects", { project: { name: "" } });
    expect(res.status).toBe(422);
    expect(res.body.errors.name).toEqual(["es obligatorio"]);
    expect(res.body.errors.client_id).toBeDefined();
  });

  it("type, product and date are required: create and update cannot leave them empty", async () => {
    const client = await buildClient(db());
    const basics = await projectBasics();
    const missing = await admin.post("/api/v1/projects", { project: { name: "Sin datos", client_id: client.id } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toMatchObject({
      project_type_catalog_id: ["es obligatorio"],
      product_catalog_id: ["es obligatorio"],
      project_date: ["es obligatorio"],
    });
    const empty = await admin.post("/api/v1/projects", {
      project: { name: "Vacíos", client_id: client.id, project_type_catalog_id: "", product_catalog_id: null, project_date: "" },
    });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.errors).sort()).toEqual(["product_catalog_id", "project_date", "project_type_catalog_id"]);
    const made = await admin.post("/api/v1/projects", { project: { name: "Completo", client_id: client.id, ...basics } });
    expect(made.status).toBe(201);
    const id = made.body.project.id;
    for (const cleared of [
      { project_type_catalog_id: null },
      { product_catalog_id: "" },
      { project_date: null },
      { project_date: "" },
      { project_type_catalog_id: "null" },
    ]) {
      const res = await admin.put(`/api/v1/projects/${id}`, { project: cleared });
      expect(res.status, JSON.stringify(cleared)).toBe(422);
      expect(res.body.errors[Object.keys(cleared)[0]]).toEqual(["es obligatorio"]);
    }
    // The ETA extension cannot clear them either.
    const extend = await admin.post(`/api/v1/projects/${id}/extend_project`, {
      project: { eta: "2031-01-01", audit_comment: "Más tiempo", project_date: null, project_type_catalog_id: "" },
    });
    expect(extend.status).toBe(422);
    expect(Object.keys(extend.body.errors).sort()).toEqual(["project_date", "project_type_catalog_id"]);
    // An update that leaves them out keeps them.
    const rename = await admin.put(`/api/v1/projects/${id}`, { project: { name: "Renombrado" } });
    expect(rename.status).toBe(200);
    expect(rename.body.project).toMatchObject({ name: "Renombrado", ...basics });
  });

  it("an ETA changed by an edit needs a comment and is audited", async () => {
    const p = await buildProject(db(), { eta: "2030-01-01" });
    const no = await admin.put(`/api/v1/projects/${p.id}`, { project: { eta: "2030-02-01" } });
    expect(no.status).toBe(422);
    expect(no.body.errors.audit_comment).toEqual(["Por favor, agregue un comentario"]);
    const ok = await admin.put(`/api/v1/projects/${p.id}`, {
      project: { eta: "2030-02-01", audit_comment: "El cliente pidió más tiempo" },
    });
    expect(ok.status).toBe(200);
    const logs = await admin.get(`/api/v1/projects/${p.id}/audit_logs`);
    expect(logs.body.audit_logs).toEqual([
      expect.objectContaining({
        field: "eta",
        old_value: "2030-01-01",
        new_value: "2030-02-01",
        comment: "El cliente pidió más tiempo",
      }),
    ]);
  });

  it("roles: operator and finance read but do not write", async () => {
    const p = await buildProject(db());
    expect((await operator.get("/api/v1/projects")).status).toBe(200);
    expect((await operator.get(`/api/v1/projects/${p.id}`)).status).toBe(200);
    expect((await operator.get(`/api/v1/projects/${p.id}`)).body.project.permitted_events).toEqual([]);
    expect((await operator.post("/api/v1/projects", { project: { name: "x", client_id: p.client_id } })).status).toBe(403);
    expect((await operator.put(`/api/v1/projects/${p.id}`, { project: { name: "x" } })).status).toBe(403);
    expect((await operator.delete(`/api/v1/projects/${p.id}`)).status).toBe(403);
    expect((await transition(operator, p.id, "enviar_propuesta")).status).toBe(403);
    expect((await transition(finance, p.id, "enviar_propuesta")).status).toBe(403);
    expect((await operator.post(`/api/v1/projects/${p.id}/completely_invoiced`)).status).toBe(403);
    expect((await operator.post(`/api/v1/projects/${p.id}/notify_user`)).status).toBe(403);
    expect(
      (await operator.post(`/api/v1/projects/${p.id}/extend_project`, { project: { eta: "2031-01-01", audit_comment: "x" } }))
        .status,
    ).toBe(403);
    expect((await operator.get("/api/v1/projects/get_next_project_code")).status).toBe(403);
    expect((await operator.get("/api/v1/projects.csv")).status).toBe(403);
  });
});

describe("projects: state events", () => {
  it("walks the whole happy path, with history and audit rows", async () => {
    const p = await buildProject(db(), { eta: "2030-01-01" });
    const path: Array<[string, string]> = [
      ["enviar_propuesta", "propuesta"],
      ["iniciar_ejecucion", "en_ejecucion"],
      ["enviar_a_validacion", "validacion_cliente"],
      ["solicitar_autorizacion", "autorizacion_cliente"],
      ["regresar_a_ejecucion", "en_ejecucion"],
      ["enviar_a_validacion", "validacion_cliente"],
      ["solicitar_autorizacion", "autorizacion_cliente"],
      ["iniciar_garantia", "garantia"],
      ["regresar_a_ejecucion", "en_ejecucion"],
      ["enviar_a_validacion", "validacion_cliente"],
      ["solicitar_autorizacion", "autorizacion_cliente"],
      ["iniciar_garantia", "garantia"],
      ["terminar", "terminado"],
    ];
    for (const [event, state] of path) {
      const res = await transition(admin, p.id, event, { date: "2029-05-05", responsible_id: adminEmployeeId });
      expect(res.status, `${event}: ${res.text}`).toBe(200);
      expect(res.body.project.state).toBe(state);
    }
    const stages = await admin.get(`/api/v1/projects/${p.id}/project_stages`);
    expect(stages.body.project_stages).toHaveLength(path.length);
    expect(stages.body.project_stages[0]).toMatchObject({
      event: "enviar_propuesta",
      from_state: "requerimiento",
      to_state: "propuesta",
      comment: "Comentario enviar_propuesta",
      stage_date: "2029-05-05",
      responsible_id: adminEmployeeId,
      to_state_label: "Propuesta",
    });
    expect(stages.body.project_stages[0].user_name).toBeTruthy();
    const stateLogs = await db().select().from(audit_logs).where(eq(audit_logs.auditable_id, p.id));
    expect(stateLogs.filter((l) => l.auditable_type === "Project" && l.field === "state")).toHaveLength(path.length);
  });

  it("refuses an event not permitted in the current state with 422 invalid_transition", async () => {
    const p = await buildProject(db());
    const res = await transition(admin, p.id, "terminar");
    expect(res.status).toBe(422);
    expect(res.body.errors.invalid_transition[0]).toContain("Terminar");
    const unknown = await transition(admin, p.id, "volar");
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.invalid_transition).toBeDefined();
    const system = await transition(admin, (await buildProject(db(), { state: "garantia" })).id, "cerrar_garantia");
    expect(system.status).toBe(422);
    expect((await db().select().from(projects).where(eq(projects.id, p.id)))[0].state).toBe("requerimiento");
  });

  it("requires the comment: 'Por favor, agregue un comentario'", async () => {
    const p = await buildProject(db());
    for (const audit_comment of [undefined, "", "   "]) {
      const res = await admin.post(`/api/v1/projects/${p.id}/aasm_transition`, {
        project: { event: "enviar_propuesta", audit_comment },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors.audit_comment).toEqual(["Por favor, agregue un comentario"]);
    }
    expect((await db().select().from(projects).where(eq(projects.id, p.id)))[0].state).toBe("requerimiento");
  });

  it("cancels, refuses, and reactivates (admin only) archived projects", async () => {
    const c = await buildProject(db(), { state: "en_ejecucion" });
    expect((await transition(admin, c.id, "cancelar")).body.project.state).toBe("cancelado");
    const shown = await admin.get(`/api/v1/projects/${c.id}`);
    expect(shown.body.project.permitted_events).toEqual([expect.objectContaining({ name: "reactivar", admin_only: true })]);
    expect((await transition(admin, c.id, "reactivar")).body.project.state).toBe("en_ejecucion");

    const n = await buildProject(db(), { state: "propuesta" });
    expect((await transition(admin, n.id, "no_autorizar")).body.project.state).toBe("no_autorizado");
    expect((await transition(admin, n.id, "reactivar")).status).toBe(422);
    expect((await transition(admin, n.id, "reactivar_propuesta")).body.project.state).toBe("propuesta");

    const g = await buildProject(db(), { state: "garantia" });
    expect((await transition(admin, g.id, "cancelar")).status).toBe(422);
  });

  it("the transition date, responsible and ETA are stored; a bad responsible is a 422", async () => {
    const p = await buildProject(db(), { eta: "2030-01-01" });
    const bad = await transition(admin, p.id, "enviar_propuesta", { responsible_id: 999999 });
    expect(bad.status).toBe(422);
    const ok = await transition(admin, p.id, "enviar_propuesta", { eta: "2030-06-30", date: "bad" });
    expect(ok.status).toBe(422);
    expect(ok.body.errors.date).toBeDefined();
    const good = await transition(admin, p.id, "enviar_propuesta", { eta: "2030-06-30" });
    expect(good.body.project.eta).toBe("2030-06-30");
    const logs = await admin.get(`/api/v1/projects/${p.id}/audit_logs`);
    expect(logs.body.audit_logs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          field: "state",
          old_value: "requerimiento",
          new_value: "propuesta",
          comment: "Comentario enviar_propuesta",
        }),
        expect.objectContaining({ field: "eta", old_value: "2030-01-01", new_value: "2030-06-30" }),
      ]),
    );
  });

  it("two concurrent transitions: exactly one applies, the other gets 422", async () => {
    // From garantia, terminar and regresar_a_ejecucion exclude each other.
    const p = await buildProject(db(), { state: "garantia" });
    const results = await Promise.all([transition(admin, p.id, "terminar"), transition(admin, p.id, "regresar_a_ejecucion")]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 422]);
    const loser = results.find((r) => r.status === 422);
    expect(loser?.body.errors.invalid_transition).toBeDefined();
    const stages = await admin.get(`/api/v1/projects/${p.id}/project_stages`);
    expect(stages.body.project_stages).toHaveLength(1);

    const q = await buildProject(db(), { state: "requerimiento" });
    const same = await Promise.all([1, 2, 3].map(() => transition(admin, q.id, "enviar_propuesta")));
    expect(same.filter((r) => r.status === 200)).toHaveLength(1);
    expect(same.filter((r) => r.status === 422)).toHaveLength(2);
  });
});

describe("projects: ETA, invoicing, notify, delete", () => {
  it("extends the ETA only forward, with a comment, audited", async () => {
    const p = await buildProject(db(), { eta: "2030-01-01" });
    const noComment = await admin.post(`/api/v1/projects/${p.id}/extend_project`, { project: { eta: "2030-03-01" } });
    expect(noComment.status).toBe(422);
    expect(noComment.body.errors.audit_comment).toEqual(["Por favor, agregue un comentario"]);
    const earlier = await admin.post(`/api/v1/projects/${p.id}/extend_project`, {
      project: { eta: "2029-12-01", audit_comment: "x" },
    });
    expect(earlier.status).toBe(422);
    expect(earlier.body.errors.eta).toEqual(["debe ser posterior a la fecha estimada actual (01/01/2030)"]);
    const noEta = await admin.post(`/api/v1/projects/${p.id}/extend_project`, { project: { audit_comment: "x" } });
    expect(noEta.status).toBe(422);
    const ok = await admin.post(`/api/v1/projects/${p.id}/extend_project`, {
      project: { eta: "2030-03-01", audit_comment: "Retraso del cliente", name: "Renombrado" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.project).toMatchObject({ eta: "2030-03-01", name: "Renombrado", audit_comment: "Retraso del cliente" });
    const logs = await admin.get(`/api/v1/projects/${p.id}/audit_logs`);
    expect(logs.body.audit_logs).toEqual([
      expect.objectContaining({ field: "eta", old_value: "2030-01-01", new_value: "2030-03-01", comment: "Retraso del cliente" }),
    ]);
  });

  it("invoicing action: finance and admin mark completely / partially invoiced", async () => {
    const p = await buildProject(db());
    await buildInvoice(db(), p.id, { percentage_value: 100 });
    const full = await finance.post(`/api/v1/projects/${p.id}/completely_invoiced`, {
      project: { audit_comment: "Todo facturado" },
    });
    expect(full.status).toBe(200);
    expect(full.body.project).toMatchObject({
      invoice_action: "completely_invoiced",
      invoice_action_label: "100% facturas ya realizadas",
    });
    const part = await admin.post(`/api/v1/projects/${p.id}/partially_invoiced`);
    expect(part.body.project.invoice_action).toBe("partially_invoiced");
    const logs = await admin.get(`/api/v1/projects/${p.id}/audit_logs`);
    expect(logs.body.audit_logs.map((l: { new_value: string }) => l.new_value)).toEqual([
      "completely_invoiced",
      "partially_invoiced",
    ]);
  });

  it("«100% facturas ya realizadas» only when the invoices add up to 100 %, cancelled ones aside", async () => {
    const p = await buildProject(db());
    const refused = async (api: ApiClient, invoiced: number) => {
      const res = await api.post(`/api/v1/projects/${p.id}/completely_invoiced`, { project: { audit_comment: "Listo" } });
      expect(res.status).toBe(422);
      expect(res.body.errors.base).toEqual([
        `Solo se puede marcar «100% facturas ya realizadas» cuando las facturas del proyecto suman 100 %; hoy suman ${invoiced} % (sin contar las canceladas)`,
      ]);
    };
    await refused(admin, 0);
    await buildInvoice(db(), p.id, { percentage_value: 10 });
    await refused(finance, 10);
    await buildInvoice(db(), p.id, { percentage_value: 80, state: "resuelto" });
    await buildInvoice(db(), p.id, { percentage_value: 10, state: "cancelada" });
    await refused(admin, 90);
    expect((await operator.post(`/api/v1/projects/${p.id}/completely_invoiced`)).status).toBe(403);
    const [row] = await db().select().from(projects).where(eq(projects.id, p.id));
    expect(row.invoice_action).toBeNull();
    // Partially invoiced is always accepted.
    expect((await finance.post(`/api/v1/projects/${p.id}/partially_invoiced`)).status).toBe(200);
  });

  it("the flag follows the invoices: cancelling, lowering or deleting one takes the project back to partially invoiced", async () => {
    const p = await buildProject(db());
    const a = await buildInvoice(db(), p.id, { percentage_value: 60 });
    const b = await buildInvoice(db(), p.id, { percentage_value: 40 });
    const mark = () => finance.post(`/api/v1/projects/${p.id}/completely_invoiced`, { project: { audit_comment: "Todo" } });
    const action = async () => (await admin.get(`/api/v1/projects/${p.id}`)).body.project.invoice_action;

    expect((await mark()).status).toBe(200);
    // Lowered: 60 + 30 = 90 %.
    expect(
      (await finance.put(`/api/v1/invoices/${b.id}`, { invoice: { percentage_value: 30, audit_comment: "Ajuste" } })).status,
    ).toBe(200);
    expect(await action()).toBe("partially_invoiced");
    expect((await finance.put(`/api/v1/invoices/${b.id}`, { invoice: { percentage_value: 40 } })).status).toBe(200);
    expect(await action()).toBe("partially_invoiced");

    expect((await mark()).status).toBe(200);
    // Cancelled.
    const cancel = await finance.post(`/api/v1/invoices/${b.id}/aasm_transition`, {
      invoice: { event: "cancelar", audit_comment: "Se emitió mal" },
    });
    expect(cancel.status).toBe(200);
    expect(await action()).toBe("partially_invoiced");
    const logs = (await admin.get(`/api/v1/projects/${p.id}/audit_logs`)).body.audit_logs as Array<Record<string, unknown>>;
    expect(logs.at(-1)).toMatchObject({
      field: "invoice_action",
      old_value: "completely_invoiced",
      new_value: "partially_invoiced",
      comment: "Las facturas del proyecto ya no suman 100 % (hoy 60 %): queda como parcialmente facturado",
    });
    expect(logs.at(-1)?.user_name).toBeTruthy();

    // Deleted (an administrator deletes a pending invoice).
    const c = await finance.post("/api/v1/invoices", { invoice: { project_id: p.id, percentage_value: 40 } });
    expect(c.status).toBe(201);
    expect((await mark()).status).toBe(200);
    expect((await admin.delete(`/api/v1/invoices/${c.body.invoice.id}`)).status).toBe(200);
    expect(await action()).toBe("partially_invoiced");
    expect(a.id).toBeTruthy();
  });

  it("marking 100 % while an invoice is cancelled: the flag never stays on a project below 100 %", async () => {
    for (let round = 0; round < 4; round++) {
      const p = await buildProject(db());
      await buildInvoice(db(), p.id, { percentage_value: 50 });
      const b = await buildInvoice(db(), p.id, { percentage_value: 50 });
      await Promise.all([
        finance.post(`/api/v1/projects/${p.id}/completely_invoiced`, { project: { audit_comment: "Todo" } }),
        finance.post(`/api/v1/invoices/${b.id}/aasm_transition`, { invoice: { event: "cancelar", audit_comment: "Mal" } }),
      ]);
      const project = (await admin.get(`/api/v1/projects/${p.id}`)).body.project;
      expect(project.invoiced_percentage).toBe(50);
      expect(project.invoice_action, `round ${round}`).not.toBe("completely_invoiced");
    }
  });

  it("notify_user records a notification for the PM and responsible users; no e-mail yet", async () => {
    const pm = await buildUser(db(), "operator");
    const rape = await buildUser(db(), "operator");
    const p = await buildProject(db(), { pm_id: pm.employee?.id, rape_id: rape.employee?.id });
    const res = await admin.post(`/api/v1/projects/${p.id}/notify_user`, { project: { message: "Revisen la ETA" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ notified: 2, email_sent: false });
    const rows = await db().select().from(notifications).where(eq(notifications.message, "Revisen la ETA"));
    expect(rows.map((r) => r.user_id).sort()).toEqual([pm.user.id, rape.user.id].sort());
    const nobody = await buildProject(db());
    expect((await admin.post(`/api/v1/projects/${nobody.id}/notify_user`)).status).toBe(422);
  });

  it("delete is refused while invoices, activities or estimated hours exist", async () => {
    const withInvoice = await buildProject(db());
    await buildInvoice(db(), withInvoice.id);
    const res = await admin.delete(`/api/v1/projects/${withInvoice.id}`);
    expect(res.status).toBe(422);
    expect(res.body.errors.base[0]).toContain("1 factura,");

    const withHours = await buildProject(db());
    const [position] = await db()
      .insert(employee_positions)
      .values({ name: `Puesto ${withHours.id}` })
      .returning();
    await db()
      .insert(estimated_work_hours)
      .values({ project_id: withHours.id, employee_position_id: position.id, estimated_hours: 10 });
    expect((await admin.delete(`/api/v1/projects/${withHours.id}`)).status).toBe(422);

    const withActivity = await buildProject(db());
    await db()
      .insert(activities)
      .values({
        employee_id: adminEmployeeId,
        begins_at: new Date("2029-01-01T15:00:00Z"),
        ends_at: new Date("2029-01-01T16:00:00Z"),
        description: "Trabajo",
        action_type: "project",
        project_id: withActivity.id,
      });
    expect((await admin.delete(`/api/v1/projects/${withActivity.id}`)).status).toBe(422);

    const free = await buildProject(db());
    await transition(admin, free.id, "enviar_propuesta");
    expect((await admin.delete(`/api/v1/projects/${free.id}`)).status).toBe(200);
  });
});

describe("projects: list filters and CSV", () => {
  it("by_status vigentes / archivados / todos / state keys", async () => {
    const client = await buildClient(db());
    const states = ["requerimiento", "en_ejecucion", "garantia", "terminado", "cancelado", "no_autorizado"] as const;
    const made = Object.fromEntries(
      await Promise.all(states.map(async (s) => [s, (await buildProject(db(), { state: s, client_id: client.id })).id])),
    );
    const ids = async (query: string) =>
      ((await admin.get(`/api/v1/projects?per_page=all&by_client=${client.id}&${query}`)).body.projects as Array<{ id: number }>)
        .map((p) => p.id)
        .sort();
    const sorted = (...keys: string[]) => keys.map((k) => made[k]).sort();
    expect(await ids(`by_status=${encodeURIComponent('["vigentes"]')}`)).toEqual(
      sorted("requerimiento", "en_ejecucion", "garantia"),
    );
    expect(await ids(`by_status=${encodeURIComponent('["archivados"]')}`)).toEqual(
      sorted("terminado", "cancelado", "no_autorizado"),
    );
    expect(await ids(`by_status=${encodeURIComponent('["todos"]')}`)).toEqual(sorted(...states));
    expect(await ids(`by_status=${encodeURIComponent('["garantia","cancelado"]')}`)).toEqual(sorted("garantia", "cancelado"));
    const bad = await admin.get(`/api/v1/projects?by_status=${encodeURIComponent('["otro"]')}`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.by_status).toBeDefined();
  });

  it("type, product, pm, rape, involved employee, invoiced and search filters", async () => {
    const product = await buildProduct(db());
    const client = await buildClient(db());
    const pm = await buildUser(db(), "operator");
    const worker = await buildUser(db(), "operator");
    const a = await buildProject(db(), {
      client_id: client.id,
      product_catalog_id: product.id,
      pm_id: pm.employee?.id,
      name: "Migración Zeta",
    });
    const b = await buildProject(db(), { client_id: client.id, rape_id: pm.employee?.id, invoice_action: "completely_invoiced" });
    const c = await buildProject(db(), { client_id: client.id });
    await db()
      .insert(activities)
      .values({
        employee_id: worker.employee?.id as number,
        begins_at: new Date("2029-02-01T15:00:00Z"),
        ends_at: new Date("2029-02-01T16:00:00Z"),
        description: "x",
        action_type: "project",
        project_id: c.id,
      });
    const ids = async (query: string) =>
      ((await admin.get(`/api/v1/projects?per_page=all&by_client=${client.id}&${query}`)).body.projects as Array<{ id: number }>)
        .map((p) => p.id)
        .sort();
    expect(await ids(`by_product=${encodeURIComponent(`[${product.id}]`)}`)).toEqual([a.id]);
    expect(await ids(`by_pm=${pm.employee?.id}`)).toEqual([a.id]);
    expect(await ids(`by_rape=${pm.employee?.id}`)).toEqual([b.id]);
    expect(await ids(`involved_projects_by_employee=${pm.employee?.id}`)).toEqual([a.id, b.id].sort());
    expect(await ids(`involved_projects_by_employee=${worker.employee?.id}`)).toEqual([c.id]);
    expect(await ids("ignore_proyect_invoiced=true")).toEqual([a.id, c.id].sort());
    expect(await ids("search=migracion zeta")).toEqual([a.id]);
  });

  it("downloads projects.csv with Spanish headers", async () => {
    const p = await buildProject(db(), { name: "=Fórmula", state: "garantia" });
    const res = await finance.get(`/api/v1/projects.csv?search=${encodeURIComponent("Fórmula")}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    expect(res.headers["content-disposition"]).toContain("projects.csv");
    const lines = res.text.replace(/^\uFEFF/, "").split("\r\n");
    // Every header in Spanish: the leader and the estimated date as the screens name them, never «PM» or «ETA».
    expect(lines[0]).toBe(
      "ID,Código,Nombre,Cliente,Tipo de proyecto,Producto,Líder de proyecto,Responsable,Estado,Fecha del proyecto," +
        "Fecha estimada de entrega,Porcentaje facturado,Facturación",
    );
    expect(lines[1]).toContain(p.project_code);
    expect(lines[1]).toContain("'=Fórmula");
    expect(lines[1]).toContain("Garantía");
  });
});
