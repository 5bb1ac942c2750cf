import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { clients, project_types, projects, prospects, quotations } from "../../server/db/schema";
import { escapeText, toIcs } from "../../server/ports/calendar/ics";
import { listAll } from "../../server/ports/documents";
import { permittedEvents, QUOTATION_EVENTS } from "../../src/core/quotationMachine";
import { buildTestApp, type TestApp } from "../support/app";
import { buildActivity, buildProspect, buildQuotation } from "../support/catalog-factories";
import { type ApiClient, buildProduct, call, signInAs } from "../support/factories";
import { quotationAt as newQuotationAt } from "../support/pipeline";

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let finance: ApiClient;
let adminEmployeeId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const signed = await signInAs(t.app, "admin");
  admin = signed.api;
  adminEmployeeId = signed.employee!.id;
  operator = (await signInAs(t.app, "operator")).api;
  finance = (await signInAs(t.app, "finance")).api;
  await t.app.db.db.insert(project_types).values({ id: 6, name: "Cotización aprobada" }).onConflictDoNothing();
});
afterAll(() => t.close());

const names = async (folderId: string) => (await listAll(t.app.documents, folderId)).map((i) => i.name).sort();
const folder = async (name: string, parent_id?: string) =>
  (await admin.post("/api/v1/drive/folders", { folder: { name, parent_id } })).body.folder;

describe("drive routes", () => {
  it("lists and creates folders; operators read but cannot create; files only for signed-in users", async () => {
    const made = await folder("Rutas");
    expect(made.url).toBe("/drive/folders/Rutas");
    expect((await admin.post("/api/v1/drive/folders", { folder: { name: "Rutas" } })).body.errors.name).toEqual([
      "ya está en uso",
    ]);
    expect((await admin.post("/api/v1/drive/folders", { folder: { name: "../x" } })).status).toBe(422);
    expect((await admin.get("/api/v1/drive/folders?parent_id=..%2F..")).status).toBe(404);
    expect((await admin.get("/api/v1/drive/folders?parent_id=no-existe")).status).toBe(404);
    expect((await operator.get("/api/v1/drive/folders")).status).toBe(200);
    expect((await operator.post("/api/v1/drive/folders", { folder: { name: "x" } })).status).toBe(403);

    await (t.app.documents as import("../../server/ports/documents").LocalDocuments).upload(made.id, "nota.txt", "hola");
    expect((await call(t.app, "GET", "/drive/files/Rutas/nota.txt")).status).toBe(401);
    const file = await call(t.app, "GET", "/drive/files/Rutas/nota.txt", undefined, {
      authorization: `Bearer ${operator.token}`,
    });
    expect(file.status).toBe(200);
    expect(file.text).toBe("hola");
    expect(file.headers["content-disposition"]).toMatch(/^attachment/);
    const page = await call(t.app, "GET", "/drive/folders/Rutas", undefined, { cookie: `sia_session=${operator.token}` });
    expect([200, 401]).toContain(page.status);
    const bearerPage = await call(t.app, "GET", "/drive/folders/Rutas", undefined, { authorization: `Bearer ${operator.token}` });
    expect(bearerPage.text).toContain("nota.txt");
    for (const bad of [
      "/drive/files/..%2F..%2Fetc%2Fpasswd",
      "/drive/files/Rutas/../../../etc/passwd",
      "/drive/files/%2Fetc%2Fpasswd",
    ]) {
      expect((await call(t.app, "GET", bad, undefined, { authorization: `Bearer ${admin.token}` })).status).toBe(404);
    }
  });
});

describe("prospects and their CV_ folder", () => {
  it("creates CV_<name> under the chosen parent or the drive root; refuses URLs outside the drive", async () => {
    const parent = await folder("Prospectos");
    const res = await admin.post("/api/v1/prospects", { prospect: { name: "Ferretería Núñez", drive_root_url: parent.url } });
    expect(res.status).toBe(201);
    expect(res.body.prospect.drive_root_id).toBe("Prospectos/CV_Ferretería Núñez");
    expect(await names(parent.id)).toEqual(["CV_Ferretería Núñez"]);
    const atRoot = await admin.post("/api/v1/prospects", { prospect: { name: "Sin ruta" } });
    expect(atRoot.body.prospect.drive_root_id).toBe("CV_Sin ruta");
    const outside = await admin.post("/api/v1/prospects", {
      prospect: { name: "X", drive_root_url: "https://drive.google.com/drive/folders/abc" },
    });
    expect(outside.status).toBe(422);
    expect(outside.body.errors.drive_root_url).toEqual(["Favor de verificar la ruta del proyecto."]);
  });
});

describe("convert a prospect to a client", () => {
  it("requires a folder", async () => {
    const prospect = await buildProspect(t.app.db.db);
    const res = await admin.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, { client: { name: "Sin carpeta" } });
    expect(res.status).toBe(422);
    expect(res.body.errors.drive_root_id).toEqual(["No se ha seleccionado una carpeta"]);
    expect((await operator.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, { client: {} })).status).toBe(403);
  });

  it("moves the folders, saves the client (was_prospect, next code), deletes the prospect and its old folder", async () => {
    const created = await admin.post("/api/v1/prospects", { prospect: { name: "Óptica Luz" } });
    const prospect = created.body.prospect;
    const cv = prospect.drive_root_id as string;
    await t.app.documents.createFolder(cv, "Cotizaciones");
    await t.app.documents.upload(cv, "notas.txt", "n");
    await buildActivity(t.app.db.db, adminEmployeeId, {
      action_type: "quote",
      ownerable_type: "Prospect",
      ownerable_id: prospect.id,
    });
    const target = await folder("Óptica Luz Cliente");
    const next = (await admin.get("/api/v1/clients/next_client_code")).body.client_code;
    const res = await admin.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, {
      client: { name: "Óptica Luz", drive_root_id: target.id },
    });
    expect(res.status).toBe(201);
    expect(res.body.warning).toBeUndefined();
    expect(res.body.client).toMatchObject({
      name: "Óptica Luz",
      was_prospect: true,
      client_code: next,
      drive_root_id: target.id,
    });
    expect(await names(target.id)).toEqual(
      ["Administración", "Comercial", "Cotizaciones", "notas.txt", "Proyectos", "Soporte Técnico"].sort(),
    );
    expect(await t.app.documents.info(cv)).toBeNull();
    expect((await admin.get(`/api/v1/prospects/${prospect.id}`)).status).toBe(404);
  });

  it("keeps the client and warns when the old folder cannot be removed", async () => {
    const prospect = (await admin.post("/api/v1/prospects", { prospect: { name: "Tenaz" } })).body.prospect;
    const target = await folder("Tenaz Cliente");
    const spy = vi.spyOn(t.app.documents, "delete").mockRejectedValueOnce(new Error("drive caído"));
    const res = await admin.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, {
      client: { name: "Tenaz", drive_root_id: target.id },
    });
    spy.mockRestore();
    expect(res.status).toBe(201);
    expect(res.body.warning).toBe("El folder anterior no se pudo eliminar del drive.");
    expect((await admin.get(`/api/v1/clients/${res.body.client.id}`)).status).toBe(200);
  });

  it("rolls the database back and puts the folders back when the drive fails midway", async () => {
    const prospect = (await admin.post("/api/v1/prospects", { prospect: { name: "Frágil" } })).body.prospect;
    await t.app.documents.upload(prospect.drive_root_id, "a.txt", "a");
    await t.app.documents.upload(prospect.drive_root_id, "b.txt", "b");
    const target = await folder("Frágil Cliente");
    const move = t.app.documents.move.bind(t.app.documents);
    let n = 0;
    const spy = vi.spyOn(t.app.documents, "move").mockImplementation(async (id, parent) => {
      if (++n === 2) throw new Error("drive caído");
      return move(id, parent);
    });
    const res = await admin.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, {
      client: { name: "Frágil", drive_root_id: target.id },
    });
    spy.mockRestore();
    expect(res.status).toBe(422);
    expect(await names(prospect.drive_root_id)).toEqual(["a.txt", "b.txt"]);
    expect(await names(target.id)).toEqual([]);
    expect((await admin.get(`/api/v1/prospects/${prospect.id}`)).status).toBe(200);
    expect(await t.app.db.db.select().from(clients).where(eq(clients.name, "Frágil"))).toEqual([]);
  });
});

describe("quotations", () => {
  it("answers the states with Spanish labels, Finalizada shown as Alta Cliente", async () => {
    const res = await finance.get("/api/v1/quotations/quotation_states");
    expect(res.status).toBe(200);
    expect(res.body.quotation_states).toContainEqual({ id: "finalizada", name: "Alta Cliente" });
    expect(res.body.quotation_states.map((s: { id: string }) => s.id)).toEqual([
      "demo",
      "contract",
      "quote",
      "finalizada",
      "rechazada",
      "cancelada",
    ]);
    expect((await operator.get("/api/v1/quotations/quotation_states")).status).toBe(403);
  });

  it("the machine: one table, permitted events per state", () => {
    expect(permittedEvents("demo").map((e) => e.id)).toEqual(["approve_demo", "reject", "cancel"]);
    expect(permittedEvents("contract").map((e) => e.id)).toEqual(["request_contract", "reject", "cancel"]);
    expect(permittedEvents("quote").map((e) => e.id)).toEqual(["approve_quote", "reject", "cancel"]);
    for (const final of ["finalizada", "rechazada", "cancelada"]) expect(permittedEvents(final)).toEqual([]);
    expect(Object.keys(QUOTATION_EVENTS)).toEqual(["approve_demo", "request_contract", "approve_quote", "reject", "cancel"]);
  });

  it("creates with an event (default one hour), validates attendees, lists with filters and computed names", async () => {
    const product = await buildProduct(t.app.db.db, { name: "Siglo CD" });
    const prospect = await buildProspect(t.app.db.db, { name: "Ñoño, S.A.; de C.V." });
    const bad = await admin.post("/api/v1/quotations", {
      quotation: {
        contact_name: "Ana",
        prospect_id: prospect.id,
        product_catalog_id: product.id,
        event: { starts_at: "2025-03-03T16:00:00Z", attendees: ["ana@", "x@y.mx"] },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors["event.attendees"]).toEqual(["Verifique que los correos ingresados estén correctos."]);
    const res = await admin.post("/api/v1/quotations", {
      quotation: {
        contact_name: "Ana",
        prospect_id: prospect.id,
        product_catalog_id: product.id,
        event: { starts_at: "2025-03-03T16:00:00Z", attendees: ["ana@nono.mx"] },
      },
    });
    expect(res.status).toBe(201);
    const q = res.body.quotation;
    expect(q).toMatchObject({
      state: "demo",
      state_name: "Demo",
      prospect_name: "Ñoño, S.A.; de C.V.",
      product_name: "Siglo CD",
    });
    expect(q.permitted_events.map((e: { id: string }) => e.id)).toEqual(["approve_demo", "reject", "cancel"]);
    expect(q.event.end.dateTime).toBe("2025-03-03T17:00:00.000Z");
    expect(q.event_url).toBe(`/api/v1/quotations/${q.id}/invitation.ics`);
    const ics = await finance.get(`/api/v1/quotations/${q.id}/invitation.ics`);
    expect(ics.status).toBe(200);
    expect(ics.headers["content-type"]).toMatch(/^text\/calendar/);
    expect(ics.text).toContain("SUMMARY:Demostración — Ñoño\\, S.A.\\; de C.V.\r\n");
    expect(ics.text).toContain("DTSTART:20250303T160000Z\r\nDTEND:20250303T170000Z");
    expect(ics.text.replace(/\r\n /g, "")).toContain(
      "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:ana@nono.mx",
    );

    await buildQuotation(t.app.db.db, (await buildProduct(t.app.db.db)).id, prospect.id);
    const byProduct = await finance.get(`/api/v1/quotations?by_product=${encodeURIComponent(JSON.stringify([product.id]))}`);
    expect(byProduct.body.quotations.map((r: { id: number }) => r.id)).toEqual([q.id]);
    const byStatus = await finance.get(
      `/api/v1/quotations?by_status=${encodeURIComponent(JSON.stringify(["finalizada"]))}&by_product=${encodeURIComponent(JSON.stringify([product.id]))}`,
    );
    expect(byStatus.body.quotations).toEqual([]);
    expect((await finance.get(`/api/v1/quotations?by_status=${encodeURIComponent('["nope"]')}`)).status).toBe(422);
    expect((await operator.get("/api/v1/quotations")).status).toBe(403);
    expect((await finance.post("/api/v1/quotations", { quotation: {} })).status).toBe(403);
    expect(
      (await finance.post(`/api/v1/quotations/${q.id}/aasm_transition`, { quotation: { event: "cancel", audit_comment: "x" } }))
        .status,
    ).toBe(403);
  });

  it("refuses by role what the matrix refuses: Finanzas only reads, Operador sees nothing, and neither converts", async () => {
    const product = await buildProduct(t.app.db.db);
    const prospect = await buildProspect(t.app.db.db);
    const q = await buildQuotation(t.app.db.db, product.id, prospect.id);
    const body = { quotation: { contact_name: "Otro" } };
    expect((await finance.get(`/api/v1/quotations/${q.id}`)).status).toBe(200);
    expect((await finance.put(`/api/v1/quotations/${q.id}`, body)).status).toBe(403);
    expect((await finance.delete(`/api/v1/quotations/${q.id}`)).status).toBe(403);
    expect((await operator.get(`/api/v1/quotations/${q.id}`)).status).toBe(403);
    expect((await operator.put(`/api/v1/quotations/${q.id}`, body)).status).toBe(403);
    expect((await operator.get(`/api/v1/quotations/${q.id}/invitation.ics`)).status).toBe(403);
    expect(
      (await operator.post(`/api/v1/quotations/${q.id}/aasm_transition`, { quotation: { event: "cancel", audit_comment: "x" } }))
        .status,
    ).toBe(403);
    expect((await finance.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, { client: { name: "x" } })).status).toBe(
      403,
    );
    const [row] = await t.app.db.db.select().from(quotations).where(eq(quotations.id, q.id));
    expect(row).toMatchObject({ contact_name: "Contacto", state: "demo" });
    expect((await admin.get(`/api/v1/prospects/${prospect.id}`)).status).toBe(200);
  });

  it("edits the event (the invitation's sequence grows) and removes it with null, as the form sends it", async () => {
    const product = await buildProduct(t.app.db.db);
    const prospect = await buildProspect(t.app.db.db);
    const created = await admin.post("/api/v1/quotations", {
      quotation: {
        contact_name: "Eva",
        prospect_id: prospect.id,
        product_catalog_id: product.id,
        event: { starts_at: "2025-05-05T15:00:00.000Z", duration_minutes: 60, summary: null, description: null, attendees: [] },
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.quotation.id;
    const moved = await admin.put(`/api/v1/quotations/${id}`, {
      quotation: { event: { starts_at: "2025-05-06T15:00:00.000Z", duration_minutes: 30, attendees: ["eva@cliente.mx"] } },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.quotation.event).toMatchObject({
      end: { dateTime: "2025-05-06T15:30:00.000Z" },
      duration_minutes: 30,
      sequence: 1,
      attendees: [{ email: "eva@cliente.mx" }],
    });
    expect((await admin.get(`/api/v1/quotations/${id}/invitation.ics`)).text).toContain("SEQUENCE:1");
    // Another field alone leaves the event as it was.
    const renamed = await admin.put(`/api/v1/quotations/${id}`, { quotation: { contact_name: "Eva Ruiz" } });
    expect(renamed.body.quotation.event.sequence).toBe(1);
    const removed = await admin.put(`/api/v1/quotations/${id}`, { quotation: { event: null } });
    expect(removed.status).toBe(200);
    expect(removed.body.quotation).toMatchObject({ event: null, event_id: null, event_url: null });
    expect((await admin.get(`/api/v1/quotations/${id}/invitation.ics`)).status).toBe(404);
  });

  it("escapes iCalendar text and folds long lines", () => {
    expect(escapeText("a\\b;c,d\ne")).toBe("a\\\\b\\;c\\,d\\ne");
    const ics = toIcs({
      uid: "u@sia",
      summary: "x".repeat(200),
      startsAt: new Date(0),
      endsAt: new Date(3_600_000),
      attendees: [],
    });
    for (const line of ics.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(ics.endsWith("END:VCALENDAR\r\n")).toBe(true);
  });

  const quotationAt = (name: string) => newQuotationAt(t.app.db.db, admin, name);
  const transition = (id: number, event: string, audit_comment: string | undefined = "Comentario", extra = {}) =>
    admin.post(`/api/v1/quotations/${id}/aasm_transition`, { quotation: { event, audit_comment }, ...extra });

  it("walks demo → contract → quote → Alta Cliente with its side effects", async () => {
    const { q, prospect, product } = await quotationAt("Molinos Pérez");
    const noComment = await transition(q.id, "approve_demo", "  ");
    expect(noComment.status).toBe(422);
    expect(noComment.body.errors.audit_comment).toEqual(["Por favor, agregue un comentario"]);
    const wrong = await transition(q.id, "approve_quote");
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.invalid_transition[0]).toBe("El evento «Aprobar cotización» no está permitido en el estado «Demo»");

    const demo = await transition(q.id, "approve_demo", "Le gustó la demo");
    expect(demo.status).toBe(200);
    expect(demo.body.quotation).toMatchObject({ state: "contract", audit_comment: "Le gustó la demo" });
    expect(await names(prospect.drive_root_id)).toEqual(["Cotizaciones"]);

    const contract = await transition(q.id, "request_contract");
    expect(contract.body.quotation.state).toBe("quote");
    expect(await names(`${prospect.drive_root_id}/Administración`)).toEqual(["Contrato PLD - Molinos Pérez.docx"]);
    expect(await names("Plantillas")).toEqual(["contrato_pld.docx"]);

    const next = (await admin.get("/api/v1/clients/next_client_code")).body.client_code;
    const approved = await transition(q.id, "approve_quote", "Firmado");
    expect(approved.status).toBe(200);
    expect(approved.body.quotation).toMatchObject({ state: "finalizada", state_name: "Alta Cliente", permitted_events: [] });
    const [client] = await t.app.db.db.select().from(clients).where(eq(clients.id, approved.body.quotation.client_id));
    expect(client).toMatchObject({ name: "Molinos Pérez", client_code: next, was_prospect: true });
    const [project] = await t.app.db.db.select().from(projects).where(eq(projects.id, approved.body.quotation.project_id));
    expect(project).toMatchObject({
      project_type_catalog_id: 6,
      product_catalog_id: product.id,
      client_id: client.id,
      project_code: "PRY-0001",
    });
    // The client's structure, with what the prospect's CV_ folder held (its quotations, the PLD contract).
    expect(await names(client.drive_root_id!)).toEqual(
      ["Administración", "Comercial", "Cotizaciones", "Proyectos", "Soporte Técnico"].sort(),
    );
    expect(await names(`${client.drive_root_id}/Administración`)).toEqual(["Contrato PLD - Molinos Pérez.docx"]);
    expect(await t.app.documents.info(prospect.drive_root_id)).toBeNull();
    expect(await names(project.drive_root_id!)).toHaveLength(9);
    expect(project.drive_root_id!.startsWith(`${client.drive_root_id}/Proyectos/PRY-0001 `)).toBe(true);
  });

  it("rejects and cancels from any open state; final states take no event", async () => {
    const a = (await quotationAt("Rechazo")).q;
    expect((await transition(a.id, "reject")).body.quotation).toMatchObject({ state: "rechazada", state_name: "Rechazada" });
    expect((await transition(a.id, "cancel")).status).toBe(422);
    const b = (await quotationAt("Cancela")).q;
    await transition(b.id, "approve_demo");
    expect((await transition(b.id, "cancel")).body.quotation.state).toBe("cancelada");
    expect((await transition(b.id, "approve_demo")).status).toBe(422);
    expect((await transition(b.id, "fly")).body.errors.event).toBeTruthy();
  });

  it("request_contract answers the PLD message when the copy fails", async () => {
    const { q } = await quotationAt("Sin contrato");
    await transition(q.id, "approve_demo");
    const spy = vi.spyOn(t.app.documents, "copy").mockRejectedValueOnce(new Error("drive caído"));
    const res = await transition(q.id, "request_contract");
    spy.mockRestore();
    expect(res.status).toBe(422);
    expect(res.body.errors.base).toEqual(["No se pudo copiar el archivo del contrato de PLD"]);
    expect((await admin.get(`/api/v1/quotations/${q.id}`)).body.quotation.state).toBe("contract");
  });

  it("approve_quote is all or nothing: a drive failure midway leaves no client, project or folder", async () => {
    const { q } = await quotationAt("Todo o nada");
    await transition(q.id, "approve_demo");
    await transition(q.id, "request_contract");
    const rootBefore = await names(t.app.documents.rootId);
    const clientsBefore = (await t.app.db.db.select().from(clients)).length;
    const projectsBefore = (await t.app.db.db.select().from(projects)).length;
    const create = t.app.documents.createFolder.bind(t.app.documents);
    const spy = vi.spyOn(t.app.documents, "createFolder").mockImplementation(async (parent, name) => {
      if (name === "05 Plan de Trabajo") throw new Error("drive caído");
      return create(parent, name);
    });
    const res = await transition(q.id, "approve_quote", "Firmado");
    spy.mockRestore();
    expect(res.status).toBe(422);
    expect((await t.app.db.db.select().from(clients)).length).toBe(clientsBefore);
    expect((await t.app.db.db.select().from(projects)).length).toBe(projectsBefore);
    expect(await names(t.app.documents.rootId)).toEqual(rootBefore);
    const [row] = await t.app.db.db.select().from(quotations).where(eq(quotations.id, q.id));
    expect(row).toMatchObject({ state: "quote", client_id: null, project_id: null });
    // and it works once the drive is back
    expect((await transition(q.id, "approve_quote", "Firmado")).body.quotation.state).toBe("finalizada");
  });

  it("project drive check repairs missing folders", async () => {
    const { q } = await quotationAt("Reparar");
    await transition(q.id, "approve_demo");
    await transition(q.id, "request_contract");
    const approved = (await transition(q.id, "approve_quote")).body.quotation;
    const [project] = await t.app.db.db.select().from(projects).where(eq(projects.id, approved.project_id));
    await t.app.documents.delete(`${project.drive_root_id}/09 Cierre`);
    const res = await admin.post(`/api/v1/projects/${project.id}/drive_check`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: "Drive Actualizado", repaired: ["se creó «09 Cierre»"] });
    expect((await operator.post(`/api/v1/projects/${project.id}/drive_check`)).status).toBe(403);
    void prospects;
  });
});

describe("one client per won prospect", () => {
  const transition = (id: number, event: string, audit_comment = "Comentario") =>
    admin.post(`/api/v1/quotations/${id}/aasm_transition`, { quotation: { event, audit_comment } });
  const newQuotation = async (prospectId: number, productId: number) =>
    (
      await admin.post("/api/v1/quotations", {
        quotation: { contact_name: "Contacto", prospect_id: prospectId, product_catalog_id: productId },
      })
    ).body.quotation as { id: number };
  const toQuote = async (id: number) => {
    expect((await transition(id, "approve_demo")).status).toBe(200);
    expect((await transition(id, "request_contract")).status).toBe(200);
  };
  const clientsNamed = async (name: string) => t.app.db.db.select().from(clients).where(eq(clients.name, name));

  it("approval links the prospect to its client, moves its documents there, and a second approval adds a project", async () => {
    const product = await buildProduct(t.app.db.db, { name: "Producto Ganado" });
    const prospect = (await admin.post("/api/v1/prospects", { prospect: { name: "Aceros Ganados" } })).body.prospect;
    const first = await newQuotation(prospect.id, product.id);
    await toQuote(first.id);
    const cv = prospect.drive_root_id as string;
    const approved = await transition(first.id, "approve_quote", "Firmado");
    expect(approved.status).toBe(200);
    const [client] = await clientsNamed("Aceros Ganados");
    expect(client).toMatchObject({ prospect_id: prospect.id, was_prospect: true });
    // The prospect's documents are the client's now; its emptied CV_ folder is gone.
    expect(await names(`${client.drive_root_id}/Administración`)).toEqual(["Contrato PLD - Aceros Ganados.docx"]);
    expect(await names(client.drive_root_id!)).toContain("Cotizaciones");
    expect(await t.app.documents.info(cv)).toBeNull();
    const won = (await admin.get(`/api/v1/prospects/${prospect.id}`)).body.prospect;
    expect(won).toMatchObject({ client_id: client.id, client_name: "Aceros Ganados", drive_root_id: null });

    // What would make a second client is refused: conversion, edits; the search finds the client only.
    const convert = await admin.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, {
      client: { name: "Aceros Ganados", drive_root_id: (await folder("Aceros otra")).id },
    });
    expect(convert.status).toBe(422);
    expect(convert.body.errors.base).toEqual([
      "El prospecto «Aceros Ganados» ya es el cliente «Aceros Ganados»: continúe desde el cliente.",
    ]);
    expect((await admin.put(`/api/v1/prospects/${prospect.id}`, { prospect: { name: "Otro nombre" } })).status).toBe(422);
    // Said first, even when the rest of the request is lacking too.
    const bare = await admin.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, { client: { drive_root_id: "" } });
    expect(bare.body.errors.base[0]).toMatch(/^El prospecto «Aceros Ganados» ya es el cliente/);
    // The approval's project starts its history like any project.
    const stages = (await admin.get(`/api/v1/projects/${approved.body.quotation.project_id}/project_stages`)).body.project_stages;
    expect(stages.map((s: { event: string; to_state: string }) => [s.event, s.to_state])).toEqual([["crear", "requerimiento"]]);
    const search = (await admin.get("/api/v1/clients/search_clients_and_prospects?search=Aceros%20Ganados")).body;
    expect(search.prospects).toEqual([]);
    expect(search.clients.map((c: { id: number }) => c.id)).toEqual([client.id]);

    // A second quotation for the same prospect works in the client's folder and adds one project to it.
    const second = await newQuotation(prospect.id, product.id);
    expect((await admin.get(`/api/v1/quotations/${second.id}`)).body.quotation.client_name).toBe("Aceros Ganados");
    await toQuote(second.id);
    expect(await names(`${client.drive_root_id}/Administración`)).toEqual([
      "Contrato PLD - Aceros Ganados (2).docx",
      "Contrato PLD - Aceros Ganados.docx",
    ]);
    const again = await transition(second.id, "approve_quote", "Segundo proyecto");
    expect(again.status).toBe(200);
    expect(again.body.quotation.client_id).toBe(client.id);
    expect(await clientsNamed("Aceros Ganados")).toHaveLength(1);
    const own = await t.app.db.db.select().from(projects).where(eq(projects.client_id, client.id));
    expect(own).toHaveLength(2);
    expect(await names(`${client.drive_root_id}/Proyectos`)).toHaveLength(2);
    expect(new Set(own.map((p) => p.id))).toEqual(new Set([approved.body.quotation.project_id, again.body.quotation.project_id]));
  });

  it("two approvals of one prospect at the same time make one client and two projects", async () => {
    const product = await buildProduct(t.app.db.db);
    const prospect = (await admin.post("/api/v1/prospects", { prospect: { name: "Carrera Doble" } })).body.prospect;
    const a = await newQuotation(prospect.id, product.id);
    const b = await newQuotation(prospect.id, product.id);
    await toQuote(a.id);
    await toQuote(b.id);
    const answers = await Promise.all([transition(a.id, "approve_quote"), transition(b.id, "approve_quote")]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const made = await clientsNamed("Carrera Doble");
    expect(made).toHaveLength(1);
    expect((await t.app.db.db.select().from(projects).where(eq(projects.client_id, made[0].id))).length).toBe(2);
    // And the database itself holds the rule.
    await expect(
      t.app.db.db.insert(clients).values({ name: "Carrera Doble", client_code: "99001", prospect_id: prospect.id }),
    ).rejects.toThrow();
  });

  it("conversion carries open quotations to the client and they go on from there", async () => {
    const product = await buildProduct(t.app.db.db);
    const prospect = (await admin.post("/api/v1/prospects", { prospect: { name: "Conversión Abierta" } })).body.prospect;
    const q = await newQuotation(prospect.id, product.id);
    expect((await transition(q.id, "approve_demo")).status).toBe(200);
    expect((await admin.get(`/api/v1/prospects/${prospect.id}`)).body.prospect.open_quotations).toBe(1);
    const target = await folder("Conversión Abierta");
    const converted = await admin.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, {
      client: { name: "Conversión Abierta", drive_root_id: target.id },
    });
    expect(converted.status).toBe(201);
    const clientId = converted.body.client.id;
    const carried = (await admin.get(`/api/v1/quotations/${q.id}`)).body.quotation;
    expect(carried).toMatchObject({ client_id: clientId, client_name: "Conversión Abierta", state: "contract" });
    const contract = await transition(q.id, "request_contract");
    expect(contract.status).toBe(200);
    expect(await names(`${target.id}/Administración`)).toEqual(["Contrato PLD - Conversión Abierta.docx"]);
    const approved = await transition(q.id, "approve_quote");
    expect(approved.status).toBe(200);
    expect(approved.body.quotation.client_id).toBe(clientId);
    expect(await clientsNamed("Conversión Abierta")).toHaveLength(1);
    const [project] = await t.app.db.db.select().from(projects).where(eq(projects.id, approved.body.quotation.project_id));
    expect(project.client_id).toBe(clientId);
    expect(project.drive_root_id!.startsWith(`${target.id}/Proyectos/`)).toBe(true);
  });

  it("time cannot be logged on a won prospect: it is the client's", async () => {
    const product = await buildProduct(t.app.db.db);
    const prospect = (await admin.post("/api/v1/prospects", { prospect: { name: "Horas Ganadas" } })).body.prospect;
    const before = await buildActivity(t.app.db.db, adminEmployeeId, { ownerable_type: "Prospect", ownerable_id: prospect.id });
    const q = await newQuotation(prospect.id, product.id);
    await toQuote(q.id);
    expect((await transition(q.id, "approve_quote")).status).toBe(200);
    const [client] = await clientsNamed("Horas Ganadas");
    const { activities } = await import("../../server/db/schema");
    const [moved] = await t.app.db.db.select().from(activities).where(eq(activities.id, before.id));
    expect(moved).toMatchObject({ ownerable_type: "Client", ownerable_id: client.id });
  });
});

describe("a won or converted client's folder is its own (decision 027)", () => {
  it("conversion and approval refuse another client's folder or a parent of client folders", async () => {
    const taken = await folder("Carpeta Ocupada");
    const owner = await admin.post("/api/v1/clients", { client: { name: "Dueño de carpeta", drive_root_id: taken.id } });
    expect(owner.status).toBe(201);
    const prospect = (await admin.post("/api/v1/prospects", { prospect: { name: "Busca Carpeta" } })).body.prospect;
    const onTaken = await admin.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, {
      client: { name: "Busca Carpeta", drive_root_id: taken.id },
    });
    expect(onTaken.status).toBe(422);
    expect(onTaken.body.errors.drive_root_id[0]).toMatch(/^la carpeta ya es la del cliente «Dueño de carpeta»/);
    const parent = await folder("Todos los clientes");
    const inside = await folder("Cliente Adentro", parent.id);
    expect((await admin.post("/api/v1/clients", { client: { name: "Cliente Adentro", drive_root_id: inside.id } })).status).toBe(
      201,
    );
    const onParent = await admin.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, {
      client: { name: "Busca Carpeta", drive_root_id: parent.id },
    });
    expect(onParent.status).toBe(422);
    expect(onParent.body.errors.drive_root_id[0]).toMatch(/^la carpeta contiene la carpeta del cliente «Cliente Adentro»/);
    // SIA's own templates folder is nobody's: not as the client's folder, nor as a parent of it.
    await admin.post("/api/v1/drive/folders", { folder: { name: "Plantillas" } });
    for (const id of ["Plantillas", (await folder("Dentro", "Plantillas")).id]) {
      const onTemplates = await admin.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, {
        client: { name: "Busca Carpeta", drive_root_id: id },
      });
      expect(onTemplates.status).toBe(422);
      expect(onTemplates.body.errors.drive_root_id).toEqual([
        "la carpeta «Plantillas» es del SIA (plantillas de documentos): elija o cree otra",
      ]);
    }
    const clientOnTemplates = await admin.post("/api/v1/clients", {
      client: { name: "Plantillero", drive_root_id: "Plantillas" },
    });
    expect(clientOnTemplates.status).toBe(422);
    expect(
      (await admin.post("/api/v1/prospects", { prospect: { name: "En plantillas", drive_root_id: "Plantillas" } })).status,
    ).toBe(422);
    expect((await admin.get(`/api/v1/prospects/${prospect.id}`)).status).toBe(200);

    const product = await buildProduct(t.app.db.db);
    const q = (
      await admin.post("/api/v1/quotations", {
        quotation: { contact_name: "C", prospect_id: prospect.id, product_catalog_id: product.id },
      })
    ).body.quotation;
    const step = (event: string, extra = {}) =>
      admin.post(`/api/v1/quotations/${q.id}/aasm_transition`, { quotation: { event, audit_comment: "x" }, ...extra });
    await step("approve_demo");
    await step("request_contract");
    const approval = await step("approve_quote", { client_hash: { drive_root_id: taken.id } });
    expect(approval.status).toBe(422);
    expect(approval.body.errors.drive_root_id[0]).toMatch(/^la carpeta ya es la del cliente «Dueño de carpeta»/);
    expect((await admin.get(`/api/v1/quotations/${q.id}`)).body.quotation.state).toBe("quote");
  });
});

describe("a conversion and an approval of the same prospect at once", () => {
  it("end with one client, whichever comes first, and no deadlock", async () => {
    for (let round = 0; round < 3; round++) {
      const name = `Carrera Conversión ${round}`;
      const { q, prospect } = await newQuotationAt(t.app.db.db, admin, name);
      const step = (event: string) =>
        admin.post(`/api/v1/quotations/${q.id}/aasm_transition`, { quotation: { event, audit_comment: "x" } });
      await step("approve_demo");
      await step("request_contract");
      const target = await folder(`Destino ${round}`);
      const [approval, conversion] = await Promise.all([
        step("approve_quote"),
        admin.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, { client: { name, drive_root_id: target.id } }),
      ]);
      expect(approval.status, JSON.stringify(approval.body)).toBe(200);
      expect([201, 422], JSON.stringify(conversion.body)).toContain(conversion.status);
      expect(await t.app.db.db.select().from(clients).where(eq(clients.name, name))).toHaveLength(1);
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)("the conversion's lock order (PostgreSQL: two connections)", () => {
  it("takes the quotations before the prospect, as a transition does, so the two cannot deadlock", async () => {
    const { q, prospect } = await newQuotationAt(t.app.db.db, admin, "Orden de Candados");
    const target = await folder("Orden de Candados");
    const other = await (t.app.db.pool as import("pg").Pool).connect();
    try {
      // A transition's first two steps, held by another connection: the quotation, then (below) the prospect.
      await other.query("begin");
      await other.query("select id from quotations where id = $1 for update", [q.id]);
      const conversion = admin.post(`/api/v1/prospects/${prospect.id}/convert_to_client`, {
        client: { name: "Orden de Candados", drive_root_id: target.id },
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await other.query("select id from prospects where id = $1 for update", [prospect.id]);
      await other.query("commit");
      expect((await conversion).status).toBe(201);
    } finally {
      other.release();
    }
  });
});
