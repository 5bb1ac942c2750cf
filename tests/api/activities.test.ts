import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  activities,
  activity_type_catalogs,
  app_settings,
  employees,
  frozen_periods,
  holydays,
  projects,
  prospects,
} from "../../server/db/schema";
import { NoTickets, type TicketsPort } from "../../server/ports/tickets";
import { zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildClient, buildProduct, signInAs } from "../support/factories";
import { allowFutureActivities } from "../support/future";

let t: TestApp;
/** The app's tickets port, swapped by the ticket-search test. */
let tickets: TicketsPort = new NoTickets();
let admin: ApiClient;
let operator: ApiClient;
let other: ApiClient;
let finance: ApiClient;
let me: { id: number };
let otherEmployee: { id: number };
let client: { id: number; name: string };
let defaultCustomer: { id: number };
let excluded: { id: number };
let product: { id: number; name: string };
let locked: { id: number };
let project: { id: number };
let prospect: { id: number };
let typeId: number;

/** ISO instant of a Mexico City wall-clock time. */
const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m).toISOString();
};
const internal = (date: string, from: string, to: string, extra: Record<string, unknown> = {}) => ({
  begins_at: at(date, from),
  ends_at: at(date, to),
  action_type: "internal",
  description: "Junta semanal",
  activity_type_catalog_id: typeId,
  ...extra,
});
const create = (api: ApiClient, activity: Record<string, unknown>) => api.post("/api/v1/activities", { activity });

beforeAll(async () => {
  t = await buildTestApp({}, { tickets: { kind: "test", search: (q) => tickets.search(q), check: async () => {} } });
  // Its fixtures log weeks years ahead (fixed dates that stay on the weekdays they name).
  await allowFutureActivities(t.app);
  const db = t.app.db.db;
  admin = (await signInAs(t.app, "admin")).api;
  const op = await signInAs(t.app, "operator");
  operator = op.api;
  me = op.employee as { id: number };
  const o = await signInAs(t.app, "operator");
  other = o.api;
  otherEmployee = o.employee as { id: number };
  finance = (await signInAs(t.app, "finance")).api;
  client = await buildClient(db, { name: "Cliente Soporte" });
  defaultCustomer = await buildClient(db, { name: "Empresa Propia" });
  excluded = await buildClient(db, { name: "Cliente Excluido" });
  product = await buildProduct(db, { name: "Timbrado" });
  locked = await buildProduct(db, { name: "SIA", is_selectable: false });
  [project] = await db
    .insert(projects)
    .values({ project_code: "ACT-1", name: "Portal", client_id: client.id, product_catalog_id: product.id, color_tag: "#112233" })
    .returning();
  [prospect] = await db.insert(prospects).values({ name: "Prospecto Uno" }).returning();
  const [type] = await db
    .insert(activity_type_catalogs)
    .values({ code: "ZDE", name: "Desarrollo" })
    .onConflictDoNothing()
    .returning();
  typeId = type.id;
  await db
    .insert(app_settings)
    .values({ id: 1, default_customer_id: defaultCustomer.id, support_excluded_customer_id: excluded.id })
    .onConflictDoUpdate({
      target: app_settings.id,
      set: { default_customer_id: defaultCustomer.id, support_excluded_customer_id: excluded.id },
    });
});
afterAll(() => t.close());

describe("activities: rules per action type", () => {
  it("project: needs project and activity type; client and product come from the project; computed columns", async () => {
    const missing = await create(operator, {
      begins_at: at("2030-01-07", "09:00"),
      ends_at: at("2030-01-07", "10:00"),
      action_type: "project",
      description: "x",
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.project_id).toEqual(["es obligatorio"]);
    expect(missing.body.errors.activity_type_catalog_id).toEqual(["es obligatorio"]);
    const res = await create(operator, {
      begins_at: at("2030-01-07", "09:00"),
      ends_at: at("2030-01-07", "10:00"),
      action_type: "project",
      description: "Desarrollo del portal",
      project_id: project.id,
      activity_type_catalog_id: typeId,
    });
    expect(res.status).toBe(201);
    expect(res.body.activity).toMatchObject({
      employee_id: me.id,
      ownerable_type: "Client",
      ownerable_id: client.id,
      ownerable_name: "Cliente Soporte",
      product_name: "Timbrado",
      project: { name: "Portal", project_code: "ACT-1", color_tag: "#112233" },
      project_code: "ACT-1",
      activity_type_code: "ZDE",
      is_editable: true,
      is_month_frozen: false,
    });
  });

  it("support: client and product required, excluded customer and non-selectable products refused", async () => {
    const base = {
      begins_at: at("2030-01-07", "10:00"),
      ends_at: at("2030-01-07", "11:00"),
      action_type: "support",
      description: "Incidencia",
    };
    const missing = await create(operator, base);
    expect(missing.body.errors).toMatchObject({ ownerable_id: ["es obligatorio"], product_catalog_id: ["es obligatorio"] });
    const prospectOwner = await create(operator, {
      ...base,
      ownerable_type: "Prospect",
      ownerable_id: prospect.id,
      product_catalog_id: product.id,
    });
    expect(prospectOwner.status).toBe(422);
    expect(prospectOwner.body.errors.ownerable_type).toBeDefined();
    const excludedRes = await create(operator, {
      ...base,
      ownerable_type: "Client",
      ownerable_id: excluded.id,
      product_catalog_id: product.id,
    });
    expect(excludedRes.status).toBe(422);
    expect(excludedRes.body.errors.ownerable_id).toEqual(["no se puede usar en actividades de soporte"]);
    const lockedRes = await create(operator, { ...base, ownerable_id: client.id, product_catalog_id: locked.id });
    expect(lockedRes.body.errors.product_catalog_id).toEqual(["no se puede seleccionar para actividades"]);
    const ok = await create(operator, {
      ...base,
      ownerable_id: client.id,
      product_catalog_id: product.id,
      ticket_id: "3400",
      ticket_name: "Falla",
    });
    expect(ok.status).toBe(201);
    expect(ok.body.activity).toMatchObject({ ownerable_type: "Client", ticket_id: "3400", project_id: null });
  });

  it("quote: a client or a prospect plus a product", async () => {
    const base = {
      begins_at: at("2030-01-07", "11:00"),
      ends_at: at("2030-01-07", "12:00"),
      action_type: "quote",
      description: "Demo",
    };
    const missing = await create(operator, base);
    expect(missing.body.errors).toMatchObject({ ownerable_id: ["es obligatorio"], product_catalog_id: ["es obligatorio"] });
    const ok = await create(operator, {
      ...base,
      ownerable_type: "Prospect",
      ownerable_id: prospect.id,
      product_catalog_id: product.id,
    });
    expect(ok.status).toBe(201);
    expect(ok.body.activity).toMatchObject({ ownerable_type: "Prospect", ownerable_name: "Prospecto Uno" });
    const lockedRes = await create(operator, {
      ...base,
      begins_at: at("2030-01-07", "12:00"),
      ends_at: at("2030-01-07", "12:30"),
      ownerable_id: client.id,
      product_catalog_id: locked.id,
    });
    expect(lockedRes.body.errors.product_catalog_id).toBeDefined();
  });

  it("internal and rh get the default customer; vacation has no owner and a fixed description", async () => {
    const res = await create(
      operator,
      internal("2030-01-07", "12:00", "13:00", { ownerable_type: "Client", ownerable_id: client.id }),
    );
    expect(res.status).toBe(201);
    expect(res.body.activity).toMatchObject({ ownerable_type: "Client", ownerable_id: defaultCustomer.id });
    const rh = await create(operator, {
      begins_at: at("2030-01-07", "13:00"),
      ends_at: at("2030-01-07", "13:30"),
      action_type: "rh",
      description: "Nómina",
    });
    expect(rh.body.activity.ownerable_id).toBe(defaultCustomer.id);
    const vacation = await create(operator, {
      begins_at: at("2030-01-08", "09:00"),
      ends_at: at("2030-01-08", "18:00"),
      action_type: "vacation",
      description: "",
      ownerable_type: "Client",
      ownerable_id: client.id,
    });
    expect(vacation.status).toBe(201);
    expect(vacation.body.activity).toMatchObject({
      description: "Vacaciones / Incapacidades",
      ownerable_id: null,
      ownerable_type: null,
    });
  });

  it("description required; times ordered, same day, whole minutes", async () => {
    const noDescription = await create(operator, internal("2030-01-09", "09:00", "10:00", { description: "  " }));
    expect(noDescription.body.errors.description).toEqual(["es obligatorio"]);
    const reversed = await create(operator, internal("2030-01-09", "10:00", "09:00"));
    expect(reversed.body.errors.ends_at).toBeDefined();
    const overnight = await create(operator, { ...internal("2030-01-09", "22:00", "23:00"), ends_at: at("2030-01-10", "01:00") });
    expect(overnight.body.errors.ends_at).toEqual(["la actividad debe empezar y terminar el mismo día"]);
    const seconds = await create(operator, { ...internal("2030-01-09", "09:00", "10:00"), begins_at: "2030-01-09T15:00:30Z" });
    expect(seconds.body.errors.begins_at).toBeDefined();
    const untilMidnight = await create(operator, {
      ...internal("2030-01-09", "23:00", "23:00"),
      ends_at: at("2030-01-10", "00:00"),
    });
    expect(untilMidnight.status).toBe(201);
    const offGrid = await create(operator, internal("2030-01-09", "10:05", "10:50"));
    expect(offGrid.status).toBe(201);
  });

  it("an inactive employee is refused", async () => {
    const db = t.app.db.db;
    const [inactive] = await db.insert(employees).values({ name: "Ex empleado", is_active: false }).returning();
    const res = await create(admin, internal("2030-01-09", "12:00", "13:00", { employee_id: inactive.id }));
    expect(res.status).toBe(422);
    expect(res.body.errors.employee_id).toEqual(["el empleado no está activo"]);
  });
});

describe("activities: own vs other employee", () => {
  it("non-admins see and change only their own; admins any", async () => {
    const mine = await create(operator, internal("2030-01-14", "09:00", "10:00"));
    const theirs = await create(other, internal("2030-01-14", "09:00", "10:00"));
    expect(theirs.status).toBe(201);
    const list = await operator.get(
      `/api/v1/activities?by_begins_at=${encodeURIComponent(JSON.stringify({ start_date: "2030-01-14", end_date: "2030-01-20" }))}&by_employee=todos`,
    );
    expect(list.body.activities.map((a: { id: number }) => a.id)).toEqual([mine.body.activity.id]);
    expect((await operator.get(`/api/v1/activities/${theirs.body.activity.id}`)).status).toBe(404);
    expect((await operator.delete(`/api/v1/activities/${theirs.body.activity.id}`)).status).toBe(404);
    const put = await operator.put(`/api/v1/activities/${theirs.body.activity.id}`, { activity: { description: "x" } });
    expect(put.status).toBe(404);
    expect(put.body.error).toBe("La actividad no se encontró para actualizar");
    const forOther = await create(operator, internal("2030-01-14", "11:00", "12:00", { employee_id: otherEmployee.id }));
    expect(forOther.status).toBe(403);

    const all = await admin.get(
      "/api/v1/activities?by_begins_at[start_date]=2030-01-14&by_begins_at[end_date]=2030-01-20&by_employee=todos",
    );
    expect(all.body.activities).toHaveLength(2);
    const one = await admin.get(
      `/api/v1/activities?by_begins_at[start_date]=2030-01-14&by_begins_at[end_date]=2030-01-20&by_employee=${otherEmployee.id}`,
    );
    expect(one.body.activities.map((a: { id: number }) => a.id)).toEqual([theirs.body.activity.id]);
    const edited = await admin.put(`/api/v1/activities/${theirs.body.activity.id}`, {
      activity: { description: "Editada por admin" },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.activity).toMatchObject({ description: "Editada por admin", employee_id: otherEmployee.id });
    const adminCreates = await create(admin, internal("2030-01-14", "12:00", "13:00", { employee_id: otherEmployee.id }));
    expect(adminCreates.status).toBe(201);
    expect(adminCreates.body.activity.employee_id).toBe(otherEmployee.id);
    const missing = await admin.put("/api/v1/activities/999999", { activity: { description: "x" } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("La actividad no se encontró para actualizar");
  });

  it("overlap answers the Spanish conflict message (create and update)", async () => {
    await create(operator, internal("2030-01-15", "09:00", "10:00"));
    const clash = await create(operator, internal("2030-01-15", "09:30", "10:30"));
    expect(clash.status).toBe(422);
    expect(clash.body.errors.base).toEqual(["Hay eventos con fechas en conflictos"]);
    const touching = await create(operator, internal("2030-01-15", "10:00", "11:00"));
    expect(touching.status).toBe(201);
    const moved = await operator.put(`/api/v1/activities/${touching.body.activity.id}`, {
      activity: { begins_at: at("2030-01-15", "09:45") },
    });
    expect(moved.status).toBe(422);
    expect(moved.body.errors.base).toEqual(["Hay eventos con fechas en conflictos"]);
    const self = await operator.put(`/api/v1/activities/${touching.body.activity.id}`, {
      activity: { ends_at: at("2030-01-15", "11:30") },
    });
    expect(self.status).toBe(200);
    // Someone else's time never conflicts.
    expect((await create(other, internal("2030-01-15", "09:30", "10:30"))).status).toBe(201);
  });
});

describe("activities: freezing", () => {
  it("a user closes their own week only; admins must pick an employee; frozen rows are read-only", async () => {
    const a = await create(operator, internal("2030-02-05", "09:00", "10:00"));
    const week = { by_begins_at: { start_date: "2030-02-04", end_date: "2030-02-10" } };
    expect((await operator.put("/api/v1/activities/close_activities", { ...week, by_employee: otherEmployee.id })).status).toBe(
      403,
    );
    expect((await operator.put("/api/v1/activities/close_month_activities", week)).status).toBe(403);
    // Its owner's closing sends it to review, from its Friday on (an administrator closes it outright).
    const early = await operator.put("/api/v1/activities/close_activities", week);
    expect(early.status).toBe(422);
    expect(early.body.errors.week_start).toEqual(["Solo se puede enviar a revisión una semana a partir de su viernes"]);
    const closed = await admin.put("/api/v1/activities/close_activities", { ...week, by_employee: me.id });
    expect(closed.status).toBe(200);
    expect(closed.body.frozen_period).toMatchObject({ kind: "week", starts_on: "2030-02-04", ends_on: "2030-02-10" });
    expect((await operator.put("/api/v1/activities/open_activities", week)).status).toBe(403);

    const shown = await operator.get(`/api/v1/activities/${a.body.activity.id}`);
    expect(shown.body.activity).toMatchObject({ is_editable: false, is_month_frozen: false });
    const edit = await operator.put(`/api/v1/activities/${a.body.activity.id}`, { activity: { description: "x" } });
    expect(edit.body.errors.base).toEqual(["La actividad está en un periodo cerrado"]);
    expect((await operator.delete(`/api/v1/activities/${a.body.activity.id}`)).body.errors.base).toEqual([
      "La actividad está en un periodo cerrado",
    ]);
    expect((await create(operator, internal("2030-02-06", "09:00", "10:00"))).body.errors.base).toEqual([
      "La actividad está en un periodo cerrado",
    ]);
    expect((await create(admin, internal("2030-02-06", "09:00", "10:00", { employee_id: me.id }))).status).toBe(422);
    // Another employee's same week stays open.
    expect((await create(other, internal("2030-02-06", "09:00", "10:00"))).status).toBe(201);

    const noEmployee = await admin.put("/api/v1/activities/open_activities", week);
    expect(noEmployee.status).toBe(422);
    expect(noEmployee.body.errors.base).toEqual(["Seleccione un empleado"]);
    expect((await admin.put("/api/v1/activities/open_activities", { ...week, by_employee: "todos" })).status).toBe(422);
    expect((await admin.put("/api/v1/activities/open_activities", { ...week, by_employee: me.id })).status).toBe(200);
    expect(
      (await operator.put(`/api/v1/activities/${a.body.activity.id}`, { activity: { description: "Reabierta" } })).status,
    ).toBe(200);
    // Query-string form works too.
    const viaQuery = await admin.put(
      `/api/v1/activities/close_activities?by_begins_at[start_date]=2030-02-04&by_employee=${otherEmployee.id}`,
    );
    expect(viaQuery.status).toBe(200);
    const rows = await t.app.db.db.select().from(frozen_periods).where(eq(frozen_periods.employee_id, otherEmployee.id));
    expect(rows.map((r) => [r.kind, r.starts_on, r.ends_on])).toContainEqual(["week", "2030-02-04", "2030-02-10"]);
  });

  it("a frozen month locks only its own days of a week that crosses the month end", async () => {
    // Week Mon 2030-04-29 … Sun 2030-05-05.
    const april = await create(operator, internal("2030-04-30", "09:00", "10:00"));
    const may = await create(operator, internal("2030-05-02", "09:00", "10:00"));
    const close = await admin.put("/api/v1/activities/close_month_activities", {
      by_begins_at: { start_date: "2030-04-29", end_date: "2030-05-05" },
      by_employee: me.id,
    });
    expect(close.status).toBe(200);
    expect(close.body.frozen_period).toMatchObject({ kind: "month", starts_on: "2030-04-01", ends_on: "2030-04-30" });
    const list = await operator.get("/api/v1/activities?by_begins_at[start_date]=2030-04-29&by_begins_at[end_date]=2030-05-05");
    const byId = Object.fromEntries(list.body.activities.map((x: { id: number }) => [x.id, x]));
    expect(byId[april.body.activity.id]).toMatchObject({ is_month_frozen: true, is_editable: false });
    expect(byId[may.body.activity.id]).toMatchObject({ is_month_frozen: false, is_editable: true });
    expect((await create(operator, internal("2030-05-01", "09:00", "10:00"))).status).toBe(201);
    expect((await create(operator, internal("2030-04-29", "09:00", "10:00"))).status).toBe(422);
    // Freezing May leaves April 30 to April's state; opening April frees it.
    await admin.put("/api/v1/activities/close_month_activities", { by_begins_at: "2030-05-02", by_employee: me.id });
    await admin.put("/api/v1/activities/open_month_activities", { by_begins_at: "2030-04-29", by_employee: me.id });
    const after = await operator.get("/api/v1/activities?by_begins_at[start_date]=2030-04-29&by_begins_at[end_date]=2030-05-05");
    const again = Object.fromEntries(after.body.activities.map((x: { id: number }) => [x.id, x]));
    expect(again[april.body.activity.id]).toMatchObject({ is_month_frozen: false, is_editable: true });
    expect(again[may.body.activity.id]).toMatchObject({ is_month_frozen: true, is_editable: false });
    expect((await operator.put("/api/v1/activities/open_month_activities", { by_begins_at: "2030-05-02" })).status).toBe(403);
    expect(
      (await finance.put("/api/v1/activities/close_month_activities", { by_begins_at: "2030-05-02", by_employee: me.id })).status,
    ).toBe(403);
  });
});

describe("activities: validate and batch", () => {
  it("validate answers errors keyed by index, prefixed by the times, including overlaps in the batch and with stored rows", async () => {
    await create(operator, internal("2030-03-04", "09:00", "10:00"));
    const res = await operator.post("/api/v1/activities/validate", {
      activities: [
        internal("2030-03-04", "11:00", "12:00"),
        internal("2030-03-04", "09:30", "10:30"),
        internal("2030-03-04", "13:00", "14:00", { description: "" }),
        internal("2030-03-04", "15:00", "16:00"),
        internal("2030-03-04", "15:30", "16:30"),
      ],
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(["1", "2", "3", "4"]);
    expect(res.body.errors["1"].base).toEqual(["09:30 - 10:30: Hay eventos con fechas en conflictos"]);
    expect(res.body.errors["2"].description).toEqual(["13:00 - 14:00: es obligatorio"]);
    expect(res.body.errors["3"].base).toEqual(["15:00 - 16:00: Hay eventos con fechas en conflictos"]);
    expect(res.body.errors["4"].base).toEqual(["15:30 - 16:30: Hay eventos con fechas en conflictos"]);
    const ok = await operator.post("/api/v1/activities/validate", { activities: [internal("2030-03-04", "11:00", "12:00")] });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ valid: true });
    expect((await operator.post("/api/v1/activities/validate", { activities: [] })).status).toBe(422);
  });

  it("batch saves all or nothing", async () => {
    const count = async () => (await t.app.db.db.select().from(activities).where(eq(activities.employee_id, me.id))).length;
    const before = await count();
    const bad = await operator.post("/api/v1/activities/batch", {
      activities: [
        internal("2030-03-05", "09:00", "10:00"),
        internal("2030-03-05", "10:00", "11:00", { action_type: "support" }),
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors["1"].ownerable_id[0]).toMatch(/^10:00 - 11:00: /);
    expect(await count()).toBe(before);
    const good = await operator.post("/api/v1/activities/batch", {
      activities: [internal("2030-03-05", "09:00", "10:00"), internal("2030-03-05", "10:00", "11:00")],
    });
    expect(good.status).toBe(200);
    expect(good.body.created).toBe(2);
    expect(await count()).toBe(before + 2);
  });

  it("validate and batch apply the application settings: internal work goes to the default customer, support refuses the excluded one", async () => {
    const excludedSupport = internal("2030-03-08", "10:00", "11:00", {
      action_type: "support",
      ownerable_type: "Client",
      ownerable_id: excluded.id,
      product_catalog_id: product.id,
    });
    for (const path of ["validate", "batch"]) {
      const refused = await operator.post(`/api/v1/activities/${path}`, {
        activities: [internal("2030-03-08", "09:00", "10:00"), excludedSupport],
      });
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual({
        "1": { ownerable_id: ["10:00 - 11:00: no se puede usar en actividades de soporte"] },
      });
    }
    const saved = await operator.post("/api/v1/activities/batch", { activities: [internal("2030-03-08", "09:00", "10:00")] });
    expect(saved.status).toBe(200);
    expect(saved.body.activities[0]).toMatchObject({ ownerable_type: "Client", ownerable_id: defaultCustomer.id });
  });

  it("batch: a non-admin cannot write for another employee; an admin can", async () => {
    const theirs = internal("2030-03-07", "09:00", "10:00", { employee_id: otherEmployee.id });
    const refused = await operator.post("/api/v1/activities/batch", { activities: [theirs] });
    expect(refused.status).toBe(422);
    expect(refused.body.errors["0"].employee_id).toEqual(["09:00 - 10:00: Solo puede registrar sus propias actividades"]);
    const ok = await admin.post("/api/v1/activities/batch", { activities: [theirs] });
    expect(ok.status).toBe(200);
    expect(ok.body.activities[0].employee_id).toBe(otherEmployee.id);
  });

  it("batch is idempotent by import_key and google_calendar_id", async () => {
    const payload = {
      activities: [
        internal("2030-03-06", "09:00", "10:00", { import_key: "csv:abc" }),
        internal("2030-03-06", "10:00", "11:00", {
          google_calendar_id: "gcal-1",
          google_calendar_event: JSON.stringify({ organizer: "a@b.mx" }),
        }),
      ],
    };
    const first = await operator.post("/api/v1/activities/batch", payload);
    expect(first.status).toBe(200);
    expect(first.body.created).toBe(2);
    const second = await operator.post("/api/v1/activities/batch", payload);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ created: 0, existing: 2 });
    expect(second.body.activities.map((a: { id: number }) => a.id)).toEqual(
      first.body.activities.map((a: { id: number }) => a.id),
    );
    const rows = await t.app.db.db
      .select()
      .from(activities)
      .where(and(eq(activities.employee_id, me.id), eq(activities.import_key, "csv:abc")));
    expect(rows).toHaveLength(1);
    expect((await operator.post("/api/v1/activities/validate", payload)).status).toBe(200);
  });
});

describe("activities: copy, recent, favourites", () => {
  it("copies last week's activities, skipping holidays and overlaps", async () => {
    const db = t.app.db.db;
    await create(operator, internal("2030-06-03", "09:00", "10:00", { description: "Lunes" }));
    await create(operator, internal("2030-06-04", "09:00", "10:00", { description: "Martes" }));
    await create(operator, internal("2030-06-05", "09:00", "10:00", { description: "Miércoles" }));
    await db.insert(holydays).values({ date: "2030-06-11", name: "Festivo de prueba" });
    await create(operator, internal("2030-06-12", "09:30", "10:30", { description: "Ya ocupado" }));
    const res = await operator.post("/api/v1/activities/copy_previous_week", { week_start: "2030-06-10" });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(1);
    expect(res.body.activities[0]).toMatchObject({ description: "Lunes", begins_at: at("2030-06-10", "09:00") });
    expect(res.body.skipped.map((s: { description: string; reason: string }) => [s.description, s.reason])).toEqual([
      ["Martes", "Día festivo"],
      ["Miércoles", "Hay eventos con fechas en conflictos"],
    ]);
  });

  it("refuses a week to copy into or from that is unreadable or reaches past the dates SIA accepts", async () => {
    for (const [field, body] of [
      ["week_start", { week_start: "2100-12-31", id_previous_week: "2030-06-03" }],
      ["week_start", { week_start: "9999-12-31" }],
      ["week_start", { week_start: "abc" }],
      ["id_previous_week", { week_start: "2030-06-10", id_previous_week: "1899-12-25" }],
    ] as const) {
      const res = await operator.post("/api/v1/activities/copy_previous_week", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    // Objects where a text or a number belongs (JSON cannot carry functions: Number() and String() of them throw).
    for (const body of [
      { employee_id: { toString: false } },
      { week_start: { toString: false } },
      { week_start: "2030-06-10", id_previous_week: { valueOf: 1 } },
    ]) {
      for (const api of [operator, admin]) {
        const res = await api.post("/api/v1/activities/copy_previous_week", body);
        expect([403, 422], JSON.stringify(body)).toContain(res.status);
      }
    }
    // An instant still in 1899 in Mexico City (1900-01-01T00:00Z) is refused like any date before 1900.
    const early = await operator.post("/api/v1/activities", {
      activity: {
        ...internal("2030-06-03", "09:00", "10:00"),
        begins_at: "1900-01-01T00:00:00Z",
        ends_at: "1900-01-01T01:00:00Z",
      },
    });
    expect(early.status).toBe(422);
  });

  it("recent activities (distinct) and favourites", async () => {
    await create(operator, internal("2030-07-01", "09:00", "10:00", { description: "Repetida" }));
    await create(operator, internal("2030-07-02", "09:00", "10:00", { description: "Repetida" }));
    await create(operator, internal("2030-07-03", "09:00", "10:00", { description: "Favorita", is_favorite: true }));
    const recent = await operator.get("/api/v1/activities/recent_activities");
    expect(recent.status).toBe(200);
    const descriptions = recent.body.activities.map((a: { description: string }) => a.description);
    expect(descriptions.filter((d: string) => d === "Repetida")).toHaveLength(1);
    expect(recent.body.activities.every((a: { employee_id: number }) => a.employee_id === me.id)).toBe(true);
    const favs = await operator.get("/api/v1/activities?by_favorite=true&per_page=all");
    expect(favs.body.activities.map((a: { description: string }) => a.description)).toEqual(["Favorita"]);
    expect((await operator.get(`/api/v1/activities/recent_activities?employee_id=${otherEmployee.id}`)).status).toBe(403);
    expect((await admin.get(`/api/v1/activities/recent_activities?employee_id=${otherEmployee.id}`)).status).toBe(200);
  });
});

describe("activities: downloads and tickets", () => {
  it("CSV: admin the chosen employee or all, others their own", async () => {
    await create(operator, internal("2030-08-05", "09:00", "10:00", { description: "CSV mía" }));
    await create(other, internal("2030-08-05", "09:00", "10:00", { description: "CSV ajena" }));
    const range = "by_begins_at[start_date]=2030-08-05&by_begins_at[end_date]=2030-08-11";
    const own = await operator.get(`/api/v1/activities.csv?${range}&by_employee=todos`);
    expect(own.status).toBe(200);
    expect(own.headers["content-type"]).toMatch(/text\/csv/);
    expect(own.text).toContain("CSV mía");
    expect(own.text).not.toContain("CSV ajena");
    const all = await admin.get(`/api/v1/activities.csv?${range}&by_employee=todos`);
    expect(all.text).toContain("CSV mía");
    expect(all.text).toContain("CSV ajena");
    const chosen = await admin.get(`/api/v1/activities.csv?${range}&by_employee=${otherEmployee.id}`);
    expect(chosen.text).not.toContain("CSV mía");
    expect(chosen.text).toContain("CSV ajena");
    const personal = await other.get(`/api/v1/activities/download_personal_report.csv?${range}&by_employee=${me.id}`);
    expect(personal.text).toContain("CSV ajena");
    expect(personal.text).not.toContain("CSV mía");
    const format = await operator.get("/api/v1/activities/download_csv_format");
    expect(format.text.split("\r\n")[0]).toBe(
      "\uFEFFfecha,hora_inicio,hora_fin,tipo,cliente_o_prospecto,codigo_proyecto,producto,tipo_actividad,ticket,descripcion",
    );
  });

  it("ticket search: no service configured answers a clear 422 titled Azure Devops", async () => {
    const res = await operator.post("/api/v1/activities/get_ticket_by_proyect", { search: "falla", project_id: project.id });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      title: "Azure Devops",
      errors: { base: ["No hay un servicio de tickets configurado (Azure Devops)"] },
    });
    tickets = { kind: "test", search: async (q) => [{ id: "77", name: `Ticket ${q.search}` }], check: async () => {} };
    const found = await operator.post("/api/v1/activities/get_ticket_by_proyect", { search: "falla" });
    expect(found.body.tickets).toEqual([{ id: "77", name: "Ticket falla" }]);
    tickets = {
      kind: "test",
      search: async () => {
        throw new Error("boom");
      },
      check: async () => {},
    };
    const failed = await operator.post("/api/v1/activities/get_ticket_by_proyect", { search: "x" });
    expect(failed.status).toBe(422);
    expect(failed.body.title).toBe("Azure Devops");
    tickets = new NoTickets();
  });
});
