import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../support/app";
import { buildActivity, buildProspect, buildQuotation } from "../support/catalog-factories";
import { type ApiClient, buildProduct, signInAs } from "../support/factories";

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let finance: ApiClient;
let adminEmployeeId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const signedAdmin = await signInAs(t.app, "admin");
  admin = signedAdmin.api;
  adminEmployeeId = signedAdmin.employee!.id;
  operator = (await signInAs(t.app, "operator")).api;
  finance = (await signInAs(t.app, "finance")).api;
});
afterAll(() => t.close());

describe("prospects", () => {
  it("creates a prospect with its CV_ folder (in the chosen folder or the drive root) and reads it back", async () => {
    const res = await admin.post("/api/v1/prospects", { prospect: { name: "  Ferretería Núñez ", drive_root_url: "" } });
    expect(res.status).toBe(201);
    expect(res.body.prospect).toMatchObject({ name: "Ferretería Núñez", drive_root_id: "CV_Ferretería Núñez" });
    expect(res.body.prospect.drive_root_url).toBe(`/drive/folders/${encodeURIComponent("CV_Ferretería Núñez")}`);
    expect(res.body.prospect.created_at).toBeTruthy();
    const parent = (await admin.post("/api/v1/drive/folders", { folder: { name: "Prospectos" } })).body.folder;
    const withFolder = await admin.post("/api/v1/prospects", { prospect: { name: "Con carpeta", drive_root_id: parent.id } });
    expect(withFolder.body.prospect.drive_root_id).toBe("Prospectos/CV_Con carpeta");
    const google = await admin.post("/api/v1/prospects", {
      prospect: { name: "Fuera", drive_root_id: "abc123", drive_root_url: "https://drive.google.com/drive/folders/abc123" },
    });
    expect(google.status).toBe(422);
    expect(google.body.errors.drive_root_url).toEqual(["Favor de verificar la ruta del proyecto."]);
    const shown = await operator.get(`/api/v1/prospects/${withFolder.body.prospect.id}`);
    expect(shown.body.prospect.name).toBe("Con carpeta");
    const updated = await admin.put(`/api/v1/prospects/${withFolder.body.prospect.id}`, { prospect: { name: "Renombrado" } });
    // Its CV_ folder follows its name (decision 027).
    expect(updated.body.prospect).toMatchObject({ name: "Renombrado", drive_root_id: "Prospectos/CV_Renombrado" });
  });

  it("answers 422 in Spanish for a missing or too long name", async () => {
    const res = await admin.post("/api/v1/prospects", { prospect: { name: "" } });
    expect(res.status).toBe(422);
    expect(res.body.errors.name).toEqual(["es obligatorio"]);
    const long = await admin.post("/api/v1/prospects", { prospect: { name: "x".repeat(201) } });
    expect(long.body.errors.name).toEqual(["es demasiado largo (máximo 200 caracteres)"]);
  });

  it("searches without accents and sorts by whitelisted columns only", async () => {
    await buildProspect(t.app.db.db, { name: "Óptica Ámbar" });
    await buildProspect(t.app.db.db, { name: "Zapatería Zeta" });
    const found = await admin.get("/api/v1/prospects?search=OPTICA%20ambar");
    expect(found.body.prospects.map((p: { name: string }) => p.name)).toEqual(["Óptica Ámbar"]);
    const asc = await admin.get("/api/v1/prospects?per_page=all&by_column[column]=name&by_column[order]=asc");
    const desc = await admin.get("/api/v1/prospects?per_page=all&by_column[column]=name&by_column[order]=desc");
    expect(desc.body.prospects.map((p: { id: number }) => p.id)).toEqual(
      asc.body.prospects.map((p: { id: number }) => p.id).reverse(),
    );
    expect(asc.body.prospects.length).toBeGreaterThanOrEqual(2);
    expect((await admin.get("/api/v1/prospects?by_column[column]=created_at&by_column[order]=asc")).status).toBe(200);
    expect((await admin.get("/api/v1/prospects?by_column[column]=id")).status).toBe(200);
    expect((await admin.get("/api/v1/prospects?by_column[column]=drive_root_id")).status).toBe(422);
    const page = await admin.get("/api/v1/prospects?per_page=1&page=2");
    expect(page.body.prospects).toHaveLength(1);
    expect(page.body.meta.page).toBe(2);
  });

  it("refuses to delete a prospect with quotations or activities", async () => {
    const product = await buildProduct(t.app.db.db);
    const quoted = await buildProspect(t.app.db.db);
    await buildQuotation(t.app.db.db, product.id, quoted.id);
    const refused = await admin.delete(`/api/v1/prospects/${quoted.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.base).toEqual([
      "No se puede eliminar: el prospecto tiene 1 cotización y 0 actividades registradas",
    ]);

    const worked = await buildProspect(t.app.db.db);
    await buildActivity(t.app.db.db, adminEmployeeId, {
      action_type: "quote",
      ownerable_type: "Prospect",
      ownerable_id: worked.id,
    });
    const refused2 = await admin.delete(`/api/v1/prospects/${worked.id}`);
    expect(refused2.status).toBe(422);
    expect(refused2.body.errors.base[0]).toMatch(/1 actividad\b/);
    expect((await admin.get(`/api/v1/prospects/${worked.id}`)).status).toBe(200);

    const free = await buildProspect(t.app.db.db);
    expect((await admin.delete(`/api/v1/prospects/${free.id}`)).status).toBe(200);
    expect((await admin.get(`/api/v1/prospects/${free.id}`)).status).toBe(404);
  });

  it("lets Operador and Finanzas read but not write", async () => {
    const p = await buildProspect(t.app.db.db);
    for (const api of [operator, finance]) {
      expect((await api.get("/api/v1/prospects")).status).toBe(200);
      expect((await api.get(`/api/v1/prospects/${p.id}`)).status).toBe(200);
      expect((await api.post("/api/v1/prospects", { prospect: { name: "x" } })).status).toBe(403);
      expect((await api.put(`/api/v1/prospects/${p.id}`, { prospect: { name: "x" } })).status).toBe(403);
      expect((await api.delete(`/api/v1/prospects/${p.id}`)).status).toBe(403);
    }
  });
});
