/**
 * GET /api/v1/capacity and capacity.csv: capacity (daily norm × working days), assigned hours (overlapping
 * assignments add up), logged hours split by group and equal to the activity report CSV, the workspace
 * filter, the Spanish 422s and who may call it.
 */
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assignments, holydays } from "../../server/db/schema";
import { sumHours } from "../../src/core/hours";
import { capacityMessages, messages } from "../../src/core/messages";
import type { Capacity, CapacityPerson } from "../../src/core/schemas/capacity";
import { addDays, businessToday, mondayOf, zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { buildActivity, buildEmployee, buildProject } from "../support/catalog-factories";
import {
  type ApiClient,
  buildClient,
  buildProduct,
  buildUser,
  buildWorkspace,
  call,
  signIn,
  signInAs,
} from "../support/factories";

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let finance: ApiClient;
let plain: ApiClient;
let workspace: { id: number; name: string };
let otherWorkspace: { id: number; name: string };
let full: { id: number; name: string };
let partTime: { id: number; name: string };
let newcomer: { id: number; name: string };
let elsewhere: { id: number; name: string };
let inactive: { id: number; name: string };

const db = () => t.app.db.db;
/** Milliseconds from midnight of 'HH:mm[:ss]'. */
const msOf = (hhmmss: string) => {
  const [h, m, s = "0"] = hhmmss.split(":");
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000;
};
/** An activity on a local (Mexico City) date, from and to 'HH:mm[:ss]'. */
const at = (employee: number, date: string, from: string, to: string, values: Record<string, unknown> = {}) =>
  buildActivity(db(), employee, {
    begins_at: new Date(zonedTime(date, 0).getTime() + msOf(from)),
    ends_at: new Date(zonedTime(date, 0).getTime() + msOf(to)),
    ...values,
  });

/** Three weeks: 10 March, 17 March (Tuesday 18 a holiday) and 24 March 2025. */
const FROM = "2025-03-10";
const TO = "2025-03-24";
const HOLIDAY = "2025-03-18";

async function capacity(client: ApiClient, query = `from=${FROM}&to=${TO}&workspace_id=${workspace.id}`) {
  const res = await client.get(`/api/v1/capacity?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.capacity as Capacity;
}
const personOf = (answer: Capacity, id: number) => answer.employees.find((e) => e.id === id) as CapacityPerson;
const weekOf = (person: CapacityPerson, monday: string) => person.weeks.find((w) => w.week === monday)!;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAs(t.app, "admin")).api;
  operator = (await signInAs(t.app, "operator")).api;
  finance = (await signInAs(t.app, "finance")).api;
  // A plain employee: a user with an employee record and no role.
  const nobody = await buildUser(db(), "operator", { operator_role: false });
  plain = await signIn(t.app, nobody.user.email);

  workspace = await buildWorkspace(db(), "Consultoría de capacidad");
  otherWorkspace = await buildWorkspace(db(), "Otro espacio de capacidad");
  full = await buildEmployee(db(), { name: "Ana Completa", workspace_id: workspace.id });
  partTime = await buildEmployee(db(), { name: "Beto Medio Tiempo", workspace_id: workspace.id, daily_hours: 4 });
  // Starts on Wednesday 12 March: the Monday and Tuesday before are not his.
  newcomer = await buildEmployee(db(), { name: "Ciro Nuevo", workspace_id: workspace.id, start_on: "2025-03-12" });
  elsewhere = await buildEmployee(db(), { name: "Dora de Otro Espacio", workspace_id: otherWorkspace.id });
  inactive = await buildEmployee(db(), { name: "Eva Inactiva", workspace_id: workspace.id, is_active: false });

  await db().insert(holydays).values({ date: HOLIDAY, name: "Festivo de capacidad" });
  const client = await buildClient(db());
  const product = await buildProduct(db());
  const project = await buildProject(db(), client.id);
  const assignment = (employee_id: number, start_on: string, end_on: string) => ({
    employee_id,
    client_id: client.id,
    product_catalog_id: product.id,
    start_on,
    end_on,
  });
  await db()
    .insert(assignments)
    .values([
      // Ana: the first two weeks whole, and an overlapping one in the second (over-assigned there).
      assignment(full.id, "2025-03-10", "2025-03-21"),
      assignment(full.id, "2025-03-17", "2025-03-19"),
      // Beto: Monday and Tuesday of the first week (8 h of his 20).
      assignment(partTime.id, "2025-03-03", "2025-03-11"),
      // Ciro: from before he starts to the end of the second week.
      assignment(newcomer.id, "2025-03-03", "2025-03-21"),
      assignment(elsewhere.id, "2025-03-10", "2025-03-14"),
      assignment(inactive.id, "2025-03-10", "2025-03-14"),
    ]);

  const onProject = { action_type: "project", project_id: project.id };
  const support = { action_type: "support", ownerable_type: "Client", ownerable_id: client.id, product_catalog_id: product.id };
  // Ana, week of the 10th: 2:20 project, 1:40 support, three internal 20-minute pieces (0.33 each, 0.99 in
  // all, as the CSV adds them), a quote of 7 minutes (0.12, internal), 18 seconds (0.005: half up, 0.01),
  // a whole day of vacation and Sunday's last 20 minutes (local date: still the week of the 10th).
  await at(full.id, "2025-03-10", "09:00", "11:20", onProject);
  await at(full.id, "2025-03-10", "11:20", "13:00", support);
  await at(full.id, "2025-03-10", "13:00", "13:20");
  await at(full.id, "2025-03-10", "13:20", "13:40");
  await at(full.id, "2025-03-10", "13:40", "14:00", { action_type: "rh" });
  await at(full.id, "2025-03-10", "14:00", "14:07", { action_type: "quote" });
  await at(full.id, "2025-03-10", "14:07:00", "14:07:18", onProject);
  await at(full.id, "2025-03-11", "09:00", "17:00", { action_type: "vacation" });
  await at(full.id, "2025-03-16", "23:30", "23:50", onProject);
  // The Sunday before (local) and the first minutes of the 17th (local) belong to their own weeks.
  await at(full.id, "2025-03-09", "23:00", "23:59", onProject);
  await at(full.id, "2025-03-17", "00:10", "01:00", support);
  // Beto and Ciro, a few each.
  await at(partTime.id, "2025-03-12", "09:00", "13:00", onProject);
  await at(partTime.id, "2025-03-19", "09:00", "12:25", support);
  await at(newcomer.id, "2025-03-13", "10:00", "10:55", onProject);
  await at(newcomer.id, "2025-03-25", "10:00", "18:00", { action_type: "vacation" });
  // Another workspace's employee logs too: the filter leaves them out.
  await at(elsewhere.id, "2025-03-12", "09:00", "10:00", onProject);
});
afterAll(() => t.close());

describe("capacity: capacity and assigned hours", () => {
  it("is the daily norm × working days; assignments add up; the states mark over and under", async () => {
    const answer = await capacity(admin);
    expect(answer.from).toBe(FROM);
    expect(answer.to).toBe(TO);
    expect(answer.weeks).toEqual([FROM, "2025-03-17", TO]);
    expect(answer.holidays).toEqual([{ date: HOLIDAY, name: "Festivo de capacidad" }]);
    expect(answer.under_share).toBe(0.5);

    const ana = personOf(answer, full.id);
    expect(ana.daily_hours).toBe(8);
    // Whole week assigned: exactly the capacity.
    expect(weekOf(ana, FROM)).toMatchObject({ capacity_hours: 40, assigned_hours: 40, state: "ok" });
    // The holiday takes a day off the capacity and off each assignment; the overlap adds 2 days: 48 > 32.
    expect(weekOf(ana, "2025-03-17")).toMatchObject({ capacity_hours: 32, assigned_hours: 48, state: "over" });
    expect(weekOf(ana, TO)).toMatchObject({ capacity_hours: 40, assigned_hours: 0, state: "under" });
  });

  it("a part-time employee's capacity and assignments use their own norm (4 h)", async () => {
    const beto = personOf(await capacity(admin), partTime.id);
    expect(beto.daily_hours).toBe(4);
    // Monday and Tuesday assigned of five days: 8 of 20, under half.
    expect(weekOf(beto, FROM)).toMatchObject({ capacity_hours: 20, assigned_hours: 8, state: "under" });
    expect(weekOf(beto, "2025-03-17")).toMatchObject({ capacity_hours: 16, assigned_hours: 0, state: "under" });
  });

  it("counts no day before the employee's start date, for the capacity or the assignments", async () => {
    const ciro = personOf(await capacity(admin), newcomer.id);
    expect(weekOf(ciro, FROM)).toMatchObject({ capacity_hours: 24, assigned_hours: 24, state: "ok" });
    expect(weekOf(ciro, "2025-03-17")).toMatchObject({ capacity_hours: 32, assigned_hours: 32, state: "ok" });
  });

  it("a week with no capacity and nothing assigned is «none», and half the capacity is not under", async () => {
    const person = await buildEmployee(db(), { name: "Fer Sin Horas", workspace_id: workspace.id, daily_hours: 0 });
    const half = await buildEmployee(db(), { name: "Gil Medio", workspace_id: workspace.id });
    const client = await buildClient(db());
    const product = await buildProduct(db());
    // Monday, Tuesday (holiday) and Wednesday of the 17th: two working days, 16 of 32 h, exactly half.
    await db().insert(assignments).values({
      employee_id: half.id,
      client_id: client.id,
      product_catalog_id: product.id,
      start_on: "2025-03-17",
      end_on: "2025-03-19",
    });
    const answer = await capacity(admin);
    expect(weekOf(personOf(answer, person.id), FROM)).toMatchObject({ capacity_hours: 0, assigned_hours: 0, state: "none" });
    expect(weekOf(personOf(answer, half.id), "2025-03-17")).toMatchObject({
      capacity_hours: 32,
      assigned_hours: 16,
      state: "ok",
    });
  });
});

describe("capacity: logged hours", () => {
  it("splits the week's hours into project, support, internal and vacation, by the local begin date", async () => {
    const ana = personOf(await capacity(admin), full.id);
    expect(weekOf(ana, FROM).logged).toEqual({
      project: sumHours([2.33, 0.01, 0.33]),
      support: 1.67,
      internal: sumHours([0.33, 0.33, 0.33, 0.12]),
      vacation: 8,
      total: sumHours([2.33, 0.01, 0.33, 1.67, 0.33, 0.33, 0.33, 0.12, 8]),
    });
    expect(weekOf(ana, "2025-03-17").logged).toEqual({ project: 0, support: 0.83, internal: 0, vacation: 0, total: 0.83 });
    expect(weekOf(ana, TO).logged).toEqual({ project: 0, support: 0, internal: 0, vacation: 0, total: 0 });
  });

  it("equals the activity report CSV («Horas» per employee and week) to the hundredth", async () => {
    const answer = await capacity(admin);
    const res = await admin.get(
      `/api/v1/activities/reporting_activities.csv?current_filter=workspace&workspace_id=${workspace.id}&start_date=${FROM}&end_date=${addDays(TO, 6)}`,
    );
    expect(res.status).toBe(200);
    const rows = Papa.parse<Record<string, string>>(res.text.replace(/^\uFEFF/, ""), { header: true, skipEmptyLines: true }).data;
    expect(rows.length).toBeGreaterThan(10);
    const fromCsv = new Map<string, string[]>();
    for (const row of rows) {
      const key = `${row.Empleado}|${mondayOf(row.Fecha)}`;
      fromCsv.set(key, [...(fromCsv.get(key) ?? []), row.Horas]);
    }
    const fromCapacity = new Map<string, number>();
    for (const person of answer.employees)
      for (const week of person.weeks)
        if (week.logged && week.logged.total > 0) fromCapacity.set(`${person.name}|${week.week}`, week.logged.total);
    expect(fromCapacity.size).toBeGreaterThan(3);
    expect(Object.fromEntries(fromCapacity)).toEqual(
      Object.fromEntries([...fromCsv].map(([key, hours]) => [key, sumHours(hours)])),
    );
  });

  it("shows no logged hours for weeks still to come; the current one has them", async () => {
    const current = mondayOf(businessToday());
    const answer = await capacity(admin, `from=${current}&to=${addDays(current, 7)}&workspace_id=${workspace.id}`);
    expect(answer.current_week).toBe(current);
    const ana = personOf(answer, full.id);
    expect(weekOf(ana, current).logged).not.toBeNull();
    expect(weekOf(ana, addDays(current, 7)).logged).toBeNull();
  });

  it("without dates covers 12 weeks back to 8 ahead of the current week", async () => {
    const answer = await capacity(admin, "");
    const current = mondayOf(businessToday());
    expect(answer.from).toBe(addDays(current, -84));
    expect(answer.to).toBe(addDays(current, 56));
    expect(answer.weeks).toHaveLength(21);
  });
});

describe("capacity: the workspace filter and the CSV", () => {
  it("lists the active employees of the workspace only; without one, every active employee", async () => {
    const ids = (await capacity(admin)).employees.map((e) => e.id);
    expect(ids).toEqual(expect.arrayContaining([full.id, partTime.id, newcomer.id]));
    expect(ids).not.toContain(elsewhere.id);
    expect(ids).not.toContain(inactive.id);
    const all = (await capacity(admin, `from=${FROM}&to=${TO}`)).employees.map((e) => e.id);
    expect(all).toEqual(expect.arrayContaining([full.id, elsewhere.id]));
    expect(all).not.toContain(inactive.id);
    const other = await capacity(admin, `from=${FROM}&to=${TO}&workspace_id=${otherWorkspace.id}`);
    expect(other.employees.map((e) => e.name)).toEqual([elsewhere.name]);
    expect(weekOf(other.employees[0], FROM)).toMatchObject({ assigned_hours: 40, logged: { project: 1, total: 1 } });
  });

  it("exports what is shown as a CSV with BOM and Spanish headers, one line per person and week", async () => {
    const res = await admin.get(`/api/v1/capacity.csv?from=${FROM}&to=${TO}&workspace_id=${workspace.id}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/csv/);
    expect(String(res.headers["content-disposition"])).toContain(`capacidad_${FROM}_${TO}.csv`);
    expect(res.text.startsWith("\uFEFF")).toBe(true);
    const parsed = Papa.parse<Record<string, string>>(res.text.slice(1), { header: true, skipEmptyLines: true });
    expect(parsed.meta.fields).toEqual([...capacityMessages.csvHeaders]);
    const answer = await capacity(admin);
    expect(parsed.data).toHaveLength(answer.employees.length * answer.weeks.length);
    const over = parsed.data.find((r) => r.Empleado === full.name && r["Semana (lunes)"] === "2025-03-17");
    expect(over).toMatchObject({
      "Espacio de trabajo": workspace.name,
      "Horas diarias": "8.00",
      Capacidad: "32.00",
      Asignadas: "48.00",
      Estado: "Sobreasignado",
      Registradas: "0.83",
      Soporte: "0.83",
    });
    const first = parsed.data.find((r) => r.Empleado === full.name && r["Semana (lunes)"] === FROM);
    expect(first?.Registradas).toBe(weekOf(personOf(answer, full.id), FROM).logged?.total.toFixed(2));
    const future = mondayOf(addDays(businessToday(), 14));
    const ahead = await admin.get(`/api/v1/capacity.csv?from=${future}&to=${future}&workspace_id=${workspace.id}`);
    const aheadRow = Papa.parse<Record<string, string>>(ahead.text.slice(1), { header: true }).data[0];
    expect(aheadRow.Registradas).toBe("");
  });
});

describe("capacity: bad parameters", () => {
  const refused = async (query: string, field: string, message: string) => {
    const res = await admin.get(`/api/v1/capacity?${query}`);
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[field]).toEqual([message]);
    const csv = await admin.get(`/api/v1/capacity.csv?${query}`);
    expect(csv.status).toBe(422);
  };

  it("refuses a day that is not a Monday, naming the field", async () => {
    await refused(`from=2025-03-11&to=${TO}`, "from", capacityMessages.notMonday(capacityMessages.fromLabel));
    await refused(`from=${FROM}&to=2025-03-30`, "to", capacityMessages.notMonday(capacityMessages.toLabel));
    expect(capacityMessages.notMonday(capacityMessages.fromLabel)).toBe(
      "La semana inicial debe ser un lunes (las semanas empiezan en lunes).",
    );
  });

  it("refuses a date that is not one, a range backwards and one too long", async () => {
    await refused(`from=2025-02-30&to=${TO}`, "from", "no es una fecha válida");
    await refused(`from=${TO}&to=${FROM}`, "to", capacityMessages.rangeOrder);
    await refused(`from=2025-01-06&to=2026-01-12`, "to", capacityMessages.rangeTooLong(53));
    // 53 weeks exactly are fine.
    expect((await admin.get("/api/v1/capacity?from=2025-01-06&to=2026-01-05")).status).toBe(200);
    // One end alone: the default span of 21 weeks (12 back, the current, 8 ahead) from it, never a range
    // that blames the end not sent.
    const onlyTo = await admin.get("/api/v1/capacity?to=2020-06-01");
    expect(onlyTo.status).toBe(200);
    expect(onlyTo.body.capacity).toMatchObject({ from: "2020-01-13", to: "2020-06-01" });
    expect(onlyTo.body.capacity.weeks).toHaveLength(21);
    const onlyFrom = await admin.get("/api/v1/capacity?from=2000-01-03");
    expect(onlyFrom.status).toBe(200);
    expect(onlyFrom.body.capacity).toMatchObject({ from: "2000-01-03", to: "2000-05-22" });
  });

  it("refuses a workspace id that is not a number", async () => {
    const res = await admin.get(`/api/v1/capacity?workspace_id=abc`);
    expect(res.status).toBe(422);
    expect(res.body.errors.workspace_id).toBeDefined();
  });
});

describe("capacity: who may read it", () => {
  it.each([
    ["operator", () => operator],
    ["finance", () => finance],
    ["a plain employee", () => plain],
  ])("refuses %s with 403", async (_role, client) => {
    for (const path of ["/api/v1/capacity", "/api/v1/capacity.csv"]) {
      const res = await client().get(path);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(messages.forbidden);
    }
  });

  it("asks who is signed out to sign in (401)", async () => {
    for (const path of ["/api/v1/capacity", "/api/v1/capacity.csv"]) {
      const res = await call(t.app, "GET", path);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(messages.unauthenticated);
    }
  });

  it("answers administrators", async () => {
    expect((await admin.get("/api/v1/capacity")).status).toBe(200);
    expect((await admin.get("/api/v1/capacity.csv")).status).toBe(200);
  });
});
