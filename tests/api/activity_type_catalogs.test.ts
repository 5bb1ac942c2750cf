import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../support/app";
import { buildActivity } from "../support/catalog-factories";
import { type ApiClient, signInAs } from "../support/factories";

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let finance: ApiClient;
let employeeId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const signed = await signInAs(t.app, "admin");
  admin = signed.api;
  employeeId = signed.employee!.id;
  operator = (await signInAs(t.app, "operator")).api;
  finance = (await signInAs(t.app, "finance")).api;
});
afterAll(() => t.close());

describe("activity_type_catalogs", () => {
  it("creates a type with a unique code of 2 to 4 capital letters", async () => {
    const res = await admin.post("/api/v1/activity_type_catalogs", {
      activity_type_catalog: { code: " zq ", name: "Pruebas de carga" },
    });
    expect(res.status).toBe(201);
    expect(res.body.activity_type_catalog).toMatchObject({ code: "ZQ", name: "Pruebas de carga" });
    const dup = await admin.post("/api/v1/activity_type_catalogs", { activity_type_catalog: { code: "ZQ", name: "Otro" } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.code).toEqual(["ya está en uso"]);
    for (const code of ["Z", "ZQWXY", "Z1", "ÑÑ"]) {
      const bad = await admin.post("/api/v1/activity_type_catalogs", { activity_type_catalog: { code, name: "x" } });
      expect(bad.status).toBe(422);
      expect(bad.body.errors.code).toEqual(["debe tener de 2 a 4 letras mayúsculas"]);
    }
    const missing = await admin.post("/api/v1/activity_type_catalogs", { activity_type_catalog: {} });
    expect(missing.body.errors).toEqual({ code: ["es obligatorio"], name: ["es obligatorio"] });
  });

  it("searches by code or name without accents, sorts by whitelist", async () => {
    await admin.post("/api/v1/activity_type_catalogs", { activity_type_catalog: { code: "XAN", name: "Análisis técnico" } });
    const byName = await operator.get("/api/v1/activity_type_catalogs?search=analisis%20tecnico");
    expect(byName.body.activity_type_catalogs.map((a: { code: string }) => a.code)).toEqual(["XAN"]);
    const byCode = await admin.get("/api/v1/activity_type_catalogs?search=xan");
    expect(byCode.body.activity_type_catalogs).toHaveLength(1);
    const sorted = await admin.get("/api/v1/activity_type_catalogs?per_page=all&by_column[column]=code&by_column[order]=asc");
    const codes = sorted.body.activity_type_catalogs.map((a: { code: string }) => a.code);
    expect(codes).toEqual([...codes].sort());
    expect((await admin.get("/api/v1/activity_type_catalogs?by_column[column]=created_at")).status).toBe(422);
  });

  it("refuses deleting a type used by activities", async () => {
    const type = (await admin.post("/api/v1/activity_type_catalogs", { activity_type_catalog: { code: "USO", name: "En uso" } }))
      .body.activity_type_catalog;
    await buildActivity(t.app.db.db, employeeId, { activity_type_catalog_id: type.id });
    const refused = await admin.delete(`/api/v1/activity_type_catalogs/${type.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.base).toEqual(["No se puede eliminar: el tipo de actividad se usa en 1 actividad"]);
    const free = (await admin.post("/api/v1/activity_type_catalogs", { activity_type_catalog: { code: "LIB", name: "Libre" } }))
      .body.activity_type_catalog;
    expect((await admin.delete(`/api/v1/activity_type_catalogs/${free.id}`)).status).toBe(200);
  });

  it("lets Operador and Finanzas read but not write", async () => {
    const type = (await admin.post("/api/v1/activity_type_catalogs", { activity_type_catalog: { code: "LEC", name: "Lectura" } }))
      .body.activity_type_catalog;
    for (const api of [operator, finance]) {
      expect((await api.get("/api/v1/activity_type_catalogs?per_page=all")).status).toBe(200);
      expect((await api.get(`/api/v1/activity_type_catalogs/${type.id}`)).status).toBe(200);
      expect(
        (await api.post("/api/v1/activity_type_catalogs", { activity_type_catalog: { code: "NO", name: "x" } })).status,
      ).toBe(403);
      expect((await api.put(`/api/v1/activity_type_catalogs/${type.id}`, { activity_type_catalog: { name: "x" } })).status).toBe(
        403,
      );
      expect((await api.delete(`/api/v1/activity_type_catalogs/${type.id}`)).status).toBe(403);
    }
  });
});
