import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProject } from "../support/catalog-factories";
import { buildClient } from "../support/factories";
import { type AppWithRoles, buildAppWithRoles } from "../support/roles";

let { t, admin, operator, finance } = {} as AppWithRoles;

beforeAll(async () => {
  ({ t, admin, operator, finance } = await buildAppWithRoles());
});
afterAll(() => t.close());

describe("project_types", () => {
  it("creates a type with a #RRGGBB colour; the name is unique", async () => {
    const res = await admin.post("/api/v1/project_types", { project_type: { name: "Implementación", color_tag: "#1a2b3c" } });
    expect(res.status).toBe(201);
    expect(res.body.project_type).toMatchObject({ name: "Implementación", color_tag: "#1A2B3C" });
    const dup = await admin.post("/api/v1/project_types", { project_type: { name: "Implementación" } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.name).toEqual(["ya está en uso"]);
    const bad = await admin.post("/api/v1/project_types", { project_type: { name: "", color_tag: "red" } });
    expect(bad.body.errors).toEqual({ name: ["es obligatorio"], color_tag: ["debe ser un color con el formato #RRGGBB"] });
    expect((await admin.post("/api/v1/project_types", { project_type: { name: "Corto", color_tag: "#abc" } })).status).toBe(422);
    const updated = await admin.put(`/api/v1/project_types/${res.body.project_type.id}`, { project_type: { color_tag: "" } });
    expect(updated.body.project_type).toMatchObject({ name: "Implementación", color_tag: null });
  });

  it("searches without accents, sorts by whitelist and refuses deleting a type in use", async () => {
    const type = (await admin.post("/api/v1/project_types", { project_type: { name: "Consultoría" } })).body.project_type;
    expect(
      (await admin.get("/api/v1/project_types?search=CONSULTORIA")).body.project_types.map((p: { name: string }) => p.name),
    ).toEqual(["Consultoría"]);
    expect((await admin.get("/api/v1/project_types?by_column[column]=name&by_column[order]=desc")).status).toBe(200);
    expect((await admin.get("/api/v1/project_types?by_column[column]=color_tag")).status).toBe(422);
    await buildProject(t.app.db.db, (await buildClient(t.app.db.db)).id, { project_type_catalog_id: type.id });
    const refused = await admin.delete(`/api/v1/project_types/${type.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.base).toEqual(["No se puede eliminar: el tipo de proyecto se usa en 1 proyecto"]);
    const free = (await admin.post("/api/v1/project_types", { project_type: { name: "Libre" } })).body.project_type;
    expect((await admin.delete(`/api/v1/project_types/${free.id}`)).status).toBe(200);
  });

  it("lets Operador and Finanzas read but not write", async () => {
    const type = (await admin.post("/api/v1/project_types", { project_type: { name: "Soporte" } })).body.project_type;
    for (const api of [operator, finance]) {
      expect((await api.get("/api/v1/project_types?per_page=all")).status).toBe(200);
      expect((await api.get(`/api/v1/project_types/${type.id}`)).status).toBe(200);
      expect((await api.post("/api/v1/project_types", { project_type: { name: "x" } })).status).toBe(403);
      expect((await api.put(`/api/v1/project_types/${type.id}`, { project_type: { name: "x" } })).status).toBe(403);
      expect((await api.delete(`/api/v1/project_types/${type.id}`)).status).toBe(403);
    }
  });
});
