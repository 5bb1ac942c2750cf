/**
 * The activity report limited to approved hours (GET activities/reporting_activities.csv?approved_only=true):
 * only the activities whose local date (Mexico City) is closed for their own employee — a week approved, or
 * closed by an administrator, or a closed month — and not waiting for review. A week in review, returned,
 * reopened or never sent (and open) is left out. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */
import { eq } from "drizzle-orm";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activities, employees } from "../../server/db/schema";
import { reportSearchParams } from "../../src/core/schemas/report";
import { zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildUser, buildWorkspace, signIn } from "../support/factories";

let t: TestApp;
let admin: ApiClient;
let worker: { api: ApiClient; employeeId: number };
let colleague: { api: ApiClient; employeeId: number };
let workspaceId: number;
const RANGE = { start_date: "2025-03-03", end_date: "2025-03-30" };

const activity = (employeeId: number, date: string, minutes: number, description: string) =>
  t.app.db.db.insert(activities).values({
    employee_id: employeeId,
    begins_at: zonedTime(date, minutes),
    ends_at: zonedTime(date, minutes + 30),
    description,
    action_type: "internal",
  });
const person = async () => {
  const { user, employee } = await buildUser(t.app.db.db, "operator");
  const employeeId = (employee as { id: number }).id;
  await t.app.db.db.update(employees).set({ workspace_id: workspaceId }).where(eq(employees.id, employeeId));
  return { api: await signIn(t.app, user.email), employeeId };
};
const submit = async (p: { api: ApiClient }, week: string) => {
  const res = await p.api.post("/api/v1/week_reviews/submit", { week_start: week });
  expect(res.status, res.text).toBe(200);
  return res.body.week_review as { id: number; lock_version: number };
};
const approve = async (review: { id: number; lock_version: number }) => {
  const res = await admin.post("/api/v1/week_reviews/approve", { weeks: [review] });
  expect(res.status, res.text).toBe(200);
  return res.body.week_reviews[0] as { id: number; lock_version: number };
};
const report = async (api: ApiClient, params: Record<string, string>) => {
  const res = await api.get(`/api/v1/activities/reporting_activities.csv?${new URLSearchParams({ ...RANGE, ...params })}`);
  return { ...res, descriptions: res.status === 200 ? described(res.text) : [] };
};
const described = (text: string) =>
  Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: true })
    .data.slice(1)
    .map((row) => row[12])
    .sort();

beforeAll(async () => {
  t = await buildTestApp();
  const { user } = await buildUser(t.app.db.db, "admin");
  admin = await signIn(t.app, user.email);
  workspaceId = (await buildWorkspace(t.app.db.db)).id;
  worker = await person();
  colleague = await person();
  // The worker's weeks of March 2025: approved, in review, returned, never sent.
  await activity(worker.employeeId, "2025-03-04", 9 * 60, "aprobada martes");
  // Sunday 23:30 in Mexico City is Monday in UTC: still the approved week, by its local date.
  await activity(worker.employeeId, "2025-03-09", 23 * 60 + 30, "aprobada domingo noche");
  // Monday 00:15 local: the next week (in review), although its UTC instant is the same Monday.
  await activity(worker.employeeId, "2025-03-10", 15, "en revisión lunes temprano");
  await activity(worker.employeeId, "2025-03-18", 9 * 60, "devuelta");
  await activity(worker.employeeId, "2025-03-25", 9 * 60, "nunca enviada");
  // The colleague's same first week, sent but not approved: someone else's approval never counts.
  await activity(colleague.employeeId, "2025-03-05", 9 * 60, "colega en revisión");
  await activity(colleague.employeeId, "2025-03-12", 9 * 60, "colega aprobada");

  await approve(await submit(worker, "2025-03-03"));
  await submit(worker, "2025-03-10");
  const returned = await submit(worker, "2025-03-17");
  expect((await admin.post(`/api/v1/week_reviews/${returned.id}/return`, { reason: "Revisa", ...returned })).status).toBe(200);
  await submit(colleague, "2025-03-03");
  await approve(await submit(colleague, "2025-03-10"));
});
afterAll(() => t?.close());

describe("reporting_activities.csv?approved_only=true", () => {
  it("keeps only the activities of approved weeks, each by its employee and its local date", async () => {
    const all = await report(admin, { current_filter: "workspace", workspace_id: String(workspaceId) });
    expect(all.status).toBe(200);
    expect(all.descriptions).toHaveLength(7);
    const approved = await report(admin, {
      current_filter: "workspace",
      workspace_id: String(workspaceId),
      approved_only: "true",
    });
    expect(approved.status, approved.text).toBe(200);
    // Its file says it holds approved hours only.
    expect(approved.headers["content-disposition"]).toBe(
      `attachment; filename="reporte_actividades_aprobadas_${RANGE.start_date}_${RANGE.end_date}.csv"`,
    );
    expect(approved.descriptions).toEqual(["aprobada domingo noche", "aprobada martes", "colega aprobada"]);
    // false, or absent, is the whole report.
    const off = await report(admin, { current_filter: "workspace", workspace_id: String(workspaceId), approved_only: "false" });
    expect(off.descriptions).toEqual(all.descriptions);
  });

  it("for one employee, and for the employee's own report", async () => {
    const byEmployee = await report(admin, {
      current_filter: "employee",
      employee_id: String(worker.employeeId),
      approved_only: "true",
    });
    expect(byEmployee.descriptions).toEqual(["aprobada domingo noche", "aprobada martes"]);
    const own = await report(colleague.api, {
      current_filter: "employee",
      employee_id: String(colleague.employeeId),
      approved_only: "true",
    });
    expect(own.status).toBe(200);
    expect(own.descriptions).toEqual(["colega aprobada"]);
  });

  it("a reopened week leaves the report; a week approved later enters it", async () => {
    const [review] = (await admin.get("/api/v1/week_reviews?state=approved")).body.week_reviews.filter(
      (r: { employee_id: number; starts_on: string }) => r.employee_id === worker.employeeId && r.starts_on === "2025-03-03",
    );
    const reopened = await admin.put("/api/v1/activities/open_activities", {
      by_begins_at: { start_date: "2025-03-03" },
      by_employee: worker.employeeId,
      reason: "Corrige el martes",
    });
    expect(reopened.status, reopened.text).toBe(200);
    expect(review).toBeDefined();
    const [inReview] = (await admin.get("/api/v1/week_reviews")).body.week_reviews.filter(
      (r: { employee_id: number; starts_on: string }) => r.employee_id === worker.employeeId && r.starts_on === "2025-03-10",
    );
    await approve(inReview);
    const params = { current_filter: "employee", employee_id: String(worker.employeeId), approved_only: "true" };
    expect((await report(admin, params)).descriptions).toEqual(["en revisión lunes temprano"]);
  });

  it("a week an administrator closed outright is approved by them; a frozen month too, but not a week waiting in it", async () => {
    const params = { current_filter: "employee", employee_id: String(worker.employeeId), approved_only: "true" };
    const before = (await report(admin, params)).descriptions;
    expect(before).not.toContain("nunca enviada");
    const closed = await admin.put("/api/v1/activities/close_activities", {
      by_begins_at: { start_date: "2025-03-24" },
      by_employee: worker.employeeId,
    });
    expect(closed.status, closed.text).toBe(200);
    expect((await report(admin, params)).descriptions).toEqual([...before, "nunca enviada"].sort());
    // The colleague's March closed as a month: the approved week stays, the week in review stays out.
    const month = await admin.put("/api/v1/activities/close_month_activities", {
      by_begins_at: { start_date: "2025-03-01" },
      by_employee: colleague.employeeId,
    });
    expect(month.status, month.text).toBe(200);
    const theirs = { current_filter: "employee", employee_id: String(colleague.employeeId), approved_only: "true" };
    expect((await report(admin, theirs)).descriptions).toEqual(["colega aprobada"]);
  });

  it("an unreadable value is a 422 by field; the screen sends the filter only when ticked", async () => {
    const bad = await report(admin, { current_filter: "employee", employee_id: String(worker.employeeId), approved_only: "sí" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.approved_only).toEqual([expect.stringMatching(/inválid/)]);
    const filter = { kind: "employee" as const, id: 1, ...RANGE };
    expect(reportSearchParams({ ...filter, approved_only: true }).approved_only).toBe("true");
    expect(reportSearchParams({ ...filter, approved_only: false })).not.toHaveProperty("approved_only");
  });
});
