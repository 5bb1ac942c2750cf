import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildClient, buildClientGroup } from "../support/factories";
import { type AppWithRoles, buildAppWithRoles } from "../support/roles";

let { t, admin, operator, finance } = {} as AppWithRoles;

beforeAll(async () => {
  ({ t, admin, operator, finance } = await buildAppWithRoles());
});
afterAll(() => t.close());

describe("client_groups", () => {
  it("creates a group; the name is unique", async () => {
    const res = await admin.post("/api/v1/client_groups", { client_group: { name: "Gobierno Estatal" } });
    expect(res.status).toBe(201);
    expect(res.body.client_group).toMatchObject({ name: "Gobierno Estatal", clients_count: 0, clients: [] });
    const dup = await admin.post("/api/v1/client_groups", { client_group: { name: "Gobierno Estatal" } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.name).toEqual(["ya existe un grupo con ese nombre (sin importar mayúsculas, acentos ni espacios)"]);
    const empty = await admin.post("/api/v1/client_groups", { client_group: { name: " " } });
    expect(empty.body.errors.name).toEqual(["es obligatorio"]);
    const renamed = await admin.put(`/api/v1/client_groups/${res.body.client_group.id}`, { client_group: { name: "Gobierno" } });
    expect(renamed.body.client_group.name).toBe("Gobierno");
  });

  it("shows its clients and counts them", async () => {
    const group = await buildClientGroup(t.app.db.db, "Cadenas");
    const a = await buildClient(t.app.db.db, { name: "Cadena A", client_group_id: group.id });
    const b = await buildClient(t.app.db.db, { name: "Cadena B", client_group_id: group.id });
    const res = await admin.get(`/api/v1/client_groups/${group.id}`);
    expect(res.status).toBe(200);
    expect(res.body.client_group.clients_count).toBe(2);
    expect(res.body.client_group.clients).toEqual([
      { id: a.id, name: "Cadena A", client_code: a.client_code },
      { id: b.id, name: "Cadena B", client_code: b.client_code },
    ]);
  });

  it("lists everything with per_page=all&page=1, searches without accents, sorts by whitelist", async () => {
    for (let i = 0; i < 12; i++) await buildClientGroup(t.app.db.db, `Región ${String(i).padStart(2, "0")}`);
    const all = await admin.get("/api/v1/client_groups?per_page=all&page=1");
    expect(all.status).toBe(200);
    expect(all.body.client_groups.length).toBe(all.body.meta.total_count);
    expect(all.body.client_groups.length).toBeGreaterThanOrEqual(12);
    expect(all.body.meta.per_page).toBe("all");
    const search = await admin.get("/api/v1/client_groups?search=REGION%2011");
    expect(search.body.client_groups.map((g: { name: string }) => g.name)).toEqual(["Región 11"]);
    const byCount = await admin.get("/api/v1/client_groups?by_column[column]=clients_count&by_column[order]=desc");
    expect(byCount.status).toBe(200);
    expect(byCount.body.client_groups[0].clients_count).toBeGreaterThanOrEqual(byCount.body.client_groups[1].clients_count);
    expect((await admin.get("/api/v1/client_groups?by_column[column]=secret")).status).toBe(422);
  });

  it("sorts names as a person alphabetises them: without case or accents", async () => {
    for (const name of ["zeta minúsculas", "Ámbar Orden", "beta Orden", "Alfa Orden", "Carbono Orden"])
      await buildClientGroup(t.app.db.db, name);
    const res = await admin.get("/api/v1/client_groups?per_page=all&search=orden&by_column[column]=name&by_column[order]=asc");
    expect(res.status).toBe(200);
    expect(res.body.client_groups.map((g: { name: string }) => g.name)).toEqual([
      "Alfa Orden",
      "Ámbar Orden",
      "beta Orden",
      "Carbono Orden",
    ]);
    // The list's default order is the same.
    const byDefault = await admin.get("/api/v1/client_groups?per_page=all&search=orden");
    expect(byDefault.body.client_groups.map((g: { name: string }) => g.name)[2]).toBe("beta Orden");
  });

  it("refuses to delete a group while clients belong to it", async () => {
    const group = await buildClientGroup(t.app.db.db);
    const client = await buildClient(t.app.db.db, { client_group_id: group.id });
    const refused = await admin.delete(`/api/v1/client_groups/${group.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.base).toEqual(["No se puede eliminar: el grupo tiene 1 cliente"]);
    await admin.put(`/api/v1/clients/${client.id}`, { client: { client_group_id: "null" } });
    expect((await admin.delete(`/api/v1/client_groups/${group.id}`)).status).toBe(200);
  });

  it("is for Administrador only", async () => {
    const group = await buildClientGroup(t.app.db.db);
    for (const api of [operator, finance]) {
      expect((await api.get("/api/v1/client_groups?per_page=all&page=1")).status).toBe(403);
      expect((await api.get(`/api/v1/client_groups/${group.id}`)).status).toBe(403);
      expect((await api.post("/api/v1/client_groups", { client_group: { name: "x" } })).status).toBe(403);
      expect((await api.put(`/api/v1/client_groups/${group.id}`, { client_group: { name: "x" } })).status).toBe(403);
      expect((await api.delete(`/api/v1/client_groups/${group.id}`)).status).toBe(403);
    }
  });
});
