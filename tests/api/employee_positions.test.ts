import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { employees, estimated_work_hours, projects } from "../../server/db/schema";
import { buildClient } from "../support/factories";
import { type AppWithRoles, buildAppWithRoles } from "../support/roles";

let { t, admin, operator, finance } = {} as AppWithRoles;

beforeAll(async () => {
  ({ t, admin, operator, finance } = await buildAppWithRoles());
});
afterAll(() => t.close());

const create = async (name: string) =>
  (await admin.post("/api/v1/employee_positions", { employee_position: { name } })).body.employee_position;

describe("employee_positions", () => {
  it("creates, updates, lists, searches without accents and sorts whitelisted columns", async () => {
    const created = await admin.post("/api/v1/employee_positions", { employee_position: { name: "Líder Técnico" } });
    expect(created.status).toBe(201);
    expect(created.body.employee_position).toMatchObject({ name: "Líder Técnico", employees_count: 0 });
    const id = created.body.employee_position.id;
    const updated = await admin.put(`/api/v1/employee_positions/${id}`, { employee_position: { name: "Líder de Proyecto" } });
    expect(updated.body.employee_position.name).toBe("Líder de Proyecto");
    await create("Analista");
    const found = await admin.get("/api/v1/employee_positions?search=LIDER");
    expect(found.body.employee_positions.map((p: { name: string }) => p.name)).toEqual(["Líder de Proyecto"]);
    const sorted = await admin.get("/api/v1/employee_positions?per_page=all&by_column[column]=name&by_column[order]=desc");
    expect(sorted.body.employee_positions.map((p: { name: string }) => p.name)).toEqual(["Líder de Proyecto", "Analista"]);
    expect((await admin.get("/api/v1/employee_positions?by_column[column]=created_at")).status).toBe(422);
  });

  it("answers 422 in Spanish for a missing or repeated name", async () => {
    const blank = await admin.post("/api/v1/employee_positions", { employee_position: {} });
    expect(blank.status).toBe(422);
    expect(blank.body.errors.name).toEqual(["es obligatorio"]);
    await create("Tester");
    const dup = await admin.post("/api/v1/employee_positions", { employee_position: { name: "Tester" } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.name).toEqual(["ya está en uso"]);
  });

  it("refuses to delete a position used by employees or estimated hours", async () => {
    const withEmployee = await create("Con empleado");
    await t.app.db.db.insert(employees).values({ name: "Puesto ocupado", employee_position_id: withEmployee.id });
    const refused = await admin.delete(`/api/v1/employee_positions/${withEmployee.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.base).toEqual(["No se puede eliminar: el puesto se usa en 1 empleado y 0 horas estimadas"]);

    const withHours = await create("Con horas");
    const client = await buildClient(t.app.db.db);
    const [project] = await t.app.db.db
      .insert(projects)
      .values({ project_code: "EH-1", name: "P", client_id: client.id })
      .returning();
    await t.app.db.db
      .insert(estimated_work_hours)
      .values({ project_id: project.id, employee_position_id: withHours.id, estimated_hours: 10 });
    const refusedHours = await admin.delete(`/api/v1/employee_positions/${withHours.id}`);
    expect(refusedHours.body.errors.base).toEqual(["No se puede eliminar: el puesto se usa en 0 empleados y 1 hora estimada"]);

    const free = await create("Libre");
    expect((await admin.delete(`/api/v1/employee_positions/${free.id}`)).status).toBe(200);
  });

  it("everyone reads, only admins write", async () => {
    const position = await create("Lectura");
    for (const api of [operator, finance]) {
      expect((await api.get("/api/v1/employee_positions?per_page=all")).status).toBe(200);
      expect((await api.get(`/api/v1/employee_positions/${position.id}`)).status).toBe(200);
      expect((await api.post("/api/v1/employee_positions", { employee_position: { name: "x" } })).status).toBe(403);
      expect((await api.put(`/api/v1/employee_positions/${position.id}`, { employee_position: { name: "x" } })).status).toBe(403);
      expect((await api.delete(`/api/v1/employee_positions/${position.id}`)).status).toBe(403);
    }
  });
});
