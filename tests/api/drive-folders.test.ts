/**
 * Folders that follow their records, one folder per record (decision 027), on the local
 * drive (ids are paths: what a rename or move changes is rewritten). The Google adapter's side is in
 * documents-google.contract.test.ts.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { clients, projects, prospects } from "../../server/db/schema";
import { databaseValidationError } from "../../server/http/errors";
import { listAll } from "../../server/ports/documents";
import { PROJECT_FOLDERS } from "../../src/core/constants";
import { folderMessages, messages, pipelineMessages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildClient, signInAs } from "../support/factories";
import { projectBasics } from "../support/project-factories";

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let finance: ApiClient;
let projectRequired: Awaited<ReturnType<typeof projectBasics>>;

beforeAll(async () => {
  t = await buildTestApp();
  projectRequired = await projectBasics(t.app.db.db);
  admin = (await signInAs(t.app, "admin")).api;
  operator = (await signInAs(t.app, "operator")).api;
  finance = (await signInAs(t.app, "finance")).api;
});
afterAll(() => t.close());

const db = () => t.app.db.db;
const drive = () => t.app.documents;
const names = async (folderId: string) => (await listAll(drive(), folderId)).map((i) => i.name).sort();
let seq = 0;
const folder = async (name: string, parent_id?: string) => {
  const res = await admin.post("/api/v1/drive/folders", { folder: { name, parent_id } });
  expect(res.status).toBe(201);
  return res.body.folder as { id: string; url: string; name: string };
};
/** A client made through the API, in a folder of its own under `Clientes`. */
const newClient = async (name: string) => {
  const clientes = (await drive().info("Clientes")) ?? (await folder("Clientes"));
  const own = await folder(name, clientes.id);
  const res = await admin.post("/api/v1/clients", { client: { name, drive_root_id: own.id } });
  expect(res.status).toBe(201);
  return res.body.client as { id: number; name: string; drive_root_id: string; lock_version: number };
};
const newProject = async (client_id: number, name: string, extra: Record<string, unknown> = {}) => {
  const res = await admin.post("/api/v1/projects", { project: { ...projectRequired, name, client_id, ...extra } });
  expect(res.status).toBe(201);
  return res.body.project as { id: number; project_code: string; drive_root_id: string; drive_root_url: string };
};
const projectRow = async (id: number) => (await db().select().from(projects).where(eq(projects.id, id)))[0];
const clientRow = async (id: number) => (await db().select().from(clients).where(eq(clients.id, id)))[0];

describe("a project's folder is made with it", () => {
  it("creates `<code> <name>` with the 9 numbered folders in its client's Proyectos, right away", async () => {
    const client = await newClient("Aceros Núñez");
    const project = await newProject(client.id, "Portal / web");
    expect(project.drive_root_id).toBe(`Clientes/Aceros Núñez/Proyectos/${project.project_code} Portal - web`);
    expect(project.drive_root_url).toBe(drive().getUrl(project.drive_root_id));
    expect(await names(project.drive_root_id)).toEqual([...PROJECT_FOLDERS]);
  });

  it("a client without a folder gets one in the drive's root, named after it, with its 4 folders", async () => {
    const legacy = await buildClient(db(), { name: "Heredado Sin Carpeta" });
    const project = await newProject(legacy.id, "Migración");
    const row = await clientRow(legacy.id);
    expect(row.drive_root_id).toBe("Heredado Sin Carpeta");
    expect(row.lock_version).toBe(legacy.lock_version + 1);
    expect(await names("Heredado Sin Carpeta")).toEqual(["Administración", "Comercial", "Proyectos", "Soporte Técnico"]);
    expect(project.drive_root_id).toBe(`Heredado Sin Carpeta/Proyectos/${project.project_code} Migración`);
  });

  it("two projects created at once for a client without folder make one client folder", async () => {
    const legacy = await buildClient(db(), { name: "Doble Clic" });
    const [a, b] = await Promise.all([
      // (their own codes: what is tested here is the client's folder, not the next code)
      admin.post("/api/v1/projects", {
        project: { ...projectRequired, name: "Uno", client_id: legacy.id, project_code: "DC-1" },
      }),
      admin.post("/api/v1/projects", {
        project: { ...projectRequired, name: "Dos", client_id: legacy.id, project_code: "DC-2" },
      }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(await names("Doble Clic/Proyectos")).toEqual(
      [`${a.body.project.project_code} Uno`, `${b.body.project.project_code} Dos`].sort(),
    );
    expect((await drive().info("Doble Clic (2)"))?.kind).toBeUndefined();
  });

  it("a drive failure leaves no project and no folder behind", async () => {
    const client = await newClient("Frágil SA");
    const before = await names(`${client.drive_root_id}/Proyectos`);
    const real = drive().createFolder.bind(drive());
    const fail = vi.spyOn(drive(), "createFolder").mockImplementation(async (parent, name) => {
      if (name === "05 Plan de Trabajo") throw new Error("drive caído");
      return real(parent, name);
    });
    const res = await admin.post("/api/v1/projects", { project: { ...projectRequired, name: "No queda", client_id: client.id } });
    fail.mockRestore();
    expect(res.status).toBe(422);
    expect(res.body.errors.base).toEqual([pipelineMessages.driveFailed]);
    expect(await names(`${client.drive_root_id}/Proyectos`)).toEqual(before);
    expect(await db().select().from(projects).where(eq(projects.name, "No queda"))).toEqual([]);
  });
});

describe("a record's folder follows the record", () => {
  it("renaming a project (name or code) renames its folder; its content stays", async () => {
    const client = await newClient("Renombres SA");
    const project = await newProject(client.id, "Antes");
    await drive().upload(`${project.drive_root_id}/01 Requerimientos`, "acta.txt", "acta");
    const renamed = await admin.put(`/api/v1/projects/${project.id}`, { project: { name: "Después" } });
    expect(renamed.status).toBe(200);
    const path = `Clientes/Renombres SA/Proyectos/${project.project_code} Después`;
    expect(renamed.body.project).toMatchObject({ drive_root_id: path, drive_root_url: drive().getUrl(path) });
    expect(await names(`${path}/01 Requerimientos`)).toEqual(["acta.txt"]);
    expect(await drive().info(project.drive_root_id)).toBeNull();
    const recoded = await admin.put(`/api/v1/projects/${project.id}`, { project: { project_code: "ZZ-77" } });
    expect(recoded.body.project.drive_root_id).toBe("Clientes/Renombres SA/Proyectos/ZZ-77 Después");
    // extend_project can change the name too.
    const extended = await admin.post(`/api/v1/projects/${project.id}/extend_project`, {
      project: { eta: "2031-01-01", audit_comment: "Amplía", name: "Extendido" },
    });
    expect(extended.status).toBe(200);
    expect(extended.body.project.drive_root_id).toBe("Clientes/Renombres SA/Proyectos/ZZ-77 Extendido");
    expect(await names("Clientes/Renombres SA/Proyectos")).toEqual(["ZZ-77 Extendido"]);
  });

  it("moving a project to another client moves its folder into that client's Proyectos", async () => {
    const from = await newClient("Origen SA");
    const to = await newClient("Destino SA");
    const project = await newProject(from.id, "Viajero");
    await drive().upload(project.drive_root_id, "nota.txt", "x");
    const moved = await admin.put(`/api/v1/projects/${project.id}`, { project: { client_id: to.id } });
    expect(moved.status).toBe(200);
    const path = `Clientes/Destino SA/Proyectos/${project.project_code} Viajero`;
    expect(moved.body.project.drive_root_id).toBe(path);
    expect(await names(path)).toEqual([...PROJECT_FOLDERS, "nota.txt"].sort());
    expect(await names("Clientes/Origen SA/Proyectos")).toEqual([]);
  });

  it("a project moved onto a name already taken there keeps both: `(2)`", async () => {
    const from = await newClient("Homónimo A");
    const to = await newClient("Homónimo B");
    const project = await newProject(from.id, "Igual");
    await drive().createFolder(`${to.drive_root_id}/Proyectos`, `${project.project_code} Igual`);
    const moved = await admin.put(`/api/v1/projects/${project.id}`, { project: { client_id: to.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.project.drive_root_id).toBe(`Clientes/Homónimo B/Proyectos/${project.project_code} Igual (2)`);
  });

  it("renaming a client renames its folder and rewrites its projects' folder ids (new versions) in the same save", async () => {
    const client = await newClient("Vieja Razón");
    const p1 = await newProject(client.id, "Uno");
    const p2 = await newProject(client.id, "Dos");
    const before = await projectRow(p1.id);
    const res = await admin.put(`/api/v1/clients/${client.id}`, { client: { name: "Nueva Razón" } });
    expect(res.status).toBe(200);
    expect(res.body.client).toMatchObject({
      drive_root_id: "Clientes/Nueva Razón",
      drive_root_url: drive().getUrl("Clientes/Nueva Razón"),
    });
    expect(res.body.client.lock_version).toBe(client.lock_version + 1);
    const after1 = await projectRow(p1.id);
    const after2 = await projectRow(p2.id);
    expect(after1.drive_root_id).toBe(`Clientes/Nueva Razón/Proyectos/${p1.project_code} Uno`);
    expect(after1.drive_root_url).toBe(drive().getUrl(after1.drive_root_id as string));
    expect(after2.drive_root_id).toBe(`Clientes/Nueva Razón/Proyectos/${p2.project_code} Dos`);
    expect(after1.lock_version).toBe(before.lock_version + 1);
    expect(await names(after1.drive_root_id as string)).toEqual([...PROJECT_FOLDERS]);
    // A form opened on the project before the rename cannot send the old folder back: 409.
    const stale = await admin.request("PUT", `/api/v1/projects/${p1.id}`, {
      project: { name: "Uno", drive_root_url: before.drive_root_url, lock_version: before.lock_version },
    });
    expect(stale.status).toBe(409);
  });

  it("renaming a prospect renames its CV_ folder", async () => {
    const parent = await folder(`Prospectos ${++seq}`);
    const created = await admin.post("/api/v1/prospects", { prospect: { name: "Ópticas Luz", drive_root_id: parent.id } });
    expect(created.body.prospect.drive_root_id).toBe(`${parent.id}/CV_Ópticas Luz`);
    await drive().upload(created.body.prospect.drive_root_id, "brief.txt", "x");
    const res = await admin.put(`/api/v1/prospects/${created.body.prospect.id}`, { prospect: { name: "Ópticas Sol" } });
    expect(res.status).toBe(200);
    expect(res.body.prospect.drive_root_id).toBe(`${parent.id}/CV_Ópticas Sol`);
    expect(await names(`${parent.id}/CV_Ópticas Sol`)).toEqual(["brief.txt"]);
  });

  it("a folder that is not the client's alone (a legacy client pointed at `Clientes`) is not renamed", async () => {
    const holder = await folder(`Compartida ${++seq}`);
    await folder("Otro dentro", holder.id);
    const other = await buildClient(db(), { name: "Otro dentro", drive_root_id: `${holder.id}/Otro dentro` });
    const legacy = await buildClient(db(), { name: "Legado", drive_root_id: holder.id, drive_root_url: holder.url });
    const res = await admin.put(`/api/v1/clients/${legacy.id}`, { client: { name: "Legado Renombrado" } });
    expect(res.status).toBe(200);
    expect(res.body.client.drive_root_id).toBe(holder.id);
    expect(await drive().info(holder.id)).toMatchObject({ name: holder.name });
    expect((await clientRow(other.id)).drive_root_id).toBe(`${holder.id}/Otro dentro`);
  });

  it("a drive failure rolls the rename back: name, folder and projects' ids as they were", async () => {
    const client = await newClient("Inmóvil SA");
    const project = await newProject(client.id, "Quieto");
    const spy = vi.spyOn(drive(), "rename").mockRejectedValueOnce(new Error("drive caído"));
    const res = await admin.put(`/api/v1/clients/${client.id}`, { client: { name: "Movido SA" } });
    spy.mockRestore();
    expect(res.status).toBe(422);
    expect(res.body.errors.base).toEqual([pipelineMessages.driveFailed]);
    expect((await clientRow(client.id)).name).toBe("Inmóvil SA");
    expect((await projectRow(project.id)).drive_root_id).toBe(project.drive_root_id);
    expect(await drive().info("Clientes/Inmóvil SA")).toMatchObject({ kind: "folder" });

    // Moved and renamed, then the drive fails (a numbered folder cannot be made): both steps are undone.
    const other = await newClient("Otro Destino");
    await drive().delete(`${project.drive_root_id}/09 Cierre`);
    const real = drive().createFolder.bind(drive());
    const fail = vi.spyOn(drive(), "createFolder").mockImplementation(async (parent, name) => {
      if (name === "09 Cierre") throw new Error("drive caído");
      return real(parent, name);
    });
    const both = await admin.put(`/api/v1/projects/${project.id}`, { project: { name: "Quieto 2", client_id: other.id } });
    fail.mockRestore();
    expect(both.status).toBe(422);
    expect(await projectRow(project.id)).toMatchObject({
      name: "Quieto",
      client_id: client.id,
      drive_root_id: project.drive_root_id,
    });
    expect(await drive().info(project.drive_root_id)).toMatchObject({ kind: "folder", name: `${project.project_code} Quieto` });
    expect(await names("Clientes/Otro Destino/Proyectos")).toEqual([]);
  });
});

describe("one folder belongs to one record", () => {
  it("refuses another record's folder, a folder holding one and a folder inside one, in Spanish", async () => {
    const a = await newClient("Dueña SA");
    const project = await newProject(a.id, "Suyo");
    const taken = await admin.post("/api/v1/clients", { client: { name: "Intrusa", drive_root_id: a.drive_root_id } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors.drive_root_id).toEqual([folderMessages.ofRecord(folderMessages.client("Dueña SA"))]);
    const parent = await admin.post("/api/v1/clients", { client: { name: "Intrusa", drive_root_id: "Clientes" } });
    expect(parent.status).toBe(422);
    expect(parent.body.errors.drive_root_id[0]).toMatch(/^la carpeta contiene la carpeta del (cliente|proyecto) «/);
    const inside = await admin.post("/api/v1/clients", {
      client: { name: "Intrusa", drive_root_id: `${a.drive_root_id}/Comercial` },
    });
    expect(inside.body.errors.drive_root_id).toEqual([folderMessages.insideRecord(folderMessages.client("Dueña SA"))]);
    const root = await admin.put(
      `/api/v1/prospects/${(await admin.post("/api/v1/prospects", { prospect: { name: `Raíz ${++seq}` } })).body.prospect.id}`,
      {
        prospect: { drive_root_id: "", drive_root_url: "/drive/folders/" },
      },
    );
    expect(root.status).toBe(422);
    // Across tables: a project or a prospect cannot take a client's or a project's folder.
    const other = await newClient("Ajena SA");
    const projectTaken = await admin.post("/api/v1/projects", {
      project: { ...projectRequired, name: "Pirata", client_id: other.id, drive_root_id: project.drive_root_id },
    });
    expect(projectTaken.body.errors.drive_root_id).toEqual([
      folderMessages.ofRecord(folderMessages.project(`${project.project_code} Suyo`)),
    ]);
    const prospect = (await admin.post("/api/v1/prospects", { prospect: { name: `Curioso ${++seq}` } })).body.prospect;
    const prospectTaken = await admin.put(`/api/v1/prospects/${prospect.id}`, { prospect: { drive_root_id: a.drive_root_id } });
    expect(prospectTaken.body.errors.drive_root_id).toEqual([folderMessages.ofRecord(folderMessages.client("Dueña SA"))]);
    // A prospect's CV_ folder is not made inside a client's folder either.
    const cv = await admin.post("/api/v1/prospects", {
      prospect: { name: "Dentro", drive_root_id: `${a.drive_root_id}/Comercial` },
    });
    expect(cv.body.errors.drive_root_id).toEqual([folderMessages.insideRecord(folderMessages.client("Dueña SA"))]);
    // Its own folder stays acceptable on a later save (its projects' folders are inside it).
    const again = await admin.put(`/api/v1/clients/${a.id}`, {
      client: { drive_root_id: a.drive_root_id, drive_root_url: `${drive().getUrl(a.drive_root_id)}/` },
    });
    expect(again.status).toBe(200);
  });

  it("the unique indexes answer a Spanish 422 on drive_root_id when two saves race for one folder", async () => {
    const a = await buildClient(db(), { drive_root_id: `carrera-${++seq}` });
    let caught: unknown;
    try {
      await db()
        .insert(clients)
        .values({ name: "Gemela", client_code: `G${seq}`, drive_root_id: a.drive_root_id });
    } catch (error) {
      caught = error;
    }
    expect(databaseValidationError(caught)?.errors).toEqual({ drive_root_id: [folderMessages.taken] });
    const shared = await folder(`Carrera ${seq}`);
    const [x, y] = await Promise.all([
      admin.post("/api/v1/clients", { client: { name: "Carrera X", client_code: `CX${seq}`, drive_root_id: shared.id } }),
      admin.post("/api/v1/clients", { client: { name: "Carrera Y", client_code: `CY${seq}`, drive_root_id: shared.id } }),
    ]);
    expect([x.status, y.status].sort()).toEqual([201, 422]);
    const loser = x.status === 422 ? x : y;
    expect(loser.body.errors).toEqual({
      drive_root_id: [expect.stringMatching(/^la carpeta (ya pertenece a otro registro|ya es la del cliente «Carrera [XY]»)$/)],
    });
    expect(await names(shared.id)).toEqual(["Administración", "Comercial", "Proyectos", "Soporte Técnico"]);
  });

  it("two prospects created at once in one folder each get their own CV_ folder (the parent is never stored)", async () => {
    const parent = await folder(`Prospectos juntos ${++seq}`);
    const [a, b] = await Promise.all([
      admin.post("/api/v1/prospects", { prospect: { name: "Mismo", drive_root_id: parent.id } }),
      admin.post("/api/v1/prospects", { prospect: { name: "Mismo", drive_root_id: parent.id } }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([a.body.prospect.drive_root_id, b.body.prospect.drive_root_id].sort()).toEqual([
      `${parent.id}/CV_Mismo`,
      `${parent.id}/CV_Mismo (2)`,
    ]);
    const stored = await db().select().from(prospects).where(eq(prospects.drive_root_id, parent.id));
    expect(stored).toEqual([]);
  });
});

describe("a project's drive folder URL is checked (SPEC §5)", () => {
  it("refuses a URL outside this drive's folders on create and update; a folder of the drive is put in place", async () => {
    const client = await newClient("Rutas SA");
    const outside = await admin.post("/api/v1/projects", {
      project: { ...projectRequired, name: "Fuera", client_id: client.id, drive_root_url: "https://example.com/carpeta" },
    });
    expect(outside.status).toBe(422);
    expect(outside.body.errors.drive_root_url).toEqual([messages.driveUrlInvalid]);
    const project = await newProject(client.id, "Dentro");
    const update = await admin.put(`/api/v1/projects/${project.id}`, { project: { drive_root_url: "/drive/folders/../../etc" } });
    expect(update.status).toBe(422);
    expect(update.body.errors.drive_root_url).toEqual([messages.driveUrlInvalid]);
    const loose = await folder(`Suelta ${++seq}`);
    await drive().upload(loose.id, "previo.txt", "x");
    const adopted = await admin.post("/api/v1/projects", {
      project: { ...projectRequired, name: "Adoptado", client_id: client.id, drive_root_url: loose.url },
    });
    expect(adopted.status).toBe(201);
    const path = `Clientes/Rutas SA/Proyectos/${adopted.body.project.project_code} Adoptado`;
    expect(adopted.body.project.drive_root_id).toBe(path);
    expect(await names(path)).toContain("previo.txt");
  });
});

describe("«Revisar drive» repairs any drift", () => {
  it("a project: renamed, moved or removed behind SIA's back, and missing numbered folders", async () => {
    const client = await newClient("Deriva SA");
    const project = await newProject(client.id, "Deriva");
    const right = project.drive_root_id;
    await drive().rename(right, "alguien lo cambió");
    await drive().delete(`${client.drive_root_id}/Proyectos/alguien lo cambió/09 Cierre`);
    // The stored id still points at the old path (local ids are paths): the folder is found by name.
    await db()
      .update(projects)
      .set({ drive_root_id: `${client.drive_root_id}/Proyectos/alguien lo cambió` })
      .where(eq(projects.id, project.id));
    const res = await admin.post(`/api/v1/projects/${project.id}/drive_check`);
    expect(res.status).toBe(200);
    expect(res.body.repaired).toEqual([
      folderMessages.renamed("alguien lo cambió", `${project.project_code} Deriva`),
      folderMessages.created("09 Cierre"),
    ]);
    expect(res.body.summary).toBe(`Drive Actualizado: ${res.body.repaired.join("; ")}.`);
    expect(res.body.project.drive_root_id).toBe(right);
    expect(await names(right)).toEqual([...PROJECT_FOLDERS]);

    // Renamed by hand where ids are paths: the stored id is lost; the folder that keeps its code is adopted.
    await drive().rename(right, `${project.project_code} Deriva (vieja)`);
    const adopted = await admin.post(`/api/v1/projects/${project.id}/drive_check`);
    expect(adopted.body.repaired).toEqual([
      folderMessages.renamed(`${project.project_code} Deriva (vieja)`, `${project.project_code} Deriva`),
    ]);
    expect((await projectRow(project.id)).drive_root_id).toBe(right);

    await drive().move(right, "Clientes");
    await db()
      .update(projects)
      .set({ drive_root_id: `Clientes/${project.project_code} Deriva` })
      .where(eq(projects.id, project.id));
    const moved = await admin.post(`/api/v1/projects/${project.id}/drive_check`);
    expect(moved.body.repaired).toEqual([folderMessages.moved(`${project.project_code} Deriva`, "Deriva SA/Proyectos")]);
    expect((await projectRow(project.id)).drive_root_id).toBe(right);

    await drive().delete(right);
    const remade = await admin.post(`/api/v1/projects/${project.id}/drive_check`);
    expect(remade.body.repaired[0]).toBe(folderMessages.created(`${project.project_code} Deriva`));
    expect(await names(right)).toEqual([...PROJECT_FOLDERS]);

    const fine = await admin.post(`/api/v1/projects/${project.id}/drive_check`);
    expect(fine.body).toMatchObject({
      message: "Drive Actualizado",
      repaired: [],
      summary: "Drive Actualizado: todo estaba en orden.",
    });
    expect((await operator.post(`/api/v1/projects/${project.id}/drive_check`)).status).toBe(403);
    expect((await admin.post("/api/v1/projects/999999/drive_check")).status).toBe(404);
  });

  it("a client: its folder renamed, a folder missing, a project's folder out of its Proyectos", async () => {
    const client = await newClient("Revisada SA");
    const project = await newProject(client.id, "Perdido");
    await drive().move(project.drive_root_id, client.drive_root_id);
    await drive().rename(client.drive_root_id, "Revisada (vieja)");
    await drive().delete("Clientes/Revisada (vieja)/Comercial");
    await db().update(clients).set({ drive_root_id: "Clientes/Revisada (vieja)" }).where(eq(clients.id, client.id));
    await db()
      .update(projects)
      .set({ drive_root_id: `Clientes/Revisada (vieja)/${project.project_code} Perdido` })
      .where(eq(projects.id, project.id));
    const res = await admin.post(`/api/v1/clients/${client.id}/drive_check`);
    expect(res.status).toBe(200);
    expect(res.body.repaired).toEqual([
      folderMessages.renamed("Revisada (vieja)", "Revisada SA"),
      folderMessages.created("Comercial"),
      folderMessages.moved(`${project.project_code} Perdido`, "Revisada SA/Proyectos"),
    ]);
    expect(res.body.client.drive_root_id).toBe("Clientes/Revisada SA");
    expect((await projectRow(project.id)).drive_root_id).toBe(project.drive_root_id);
    expect(await names("Clientes/Revisada SA")).toEqual(["Administración", "Comercial", "Proyectos", "Soporte Técnico"]);
    expect((await admin.post(`/api/v1/clients/${client.id}/drive_check`)).body.repaired).toEqual([]);
    expect((await operator.post(`/api/v1/clients/${client.id}/drive_check`)).status).toBe(403);
    expect((await finance.post(`/api/v1/clients/${client.id}/drive_check`)).status).toBe(403);
  });
});

describe("edge cases", () => {
  it("a long name in a multi-byte alphabet still makes a folder (names are cut to what every drive takes)", async () => {
    const client = await newClient("Largos SA");
    const project = await newProject(client.id, "Ñ".repeat(250));
    expect(Buffer.byteLength(project.drive_root_id.split("/").at(-1) as string)).toBeLessThanOrEqual(240);
    expect(await names(project.drive_root_id)).toEqual([...PROJECT_FOLDERS]);
    const renamed = await admin.put(`/api/v1/projects/${project.id}`, { project: { name: "Ü".repeat(250) } });
    expect(renamed.status).toBe(200);
  });

  it("a client that picks another folder takes its projects' folders into the new Proyectos", async () => {
    const client = await newClient("Mudanza SA");
    const project = await newProject(client.id, "Equipaje");
    const target = await folder(`Nueva casa ${++seq}`, "Clientes");
    const res = await admin.put(`/api/v1/clients/${client.id}`, {
      client: { drive_root_id: target.id, drive_root_url: target.url },
    });
    expect(res.status).toBe(200);
    expect(await names(target.id)).toEqual(["Administración", "Comercial", "Proyectos", "Soporte Técnico"]);
    expect((await projectRow(project.id)).drive_root_id).toBe(`${target.id}/Proyectos/${project.project_code} Equipaje`);
    expect(await names(`${client.drive_root_id}/Proyectos`)).toEqual([]);
  });
});
