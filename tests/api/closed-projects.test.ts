/**
 * A project no longer current (not authorised, cancelled, finished) takes no new time, whichever way it
 * would come: a new activity, the week save, a copy of last week, an import (shown red with why). An
 * activity already on such a project keeps it when its other fields change.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activities, activity_type_catalogs, projects } from "../../server/db/schema";
import type { LocalEvent } from "../../src/core/localEvent";
import { messages } from "../../src/core/messages";
import { ACTIVITY_CSV_COLUMNS } from "../../src/core/schemas/activity";
import { zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { importWeekCsv } from "../support/catalog-factories";
import { type ApiClient, buildClient, buildProduct, signInAs } from "../support/factories";
import { allowFutureActivities } from "../support/future";

let t: TestApp;
let operator: ApiClient;
let employeeId: number;
let cancelled: { id: number; project_code: string };
let current: { id: number; project_code: string };
let typeId: number;

const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m).toISOString();
};
const onProject = (projectId: number, date: string, from: string, to: string) => ({
  begins_at: at(date, from),
  ends_at: at(date, to),
  action_type: "project",
  project_id: projectId,
  activity_type_catalog_id: typeId,
  description: "Trabajo",
});

beforeAll(async () => {
  t = await buildTestApp();
  // Its fixtures log weeks years ahead (fixed dates that stay on the weekdays they name).
  await allowFutureActivities(t.app);
  const db = t.app.db.db;
  const op = await signInAs(t.app, "operator");
  operator = op.api;
  employeeId = (op.employee as { id: number }).id;
  const client = await buildClient(db, { name: "Cliente de proyectos cerrados" });
  const product = await buildProduct(db, { name: "Producto de proyectos cerrados" });
  [cancelled] = await db
    .insert(projects)
    .values({
      project_code: "CER-1",
      name: "Cancelado",
      client_id: client.id,
      product_catalog_id: product.id,
      state: "cancelado",
    })
    .returning();
  [current] = await db
    .insert(projects)
    .values({
      project_code: "CER-2",
      name: "En curso",
      client_id: client.id,
      product_catalog_id: product.id,
      state: "en_ejecucion",
    })
    .returning();
  const [type] = await db
    .insert(activity_type_catalogs)
    .values({ code: "ZCE", name: "Cierre" })
    .onConflictDoNothing()
    .returning();
  typeId = type.id;
});
afterAll(() => t.close());

const notCurrent = /El proyecto CER-1 está cancelado/;

describe("a project no longer current takes no new time", () => {
  it("a new activity on it is refused (single and in the week save), on a current one accepted", async () => {
    const single = await operator.post("/api/v1/activities", {
      activity: onProject(cancelled.id, "2031-05-05", "09:00", "10:00"),
    });
    expect(single.status).toBe(422);
    expect(single.body.errors.project_id[0]).toMatch(notCurrent);
    const week = await operator.post("/api/v1/activities/batch", {
      activities: [
        onProject(cancelled.id, "2031-05-06", "09:00", "10:00"),
        onProject(current.id, "2031-05-06", "10:00", "11:00"),
      ],
    });
    expect(week.status).toBe(422);
    expect(week.body.errors["0"].project_id[0]).toMatch(notCurrent);
    expect(week.body.errors["1"]).toBeUndefined();
    expect(
      (await operator.post("/api/v1/activities", { activity: onProject(current.id, "2031-05-05", "09:00", "10:00") })).status,
    ).toBe(201);
  });

  it("an activity already on it keeps it when its other fields change; moving another onto it is refused", async () => {
    const db = t.app.db.db;
    const [old] = await db
      .insert(activities)
      .values({
        employee_id: employeeId,
        begins_at: new Date(at("2031-05-07", "09:00")),
        ends_at: new Date(at("2031-05-07", "10:00")),
        description: "De antes",
        action_type: "project",
        project_id: cancelled.id,
        activity_type_catalog_id: typeId,
      })
      .returning();
    const edit = await operator.put(`/api/v1/activities/${old.id}`, { activity: { description: "De antes, corregida" } });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const week = await operator.post("/api/v1/activities/batch", {
      updates: [{ id: old.id, lock_version: edit.body.activity.lock_version, description: "Otra vez" }],
    });
    expect(week.status, JSON.stringify(week.body)).toBe(200);
    const [other] = await db
      .insert(activities)
      .values({
        employee_id: employeeId,
        begins_at: new Date(at("2031-05-07", "11:00")),
        ends_at: new Date(at("2031-05-07", "12:00")),
        description: "En curso",
        action_type: "project",
        project_id: current.id,
        activity_type_catalog_id: typeId,
      })
      .returning();
    const moved = await operator.put(`/api/v1/activities/${other.id}`, { activity: { project_id: cancelled.id } });
    expect(moved.status).toBe(422);
    expect((await db.select().from(activities).where(eq(activities.id, other.id)))[0].project_id).toBe(current.id);
  });

  it("a CSV row naming it is imported red, with why", async () => {
    const csv = Buffer.from(
      `${[ACTIVITY_CSV_COLUMNS.join(","), "2031-03-04,09:00,10:00,P,,CER-1,,ZCE,,Cierre", "2031-03-04,10:00,11:00,P,,CER-2,,ZCE,,Curso"].join("\r\n")}\r\n`,
      "utf8",
    );
    const res = await importWeekCsv(t.app, operator.token, "2031-03-03", csv, "semana.csv", "text/csv");
    expect(res.status, res.text).toBe(200);
    const events = res.body.import_activities as LocalEvent[];
    expect(events.map((e) => [e.description, e.isValidate])).toEqual([
      ["Cierre", false],
      ["Curso", true],
    ]);
    expect(events[0].errors?.join(" ")).toMatch(notCurrent);
  });

  it("copying last week skips what is on it, and says why", async () => {
    const db = t.app.db.db;
    await db.insert(activities).values({
      employee_id: employeeId,
      begins_at: new Date(at("2031-06-02", "09:00")),
      ends_at: new Date(at("2031-06-02", "10:00")),
      description: "Semana pasada",
      action_type: "project",
      project_id: cancelled.id,
      activity_type_catalog_id: typeId,
    });
    const res = await operator.post("/api/v1/activities/copy_previous_week", { week_start: "2031-06-09" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.created).toBe(0);
    expect(res.body.skipped.map((s: { reason: string }) => s.reason).join(" ")).toMatch(notCurrent);
    expect(messages.activityProjectNotCurrent("CER-1", "Cancelado")).toMatch(notCurrent);
  });
});
