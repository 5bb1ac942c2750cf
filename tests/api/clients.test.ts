import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildClient, buildClientGroup, buildProduct, call } from "../support/factories";
import { type AppWithRoles, buildAppWithRoles } from "../support/roles";

let { t, admin, operator, finance } = {} as AppWithRoles;

beforeAll(async () => {
  ({ t, admin, operator, finance } = await buildAppWithRoles());
});
afterAll(() => t.close());

let folders = 0;
/** A folder of the drive for a new client (a client cannot be created without one). */
async function folder() {
  const res = await admin.post("/api/v1/drive/folders", { folder: { name: `Carpeta ${++folders}` } });
  expect(res.status).toBe(201);
  return { drive_root_id: res.body.folder.id as string };
}

describe("clients", () => {
  it("creates a client with products, preloading the next code, and reads it back", async () => {
    const code = await admin.get("/api/v1/clients/next_client_code");
    expect(code.status).toBe(200);
    const product = await buildProduct(t.app.db.db, { name: "Siglo CD" });
    const group = await buildClientGroup(t.app.db.db, "Gobierno");
    const created = await admin.post("/api/v1/clients", {
      client: {
        name: "Café Ñandú",
        ...(await folder()),
        client_code: code.body.client_code,
        rfc: "cfn010101ab1",
        client_group_id: String(group.id),
        client_product_catalogs_attributes: [{ product_catalog_id: product.id, annual_support_hours: 120 }],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.client).toMatchObject({
      name: "Café Ñandú",
      client_code: code.body.client_code,
      rfc: "CFN010101AB1",
      client_group_id: group.id,
      client_group_name: "Gobierno",
      client_product_catalogs: [{ product_catalog_id: product.id, product_catalog_name: "Siglo CD", annual_support_hours: 120 }],
    });
    const next = await admin.get("/api/v1/clients/next_client_code");
    expect(Number(next.body.client_code)).toBe(Number(code.body.client_code) + 1);
  });

  it("assigns the next code when the form still says '0', and 'null' group means none", async () => {
    const res = await admin.post("/api/v1/clients.json", {
      client: { name: "Sin código", client_code: "0", client_group_id: "null", ...(await folder()) },
    });
    expect(res.status).toBe(201);
    expect(res.body.client.client_code).not.toBe("0");
    expect(res.body.client.client_group_id).toBeNull();
  });

  it("undoes the folders it made when the save fails midway (aroundWrite): nothing half-made", async () => {
    const picked = await folder();
    const create = t.app.documents.createFolder.bind(t.app.documents);
    let calls = 0;
    const spy = vi.spyOn(t.app.documents, "createFolder").mockImplementation(async (parent, name) => {
      if (++calls === 2) throw new Error("drive caído");
      return create(parent, name);
    });
    const refused = await admin.post("/api/v1/clients", { client: { name: "A medias", ...picked } });
    spy.mockRestore();
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(refused.status).toBe(422);
    expect((await admin.get("/api/v1/clients?search=a%20medias")).body.clients).toEqual([]);
    const listing = await admin.get(`/api/v1/drive/folders?parent_id=${encodeURIComponent(picked.drive_root_id)}`);
    expect(listing.status).toBe(200);
    expect(listing.body.items).toEqual([]);
  });

  it("refuses a client without a picked folder or with a URL outside the drive, and builds its structure", async () => {
    const none = await admin.post("/api/v1/clients", { client: { name: "Sin carpeta" } });
    expect(none.status).toBe(422);
    expect(none.body.errors.drive_root_id).toEqual(["Favor de seleccionar una ruta para el cliente"]);
    const outside = await admin.post("/api/v1/clients", {
      client: { name: "Fuera", drive_root_url: "https://example.com/otra/ruta" },
    });
    expect(outside.status).toBe(422);
    expect(outside.body.errors.drive_root_url).toEqual(["Favor de verificar la ruta del proyecto."]);
    const traversal = await admin.post("/api/v1/clients", {
      client: { name: "Fuera", drive_root_url: "/drive/folders/../../etc" },
    });
    expect(traversal.body.errors.drive_root_url).toEqual(["Favor de verificar la ruta del proyecto."]);
    const missing = await admin.post("/api/v1/clients", { client: { name: "Fuera", drive_root_id: "no/existe" } });
    expect(missing.body.errors.drive_root_id).toEqual(["la carpeta no existe en el drive"]);

    const picked = await folder();
    const byUrl = await admin.post("/api/v1/clients", {
      client: { name: "Con carpeta", drive_root_url: `/drive/folders/${encodeURIComponent(picked.drive_root_id)}` },
    });
    expect(byUrl.status).toBe(201);
    expect(byUrl.body.client).toMatchObject({
      drive_root_id: picked.drive_root_id,
      drive_root_url: `/drive/folders/${encodeURIComponent(picked.drive_root_id)}`,
    });
    const listed = await admin.get(`/api/v1/drive/folders?parent_id=${encodeURIComponent(picked.drive_root_id)}`);
    expect(listed.body.items.map((i: { name: string }) => i.name).sort()).toEqual([
      "Administración",
      "Comercial",
      "Proyectos",
      "Soporte Técnico",
    ]);
    // An update that leaves the folder alone saves; clearing it is refused.
    expect(
      (await admin.put(`/api/v1/clients/${byUrl.body.client.id}`, { client: { ...byUrl.body.client, email: "a@b.mx" } })).status,
    ).toBe(200);
    const cleared = await admin.put(`/api/v1/clients/${byUrl.body.client.id}`, {
      client: { drive_root_id: null, drive_root_url: null },
    });
    expect(cleared.body.errors.drive_root_id).toEqual(["Favor de seleccionar una ruta para el cliente"]);
  });

  it("updates and removes nested products with _destroy", async () => {
    const p1 = await buildProduct(t.app.db.db);
    const p2 = await buildProduct(t.app.db.db);
    const res = await admin.post("/api/v1/clients", {
      client: {
        name: "Anidado",
        ...(await folder()),
        client_product_catalogs_attributes: [{ product_catalog_id: p1.id, annual_support_hours: 10 }],
      },
    });
    const id = res.body.client.id;
    const row = res.body.client.client_product_catalogs[0];
    const updated = await admin.put(`/api/v1/clients/${id}`, {
      client: {
        client_product_catalogs_attributes: [
          { id: row.id, _destroy: true },
          { product_catalog_id: p2.id, annual_support_hours: 5 },
        ],
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.client.client_product_catalogs).toEqual([
      expect.objectContaining({ product_catalog_id: p2.id, annual_support_hours: 5 }),
    ]);
  });

  it("answers 422 per field in Spanish", async () => {
    const res = await admin.post("/api/v1/clients", { client: { name: "", email: "no-es-correo", rfc: "XYZ" } });
    expect(res.status).toBe(422);
    expect(res.body.errors.name).toEqual(["es obligatorio"]);
    expect(res.body.errors.email).toEqual(["no es un correo válido"]);
    expect(res.body.errors.rfc).toEqual(["no es un RFC válido"]);
  });

  it("refuses a duplicate code and an unknown group with 422", async () => {
    const existing = await buildClient(t.app.db.db, { client_code: "7777" });
    const dup = await admin.post("/api/v1/clients", {
      client: { name: "Otro", client_code: existing.client_code, ...(await folder()) },
    });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.client_code).toEqual(["ya está en uso"]);
    const badGroup = await admin.post("/api/v1/clients", {
      client: { name: "Otro", client_group_id: 999999, ...(await folder()) },
    });
    expect(badGroup.status).toBe(422);
    expect(badGroup.body.errors.client_group_id).toEqual(["no existe"]);
  });

  it("lists 10 per page with meta, searches without accents, sorts by whitelisted columns only", async () => {
    for (let i = 0; i < 12; i++) await buildClient(t.app.db.db, { name: `Lista ${String(i).padStart(2, "0")}` });
    await buildClient(t.app.db.db, { name: "Panadería Pérez" });
    const page = await admin.get("/api/v1/clients?page=1&per_page=10&search=lista&by_column[column]=name&by_column[order]=desc");
    expect(page.status).toBe(200);
    expect(page.body.clients).toHaveLength(10);
    expect(page.body.meta).toEqual({ total_count: 12, page: 1, per_page: 10 });
    expect(page.body.clients[0].name).toBe("Lista 11");
    const accents = await admin.get("/api/v1/clients?search=PANADERIA%20perez");
    expect(accents.body.clients.map((c: { name: string }) => c.name)).toEqual(["Panadería Pérez"]);
    const all = await admin.get("/api/v1/clients?per_page=all&search=lista");
    expect(all.body.clients).toHaveLength(12);
    const bad = await admin.get("/api/v1/clients?by_column[column]=password_digest");
    expect(bad.status).toBe(422);
    const injected = await admin.get("/api/v1/clients?by_column[column]=name;drop%20table%20clients");
    expect(injected.status).toBe(422);
  });

  it("sorts by «Listo para producción», the column the list offers", async () => {
    await buildClient(t.app.db.db, { name: "Orden listo", is_production_ready: true });
    await buildClient(t.app.db.db, { name: "Orden pendiente", is_production_ready: false });
    for (const order of ["asc", "desc"] as const) {
      const res = await admin.get(
        `/api/v1/clients?per_page=all&search=orden&by_column[column]=is_production_ready&by_column[order]=${order}`,
      );
      expect(res.status).toBe(200);
      const names = res.body.clients.map((c: { name: string }) => c.name);
      expect(names).toEqual(order === "asc" ? ["Orden pendiente", "Orden listo"] : ["Orden listo", "Orden pendiente"]);
    }
  });

  it("filters by client group", async () => {
    const group = await buildClientGroup(t.app.db.db);
    await buildClient(t.app.db.db, { name: "En grupo", client_group_id: group.id });
    const res = await admin.get(`/api/v1/clients?by_client_group=${encodeURIComponent(JSON.stringify([group.id]))}`);
    expect(res.body.clients.map((c: { name: string }) => c.name)).toEqual(["En grupo"]);
    // The list screen's group filter sends one id, not an array.
    const single = await admin.get(`/api/v1/clients?by_client_group=${group.id}`);
    expect(single.body.clients.map((c: { name: string }) => c.name)).toEqual(["En grupo"]);
  });

  it("searches clients and prospects together", async () => {
    await buildClient(t.app.db.db, { name: "Óptica Ávila" });
    const res = await operator.get("/api/v1/clients/search_clients_and_prospects?search=optica");
    expect(res.status).toBe(200);
    expect(res.body.clients.map((c: { name: string }) => c.name)).toContain("Óptica Ávila");
    expect(Array.isArray(res.body.prospects)).toBe(true);
  });

  it("deletes a client and refuses while projects reference it", async () => {
    const free = await buildClient(t.app.db.db);
    const del = await admin.delete(`/api/v1/clients/${free.id}`);
    expect(del.status).toBe(200);
    expect((await admin.get(`/api/v1/clients/${free.id}`)).status).toBe(404);

    const busy = await buildClient(t.app.db.db);
    const { projects } = await import("../../server/db/schema");
    await t.app.db.db.insert(projects).values({ project_code: `PR-${busy.id}`, name: "Proyecto", client_id: busy.id });
    const refused = await admin.delete(`/api/v1/clients/${busy.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.base[0]).toMatch(/^No se puede eliminar: .*proyectos/);
  });

  it("lets Operador and Finanzas read but not write", async () => {
    const client = await buildClient(t.app.db.db);
    for (const api of [operator, finance]) {
      expect((await api.get("/api/v1/clients")).status).toBe(200);
      expect((await api.get(`/api/v1/clients/${client.id}`)).status).toBe(200);
      expect((await api.post("/api/v1/clients", { client: { name: "x" } })).status).toBe(403);
      expect((await api.put(`/api/v1/clients/${client.id}`, { client: { name: "x" } })).status).toBe(403);
      expect((await api.delete(`/api/v1/clients/${client.id}`)).status).toBe(403);
      expect((await api.get("/api/v1/clients/next_client_code")).status).toBe(403);
      // The CSV is an administrator's export (matrix `clients` × export): the list hides its button from them.
      expect((await api.get("/api/v1/clients.csv")).status).toBe(403);
    }
  });

  it("answers 401 without a session and 404 for unknown ids", async () => {
    expect((await call(t.app, "GET", "/api/v1/clients")).status).toBe(401);
    expect((await call(t.app, "GET", "/api/v1/clients")).body).toEqual({ error: "Sin Autenticación" });
    expect((await admin.get("/api/v1/clients/987654")).status).toBe(404);
    expect((await admin.get("/api/v1/clients/abc")).status).toBe(404);
  });

  it("exports CSV with BOM and neutralised formulas", async () => {
    await buildClient(t.app.db.db, { name: '=HYPERLINK("http://x")' });
    const res = await admin.get("/api/v1/clients.csv?search=hyperlink");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/csv/);
    expect(res.text.startsWith("\uFEFF")).toBe(true);
    expect(res.text).toContain('"\'=HYPERLINK(""http://x"")"');
  });
});
