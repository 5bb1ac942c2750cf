/**
 * What a project's history keeps, walked as its administrators use it: a comment saved on its own
 * survives the next state change, the responsible chosen in a state change becomes the project's
 * «Responsable (RAPE)», a move to another client is in the change log, and an ETA before the project's
 * date is refused by the state change as by «Extender fecha estimada» and the form.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { employees } from "../../server/db/schema";
import { messages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildClient, signInAs } from "../support/factories";
import { projectBasics } from "../support/project-factories";

let t: TestApp;
let admin: ApiClient;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAs(t.app, "admin")).api;
});
afterAll(() => t.close());

const db = () => t.app.db.db;
type Log = { field: string; old_value: string | null; new_value: string | null; comment: string | null };

async function newProject(extra: Record<string, unknown> = {}) {
  const client = await buildClient(db(), { name: `Cliente ${Math.random().toString(36).slice(2, 7)}` });
  const res = await admin.post("/api/v1/projects", {
    project: { name: "Historia", ...(await projectBasics(db())), client_id: client.id, ...extra },
  });
  expect(res.status).toBe(201);
  return res.body.project as { id: number; project_date: string; client_id: number; client_name: string };
}
const transition = (id: number, event: string, extra: Record<string, unknown> = {}) =>
  admin.post(`/api/v1/projects/${id}/aasm_transition`, { project: { event, audit_comment: `Evento ${event}`, ...extra } });
const logs = async (id: number) => (await admin.get(`/api/v1/projects/${id}/audit_logs`)).body.audit_logs as Log[];
const show = async (id: number) => (await admin.get(`/api/v1/projects/${id}`)).body.project;
const employee = async (name: string) =>
  (
    await db()
      .insert(employees)
      .values({ name, employee_code: `E-${Math.random().toString(36).slice(2, 9)}` })
      .returning()
  )[0];

describe("a comment saved on its own stays in the project's history", () => {
  it("«Guardar comentario», then a state change: the comment is still in the change log", async () => {
    const project = await newProject();
    const saved = await admin.put(`/api/v1/projects/${project.id}`, {
      project: { audit_comment: "El cliente pidió otra reunión" },
    });
    expect(saved.status).toBe(200);
    expect((await transition(project.id, "enviar_propuesta")).status).toBe(200);
    expect((await show(project.id)).audit_comment).toBe("Evento enviar_propuesta");

    const trail = await logs(project.id);
    const note = trail.find((row) => row.comment === "El cliente pidió otra reunión");
    expect(note).toMatchObject({ field: "audit_comment" });
    // The state change that followed keeps its own comment.
    expect(trail.find((row) => row.field === "state" && row.new_value === "propuesta")?.comment).toBe("Evento enviar_propuesta");
  });

  it("two comments in a row are both kept; an edit that repeats the last one adds nothing", async () => {
    const project = await newProject();
    for (const text of ["Primera nota", "Segunda nota"]) {
      expect((await admin.put(`/api/v1/projects/${project.id}`, { project: { audit_comment: text } })).status).toBe(200);
    }
    // The edit form sends the comment it read back with every field: that is not a new comment.
    expect(
      (await admin.put(`/api/v1/projects/${project.id}`, { project: { name: "Otro nombre", audit_comment: "Segunda nota" } }))
        .status,
    ).toBe(200);
    const notes = (await logs(project.id)).filter((row) => row.field === "audit_comment").map((row) => row.comment);
    expect(notes).toEqual(["Primera nota", "Segunda nota"]);
  });
});

describe("the responsible chosen in a state change is the project's responsible", () => {
  it("sets «Responsable (RAPE)» and logs the change by name", async () => {
    const project = await newProject();
    const ana = await employee("Ana Responsable");
    const res = await transition(project.id, "enviar_propuesta", { responsible_id: ana.id });
    expect(res.status).toBe(200);
    expect(res.body.project).toMatchObject({ rape_id: ana.id, rape_name: "Ana Responsable" });
    const stages = (await admin.get(`/api/v1/projects/${project.id}/project_stages`)).body.project_stages;
    expect(stages.at(-1)).toMatchObject({ responsible_id: ana.id, responsible_name: "Ana Responsable" });
    expect((await logs(project.id)).find((row) => row.field === "rape_id")).toMatchObject({
      old_value: null,
      new_value: "Ana Responsable",
      comment: "Evento enviar_propuesta",
    });

    // A state change without a responsible leaves the project's as it was.
    expect((await transition(project.id, "iniciar_ejecucion")).body.project.rape_id).toBe(ana.id);
  });

  it("refuses an employee that does not exist with a Spanish 422, and changes nothing", async () => {
    const project = await newProject();
    const res = await transition(project.id, "enviar_propuesta", { responsible_id: 987654 });
    expect(res.status).toBe(422);
    expect(res.body.errors.responsible_id).toEqual([messages.invalidReference]);
    expect((await show(project.id)).state).toBe("requerimiento");
  });
});

describe("a project moved to another client is in its change log", () => {
  it("logs the client (by name) with the edit's comment", async () => {
    const project = await newProject();
    const other = await buildClient(db(), { name: "Cliente Destino" });
    const res = await admin.put(`/api/v1/projects/${project.id}`, {
      project: { client_id: other.id, audit_comment: "Lo lleva la filial" },
    });
    expect(res.status).toBe(200);
    expect((await logs(project.id)).find((row) => row.field === "client_id")).toMatchObject({
      old_value: project.client_name,
      new_value: "Cliente Destino",
      comment: "Lo lleva la filial",
    });
  });
});

describe("an ETA never comes before the project's date", () => {
  const early = "2029-12-31"; // the project's date is 2030-01-02 (projectBasics)

  it("the state change refuses it like «Extender fecha estimada»", async () => {
    const project = await newProject();
    const res = await transition(project.id, "enviar_propuesta", { eta: early });
    expect(res.status).toBe(422);
    expect(res.body.errors.eta).toEqual([messages.etaBeforeProjectDate(project.project_date)]);
    expect(await show(project.id)).toMatchObject({ state: "requerimiento", eta: null });

    const extend = await admin.post(`/api/v1/projects/${project.id}/extend_project`, {
      project: { eta: early, audit_comment: "Antes de empezar" },
    });
    expect(extend.status).toBe(422);
    expect(extend.body.errors.eta).toEqual([messages.etaBeforeProjectDate(project.project_date)]);

    // The project's date itself is a valid ETA.
    expect((await transition(project.id, "enviar_propuesta", { eta: project.project_date })).status).toBe(200);
  });

  it("the project's form refuses it on create and on edit", async () => {
    const client = await buildClient(db());
    const create = await admin.post("/api/v1/projects", {
      project: { name: "Al revés", ...(await projectBasics(db())), client_id: client.id, eta: early },
    });
    expect(create.status).toBe(422);
    expect(Object.keys(create.body.errors)).toEqual(["eta"]);

    const project = await newProject({ eta: "2030-02-01" });
    const later = await admin.put(`/api/v1/projects/${project.id}`, { project: { project_date: "2030-03-01" } });
    expect(later.status).toBe(422);
    expect(later.body.errors.eta).toEqual([messages.etaBeforeProjectDate("2030-03-01")]);
  });
});
