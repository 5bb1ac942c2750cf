import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assignments, client_product_catalogs, employees } from "../../server/db/schema";
import { businessToday } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildClient, buildProduct, signInAs } from "../support/factories";

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let finance: ApiClient;
let operatorEmployee: { id: number };
let worker: { id: number };
let client: { id: number; name: string };
let product: { id: number; name: string };

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAs(t.app, "admin")).api;
  const op = await signInAs(t.app, "operator");
  operator = op.api;
  operatorEmployee = op.employee as { id: number };
  await t.app.db.db.update(employees).set({ assignable: true });
  finance = (await signInAs(t.app, "finance")).api;
  const db = t.app.db.db;
  [worker] = await db.insert(employees).values({ name: "Trabajador Asignable", assignable: true }).returning();
  client = await buildClient(db, { name: "Cliente Asignado" });
  product = await buildProduct(db, { name: "Timbrado" });
  await db.insert(client_product_catalogs).values({ client_id: client.id, product_catalog_id: product.id });
});
afterAll(() => t.close());

const FUTURE_START = "2099-01-01";
const FUTURE_END = "2099-01-31";
const body = (overrides: Record<string, unknown> = {}) => ({
  assignment: {
    employee_id: worker.id,
    client_id: client.id,
    product_catalog_id: product.id,
    start_on: FUTURE_START,
    end_on: FUTURE_END,
    ...overrides,
  },
});
/** A stored assignment, written directly (past dates cannot be created through rules-free paths otherwise). */
const stored = async (start_on: string, end_on: string, employee_id = worker.id) =>
  (
    await t.app.db.db
      .insert(assignments)
      .values({ employee_id, client_id: client.id, product_catalog_id: product.id, start_on, end_on })
      .returning()
  )[0];

describe("assignments", () => {
  it("creates and shows computed names and the inclusive duration", async () => {
    const res = await admin.post("/api/v1/assignments", body());
    expect(res.status).toBe(201);
    expect(res.body.assignment).toMatchObject({
      employee_name: "Trabajador Asignable",
      client_name: "Cliente Asignado",
      product_name: "Timbrado",
      start_on: FUTURE_START,
      end_on: FUTURE_END,
      duration_days: 31,
    });
    const oneDay = await admin.post("/api/v1/assignments", body({ start_on: "2099-03-01", end_on: "2099-03-01" }));
    expect(oneDay.body.assignment.duration_days).toBe(1);
  });

  it("answers 422 per field in Spanish", async () => {
    const res = await admin.post("/api/v1/assignments", { assignment: { start_on: "2099-02-30", end_on: "mañana" } });
    expect(res.status).toBe(422);
    expect(res.body.errors.employee_id).toEqual(["es obligatorio"]);
    expect(res.body.errors.client_id).toEqual(["es obligatorio"]);
    expect(res.body.errors.product_catalog_id).toEqual(["es obligatorio"]);
    expect(res.body.errors.start_on).toEqual(["no es una fecha válida"]);
    expect(res.body.errors.end_on[0]).toBe("no es una fecha válida");
    const reversed = await admin.post("/api/v1/assignments", body({ start_on: "2099-05-10", end_on: "2099-05-01" }));
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors).toEqual({ end_on: ["debe ser igual o posterior a la fecha de inicio"] });
  });

  it("requires an active, assignable employee", async () => {
    const [notAssignable] = await t.app.db.db.insert(employees).values({ name: "No asignable" }).returning();
    const [inactive] = await t.app.db.db
      .insert(employees)
      .values({ name: "Inactivo", assignable: true, is_active: false })
      .returning();
    const a = await admin.post("/api/v1/assignments", body({ employee_id: notAssignable.id }));
    expect(a.status).toBe(422);
    expect(a.body.errors.employee_id).toEqual(["el empleado no es asignable"]);
    const b = await admin.post("/api/v1/assignments", body({ employee_id: inactive.id }));
    expect(b.body.errors.employee_id).toEqual(["el empleado no está activo"]);
    const c = await admin.post("/api/v1/assignments", body({ employee_id: 999999 }));
    expect(c.body.errors.employee_id).toEqual(["no existe"]);
  });

  it("requires a client with configured products and one of its products", async () => {
    const bare = await buildClient(t.app.db.db);
    const res = await admin.post("/api/v1/assignments", body({ client_id: bare.id }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ base: ["Se tienen que configurar los productos del cliente"] });
    const other = await buildProduct(t.app.db.db);
    const wrong = await admin.post("/api/v1/assignments", body({ product_catalog_id: other.id }));
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ product_catalog_id: ["no es un producto configurado del cliente"] });
    const ghost = await admin.post("/api/v1/assignments", body({ client_id: 999999 }));
    expect(ghost.status).toBe(422);
  });

  it("locks a start or end date already reached (America/Mexico_City)", async () => {
    const running = await stored("2020-01-01", "2099-12-31");
    const moveStart = await admin.put(`/api/v1/assignments/${running.id}`, { assignment: { start_on: "2020-01-02" } });
    expect(moveStart.status).toBe(422);
    expect(moveStart.body.errors).toEqual({ start_on: ["ya no se puede modificar porque la fecha ya se alcanzó"] });
    // The form omits the locked start (or echoes it unchanged): the end can still move.
    const moveEnd = await admin.put(`/api/v1/assignments/${running.id}`, {
      assignment: { start_on: "2020-01-01", end_on: "2099-06-30" },
    });
    expect(moveEnd.status).toBe(200);
    expect(moveEnd.body.assignment.end_on).toBe("2099-06-30");

    const finished = await stored("2020-01-01", "2020-02-01");
    const reopen = await admin.put(`/api/v1/assignments/${finished.id}`, { assignment: { end_on: "2099-01-01" } });
    expect(reopen.status).toBe(422);
    expect(reopen.body.errors).toEqual({ end_on: ["ya no se puede modificar porque la fecha ya se alcanzó"] });

    const today = businessToday();
    const startsToday = await stored(today, "2099-12-31");
    expect((await admin.put(`/api/v1/assignments/${startsToday.id}`, { assignment: { start_on: "2099-01-01" } })).status).toBe(
      422,
    );

    const future = await stored("2099-02-01", "2099-02-28");
    const moved = await admin.put(`/api/v1/assignments/${future.id}`, {
      assignment: { start_on: "2099-02-10", end_on: "2099-02-20" },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.assignment.duration_days).toBe(11);
    const crossed = await admin.put(`/api/v1/assignments/${future.id}`, { assignment: { end_on: "2099-02-01" } });
    expect(crossed.body.errors).toEqual({ end_on: ["debe ser igual o posterior a la fecha de inicio"] });
  });

  it("computes today in Mexico City, not UTC", () => {
    // 2024-03-10 03:00 UTC is still 2024-03-09 21:00 in Mexico City.
    expect(businessToday(new Date("2024-03-10T03:00:00Z"))).toBe("2024-03-09");
    expect(businessToday(new Date("2024-03-10T07:00:00Z"))).toBe("2024-03-10");
  });

  it("filters by employee, client and overlapping date range; sorts whitelisted columns", async () => {
    const [other] = await t.app.db.db.insert(employees).values({ name: "Filtrado", assignable: true }).returning();
    await stored("2030-01-01", "2030-01-10", other.id);
    await stored("2030-01-20", "2030-01-31", other.id);
    await stored("2030-03-01", "2030-03-05", other.id);
    const q = async (params: string) =>
      (await admin.get(`/api/v1/assignments?per_page=all&employee_id=${other.id}&${params}`)).body.assignments;
    expect(await q("")).toHaveLength(3);
    expect((await q("from=2030-01-05&to=2030-01-25")).map((a: { start_on: string }) => a.start_on).sort()).toEqual([
      "2030-01-01",
      "2030-01-20",
    ]);
    expect((await q("from=2030-02-01")).map((a: { start_on: string }) => a.start_on)).toEqual(["2030-03-01"]);
    expect((await q("to=2030-01-01")).map((a: { start_on: string }) => a.start_on)).toEqual(["2030-01-01"]);
    const byEmployee = await admin.get(
      `/api/v1/assignments?per_page=all&by_employee=${encodeURIComponent(JSON.stringify([other.id]))}`,
    );
    expect(byEmployee.body.meta.total_count).toBe(3);
    const byClient = await admin.get(`/api/v1/assignments?per_page=all&by_client=${client.id}`);
    expect(byClient.body.meta.total_count).toBeGreaterThanOrEqual(3);
    const sorted = await q("by_column[column]=duration_days&by_column[order]=desc");
    expect(sorted.map((a: { duration_days: number }) => a.duration_days)).toEqual([12, 10, 5]);
    expect((await admin.get("/api/v1/assignments?by_column[column]=client_id")).status).toBe(422);
    const badDate = await admin.get("/api/v1/assignments?from=ayer");
    expect(badDate.status).toBe(422);
    expect(badDate.body.errors.from).toEqual(["no es una fecha válida"]);
  });

  it("non-administrators see only their own employee's assignments and cannot write", async () => {
    const mine = await stored("2031-01-01", "2031-01-02", operatorEmployee.id);
    const theirs = await stored("2031-01-01", "2031-01-02", worker.id);
    const list = await operator.get("/api/v1/assignments?per_page=all");
    expect(list.status).toBe(200);
    expect(list.body.assignments.map((a: { id: number }) => a.id)).toEqual([mine.id]);
    expect((await operator.get(`/api/v1/assignments/${mine.id}`)).status).toBe(200);
    expect((await operator.get(`/api/v1/assignments/${theirs.id}`)).status).toBe(404);
    expect((await finance.get("/api/v1/assignments?per_page=all")).body.assignments).toEqual([]);
    expect((await finance.get(`/api/v1/assignments/${theirs.id}`)).status).toBe(404);
    for (const api of [operator, finance]) {
      expect((await api.post("/api/v1/assignments", body())).status).toBe(403);
      expect((await api.put(`/api/v1/assignments/${mine.id}`, { assignment: { end_on: "2031-01-03" } })).status).toBe(403);
      expect((await api.delete(`/api/v1/assignments/${mine.id}`)).status).toBe(403);
    }
    expect((await admin.delete(`/api/v1/assignments/${theirs.id}`)).status).toBe(200);
  });
});
