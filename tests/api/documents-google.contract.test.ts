/**
 * The Google Drive adapter against a local server that speaks Drive v3 and Google's token
 * endpoint (tests/support/fake-google.ts): the same contract suite as the local drive, then what only
 * Drive has (ids kept across rename and move, trash, shared drives, the service account's token, retries
 * of 403 rate limits, folders outside the root).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config";
import { projects, prospects } from "../../server/db/schema";
import { createDocuments, PAGE_SIZE } from "../../server/ports/documents";
import { GoogleDriveDocuments } from "../../server/ports/documents/google";
import { pipelineMessages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { documentsContract } from "../support/documents-contract";
import { type ApiClient, buildProduct, signInAs } from "../support/factories";
import { FakeGoogle, FOLDER_MIME } from "../support/fake-google";
import { projectBasics } from "../support/project-factories";

let fake: FakeGoogle;
let dir: string;
let keyFile: string;

beforeAll(async () => {
  fake = await new FakeGoogle().start();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-google-"));
  keyFile = fake.writeKeyFile(dir);
});
afterAll(async () => {
  await fake?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Each test its own folder under the fake's root (a drive of its own, as the contract expects). */
const makeGoogle = async (retryDelayMs = 1) => {
  const base = new GoogleDriveDocuments({ rootId: fake.rootId, key: keyFile, rootUrl: fake.url, retryDelayMs });
  const own = await base.createFolder(fake.rootId, `prueba-${Math.random().toString(36).slice(2)}`);
  return new GoogleDriveDocuments({ rootId: own.id, key: keyFile, rootUrl: fake.url, retryDelayMs });
};

documentsContract("google", () => makeGoogle());

describe("google drive: what the adapter sends", () => {
  it("lists with the documented query, pageSize 200, folder-first order and all-drives flags", async () => {
    const port = await makeGoogle();
    await port.list(port.rootId);
    const list = fake
      .driveCalls()
      .filter((c) => c.method === "GET" && c.path === "/drive/v3/files")
      .at(-1);
    expect(list?.query.get("q")).toBe(`'${port.rootId}' in parents and trashed = false`);
    expect(list?.query.get("pageSize")).toBe(String(PAGE_SIZE));
    expect(list?.query.get("orderBy")).toBe("folder,name");
    expect(list?.query.get("supportsAllDrives")).toBe("true");
    expect(list?.query.get("includeItemsFromAllDrives")).toBe("true");
  });

  it("gets its token from the key's token_uri with a signed JWT, and sends it as a bearer token", async () => {
    const grants = fake.grants.filter((g) => g.grantType === "urn:ietf:params:oauth:grant-type:jwt-bearer");
    expect(grants.length).toBeGreaterThan(0);
    expect(grants.every((g) => g.ok)).toBe(true);
    expect(fake.driveCalls().every((c) => c.status !== 401)).toBe(true);
  });

  it("uploads the content (multipart/related) and keeps ids across rename and move", async () => {
    const port = await makeGoogle();
    const a = await port.createFolder(port.rootId, "A");
    const file = await port.upload(port.rootId, "contrato.docx", Buffer.from("contenido del contrato"));
    expect(fake.files.get(file.id)?.content.toString()).toBe("contenido del contrato");
    expect(fake.files.get(file.id)?.mimeType).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    const renamed = await port.rename(file.id, "contrato firmado.docx");
    const moved = await port.move(renamed.id, a.id);
    expect(moved).toMatchObject({ id: file.id, name: "contrato firmado.docx", parentId: a.id });
    expect(fake.files.get(file.id)?.parents).toEqual([a.id]);
    const update = fake
      .driveCalls()
      .filter((c) => c.method === "PATCH")
      .at(-1);
    expect(update?.query.get("addParents")).toBe(a.id);
    expect(update?.query.get("removeParents")).toBe(port.rootId);
  });

  it("copies a folder by recreating it and copying its content; refuses taken names and cycles", async () => {
    const port = await makeGoogle();
    const source = await port.createFolder(port.rootId, "Plantilla");
    const inner = await port.createFolder(source.id, "Administración");
    await port.upload(inner.id, "contrato.docx", "x");
    const copy = await port.copy(source.id, port.rootId, "Cliente Ñandú");
    expect(copy).toMatchObject({ name: "Cliente Ñandú", kind: "folder" });
    const [copiedInner] = (await port.list(copy.id)).items;
    expect(copiedInner).toMatchObject({ name: "Administración", kind: "folder" });
    expect(copiedInner.id).not.toBe(inner.id);
    expect((await port.list(copiedInner.id)).items.map((i) => i.name)).toEqual(["contrato.docx"]);
    await expect(port.createFolder(port.rootId, "Plantilla")).rejects.toMatchObject({ code: "conflict" });
    await expect(port.upload(inner.id, "contrato.docx", "y")).rejects.toMatchObject({ code: "conflict" });
    await expect(port.move(source.id, inner.id)).rejects.toMatchObject({ code: "invalid" });
    await expect(port.copy(source.id, inner.id)).rejects.toMatchObject({ code: "invalid" });
    await expect(port.delete(port.rootId)).rejects.toMatchObject({ code: "invalid" });
    // Names are quoted in Drive's query language: an apostrophe is escaped, not an injection.
    await port.createFolder(port.rootId, "Cliente O'Brien");
    await expect(port.createFolder(port.rootId, "Cliente O'Brien")).rejects.toMatchObject({ code: "conflict" });
    await expect(port.createFolder(port.rootId, "x' or name != '")).resolves.toMatchObject({ name: "x' or name != '" });
  });

  it("delete moves to the trash; names in the trash are free again", async () => {
    const port = await makeGoogle();
    const folder = await port.createFolder(port.rootId, "Borrar");
    await port.delete(folder.id);
    expect(fake.files.get(folder.id)?.trashed).toBe(true);
    expect(await port.info(folder.id)).toBeNull();
    await expect(port.createFolder(port.rootId, "Borrar")).resolves.toMatchObject({ name: "Borrar" });
  });

  it("items outside the root and foreign URLs are not this drive's", async () => {
    const port = await makeGoogle();
    const outside = fake.addFile({ name: "Secreto", mimeType: FOLDER_MIME, parents: [fake.rootId] });
    expect(await port.info(outside.id)).toBeNull();
    await expect(port.createFolder(outside.id, "x")).rejects.toMatchObject({ code: "not_found" });
    expect(port.folderIdFromUrl(`https://drive.google.com/drive/u/0/folders/${port.rootId}?usp=sharing`)).toBe(port.rootId);
    for (const url of [
      "https://evil.mx/drive/folders/abc",
      "http://drive.google.com/drive/folders/abc",
      "https://drive.google.com/file/d/abc/view",
      "https://drive.google.com/drive/folders/a%2F..",
      "/drive/folders/abc",
      "javascript:alert(1)",
    ])
      expect(port.folderIdFromUrl(url)).toBeNull();
    for (const id of ["../x", "a/b", "", "a b", "a'b"]) expect(await port.info(id)).toBeNull();
  });

  it("check() answers when the root folder does, and explains in Spanish when it does not", async () => {
    const port = await makeGoogle();
    await expect(port.check()).resolves.toBeUndefined();
    const missing = new GoogleDriveDocuments({ rootId: "noExisteEstaCarpeta", key: keyFile, rootUrl: fake.url, retryDelayMs: 1 });
    await expect(missing.check()).rejects.toThrow(/Google Drive no responde con la carpeta raíz noExisteEstaCarpeta/);
  });
});

describe("google drive: 403 rate limits are retried up to 5 times with a growing delay", () => {
  it("403 twice, then the call succeeds (3 attempts)", async () => {
    const port = await makeGoogle();
    const before = fake.driveCalls().length;
    fake.failDrive(2);
    const folder = await port.createFolder(port.rootId, "Reintento");
    expect(folder.name).toBe("Reintento");
    // createFolder: get the parent (3 attempts), look for the name, create.
    const calls = fake.driveCalls().slice(before);
    expect(calls.filter((c) => c.status === 403)).toHaveLength(2);
    expect(calls.slice(0, 3).map((c) => `${c.method} ${c.status}`)).toEqual(["GET 403", "GET 403", "GET 200"]);
  });

  it("403 six times: 1 attempt + 5 retries, then the Spanish drive message", async () => {
    const port = await makeGoogle(2);
    const before = fake.driveCalls().length;
    fake.failDrive(6, { reason: "userRateLimitExceeded", message: "User Rate Limit Exceeded" });
    const started = Date.now();
    await expect(port.list(port.rootId)).rejects.toMatchObject({ code: "failed", message: pipelineMessages.driveFailed });
    expect(fake.driveCalls().slice(before)).toHaveLength(6);
    // delays 2, 4, 8, 16, 32 ms: at least their sum.
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
  });

  it("a 403 that is not a rate limit is not retried", async () => {
    const port = await makeGoogle();
    const before = fake.driveCalls().length;
    fake.failDrive(1, { reason: "insufficientFilePermissions", message: "The user does not have sufficient permissions." });
    await expect(port.list(port.rootId)).rejects.toMatchObject({ code: "failed" });
    expect(fake.driveCalls().slice(before)).toHaveLength(1);
  });

  it("500 and 429 are retried too", async () => {
    const port = await makeGoogle();
    fake.failDrive(1, { status: 500, reason: "backendError", message: "Backend Error" });
    fake.failDrive(1, { status: 429, reason: "rateLimitExceeded", message: "Too Many Requests" });
    await expect(port.list(port.rootId)).resolves.toMatchObject({ items: [] });
  });
});

describe("google drive: switched on by environment variables only", () => {
  it("DOCUMENTS_ADAPTER=google needs its companions (Spanish config error); with them createDocuments answers the adapter", async () => {
    expect(() => loadConfig({ DOCUMENTS_ADAPTER: "google" })).toThrow(
      /GOOGLE_DRIVE_ROOT_ID: es obligatoria con DOCUMENTS_ADAPTER=google[\s\S]*GOOGLE_SERVICE_ACCOUNT_KEY_FILE/,
    );
    expect(() => loadConfig({ DOCUMENTS_ADAPTER: "dropbox" })).toThrow(/DOCUMENTS_ADAPTER/);
    const config = loadConfig({
      DATA_DIR: dir,
      DOCUMENTS_ADAPTER: "google",
      GOOGLE_DRIVE_ROOT_ID: fake.rootId,
      GOOGLE_SERVICE_ACCOUNT_KEY_FILE: keyFile,
      GOOGLE_API_ROOT_URL: fake.url,
    });
    const port = await createDocuments(config);
    expect(port.kind).toBe("google");
    await expect(port.check()).resolves.toBeUndefined();
    expect((await createDocuments(loadConfig({ DATA_DIR: dir }))).kind).toBe("local");
  });
});

describe("google drive through the app (DOCUMENTS_ADAPTER=google): folder picker and the quotation pipeline", () => {
  let t: TestApp;
  let admin: ApiClient;
  let root: string;

  let projectRequired: Awaited<ReturnType<typeof projectBasics>>;
  beforeAll(async () => {
    const own = await new GoogleDriveDocuments({ rootId: fake.rootId, key: keyFile, rootUrl: fake.url }).createFolder(
      fake.rootId,
      "SIA de la app",
    );
    root = own.id;
    t = await buildTestApp({
      DOCUMENTS_ADAPTER: "google",
      GOOGLE_DRIVE_ROOT_ID: root,
      GOOGLE_SERVICE_ACCOUNT_KEY_FILE: keyFile,
      GOOGLE_API_ROOT_URL: fake.url,
    });
    admin = (await signInAs(t.app, "admin")).api;
    projectRequired = await projectBasics(t.app.db.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  const childrenOf = (id: string) =>
    [...fake.files.values()]
      .filter((f) => f.parents.includes(id) && !f.trashed)
      .map((f) => f.name)
      .sort();

  it("creates and lists folders over HTTP, and a prospect takes a Drive folder URL", async () => {
    const created = await admin.post("/api/v1/drive/folders", { folder: { name: "Prospectos" } });
    expect(created.status).toBe(201);
    expect(created.body.folder).toMatchObject({ name: "Prospectos", kind: "folder", parentId: root });
    const list = await admin.get("/api/v1/drive/folders");
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: { name: string }) => i.name)).toEqual(["Prospectos"]);
    const taken = await admin.post("/api/v1/drive/folders", { folder: { name: "Prospectos" } });
    expect(taken.status).toBe(422);
    const prospect = await admin.post("/api/v1/prospects", {
      prospect: { name: "Con carpeta", drive_root_url: `https://drive.google.com/drive/folders/${created.body.folder.id}` },
    });
    expect(prospect.status).toBe(201);
    // On create the folder given is where the prospect's own CV_ folder goes.
    expect(childrenOf(created.body.folder.id)).toEqual(["CV_Con carpeta"]);
    expect(fake.files.get(prospect.body.prospect.drive_root_id)?.parents).toEqual([created.body.folder.id]);
    expect(prospect.body.prospect.drive_root_url).toBe(
      `https://drive.google.com/drive/folders/${prospect.body.prospect.drive_root_id}`,
    );
    const foreign = await admin.post("/api/v1/prospects", {
      prospect: { name: "Ajena", drive_root_url: "https://drive.google.com/drive/folders/carpetaQueNoEsDelDrive" },
    });
    expect(foreign.status).toBe(422);
  });

  it("folders follow their records in Drive (ids kept, nothing rewritten); one folder, one record", async () => {
    const clientes = (await admin.post("/api/v1/drive/folders", { folder: { name: "Clientes" } })).body.folder;
    const mk = async (name: string) =>
      (await admin.post("/api/v1/drive/folders", { folder: { name, parent_id: clientes.id } })).body.folder;
    const a = (
      await admin.post("/api/v1/clients", { client: { name: "Ñandú Drive", drive_root_id: (await mk("Ñandú Drive")).id } })
    ).body.client;
    const b = (
      await admin.post("/api/v1/clients", { client: { name: "Otro Drive", drive_root_id: (await mk("Otro Drive")).id } })
    ).body.client;
    const project = (await admin.post("/api/v1/projects", { project: { ...projectRequired, name: "Portal", client_id: a.id } }))
      .body.project;
    const proyectosOf = (clientFolder: string) =>
      [...fake.files.values()].find((f) => f.parents.includes(clientFolder) && f.name === "Proyectos" && !f.trashed)?.id;
    expect(fake.files.get(project.drive_root_id)).toMatchObject({
      name: `${project.project_code} Portal`,
      parents: [proyectosOf(a.drive_root_id)],
    });
    expect(childrenOf(project.drive_root_id)).toHaveLength(9);

    const renamed = await admin.put(`/api/v1/clients/${a.id}`, { client: { name: "Ñandú Renombrado" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.client.drive_root_id).toBe(a.drive_root_id);
    expect(fake.files.get(a.drive_root_id)?.name).toBe("Ñandú Renombrado");
    const [row] = await t.app.db.db.select().from(projects).where(eq(projects.id, project.id));
    expect(row).toMatchObject({ drive_root_id: project.drive_root_id, lock_version: project.lock_version });

    const moved = await admin.put(`/api/v1/projects/${project.id}`, { project: { client_id: b.id, name: "Portal 2" } });
    expect(moved.status).toBe(200);
    expect(moved.body.project.drive_root_id).toBe(project.drive_root_id);
    expect(fake.files.get(project.drive_root_id)).toMatchObject({
      name: `${project.project_code} Portal 2`,
      parents: [proyectosOf(b.drive_root_id)],
    });

    // Containment is found by listing (Drive's ids say nothing about place): `Clientes` holds clients' folders.
    const parent = await admin.post("/api/v1/clients", { client: { name: "Intrusa", drive_root_id: clientes.id } });
    expect(parent.status).toBe(422);
    expect(parent.body.errors.drive_root_id[0]).toMatch(/^la carpeta contiene la carpeta del cliente «/);
    const inside = await admin.post("/api/v1/clients", {
      client: { name: "Intrusa", drive_root_id: proyectosOf(b.drive_root_id) },
    });
    expect(inside.body.errors.drive_root_id).toEqual(["la carpeta está dentro de la carpeta del cliente «Otro Drive»"]);

    // «Revisar drive» puts back a folder renamed behind SIA's back.
    fake.files.get(project.drive_root_id)!.name = "cambiado a mano";
    const check = await admin.post(`/api/v1/projects/${project.id}/drive_check`);
    expect(check.body.repaired).toEqual([`se renombró «cambiado a mano» a «${project.project_code} Portal 2»`]);
    expect(fake.files.get(project.drive_root_id)?.name).toBe(`${project.project_code} Portal 2`);
  });

  it("approve_demo and request_contract build the prospect's folders and copy the PLD contract in Drive", async () => {
    const product = await buildProduct(t.app.db.db, { name: "Producto Drive" });
    const prospect = (await admin.post("/api/v1/prospects", { prospect: { name: "Molinos Drive" } })).body.prospect;
    const q = (
      await admin.post("/api/v1/quotations", {
        quotation: { contact_name: "Contacto", prospect_id: prospect.id, product_catalog_id: product.id },
      })
    ).body.quotation;
    const transition = (event: string) =>
      admin.post(`/api/v1/quotations/${q.id}/aasm_transition`, { quotation: { event, audit_comment: "Comentario" } });
    expect((await transition("approve_demo")).status).toBe(200);
    // The contract copy fails (a 403 Drive does not retry): SPEC §8's message, nothing left half-done.
    fake.failDrive(1, { reason: "insufficientFilePermissions", message: "The user does not have sufficient permissions." });
    const failed = await transition("request_contract");
    expect(failed.status).toBe(422);
    expect(failed.body.errors.base).toEqual(["No se pudo copiar el archivo del contrato de PLD"]);
    const contract = await transition("request_contract");
    expect(contract.status).toBe(200);
    const [row] = await t.app.db.db.select().from(prospects).where(eq(prospects.id, prospect.id));
    const folder = row.drive_root_id as string;
    expect(childrenOf(folder)).toEqual(["Administración", "Cotizaciones"]);
    const administration = [...fake.files.values()].find((f) => f.parents.includes(folder) && f.name === "Administración");
    expect(childrenOf(administration?.id as string)).toEqual(["Contrato PLD - Molinos Drive.docx"]);
    const template = fs.readFileSync(path.join(import.meta.dirname, "..", "..", "templates", "contrato_pld.docx"));
    const copy = [...fake.files.values()].find((f) => f.name === "Contrato PLD - Molinos Drive.docx");
    expect(copy?.content.equals(template)).toBe(true);
  });
});
