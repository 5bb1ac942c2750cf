import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { app_settings, employees } from "../../server/db/schema";
import { buildWorkspace } from "../support/factories";
import { type AppWithRoles, buildAppWithRoles } from "../support/roles";

let { t, admin, operator, finance } = {} as AppWithRoles;

beforeAll(async () => {
  ({ t, admin, operator, finance } = await buildAppWithRoles());
});
afterAll(() => t.close());

const employee = async (name: string, workspace_id: number | null = null, is_active = true) =>
  (await t.app.db.db.insert(employees).values({ name, workspace_id, is_active }).returning())[0];

describe("workspaces", () => {
  it("creates with bosses, shows bosses and the workspace's employees", async () => {
    const boss = await employee("Jefa Ramírez");
    const res = await admin.post("/api/v1/workspaces", {
      workspace: { name: "Guadalajara", is_notifiable: true, bosses_workspaces_attributes: [{ employee_id: boss.id }] },
    });
    expect(res.status).toBe(201);
    const ws = res.body.workspace;
    expect(ws).toMatchObject({ name: "Guadalajara", is_notifiable: true, employees: [] });
    expect(ws.bosses_workspaces).toEqual([
      {
        id: expect.any(Number),
        employee_id: boss.id,
        employee_name: "Jefa Ramírez",
        employee: { id: boss.id, name: "Jefa Ramírez" },
      },
    ]);
    await employee("Miembro Uno", ws.id);
    await employee("Miembro Dos", ws.id, false);
    const shown = await admin.get(`/api/v1/workspaces/${ws.id}`);
    expect(shown.body.workspace.employees).toEqual([
      { id: expect.any(Number), name: "Miembro Uno", employee_code: "0", is_active: true },
      { id: expect.any(Number), name: "Miembro Dos", employee_code: "0", is_active: false },
    ]);
    expect(shown.body.workspace.employees_count).toBe(2);
  });

  it("replaces bosses with _destroy and refuses duplicates and unknown employees", async () => {
    const a = await employee("Jefe A");
    const b = await employee("Jefe B");
    const ws = (
      await admin.post("/api/v1/workspaces", {
        workspace: { name: "Puebla", bosses_workspaces_attributes: [{ employee_id: a.id }] },
      })
    ).body.workspace;
    const row = ws.bosses_workspaces[0];
    const swapped = await admin.put(`/api/v1/workspaces/${ws.id}`, {
      workspace: { bosses_workspaces_attributes: [{ id: row.id, _destroy: true }, { employee_id: b.id }] },
    });
    expect(swapped.status).toBe(200);
    expect(swapped.body.workspace.bosses_workspaces.map((r: { employee_id: number }) => r.employee_id)).toEqual([b.id]);
    // Removing and re-adding the same boss in one save works.
    const current = swapped.body.workspace.bosses_workspaces[0];
    const again = await admin.put(`/api/v1/workspaces/${ws.id}`, {
      workspace: { bosses_workspaces_attributes: [{ id: current.id, _destroy: "true" }, { employee_id: b.id }] },
    });
    expect(again.status).toBe(200);

    const twice = await admin.put(`/api/v1/workspaces/${ws.id}`, {
      workspace: { bosses_workspaces_attributes: [{ employee_id: a.id }, { employee_id: a.id }] },
    });
    expect(twice.status).toBe(422);
    expect(twice.body.errors.bosses_workspaces_attributes).toEqual([
      "El empleado está repetido en los jefes del espacio de trabajo",
    ]);
    const existing = await admin.put(`/api/v1/workspaces/${ws.id}`, {
      workspace: { bosses_workspaces_attributes: [{ employee_id: b.id }] },
    });
    expect(existing.status).toBe(422);
    expect(existing.body.errors.bosses_workspaces_attributes).toEqual([
      "El empleado está repetido en los jefes del espacio de trabajo",
    ]);
    const ghost = await admin.put(`/api/v1/workspaces/${ws.id}`, {
      workspace: { bosses_workspaces_attributes: [{ employee_id: 999999 }] },
    });
    expect(ghost.status).toBe(422);
    expect(ghost.body.errors.bosses_workspaces_attributes).toEqual(["no existe"]);
    const missing = await admin.put(`/api/v1/workspaces/${ws.id}`, { workspace: { bosses_workspaces_attributes: [{}] } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors["bosses_workspaces_attributes.0.employee_id"]).toEqual(["es obligatorio"]);
  });

  it("answers 422 in Spanish for a missing or repeated name", async () => {
    const blank = await admin.post("/api/v1/workspaces", { workspace: { name: "" } });
    expect(blank.status).toBe(422);
    expect(blank.body.errors.name).toEqual(["es obligatorio"]);
    await buildWorkspace(t.app.db.db, "Repetido");
    const dup = await admin.post("/api/v1/workspaces", { workspace: { name: "Repetido" } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.name).toEqual(["ya está en uso"]);
  });

  it("toggles notification (admin only)", async () => {
    const ws = await buildWorkspace(t.app.db.db);
    const on = await admin.put(`/api/v1/workspaces/${ws.id}/toggle_notification`);
    expect(on.status).toBe(200);
    expect(on.body.workspace).toMatchObject({ id: ws.id, is_notifiable: true });
    const off = await admin.put(`/api/v1/workspaces/${ws.id}/toggle_notification.json`);
    expect(off.body.workspace.is_notifiable).toBe(false);
    expect((await admin.put("/api/v1/workspaces/999999/toggle_notification")).status).toBe(404);
    expect((await finance.put(`/api/v1/workspaces/${ws.id}/toggle_notification`)).status).toBe(403);
    expect((await operator.put(`/api/v1/workspaces/${ws.id}/toggle_notification`)).status).toBe(403);
  });

  it("searches without accents and sorts by id or name only", async () => {
    await buildWorkspace(t.app.db.db, "Querétaro Norte");
    await buildWorkspace(t.app.db.db, "Querétaro Sur");
    const found = await admin.get("/api/v1/workspaces?search=queretaro&by_column[column]=name&by_column[order]=desc");
    expect(found.body.workspaces.map((w: { name: string }) => w.name)).toEqual(["Querétaro Sur", "Querétaro Norte"]);
    expect(found.body.meta).toEqual({ total_count: 2, page: 1, per_page: 10 });
    expect((await admin.get("/api/v1/workspaces?by_column[column]=id&by_column[order]=asc")).status).toBe(200);
    expect((await admin.get("/api/v1/workspaces?by_column[column]=is_notifiable")).status).toBe(422);
  });

  it("refuses to delete a workspace with employees or the default one", async () => {
    const busy = await buildWorkspace(t.app.db.db);
    await employee("Ocupante", busy.id);
    const refused = await admin.delete(`/api/v1/workspaces/${busy.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.base).toEqual(["No se puede eliminar: el espacio de trabajo tiene 1 empleado"]);
    const def = await buildWorkspace(t.app.db.db);
    await t.app.db.db
      .insert(app_settings)
      .values({ id: 1, default_workspace_id: def.id })
      .onConflictDoUpdate({ target: app_settings.id, set: { default_workspace_id: def.id } });
    const refusedDefault = await admin.delete(`/api/v1/workspaces/${def.id}`);
    expect(refusedDefault.body.errors.base).toEqual([
      "No se puede eliminar: es el espacio de trabajo predeterminado de la aplicación",
    ]);
    const boss = await employee("Jefe de vacío");
    const free = (
      await admin.post("/api/v1/workspaces", {
        workspace: { name: "Vacío", bosses_workspaces_attributes: [{ employee_id: boss.id }] },
      })
    ).body.workspace;
    expect((await admin.delete(`/api/v1/workspaces/${free.id}`)).status).toBe(200);
    expect((await admin.get(`/api/v1/workspaces/${free.id}`)).status).toBe(404);
  });

  it("Finanzas reads, Operador gets 403, only admins write", async () => {
    const ws = await buildWorkspace(t.app.db.db);
    expect((await finance.get("/api/v1/workspaces")).status).toBe(200);
    expect((await finance.get(`/api/v1/workspaces/${ws.id}`)).status).toBe(200);
    expect((await operator.get("/api/v1/workspaces")).status).toBe(403);
    expect((await operator.get(`/api/v1/workspaces/${ws.id}`)).status).toBe(403);
    for (const api of [operator, finance]) {
      expect((await api.post("/api/v1/workspaces", { workspace: { name: "x" } })).status).toBe(403);
      expect((await api.put(`/api/v1/workspaces/${ws.id}`, { workspace: { name: "x" } })).status).toBe(403);
      expect((await api.delete(`/api/v1/workspaces/${ws.id}`)).status).toBe(403);
    }
  });
});
