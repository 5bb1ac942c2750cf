import { eq } from "drizzle-orm";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client_product_catalogs, employees, estimated_work_hours, frozen_periods, holydays } from "../../server/db/schema";
import { sumHours } from "../../src/core/hours";
import { zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { buildActivity, buildEmployee, buildPosition, buildProject } from "../support/catalog-factories";
import { type ApiClient, buildClient, buildProduct, buildUser, buildWorkspace, signIn, signInAs } from "../support/factories";

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let finance: ApiClient;
let me: number;
let colleague: number;
let projectId: number;
let projectCode: string;
let clientId: number;
let clientName: string;
let productA: { id: number; name: string };
let productB: { id: number; name: string };
let developer: { id: number; name: string };
let tester: { id: number; name: string };
let workspace: { id: number; name: string };

const db = () => t.app.db.db;
const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
/** An activity of `employee` on a local (Mexico City) date, from and to 'HH:mm'. */
const at = (employee: number, date: string, from: string, to: string, values: Record<string, unknown> = {}) =>
  buildActivity(db(), employee, { begins_at: zonedTime(date, minutes(from)), ends_at: zonedTime(date, minutes(to)), ...values });

/** The week of 2025-03-10 (Monday): Wednesday 12 and Saturday 15 are holidays, so 32 hours are expected. */
const MONDAY = "2025-03-10";

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAs(t.app, "admin")).api;
  const signed = await signInAs(t.app, "operator");
  operator = signed.api;
  me = signed.employee!.id;
  finance = (await signInAs(t.app, "finance")).api;
  developer = await buildPosition(db(), "Desarrollador del tablero");
  tester = await buildPosition(db(), "Probador del tablero");
  workspace = await buildWorkspace(db(), "Consultoría del tablero");
  await db()
    .update(employees)
    .set({ employee_position_id: developer.id, workspace_id: workspace.id })
    .where(eq(employees.id, me));
  colleague = (
    await buildEmployee(db(), { name: "Colega del tablero", employee_position_id: tester.id, workspace_id: workspace.id })
  ).id;
  const client = await buildClient(db());
  clientId = client.id;
  clientName = client.name;
  productA = await buildProduct(db(), { name: "Producto A del tablero" });
  productB = await buildProduct(db(), { name: "Producto B del tablero" });
  await db()
    .insert(client_product_catalogs)
    .values([
      { client_id: clientId, product_catalog_id: productA.id, annual_support_hours: 100 },
      { client_id: clientId, product_catalog_id: productB.id, annual_support_hours: 0 },
    ]);
  const project = await buildProject(db(), clientId);
  projectId = project.id;
  projectCode = project.project_code;
  await db()
    .insert(estimated_work_hours)
    .values([
      { project_id: projectId, employee_position_id: developer.id, estimated_hours: 10.5 },
      { project_id: projectId, employee_position_id: tester.id, estimated_hours: 4 },
    ]);
  await db()
    .insert(holydays)
    .values([
      { date: "2025-03-12", name: "Festivo entre semana" },
      { date: "2025-03-15", name: "Festivo en sábado" },
    ]);

  const onProject = { action_type: "project", project_id: projectId };
  const support = (product: number) => ({
    action_type: "support",
    ownerable_type: "Client",
    ownerable_id: clientId,
    product_catalog_id: product,
  });
  // Mine, in the week: 140 + 70 min on the project, 100 min of support, three 20-minute internal activities
  // (0.33 each: 0.99, not 1.00, exactly as the CSV adds them), 7 minutes (0.12) and Sunday's last 20 minutes.
  await at(me, "2025-03-10", "09:00", "11:20", onProject);
  await at(me, "2025-03-10", "11:20", "13:00", support(productA.id));
  await at(me, "2025-03-11", "09:00", "10:10", onProject);
  await at(me, "2025-03-11", "10:10", "10:17");
  await at(me, "2025-03-13", "10:20", "10:40");
  await at(me, "2025-03-13", "10:40", "11:00");
  await at(me, "2025-03-13", "11:00", "11:20");
  await at(me, "2025-03-16", "23:30", "23:50");
  // Mine, just outside the week on either side.
  await at(me, "2025-03-09", "23:00", "23:59", onProject);
  await at(me, "2025-03-17", "00:10", "01:00", support(productA.id));
  // The colleague's, on the project and on support, another year too.
  await at(colleague, "2025-03-11", "09:00", "12:45", onProject);
  await at(colleague, "2025-03-18", "09:00", "09:25", onProject);
  await at(colleague, "2025-06-02", "16:00", "16:50", support(productB.id));
  await at(colleague, "2024-12-31", "10:00", "12:00", support(productA.id));
  // The colleague closed the week of the 10th; mine is still open.
  await db().insert(frozen_periods).values({ employee_id: colleague, kind: "week", starts_on: MONDAY, ends_on: "2025-03-16" });
});
afterAll(() => t.close());

type CsvRow = Record<string, string>;
async function csvRows(client: ApiClient, query: string): Promise<CsvRow[]> {
  const res = await client.get(`/api/v1/activities.csv?${query}`);
  expect(res.status).toBe(200);
  return Papa.parse<CsvRow>(res.text.replace(/^\uFEFF/, ""), { header: true, skipEmptyLines: true }).data;
}
const csvHours = (rows: CsvRow[]) => sumHours(rows.map((r) => r.Horas));

describe("dashboards: one employee's week", () => {
  it("gives exact hours per day and type against the expected week, the same totals as the CSV", async () => {
    const res = await operator.get(`/api/v1/dashboards/employee?week=2025-03-13`);
    expect(res.status).toBe(200);
    const d = res.body.dashboard;
    expect(d.employee.id).toBe(me);
    expect(d.week).toEqual({ starts_on: MONDAY, ends_on: "2025-03-16" });
    expect(d.expected_hours).toBe(32);
    expect(d.holidays.map((h: { date: string }) => h.date)).toEqual(["2025-03-12", "2025-03-15"]);
    expect(d.by_type).toEqual([
      { action_type: "project", hours: 3.5 },
      { action_type: "support", hours: 1.67 },
      { action_type: "internal", hours: 1.44 },
    ]);
    expect(d.by_day).toEqual([
      { date: "2025-03-10", action_type: "project", hours: 2.33 },
      { date: "2025-03-10", action_type: "support", hours: 1.67 },
      { date: "2025-03-11", action_type: "internal", hours: 0.12 },
      { date: "2025-03-11", action_type: "project", hours: 1.17 },
      { date: "2025-03-13", action_type: "internal", hours: 0.99 },
      { date: "2025-03-16", action_type: "internal", hours: 0.33 },
    ]);
    expect(d.total_hours).toBe(6.61);

    const rows = await csvRows(operator, `by_begins_at[start_date]=${MONDAY}&by_begins_at[end_date]=2025-03-16`);
    expect(rows).toHaveLength(8);
    expect(csvHours(rows)).toBe(d.total_hours);
    for (const t of d.by_type) {
      const label = { project: "Proyecto", support: "Soporte", internal: "Actividad interna" }[t.action_type as string];
      expect(csvHours(rows.filter((r) => r["Tipo de acción"] === label))).toBe(t.hours);
    }
    for (const day of new Set<string>(d.by_day.map((x: { date: string }) => x.date))) {
      const dayTotal = sumHours(d.by_day.filter((x: { date: string }) => x.date === day).map((x: { hours: number }) => x.hours));
      expect(csvHours(rows.filter((r) => r.Fecha === day))).toBe(dayTotal);
    }
  });

  it("lets an admin see anyone's week; an operador only their own", async () => {
    const theirs = await admin.get(`/api/v1/dashboards/employee?week=${MONDAY}&employee_id=${colleague}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.dashboard.total_hours).toBe(3.75);
    const adminCsv = await csvRows(
      admin,
      `by_begins_at[start_date]=${MONDAY}&by_begins_at[end_date]=2025-03-16&by_employee=${colleague}`,
    );
    expect(csvHours(adminCsv)).toBe(3.75);
    expect((await operator.get(`/api/v1/dashboards/employee?week=${MONDAY}&employee_id=${colleague}`)).status).toBe(403);
    expect((await operator.get(`/api/v1/dashboards/employee?week=${MONDAY}&employee_id=${me}`)).status).toBe(200);
    expect((await admin.get(`/api/v1/dashboards/employee?employee_id=999999`)).status).toBe(404);
  });

  it("asks an admin without an employee to choose one, and tells anyone else to see RH", async () => {
    const lone = await signIn(t.app, (await buildUser(db(), "admin", {}, false)).user.email);
    const noChoice = await lone.get("/api/v1/dashboards/employee");
    expect(noChoice.status).toBe(422);
    expect(noChoice.body.errors.employee_id).toEqual(["Seleccione un empleado"]);
    expect((await lone.get(`/api/v1/dashboards/employee?employee_id=${me}&week=${MONDAY}`)).body.dashboard.total_hours).toBe(
      6.61,
    );
    const nobody = await signIn(t.app, (await buildUser(db(), "finance", {}, false)).user.email);
    const refused = await nobody.get("/api/v1/dashboards/employee");
    expect(refused.status).toBe(422);
    expect(refused.body.errors.base).toEqual(["Favor de ponerse en contacto con RH para que lo den de alta como empleado"]);
  });

  it("is described in the OpenAPI document", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/docs/json", headers: { authorization: `Bearer ${admin.token}` } });
    const paths = Object.keys(res.json().paths);
    for (const path of [
      "/api/v1/dashboards/employee",
      "/api/v1/dashboards/team",
      "/api/v1/dashboards/projects/{id}",
      "/api/v1/dashboards/clients/{id}",
    ]) {
      expect(paths).toContain(path);
    }
  });

  it("answers bad input in Spanish, and an empty week with zeros", async () => {
    const bad = await operator.get(`/api/v1/dashboards/employee?week=2025-02-30`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.week).toEqual(["no es una fecha válida"]);
    const empty = await operator.get(`/api/v1/dashboards/employee?week=2031-01-08`);
    expect(empty.body.dashboard).toMatchObject({ total_hours: 0, expected_hours: 40, by_day: [], by_type: [] });
  });

  it("expects the employee's own norm on their working days, as the reminder and the week review do", async () => {
    // A part-timer (4 h a day) who started on the Thursday of a week with a holiday on Wednesday.
    const partTimer = await buildEmployee(db(), { daily_hours: 4, start_on: "2025-03-13" });
    const res = await admin.get(`/api/v1/dashboards/employee?week=2025-03-13&employee_id=${partTimer.id}`);
    expect(res.status).toBe(200);
    expect(res.body.dashboard.expected_by_day).toEqual([0, 0, 0, 4, 4, 0, 0]);
    expect(res.body.dashboard.expected_hours).toBe(8);
  });
});

describe("dashboards: the team", () => {
  it("adds hours per workspace and week, and lists the weeks not closed", async () => {
    const res = await admin.get(`/api/v1/dashboards/team?from=2025-03-12&to=2025-03-18`);
    expect(res.status).toBe(200);
    const d = res.body.dashboard;
    expect(d.from).toBe(MONDAY);
    expect(d.to).toBe("2025-03-23");
    expect(d.weeks).toEqual([
      { week: MONDAY, expected_hours: 32 },
      { week: "2025-03-17", expected_hours: 40 },
    ]);
    const ours = d.by_workspace.filter((r: { workspace_id: number }) => r.workspace_id === workspace.id);
    expect(ours).toEqual([
      { workspace_id: workspace.id, workspace_name: workspace.name, week: MONDAY, hours: 10.36 },
      { workspace_id: workspace.id, workspace_name: workspace.name, week: "2025-03-17", hours: 1.25 },
    ]);
    // The same as the CSV of every employee for those weeks (this workspace's rows).
    const rows = await csvRows(admin, `by_begins_at[start_date]=${MONDAY}&by_begins_at[end_date]=2025-03-16&by_employee=todos`);
    const names = new Set([(await db().select().from(employees).where(eq(employees.id, me)))[0].name, "Colega del tablero"]);
    expect(csvHours(rows.filter((r) => names.has(r.Empleado)))).toBe(10.36);

    const late = d.weeks_not_closed.filter((w: { employee_id: number }) => w.employee_id === me || w.employee_id === colleague);
    // The colleague closed the week of the 10th; the 17th is over for them too but not closed.
    expect(late).toEqual(
      expect.arrayContaining([
        { employee_id: me, employee_name: expect.any(String), workspace_name: workspace.name, week: MONDAY, hours: 6.61 },
        { employee_id: me, employee_name: expect.any(String), workspace_name: workspace.name, week: "2025-03-17", hours: 0.83 },
        {
          employee_id: colleague,
          employee_name: "Colega del tablero",
          workspace_name: workspace.name,
          week: "2025-03-17",
          hours: 0.42,
        },
      ]),
    );
    expect(late).toHaveLength(3);
  });

  it("counts an employee's weeks from their start date on, as the employee form records it", async () => {
    const hire = async (name: string, start_on?: string) => {
      const res = await admin.post("/api/v1/employees", {
        employee: { name, is_active: true, workspace_id: workspace.id, ...(start_on ? { start_on } : {}) },
      });
      expect(res.status).toBe(201);
      return res.body.employee as { id: number; start_on: string | null };
    };
    // Hired on the Wednesday of the second week: the first is not theirs, the second is (from the 19th).
    const midWeek = await hire("Ingreso a media semana", "2025-03-19");
    expect(midWeek.start_on).toBe("2025-03-19");
    // Hired after both weeks: neither is late.
    const later = await hire("Ingreso posterior", "2025-03-24");
    // Without a start date (records from before it existed) every week counts, as before.
    const unknown = await hire("Ingreso sin fecha");
    const res = await admin.get(`/api/v1/dashboards/team?from=${MONDAY}&to=2025-03-23`);
    const weeksOf = (id: number) =>
      res.body.dashboard.weeks_not_closed
        .filter((w: { employee_id: number }) => w.employee_id === id)
        .map((w: { week: string }) => w.week);
    expect(weeksOf(midWeek.id)).toEqual(["2025-03-17"]);
    expect(weeksOf(later.id)).toEqual([]);
    expect(weeksOf(unknown.id)).toEqual([MONDAY, "2025-03-17"]);

    // Closing the days from the start on closes their week, though the days before it are open.
    await db()
      .insert(frozen_periods)
      .values({ employee_id: midWeek.id, kind: "week", starts_on: "2025-03-19", ends_on: "2025-03-23" });
    const closed = await admin.get(`/api/v1/dashboards/team?from=${MONDAY}&to=2025-03-23`);
    expect(closed.body.dashboard.weeks_not_closed.filter((w: { employee_id: number }) => w.employee_id === midWeek.id)).toEqual(
      [],
    );

    const bad = await admin.post("/api/v1/employees", { employee: { name: "Fecha imposible", start_on: "2025-02-30" } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.start_on).toEqual(["no es una fecha válida"]);
  });

  it("is for administrators only, and refuses a backwards or too long range in Spanish", async () => {
    expect((await operator.get(`/api/v1/dashboards/team`)).status).toBe(403);
    expect((await finance.get(`/api/v1/dashboards/team`)).status).toBe(403);
    const backwards = await admin.get(`/api/v1/dashboards/team?from=2025-03-18&to=2025-03-10`);
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors.from).toEqual(["La fecha de inicio no puede ser posterior a la fecha de fin."]);
    const long = await admin.get(`/api/v1/dashboards/team?from=2020-01-01&to=2025-03-10`);
    expect(long.status).toBe(422);
    expect(long.body.errors.to).toEqual(["El periodo no puede abarcar más de 53 semanas."]);
    const byDefault = await admin.get(`/api/v1/dashboards/team`);
    expect(byDefault.status).toBe(200);
    expect(byDefault.body.dashboard.weeks).toHaveLength(8);
  });
});

describe("dashboards: a project", () => {
  it("sets estimated hours per position against the hours logged, and the running total per week", async () => {
    const res = await admin.get(`/api/v1/dashboards/projects/${projectId}`);
    expect(res.status).toBe(200);
    const d = res.body.dashboard;
    expect(d.by_position).toEqual([
      { position_id: developer.id, position_name: developer.name, estimated_hours: 10.5, logged_hours: 4.48 },
      { position_id: tester.id, position_name: tester.name, estimated_hours: 4, logged_hours: 4.17 },
    ]);
    expect(d.estimated_hours).toBe(14.5);
    expect(d.logged_hours).toBe(8.65);
    // Nothing logged in the last four weeks (all of it in March 2025): no pace, no date.
    expect(d.forecast).toEqual({ pace_hours_per_week: 0, runs_out_on: null, over_hours: 0, percent: 60 });
    expect(d.weekly).toEqual([
      { week: "2025-03-03", hours: 0.98, cumulative_hours: 0.98 },
      { week: MONDAY, hours: 7.25, cumulative_hours: 8.23 },
      { week: "2025-03-17", hours: 0.42, cumulative_hours: 8.65 },
    ]);
    // The same as the CSV of every activity on the project (its code column).
    const rows = await csvRows(admin, `by_begins_at[start_date]=2025-03-01&by_begins_at[end_date]=2025-03-31&by_employee=todos`);
    expect(csvHours(rows.filter((r) => r["Código de proyecto"] === projectCode))).toBe(8.65);
  });

  it("shows logged hours to whoever may show the project, estimates only to who may read them", async () => {
    const op = await operator.get(`/api/v1/dashboards/projects/${projectId}`);
    expect(op.status).toBe(200);
    expect(op.body.dashboard.estimates_visible).toBe(false);
    expect(op.body.dashboard.estimated_hours).toBeNull();
    expect(op.body.dashboard.forecast).toBeNull();
    expect(op.body.dashboard.by_position.map((r: { estimated_hours: null }) => r.estimated_hours)).toEqual([null, null]);
    expect(op.body.dashboard.logged_hours).toBe(8.65);
    expect((await finance.get(`/api/v1/dashboards/projects/${projectId}`)).body.dashboard.estimated_hours).toBe(14.5);
    expect((await admin.get(`/api/v1/dashboards/projects/999999`)).status).toBe(404);
    const empty = await admin.get(`/api/v1/dashboards/projects/${(await buildProject(db(), clientId)).id}`);
    expect(empty.body.dashboard).toMatchObject({ by_position: [], weekly: [], logged_hours: 0, estimated_hours: 0 });
  });

  it("shows the estimates to an Operador on a project they lead, and only there (decision 029)", async () => {
    const led = await buildProject(db(), clientId, { pm_id: me });
    const mine = await operator.get(`/api/v1/dashboards/projects/${led.id}`);
    expect(mine.body.dashboard).toMatchObject({ estimates_visible: true, estimated_hours: 0 });
    const other = await operator.get(`/api/v1/dashboards/projects/${projectId}`);
    expect(other.body.dashboard).toMatchObject({ estimates_visible: false, estimated_hours: null });
  });
});

describe("dashboards: a client", () => {
  it("adds the year's support hours per product against the annual hours", async () => {
    const res = await finance.get(`/api/v1/dashboards/clients/${clientId}?year=2025`);
    expect(res.status).toBe(200);
    const d = res.body.dashboard;
    expect(d.year).toBe(2025);
    expect(d.by_product).toEqual([
      { product_id: productA.id, product_name: productA.name, annual_support_hours: 100, used_hours: 2.5 },
      { product_id: productB.id, product_name: productB.name, annual_support_hours: 0, used_hours: 0.83 },
    ]);
    expect(d).toMatchObject({ annual_support_hours: 100, used_hours: 3.33 });
    const rows = await csvRows(admin, `by_begins_at[start_date]=2025-01-01&by_begins_at[end_date]=2025-12-31&by_employee=todos`);
    const support = rows.filter((r) => r["Tipo de acción"] === "Soporte" && r["Cliente / Prospecto"] === clientName);
    expect(csvHours(support)).toBe(3.33);
    expect(csvHours(support.filter((r) => r.Producto === productA.name))).toBe(2.5);

    const before = await operator.get(`/api/v1/dashboards/clients/${clientId}?year=2024`);
    expect(before.status).toBe(200);
    expect(before.body.dashboard.by_product.map((p: { used_hours: number }) => p.used_hours)).toEqual([2, 0]);
    const bad = await operator.get(`/api/v1/dashboards/clients/${clientId}?year=dosmil`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.year).toEqual(["no es un año válido"]);
    expect((await operator.get(`/api/v1/dashboards/clients/999999`)).status).toBe(404);
  });
});
