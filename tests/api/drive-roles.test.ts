/**
 * Which drive folders each role reads (docs/decisions/034-drive-folders-by-role.md): a client's
 * «Administración» folder holds its contracts (the PLD among them); administrators and Finanzas list and
 * open it, an Operador neither sees it nor opens what is inside, by any drive route (the API's listing,
 * the local drive's pages and downloads, creating a folder).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, signInAs } from "../support/factories";

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let finance: ApiClient;
const drive = () => t.app.documents;

/** A client's folder as the app makes it: its four folders, a PLD contract and a commercial file. */
let client: { id: string; url: string };
let administration: { id: string; url: string };
let contract: { id: string; url: string };
let nested: { id: string; url: string };
let commercial: { id: string; url: string };
let proposal: { id: string; url: string };
let lowercase: { id: string; url: string };

const path = (url: string) => new URL(url, "http://sia.local").pathname;
const listing = (api: ApiClient, folderId: string) => api.get(`/api/v1/drive/folders?parent_id=${encodeURIComponent(folderId)}`);
const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((i) => i.name);

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAs(t.app, "admin")).api;
  operator = (await signInAs(t.app, "operator")).api;
  finance = (await signInAs(t.app, "finance")).api;
  const port = drive();
  const clientes = await port.createFolder(port.rootId, "Clientes PLD");
  client = await port.createFolder(clientes.id, "Aceros del Norte");
  administration = await port.createFolder(client.id, "Administración");
  commercial = await port.createFolder(client.id, "Comercial");
  contract = await port.upload(administration.id, "Contrato PLD.docx", "contrato firmado");
  const signed = await port.createFolder(administration.id, "Firmados");
  nested = await port.upload(signed.id, "Anexo.pdf", "anexo");
  proposal = await port.upload(commercial.id, "Propuesta.pdf", "propuesta");
  // Spelled by hand without the accent: the same folder to a person, the same rule.
  const other = await port.createFolder(clientes.id, "Otro cliente");
  const plainName = await port.createFolder(other.id, "administracion");
  lowercase = await port.upload(plainName.id, "Contrato.pdf", "otro contrato");
});
afterAll(() => t.close());

describe("an Operador and the «Administración» folders", () => {
  it("does not see the folder in its client's listing, and cannot list it", async () => {
    const res = await listing(operator, client.id);
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(["Comercial"]);
    const inside = await listing(operator, administration.id);
    expect(inside.status).toBe(403);
    expect(inside.body.error ?? inside.body.message ?? inside.text).toContain(messages.forbidden);
  });

  it("cannot download the PLD contract nor anything below it by its URL", async () => {
    for (const file of [contract, nested, lowercase]) {
      const res = await operator.get(path(file.url));
      expect(res.status, file.id).toBe(403);
      expect(res.text).not.toContain("contrato");
    }
    expect((await operator.get(path(administration.url))).status).toBe(403);
  });

  it("still reads the client's other folders and files", async () => {
    expect(names(await listing(operator, commercial.id))).toEqual(["Propuesta.pdf"]);
    const page = await operator.get(path(client.url));
    expect(page.status).toBe(200);
    expect(page.text).toContain("Comercial");
    expect(page.text).not.toContain("Administración");
    const file = await operator.get(path(proposal.url));
    expect(file.status).toBe(200);
    expect(file.text).toBe("propuesta");
  });
});

describe("administrators and Finanzas read them", () => {
  for (const role of ["admin", "finance"] as const) {
    it(`${role}: lists the folder and downloads the contract`, async () => {
      const api = role === "admin" ? admin : finance;
      expect(names(await listing(api, client.id))).toEqual(["Administración", "Comercial"]);
      expect(names(await listing(api, administration.id))).toEqual(["Firmados", "Contrato PLD.docx"]);
      const file = await api.get(path(contract.url));
      expect(file.status).toBe(200);
      expect(file.text).toBe("contrato firmado");
    });
  }

  it("only administrators create folders there; Finanzas and the Operador are refused", async () => {
    const body = { folder: { name: "2027", parent_id: administration.id } };
    expect((await admin.post("/api/v1/drive/folders", body)).status).toBe(201);
    expect((await finance.post("/api/v1/drive/folders", body)).status).toBe(403);
    expect((await operator.post("/api/v1/drive/folders", body)).status).toBe(403);
  });
});
