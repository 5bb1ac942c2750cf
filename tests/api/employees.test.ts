import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { app_settings, employee_positions, employees, projects, sessions } from "../../server/db/schema";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildClient, buildUser, buildWorkspace, signIn, signInAs } from "../support/factories";

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let finance: ApiClient;
let operatorEmployee: { id: number };
let financeEmployee: { id: number };

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAs(t.app, "admin")).api;
  const op = await signInAs(t.app, "operator");
  operator = op.api;
  operatorEmployee = op.employee as { id: number };
  const fi = await signInAs(t.app, "finance");
  finance = fi.api;
  financeEmployee = fi.employee as { id: number };
});
afterAll(() => t.close());

const names = (rows: Array<{ name: string }>) => rows.map((r) => r.name);

describe("employees", () => {
  it("creates with defaults: code '0' and no workspace when no default is configured", async () => {
    const res = await admin.post("/api/v1/employees", { employee: { name: "Sin Código" } });
    expect(res.status).toBe(201);
    expect(res.body.employee).toMatchObject({
      name: "Sin Código",
      employee_code: "0",
      workspace_id: null,
      is_active: true,
      assignable: false,
      daily_hours: 8,
    });
    // '0' is the "no code yet" value: several employees may share it.
    expect((await admin.post("/api/v1/employees", { employee: { name: "Otro sin código", employee_code: "" } })).status).toBe(
      201,
    );
  });

  it("takes the default workspace of app_settings when none is chosen, and computes names", async () => {
    const ws = await buildWorkspace(t.app.db.db, "Matriz Monterrey");
    await t.app.db.db
      .insert(app_settings)
      .values({ id: 1, default_workspace_id: ws.id })
      .onConflictDoUpdate({ target: app_settings.id, set: { default_workspace_id: ws.id } });
    const other = await buildWorkspace(t.app.db.db, "Sucursal");
    const [position] = await t.app.db.db.insert(employee_positions).values({ name: "Desarrollador" }).returning();
    const { user } = await buildUser(t.app.db.db, "operator", {}, false);
    const res = await admin.post("/api/v1/employees", {
      employee: {
        name: "José Ávila",
        employee_code: "E-100",
        user_id: user.id,
        employee_position_id: position.id,
        is_rape: true,
        assignable: "true",
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.employee).toMatchObject({
      workspace_id: ws.id,
      workspace_name: "Matriz Monterrey",
      employee_position_name: "Desarrollador",
      user_email: user.email,
      is_rape: true,
      assignable: true,
    });
    const chosen = await admin.post("/api/v1/employees", { employee: { name: "Elegido", workspace_id: other.id } });
    expect(chosen.body.employee.workspace_id).toBe(other.id);
    await t.app.db.db.update(app_settings).set({ default_workspace_id: null });
  });

  it("keeps a part-time working day, between 0 and 24 hours in quarters", async () => {
    const res = await admin.post("/api/v1/employees", { employee: { name: "Medio Tiempo", daily_hours: "4.5" } });
    expect(res.status).toBe(201);
    expect(res.body.employee.daily_hours).toBe(4.5);
    const id = res.body.employee.id;
    for (const bad of [25, -1]) {
      const refused = await admin.put(`/api/v1/employees/${id}`, { employee: { daily_hours: bad } });
      expect(refused.status, String(bad)).toBe(422);
      expect(refused.body.errors.daily_hours).toEqual(["debe estar entre 0 y 24 horas"]);
    }
    const notQuarter = await admin.put(`/api/v1/employees/${id}`, { employee: { daily_hours: 7.3 } });
    expect(notQuarter.body.errors.daily_hours).toEqual(["debe ir en cuartos de hora (p. ej. 7.5 o 7.25)"]);
    // A decimal comma, as typed on a Spanish keyboard.
    const comma = await admin.put(`/api/v1/employees/${id}`, { employee: { daily_hours: "6,75" } });
    expect(comma.status).toBe(200);
    expect(comma.body.employee.daily_hours).toBe(6.75);
    await admin.put(`/api/v1/employees/${id}`, { employee: { daily_hours: 4.5 } });
    const word = await admin.put(`/api/v1/employees/${id}`, { employee: { daily_hours: "ocho" } });
    expect(word.body.errors.daily_hours).toEqual(["debe ser un número"]);
    expect((await admin.get(`/api/v1/employees/${id}`)).body.employee.daily_hours).toBe(4.5);
  });

  it("answers 422 per field in Spanish: name, employee_code, user_id", async () => {
    const res = await admin.post("/api/v1/employees", { employee: { name: "  ", user_id: "abc" } });
    expect(res.status).toBe(422);
    expect(res.body.errors.name).toEqual(["es obligatorio"]);
    expect(res.body.errors.user_id).toEqual(["no existe"]);
    await admin.post("/api/v1/employees", { employee: { name: "Con código", employee_code: "DUP-1" } });
    const dup = await admin.post("/api/v1/employees", { employee: { name: "Repetido", employee_code: "DUP-1" } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.employee_code).toEqual(["ya está en uso"]);
    const ghost = await admin.post("/api/v1/employees", { employee: { name: "Fantasma", user_id: 999999 } });
    expect(ghost.status).toBe(422);
    expect(ghost.body.errors.user_id).toEqual(["no existe"]);
    const badWs = await admin.post("/api/v1/employees", { employee: { name: "X", workspace_id: 999999 } });
    expect(badWs.status).toBe(422);
    expect(badWs.body.errors.workspace_id).toEqual(["no existe"]);
  });

  it("links a user to at most one employee, and only to an active one", async () => {
    const { user, employee } = await buildUser(t.app.db.db, "operator");
    const taken = await admin.post("/api/v1/employees", { employee: { name: "Segundo", user_id: user.id } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors.user_id).toEqual(["ya está vinculado a otro empleado"]);
    const spare = (await admin.post("/api/v1/employees", { employee: { name: "Libre" } })).body.employee;
    const moved = await admin.put(`/api/v1/employees/${spare.id}`, { employee: { user_id: user.id } });
    expect(moved.body.errors.user_id).toEqual(["ya está vinculado a otro empleado"]);
    // Re-sending the same link on its own employee is not a conflict.
    expect((await admin.put(`/api/v1/employees/${employee?.id}`, { employee: { user_id: user.id, name: "Mismo" } })).status).toBe(
      200,
    );

    const { user: lonely } = await buildUser(t.app.db.db, "operator", {}, false);
    const inactive = await admin.post("/api/v1/employees", {
      employee: { name: "Inactivo", is_active: false, user_id: lonely.id },
    });
    expect(inactive.status).toBe(422);
    expect(inactive.body.errors.user_id).toEqual(["no se puede vincular un usuario a un empleado inactivo"]);
  });

  it("deactivating an employee signs their user out", async () => {
    const { user, employee } = await buildUser(t.app.db.db, "operator");
    const session = await signIn(t.app, user.email);
    expect((await session.get(`/api/v1/employees/${employee?.id}`)).status).toBe(200);
    const res = await admin.put(`/api/v1/employees/${employee?.id}`, { employee: { is_active: false } });
    expect(res.status).toBe(200);
    expect(res.body.employee.is_active).toBe(false);
    expect(await t.app.db.db.select().from(sessions).where(eq(sessions.user_id, user.id))).toHaveLength(0);
    expect((await session.get(`/api/v1/employees/${employee?.id}`)).status).toBe(401);
  });

  it("refuses an administrator deactivating or unlinking their own employee (they would be locked out)", async () => {
    const own = await signInAs(t.app, "admin");
    const id = own.employee?.id;
    for (const change of [{ is_active: false }, { user_id: null }]) {
      const res = await own.api.put(`/api/v1/employees/${id}`, { employee: change });
      expect(res.status).toBe(422);
      expect(res.body.errors.base).toEqual([
        "No puede dar de baja ni desvincular su propio empleado: pídaselo a otro administrador",
      ]);
    }
    expect((await own.api.get(`/api/v1/employees/${id}`)).status).toBe(200);
    // Another administrator may.
    expect((await admin.put(`/api/v1/employees/${id}`, { employee: { is_active: false } })).status).toBe(200);
    expect((await own.api.get(`/api/v1/employees/${id}`)).status).toBe(401);
  });

  it("filters by status, assignable, rape, pm and workspace", async () => {
    const ws = await buildWorkspace(t.app.db.db);
    const db = t.app.db.db;
    const [active] = await db
      .insert(employees)
      .values({ name: "Filtro Activo", assignable: true, is_rape: true, workspace_id: ws.id })
      .returning();
    const [inactive] = await db
      .insert(employees)
      .values({ name: "Filtro Inactivo", is_active: false, workspace_id: ws.id })
      .returning();
    const client = await buildClient(db);
    await db.insert(projects).values({ project_code: "PM-1", name: "Proyecto", client_id: client.id, pm_id: inactive.id });
    const q = (params: string) => admin.get(`/api/v1/employees?per_page=all&by_workspace=${ws.id}&${params}`);
    expect(names((await q("")).body.employees)).toEqual(["Filtro Activo", "Filtro Inactivo"]);
    expect(names((await q("is_active=true")).body.employees)).toEqual(["Filtro Activo"]);
    expect(names((await q("by_status=false")).body.employees)).toEqual(["Filtro Inactivo"]);
    expect(names((await q(`by_status=${encodeURIComponent('["true"]')}`)).body.employees)).toEqual(["Filtro Activo"]);
    expect(names((await q(`by_status=${encodeURIComponent("[true,false]")}`)).body.employees)).toHaveLength(2);
    expect(names((await q("assignable=true")).body.employees)).toEqual(["Filtro Activo"]);
    expect(names((await q("by_rape=true")).body.employees)).toEqual(["Filtro Activo"]);
    expect(names((await q("by_pm=true")).body.employees)).toEqual(["Filtro Inactivo"]);
    const asArray = await admin.get(`/api/v1/employees?by_workspace=${encodeURIComponent(JSON.stringify([ws.id]))}`);
    expect(names(asArray.body.employees)).toEqual(["Filtro Activo", "Filtro Inactivo"]);
    const bad = await admin.get("/api/v1/employees?by_status=tal-vez");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.by_status).toEqual(["no es válido"]);
    expect(active.id).toBeGreaterThan(0);
  });

  it("searches name and code without accents and sorts whitelisted columns only", async () => {
    await t.app.db.db.insert(employees).values([
      { name: "Begoña Ibáñez", employee_code: "BUSCA-01" },
      { name: "Zoé Buscable", employee_code: "XX-77" },
    ]);
    expect(names((await admin.get("/api/v1/employees?search=IBANEZ")).body.employees)).toEqual(["Begoña Ibáñez"]);
    expect(names((await admin.get("/api/v1/employees?search=busca")).body.employees)).toEqual(["Begoña Ibáñez", "Zoé Buscable"]);
    const sorted = await admin.get("/api/v1/employees?search=busca&by_column[column]=employee_code&by_column[order]=desc");
    expect(names(sorted.body.employees)).toEqual(["Zoé Buscable", "Begoña Ibáñez"]);
    expect((await admin.get("/api/v1/employees?by_column[column]=workspace_name")).status).toBe(200);
    expect((await admin.get("/api/v1/employees?by_column[column]=user_id;--")).status).toBe(422);
  });

  it("Operador sees only their own employee; Finanzas reads all; only admins write", async () => {
    const list = await operator.get("/api/v1/employees?per_page=all");
    expect(list.status).toBe(200);
    expect(list.body.employees.map((e: { id: number }) => e.id)).toEqual([operatorEmployee.id]);
    expect((await operator.get(`/api/v1/employees/${operatorEmployee.id}`)).status).toBe(200);
    expect((await operator.get(`/api/v1/employees/${financeEmployee.id}`)).status).toBe(404);
    expect((await finance.get("/api/v1/employees?per_page=all")).body.meta.total_count).toBeGreaterThan(1);
    expect((await finance.get(`/api/v1/employees/${operatorEmployee.id}`)).status).toBe(200);
    for (const api of [operator, finance]) {
      expect((await api.post("/api/v1/employees", { employee: { name: "x" } })).status).toBe(403);
      expect((await api.put(`/api/v1/employees/${operatorEmployee.id}`, { employee: { name: "x" } })).status).toBe(403);
      expect((await api.delete(`/api/v1/employees/${operatorEmployee.id}`)).status).toBe(403);
    }
  });

  it("deletes a free employee and refuses one that projects reference", async () => {
    const free = (await admin.post("/api/v1/employees", { employee: { name: "Borrable" } })).body.employee;
    expect((await admin.delete(`/api/v1/employees/${free.id}`)).status).toBe(200);
    const busy = (await admin.post("/api/v1/employees", { employee: { name: "Ocupado" } })).body.employee;
    const client = await buildClient(t.app.db.db);
    await t.app.db.db.insert(projects).values({ project_code: "RP-1", name: "P", client_id: client.id, rape_id: busy.id });
    const refused = await admin.delete(`/api/v1/employees/${busy.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.base[0]).toMatch(/^No se puede eliminar: .*proyectos/);
  });
});
