import { eq, ne, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { publicAddress } from "../../server/config";
import { activities, estimated_work_hours, project_budget_alerts, users } from "../../server/db/schema";
import { budgetAlertsJob, decide } from "../../server/jobs/budgetAlerts";
import { type RunnerDeps, runJob } from "../../server/jobs/runner";
import { addDays, zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { buildEmployee, buildPosition, buildProject } from "../support/catalog-factories";
import { buildClient, buildUser } from "../support/factories";
import { startSmtp } from "../support/smtp";

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM: "SIA <sia@prueba.mx>" });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(() => {
  smtp.received.length = 0;
});

const db = () => t.app.db.db;
const deps = (): RunnerDeps => ({ db: t.app.db.db, mail: t.app.mail, config: t.app.config });
/** 08:05 in Mexico City on a local date: the morning run of that day. */
const morning = (date: string) => zonedTime(date, 8 * 60 + 5);
const run = async (date: string) => {
  smtp.received.length = 0;
  const outcome = await runJob(deps(), budgetAlertsJob, { now: morning(date) });
  expect(outcome.status).toBe("done");
  return smtp.received.map((m) => ({
    to: [...m.envelope.to].sort(),
    subject: m.parsed.subject ?? "",
    text: m.parsed.text ?? "",
  }));
};

/** Hours logged on a project by a worker, up to 10 a day from 08:00, on the days after the worker's last. */
const cursors = new Map<number, string>();
const log = async (employeeId: number, projectId: number, hours: number, from: string) => {
  let day = cursors.get(employeeId) && (cursors.get(employeeId) as string) >= from ? (cursors.get(employeeId) as string) : from;
  let left = hours;
  while (left > 0) {
    const h = Math.min(10, left);
    await db()
      .insert(activities)
      .values({
        employee_id: employeeId,
        project_id: projectId,
        begins_at: zonedTime(day, 8 * 60),
        ends_at: zonedTime(day, 8 * 60 + h * 60),
        description: "Desarrollo",
        action_type: "project",
      });
    left -= h;
    day = addDays(day, 1);
  }
  cursors.set(employeeId, day);
};

describe("budget alerts", () => {
  it("tells the PM, the responsible and the administrators once per threshold, the morning after, then weekly over 100 %", async () => {
    const pm = await buildUser(db(), "operator");
    const rape = await buildUser(db(), "operator");
    const client = await buildClient(db());
    const project = await buildProject(db(), client.id, {
      pm_id: pm.employee?.id,
      rape_id: rape.employee?.id,
      state: "en_ejecucion",
    });
    const dev = await buildPosition(db());
    const qa = await buildPosition(db());
    await db()
      .insert(estimated_work_hours)
      .values([
        { project_id: project.id, employee_position_id: dev.id, estimated_hours: 60 },
        { project_id: project.id, employee_position_id: qa.id, estimated_hours: 40 },
      ]);
    const untouched = await buildProject(db(), client.id, { state: "en_ejecucion" }); // no estimate
    const archived = await buildProject(db(), client.id, { state: "terminado" });
    await db().insert(estimated_work_hours).values({ project_id: archived.id, employee_position_id: dev.id, estimated_hours: 1 });
    const worker = await buildEmployee(db());
    await log(worker.id, untouched.id, 30, "2031-01-06");
    await log(worker.id, archived.id, 10, "2031-01-06");

    const admins = (await db().select({ email: users.email }).from(users).where(eq(users.administrator_role, true))).map(
      (u) => u.email,
    );
    const everyone = [pm.user.email, rape.user.email, ...admins].sort();

    // 45 %: nothing.
    await log(worker.id, project.id, 45, "2031-02-03");
    expect(await run("2031-02-17")).toEqual([]);
    // 55 %: the 50 % threshold, once.
    await log(worker.id, project.id, 10, "2031-02-17");
    const fifty = await run("2031-02-18");
    expect(fifty).toHaveLength(1);
    expect(fifty[0].subject).toBe(`SIA: ${project.project_code} ${project.name} llegó al 50 % de sus horas estimadas`);
    // Crossing 80 % during a day: exactly one e-mail the next morning, none the day after.
    await log(worker.id, project.id, 30, "2031-02-18");
    const eighty = await run("2031-02-24");
    expect(eighty).toHaveLength(1);
    expect(eighty[0].to).toEqual(everyone);
    expect(eighty[0].subject).toBe(`SIA: ${project.project_code} ${project.name} llegó al 80 % de sus horas estimadas`);
    expect(eighty[0].text).toContain("85 h de 100 h estimadas (85 %).");
    expect(eighty[0].text).toMatch(/Ritmo de las últimas 4 semanas: [\d.]+ h por semana\./);
    expect(eighty[0].text).toMatch(/se agotan hacia el \d{2}\/\d{2}\/2031\./);
    expect(eighty[0].text).toContain(`Ver el proyecto: ${publicAddress(t.app.config)}/app/projects/${project.id}\n`);
    expect(await run("2031-02-25")).toEqual([]);
    // The same day again (by hand, forced): the threshold is not told twice.
    smtp.received.length = 0;
    await runJob(deps(), budgetAlertsJob, { now: morning("2031-02-25"), force: true });
    expect(smtp.received).toHaveLength(0);

    // Over 100 %: told, then again every 7 days while it stays over.
    await log(worker.id, project.id, 20, "2031-02-25");
    const over = await run("2031-03-03");
    expect(over.map((m) => m.subject)).toEqual([`SIA: ${project.project_code} ${project.name} superó sus horas estimadas`]);
    expect(over[0].text).toContain("Ya se rebasaron las horas estimadas por 5 h.");
    for (const day of ["2031-03-04", "2031-03-05", "2031-03-09"]) expect(await run(day)).toEqual([]);
    const repeated = await run("2031-03-10");
    expect(repeated.map((m) => m.subject)).toEqual([
      `SIA: ${project.project_code} ${project.name} sigue por encima de sus horas estimadas`,
    ]);
    expect(await run("2031-03-11")).toEqual([]);

    // A raised estimate re-arms what the project is no longer over: 105 of 200 h (52 %) says nothing new,
    // and reaching 80 % of the new estimate is told again.
    await db()
      .update(estimated_work_hours)
      .set({ estimated_hours: 140 })
      .where(eq(estimated_work_hours.employee_position_id, dev.id));
    await db()
      .update(estimated_work_hours)
      .set({ estimated_hours: 60 })
      .where(eq(estimated_work_hours.employee_position_id, qa.id));
    expect(await run("2031-03-12")).toEqual([]);
    const [state] = await db().select().from(project_budget_alerts).where(eq(project_budget_alerts.project_id, project.id));
    expect(state).toMatchObject({ threshold: 50, estimate_hours: 200 });
    await log(worker.id, project.id, 60, "2031-03-12");
    const again = await run("2031-03-24");
    expect(again.map((m) => m.subject)).toEqual([
      `SIA: ${project.project_code} ${project.name} llegó al 80 % de sus horas estimadas`,
    ]);

    // Only this project was ever told.
    const told = await db().execute(sql`select project_id from project_budget_alerts`);
    expect((told as unknown as { rows: Array<{ project_id: number }> }).rows.map((r) => r.project_id)).not.toContain(archived.id);
  });

  it("a refused message is tried again the next morning", async () => {
    const refusing = await startSmtp(["rechazado@prueba.mx"]);
    const other = await buildTestApp({ SMTP_URL: refusing.url });
    try {
      const odb = other.app.db.db;
      // Only one administrator in this database, whose address is refused: the run fails and records nothing.
      await buildUser(odb, "admin", { email: "rechazado@prueba.mx" });
      await odb.update(users).set({ administrator_role: false }).where(ne(users.email, "rechazado@prueba.mx"));
      const client = await buildClient(odb);
      const project = await buildProject(odb, client.id, { state: "en_ejecucion" });
      const position = await buildPosition(odb);
      await odb
        .insert(estimated_work_hours)
        .values({ project_id: project.id, employee_position_id: position.id, estimated_hours: 10 });
      const worker = await buildEmployee(odb);
      await odb.insert(activities).values({
        employee_id: worker.id,
        project_id: project.id,
        begins_at: zonedTime("2031-05-05", 8 * 60),
        ends_at: zonedTime("2031-05-05", 17 * 60),
        description: "Desarrollo",
        action_type: "project",
      });
      const otherDeps = { db: odb, mail: other.app.mail, config: other.app.config };
      await expect(runJob(otherDeps, budgetAlertsJob, { now: morning("2031-05-06") })).rejects.toThrow();
      expect(await odb.select().from(project_budget_alerts)).toHaveLength(0);
      // The address is fixed: the next morning tells the 80 % reached.
      await odb.update(users).set({ email: "bien@prueba.mx" }).where(eq(users.email, "rechazado@prueba.mx"));
      await runJob(otherDeps, budgetAlertsJob, { now: morning("2031-05-07") });
      expect(refusing.received.map((m) => m.parsed.subject)).toEqual([
        `SIA: ${project.project_code} ${project.name} llegó al 80 % de sus horas estimadas`,
      ]);
    } finally {
      await other.close();
      await refusing.close();
    }
  });

  it("is due from the morning time, once a day", async () => {
    const schedule = { JOBS_TIMEZONE: "America/Mexico_City", WEEKLY_JOBS_TIME: "09:00", DAILY_JOBS_TIME: "08:00" };
    expect(budgetAlertsJob.due(morning("2031-02-18"), schedule)).toBe(true);
    expect(budgetAlertsJob.due(zonedTime("2031-02-18", 7 * 60 + 59), schedule)).toBe(false);
    expect(budgetAlertsJob.period(morning("2031-02-18"), schedule).key).toBe("2031-02-18");
  });
});

describe("decide", () => {
  const today = "2031-01-10";
  it("tells the highest threshold newly reached, nothing below the first", () => {
    expect(decide({ estimate: 10, logged: 4.99, told: null, told_estimate: null, sent_on: null }, today).tell).toBeNull();
    expect(decide({ estimate: 10, logged: 5, told: null, told_estimate: null, sent_on: null }, today).tell).toBe(50);
    expect(decide({ estimate: 10, logged: 8, told: null, told_estimate: null, sent_on: null }, today).tell).toBe(80);
    expect(decide({ estimate: 10, logged: 8, told: 80, told_estimate: 10, sent_on: "2031-01-09" }, today).tell).toBeNull();
  });
  it("a lowered estimate does not re-arm; a raised one re-arms what is no longer crossed", () => {
    const raised = decide({ estimate: 20, logged: 8, told: 80, told_estimate: 10, sent_on: "2031-01-01" }, today);
    expect(raised).toEqual({ tell: null, repeated: false, keep: null });
    const lowered = decide({ estimate: 9, logged: 8, told: 80, told_estimate: 10, sent_on: "2031-01-01" }, today);
    expect(lowered.tell).toBeNull();
    expect(lowered.keep).toEqual({ threshold: 80, estimate: 9, sent_on: "2031-01-01" });
  });
});
