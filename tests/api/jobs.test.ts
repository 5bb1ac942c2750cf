import { eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { publicAddress } from "../../server/config";
import {
  activities,
  bosses_workspaces,
  employees,
  frozen_periods,
  holydays,
  job_runs,
  users,
  workspaces,
} from "../../server/db/schema";
import { JOBS } from "../../server/jobs";
import { type RunnerDeps, runDueJobs, runJob } from "../../server/jobs/runner";
import { isoWeekKey, previousWeekPeriod, weeklyDue } from "../../server/jobs/schedule";
import { WEEKLY_REMINDER_LOCK_KEY, weeklyReminderJob } from "../../server/jobs/weeklyReminder";
import { weeklyReportJob } from "../../server/jobs/weeklyReport";
import { ACTIVITY_REPORT_HEADERS } from "../../server/modules/reports/report";
import { addDays, zonedTime } from "../../src/core/week";
import { buildSiblingApp, buildTestApp, type TestApp } from "../support/app";
import { buildEmployee } from "../support/catalog-factories";
import { buildUser, buildWorkspace, call, signIn, signInAs } from "../support/factories";
import { startSmtp } from "../support/smtp";

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  smtp = await startSmtp();
  a = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM: "SIA <sia@prueba.mx>" });
  b = await buildSiblingApp(a, { SMTP_URL: smtp.url, MAIL_FROM: "SIA <sia@prueba.mx>" });
});
afterAll(async () => {
  await b.close();
  await a.close();
  await smtp.close();
});
beforeEach(() => {
  smtp.received.length = 0;
});

const db = () => a.app.db.db;
const deps = (t: TestApp): RunnerDeps => ({ db: t.app.db.db, mail: t.app.mail, config: t.app.config });
/** Tuesday 09:05 in Mexico City (UTC−6) of the week after the one starting `monday`. */
const tuesdayAfter = (monday: string) => zonedTime(addDays(monday, 8), 9 * 60 + 5);
const recipients = () => smtp.received.flatMap((m) => m.envelope.to).sort();

/** Nobody else in the database: each scenario counts its own people only. */
const onlyThese = async () => {
  await db().update(employees).set({ is_active: false });
};
const person = async (role: "operator" | "finance" | "admin" = "operator") => {
  const { user, employee } = await buildUser(db(), role);
  return { user, employee: employee as NonNullable<typeof employee> };
};
/** `hours` of activity on a local date, from 09:00. */
const work = async (employeeId: number, date: string, hours = 8, description = "Desarrollo") => {
  await db()
    .insert(activities)
    .values({
      employee_id: employeeId,
      begins_at: zonedTime(date, 9 * 60),
      ends_at: zonedTime(date, 9 * 60 + hours * 60),
      description,
      action_type: "internal",
    });
};
const fullWeek = async (employeeId: number, monday: string) => {
  for (let i = 0; i < 5; i++) await work(employeeId, addDays(monday, i));
};
const closeWeek = (employeeId: number, monday: string) =>
  db()
    .insert(frozen_periods)
    .values({ employee_id: employeeId, kind: "week", starts_on: monday, ends_on: addDays(monday, 6) });

describe("schedule", () => {
  const schedule = { JOBS_TIMEZONE: "America/Mexico_City", WEEKLY_JOBS_TIME: "09:00", DAILY_JOBS_TIME: "08:00" };
  it("is due from Tuesday at the configured local time until Sunday, for the previous ISO week", () => {
    expect(weeklyDue(new Date("2030-03-12T14:59:00Z"), schedule)).toBe(false); // Tue 08:59 CDMX
    expect(weeklyDue(new Date("2030-03-12T15:00:00Z"), schedule)).toBe(true); // Tue 09:00 CDMX
    expect(weeklyDue(new Date("2030-03-17T23:00:00Z"), schedule)).toBe(true); // Sun 17:00
    expect(weeklyDue(new Date("2030-03-18T17:00:00Z"), schedule)).toBe(false); // Mon
    expect(weeklyDue(new Date("2030-03-12T08:00:00Z"), { ...schedule, JOBS_TIMEZONE: "Europe/Madrid" })).toBe(true);
    expect(previousWeekPeriod(new Date("2030-03-12T15:00:00Z"), schedule)).toEqual({
      key: "2030-W10",
      starts_on: "2030-03-04",
      ends_on: "2030-03-10",
    });
    // Monday 01:00 UTC is still Sunday in Mexico City: the week before is another one.
    expect(previousWeekPeriod(new Date("2030-03-11T01:00:00Z"), schedule).starts_on).toBe("2030-02-25");
    expect(isoWeekKey("2029-12-31")).toBe("2030-W01");
    expect(isoWeekKey("2026-12-28")).toBe("2026-W53");
  });
});

describe("weekly_reminder", () => {
  it("writes only to who logged fewer hours than expected, naming each day's missing hours, and one digest per boss", async () => {
    const monday = "2030-03-04";
    await onlyThese();
    const team = await buildWorkspace(db());
    const quiet = await buildWorkspace(db());
    const inTeam = async (p: Awaited<ReturnType<typeof person>>, ws = team.id) => {
      await db().update(employees).set({ workspace_id: ws }).where(eq(employees.id, p.employee.id));
      return p;
    };
    // Complete, closed or not: nobody of these hears from the job.
    const closedFull = await inTeam(await person());
    await fullWeek(closedFull.employee.id, monday);
    await closeWeek(closedFull.employee.id, monday);
    const openFull = await inTeam(await person());
    await fullWeek(openFull.employee.id, monday);
    const longAndShortDays = await inTeam(await person());
    for (const [i, h] of [10, 6, 8, 8, 8].entries()) await work(longAndShortDays.employee.id, addDays(monday, i), h);
    const onVacation = await inTeam(await person());
    for (let i = 0; i < 5; i++)
      await db()
        .insert(activities)
        .values({
          employee_id: onVacation.employee.id,
          begins_at: zonedTime(addDays(monday, i), 9 * 60),
          ends_at: zonedTime(addDays(monday, i), 17 * 60),
          description: "Vacaciones",
          action_type: "vacation",
        });
    const halfTime = await inTeam(await person());
    await db().update(employees).set({ daily_hours: 4 }).where(eq(employees.id, halfTime.employee.id));
    for (let i = 0; i < 5; i++) await work(halfTime.employee.id, addDays(monday, i), 4);
    const startedWednesday = await inTeam(await person());
    await db()
      .update(employees)
      .set({ start_on: addDays(monday, 2) })
      .where(eq(employees.id, startedWednesday.employee.id));
    for (const i of [2, 3, 4]) await work(startedWednesday.employee.id, addDays(monday, i));
    const inactive = await person();
    await db().update(employees).set({ is_active: false }).where(eq(employees.id, inactive.employee.id));
    await buildEmployee(db()); // no user, no e-mail
    // Short.
    const shortBySix = await inTeam(await person());
    for (const [i, h] of [8, 2, 8, 8, 8].entries()) await work(shortBySix.employee.id, addDays(monday, i), h);
    const closedShort = await inTeam(await person());
    for (const i of [0, 2, 3, 4]) await work(closedShort.employee.id, addDays(monday, i));
    await closeWeek(closedShort.employee.id, monday);
    const nothing = await person("finance");
    const compensated = await inTeam(await person());
    for (const [i, h] of [10, 0, 8, 8, 8].entries()) if (h) await work(compensated.employee.id, addDays(monday, i), h);
    const noAccount = await buildEmployee(db(), { workspace_id: team.id });
    const halfTimeShort = await inTeam(await person());
    await db().update(employees).set({ daily_hours: 4 }).where(eq(employees.id, halfTimeShort.employee.id));
    for (let i = 0; i < 4; i++) await work(halfTimeShort.employee.id, addDays(monday, i), 4);
    // The team's boss (complete) and the boss of a team where all are complete.
    const boss = await inTeam(await person());
    await fullWeek(boss.employee.id, monday);
    await db().insert(bosses_workspaces).values({ workspace_id: team.id, employee_id: boss.employee.id });
    const quietBoss = await inTeam(await person(), quiet.id);
    await fullWeek(quietBoss.employee.id, monday);
    await db().insert(bosses_workspaces).values({ workspace_id: quiet.id, employee_id: quietBoss.employee.id });

    const outcome = await runJob(deps(a), weeklyReminderJob, { now: tuesdayAfter(monday) });
    expect(outcome).toMatchObject({ status: "done", period: { key: "2030-W10" }, summary: { count: 6 } });
    expect(outcome.summary?.message).toBe("se enviaron 5 recordatorios y 1 resumen a jefes");
    expect(recipients()).toEqual(
      [
        shortBySix.user.email,
        closedShort.user.email,
        nothing.user.email,
        halfTimeShort.user.email,
        compensated.user.email,
        boss.user.email,
      ].sort(),
    );

    const to = (email: string) => {
      const found = smtp.received.filter((r) => r.envelope.to.includes(email));
      expect(found).toHaveLength(1);
      return { subject: found[0].parsed.subject ?? "", text: found[0].parsed.text ?? "" };
    };
    const six = to(shortBySix.user.email);
    expect(six.subject).toBe("SIA: completa tu semana del 04/03/2030 al 10/03/2030");
    expect(six.text).toContain("En la semana del 04/03/2030 al 10/03/2030 registraste 34 h de 40 h esperadas: faltan 6 h.");
    expect(six.text).toContain("- martes 05/03/2030: faltan 6 h (registraste 2 h de 8 h)");
    expect(six.text.match(/^- /gm)).toHaveLength(1);
    expect(six.text).not.toContain("de más");
    // The address this server is reached at (no PUBLIC_URL here: the one it listens on, with its port).
    expect(six.text).toContain(`Completa esa semana aquí: ${publicAddress(a.app.config)}/app/activities?semana=2030-03-04`);
    expect(publicAddress(a.app.config)).toMatch(/^http:\/\/[^/]+:\d+$/);
    const closed = to(closedShort.user.email);
    expect(closed.text).toContain("registraste 32 h de 40 h esperadas: faltan 8 h.");
    expect(closed.text).toContain("- martes 05/03/2030: faltan 8 h (registraste 0 h de 8 h)");
    // Closed: its owner cannot complete it, so the e-mail says who can reopen it.
    expect(closed.text).toContain("La semana ya está cerrada: si falta algo, pide a un administrador que la reabra.");
    expect(closed.text).not.toContain("Completa esa semana");
    const made = to(compensated.user.email);
    expect(made.text).toContain("registraste 34 h de 40 h esperadas: faltan 6 h.");
    expect(made.text).toContain("- martes 05/03/2030: faltan 8 h (registraste 0 h de 8 h)");
    expect(made.text).toContain("Las 2 h de más que registraste otros días ya se restaron: en la semana faltan 6 h.");
    const none = to(nothing.user.email);
    expect(none.text).toContain("registraste 0 h de 40 h esperadas: faltan 40 h.");
    expect(none.text.match(/^- .*: faltan 8 h \(registraste 0 h de 8 h\)$/gm)).toHaveLength(5);
    const half = to(halfTimeShort.user.email);
    expect(half.text).toContain("registraste 16 h de 20 h esperadas: faltan 4 h.");
    expect(half.text).toContain("- viernes 08/03/2030: faltan 4 h (registraste 0 h de 4 h)");

    const digest = to(boss.user.email);
    expect(digest.subject).toBe("SIA: horas faltantes de tu equipo, semana del 04/03/2030 al 10/03/2030");
    expect(digest.text).toContain("5 personas de tu equipo registraron menos horas de las esperadas:");
    expect(digest.text).toContain(`- ${shortBySix.employee.name}: faltan 6 h de 40 h (martes 05/03/2030: 6 h)`);
    expect(digest.text).toContain(`- ${closedShort.employee.name}: faltan 8 h de 40 h (martes 05/03/2030: 8 h); semana cerrada`);
    expect(digest.text).toContain(`- ${noAccount.name}: faltan 40 h de 40 h (`);
    expect(digest.text).toContain("; sin cuenta en SIA, no recibe recordatorios");
    expect(digest.text).toContain(`- ${halfTimeShort.employee.name}: faltan 4 h de 20 h (viernes 08/03/2030: 4 h)`);
    expect(digest.text).not.toContain(nothing.employee.name); // not in the team
    expect(digest.text).not.toContain(openFull.employee.name);

    // Who got what is kept with the run.
    const [run] = await db().select().from(job_runs).where(eq(job_runs.period_key, "2030-W10"));
    expect(JSON.parse(run.detail as string).short).toHaveLength(7); // the two without an account too

    // Once per week: the same period again sends nothing.
    smtp.received.length = 0;
    expect((await runJob(deps(a), weeklyReminderJob, { now: tuesdayAfter(monday) })).status).toBe("already_done");
    expect(smtp.received).toHaveLength(0);
  });

  it("expects a day's hours less for each holiday on a weekday of the week", async () => {
    const monday = "2030-03-18";
    await onlyThese();
    await db()
      .insert(holydays)
      .values([
        { date: "2030-03-20", name: "Festivo de prueba" },
        { date: "2030-03-23", name: "Festivo en sábado" },
      ]);
    const fourDays = await person();
    for (const i of [0, 1, 3, 4]) await work(fourDays.employee.id, addDays(monday, i));
    const threeDays = await person();
    for (const i of [0, 1, 3]) await work(threeDays.employee.id, addDays(monday, i));
    await closeWeek(threeDays.employee.id, monday);
    // Started on Thursday, after the holiday: expected two days, and no holiday taken off.
    const newcomer = await person();
    await db()
      .update(employees)
      .set({ start_on: addDays(monday, 3) })
      .where(eq(employees.id, newcomer.employee.id));
    await work(newcomer.employee.id, addDays(monday, 3));

    const outcome = await runJob(deps(a), weeklyReminderJob, { now: tuesdayAfter(monday) });
    expect(outcome.summary?.count).toBe(2);
    expect(recipients()).toEqual([threeDays.user.email, newcomer.user.email].sort());
    const started = smtp.received.find((m) => m.envelope.to.includes(newcomer.user.email))?.parsed.text ?? "";
    expect(started).toContain("registraste 8 h de 16 h esperadas: faltan 8 h.");
    expect(started).not.toContain("festivo");
    const text = smtp.received.find((m) => m.envelope.to.includes(threeDays.user.email))?.parsed.text ?? "";
    expect(text).toContain("registraste 24 h de 32 h esperadas: faltan 8 h.");
    expect(text).toContain("- viernes 22/03/2030: faltan 8 h (registraste 0 h de 8 h)");
    expect(text).not.toContain("miércoles 20/03/2030");
    expect(text).toContain("Se descontó 1 día festivo de las horas esperadas.");
  });

  it("a refused address does not stop the others nor make the week run again", async () => {
    const refusing = await startSmtp(["rechazado@prueba.mx"]);
    const t = await buildSiblingApp(a, { SMTP_URL: refusing.url });
    try {
      const monday = "2030-05-06";
      await onlyThese();
      const before = await person();
      const bad = await person();
      await db().update(users).set({ email: "rechazado@prueba.mx" }).where(eq(users.id, bad.user.id));
      const after = await person();
      const outcome = await runJob(deps(t), weeklyReminderJob, { now: tuesdayAfter(monday) });
      expect(outcome.status).toBe("done");
      expect(outcome.summary).toMatchObject({ count: 2, failed: [{ to: "rechazado@prueba.mx" }] });
      expect(outcome.summary?.message).toBe(
        "se enviaron 2 recordatorios; 1 mensaje(s) no se pudieron enviar (ver el detalle de la ejecución)",
      );
      expect(refusing.received.flatMap((m) => m.envelope.to).sort()).toEqual([before.user.email, after.user.email].sort());
      expect((await runJob(deps(t), weeklyReminderJob, { now: tuesdayAfter(monday) })).status).toBe("already_done");
      expect(refusing.received).toHaveLength(2);

      // Every message refused (the server is down for SIA): nothing is recorded, the next try sends.
      await onlyThese();
      await db().update(employees).set({ is_active: true }).where(eq(employees.id, bad.employee.id));
      const week2 = "2030-05-13";
      await expect(runJob(deps(t), weeklyReminderJob, { now: tuesdayAfter(week2) })).rejects.toThrow();
      expect(await db().select().from(job_runs).where(eq(job_runs.period_key, "2030-W20"))).toHaveLength(0);
    } finally {
      await t.close();
      await refusing.close();
    }
  });
});

describe("weekly_report", () => {
  it("sends the week's CSV of each notifiable workspace to its bosses only", async () => {
    const monday = "2030-03-25";
    await onlyThese();
    const notifiable = await buildWorkspace(db(), "Consultoría Norte");
    const noBosses = await buildWorkspace(db());
    const quiet = await buildWorkspace(db());
    await db().update(workspaces).set({ is_notifiable: true }).where(eq(workspaces.id, notifiable.id));
    await db().update(workspaces).set({ is_notifiable: true }).where(eq(workspaces.id, noBosses.id));
    const boss1 = await person();
    const boss2 = await person();
    const formerBoss = await person();
    await db().update(employees).set({ is_active: false }).where(eq(employees.id, formerBoss.employee.id));
    const quietBoss = await person();
    const bossWithoutUser = await buildEmployee(db());
    await db()
      .insert(bosses_workspaces)
      .values([
        { workspace_id: notifiable.id, employee_id: boss1.employee.id },
        { workspace_id: notifiable.id, employee_id: boss2.employee.id },
        { workspace_id: notifiable.id, employee_id: formerBoss.employee.id },
        { workspace_id: noBosses.id, employee_id: bossWithoutUser.id },
        { workspace_id: quiet.id, employee_id: quietBoss.employee.id },
      ]);
    const worker = await person();
    await db().update(employees).set({ workspace_id: notifiable.id }).where(eq(employees.id, worker.employee.id));
    await work(worker.employee.id, addDays(monday, 1), 3, "Análisis de requerimientos");
    await work(worker.employee.id, addDays(monday, 14), 3, "Fuera de la semana");
    const outsider = await person();
    await db().update(employees).set({ workspace_id: quiet.id }).where(eq(employees.id, outsider.employee.id));
    await work(outsider.employee.id, addDays(monday, 1), 2, "De otro espacio");

    const outcome = await runJob(deps(a), weeklyReportJob, { now: tuesdayAfter(monday) });
    expect(outcome.summary).toMatchObject({ count: 1, skipped: 1 });
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.envelope.to.sort()).toEqual([boss1.user.email, boss2.user.email].sort());
    expect(mail.parsed.subject).toBe("SIA: reporte semanal de actividades de Consultoría Norte del 25/03/2030 al 31/03/2030");
    expect(mail.parsed.attachments).toHaveLength(1);
    const [csv] = mail.parsed.attachments;
    expect(csv.filename).toBe("reporte_consultoria_norte_2030-03-25_2030-03-31.csv");
    expect([...csv.content.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const content = csv.content.toString("utf8");
    // The activity report's columns (server/modules/reports/report.ts).
    expect(content.split("\r\n")[0]).toBe(`\uFEFF${ACTIVITY_REPORT_HEADERS.join(",")}`);
    expect(content).toContain(worker.employee.name);
    expect(content).toContain("Análisis de requerimientos");
    expect(content).not.toContain("Fuera de la semana");
    expect(content).not.toContain("De otro espacio");
  });
});

describe("two server processes", () => {
  it("run the due Tuesday jobs at the same time and every message goes out exactly once", async () => {
    const monday = "2030-04-01";
    await onlyThese();
    await db().update(workspaces).set({ is_notifiable: false }).where(ne(workspaces.id, 0));
    const short1 = await person();
    await work(short1.employee.id, monday, 4);
    const short2 = await person();
    const done = await person();
    await fullWeek(done.employee.id, monday);
    await closeWeek(done.employee.id, monday);
    const ws = await buildWorkspace(db());
    await db().update(workspaces).set({ is_notifiable: true }).where(eq(workspaces.id, ws.id));
    await db().insert(bosses_workspaces).values({ workspace_id: ws.id, employee_id: done.employee.id });

    // Monday: nothing weekly is due yet.
    const monday9 = zonedTime(addDays(monday, 7), 9 * 60);
    const early = await runDueJobs(deps(a), JOBS, monday9);
    expect(early.map((r) => r.job)).toEqual([
      "warranty_auto_close",
      "mention_email",
      "nightly_backup",
      "budget_alerts",
      "week_auto_approve",
    ]);
    // (other files' projects over budget may be told by the daily job: only the weekly messages count here)
    const weekly = () => smtp.received.filter((m) => /^SIA: (completa tu semana|reporte semanal)/.test(m.parsed.subject ?? ""));
    expect(weekly()).toHaveLength(0);

    const now = tuesdayAfter(monday);
    const [ra, rb] = await Promise.all([runDueJobs(deps(a), JOBS, now), runDueJobs(deps(b), JOBS, now)]);
    for (const job of ["weekly_reminder", "weekly_report"]) {
      const statuses = [ra, rb].map((r) => r.find((x) => x.job === job)?.outcome?.status).sort();
      expect(statuses[1]).toBe("done");
      expect(["already_done", "busy"]).toContain(statuses[0]);
    }
    expect(weekly()).toHaveLength(3);
    const reminders = smtp.received.filter((m) => m.parsed.subject?.startsWith("SIA: completa tu semana"));
    expect(reminders.flatMap((m) => m.envelope.to).sort()).toEqual([short1.user.email, short2.user.email].sort());
    const reports = smtp.received.filter((m) => m.parsed.subject?.startsWith("SIA: reporte semanal"));
    expect(reports.map((m) => m.envelope.to)).toEqual([[done.user.email]]);
    const runs = await db().select().from(job_runs).where(eq(job_runs.period_key, "2030-W14"));
    expect(runs.map((r) => r.job).sort()).toEqual(["weekly_reminder", "weekly_report"]);

    // Later the same week, again on both: nothing more.
    const later = new Date(now.getTime() + 26 * 3_600_000);
    await Promise.all([runDueJobs(deps(a), JOBS, later), runDueJobs(deps(b), JOBS, later)]);
    expect(weekly()).toHaveLength(3);
  });

  it("run by hand from both at once: sent once, then 'already done' until forced; administrators only", async () => {
    await onlyThese();
    const { api, user } = await signInAs(a.app, "admin");
    const apiB = await signIn(b.app, user.email);
    // The admin must not be reminded, yet keep working: a deactivated employee's sessions end, so the
    // admin's employee is detached from the user (no user, no reminder) instead of deactivated.
    await onlyThese();
    await db().update(employees).set({ user_id: null, is_active: false }).where(eq(employees.user_id, user.id));
    const late = await person();

    const [first, second] = await Promise.all([
      api.post("/api/v1/jobs/weekly_reminder/run", {}),
      apiB.post("/api/v1/jobs/weekly_reminder/run", {}),
    ]);
    const bodies = [first, second].sort((x, y) => (x.body.status === "done" ? -1 : y.body.status === "done" ? 1 : 0));
    expect(bodies[0].status).toBe(200);
    expect(bodies[0].body).toMatchObject({ status: "done", message: "Recordatorio semanal de horas: se envió 1 recordatorio" });
    expect([200, 409]).toContain(bodies[1].status);
    expect(smtp.received.map((m) => m.envelope.to)).toEqual([[late.user.email]]);

    const again = await apiB.post("/api/v1/jobs/weekly_reminder/run", {});
    expect(again.status).toBe(200);
    expect(again.body.status).toBe("already_done");
    expect(again.body.message).toMatch(/ya se ejecutó para el periodo \d{4}-W\d{2}; no se envió nada de nuevo/);
    expect(smtp.received).toHaveLength(1);

    const forced = await api.post("/api/v1/jobs/weekly_reminder/run", { force: true });
    expect(forced.body.status).toBe("done");
    expect(smtp.received).toHaveLength(2);

    const list = await api.get("/api/v1/jobs");
    expect(list.status).toBe(200);
    const reminder = list.body.jobs.find((j: { name: string }) => j.name === "weekly_reminder");
    expect(reminder).toMatchObject({ label: "Recordatorio semanal de horas", current_period: forced.body.period_key });
    // (the runs of 2030 in this file sort first: runs are listed by when they ran, newest first)
    const run = reminder.runs.find((r: { period_key: string }) => r.period_key === forced.body.period_key);
    expect(run).toMatchObject({ trigger: "manual", user_id: user.id, count: 1, message: "se envió 1 recordatorio" });
    // The forced run did not wipe out what the first one did: it is kept with it.
    const [stored] = await db().select().from(job_runs).where(eq(job_runs.id, run.id));
    const earlier = JSON.parse(stored.detail as string).earlier;
    expect(earlier).toHaveLength(1);
    expect(earlier[0]).toMatchObject({ recipients: [late.user.email], count: 1 });

    expect((await api.post("/api/v1/jobs/no_existe/run", {})).status).toBe(404);
    expect((await api.post("/api/v1/jobs/weekly_reminder/run", { force: "quizá" })).status).toBe(422);

    expect((await call(a.app, "GET", "/api/v1/jobs")).status).toBe(401);
    expect((await call(a.app, "POST", "/api/v1/jobs/weekly_reminder/run", {})).status).toBe(401);
    for (const role of ["operator", "finance"] as const) {
      const { api: other } = await signInAs(a.app, role);
      expect((await other.get("/api/v1/jobs")).status).toBe(403);
      expect((await other.post("/api/v1/jobs/weekly_reminder/run", { force: true })).status).toBe(403);
    }
    expect(smtp.received).toHaveLength(2);
  });

  // PGlite is one session (advisory locks are re-entrant there): the lock itself is exercised on PostgreSQL.
  it.runIf(Boolean(process.env.DATABASE_URL))("skip a run while another session holds the job's advisory lock", async () => {
    const monday = "2030-04-08";
    await onlyThese();
    const late = await person();
    const client = await a.database.pool!.connect();
    try {
      await client.query("begin");
      await client.query("select pg_advisory_xact_lock($1)", [WEEKLY_REMINDER_LOCK_KEY]);
      expect((await runJob(deps(b), weeklyReminderJob, { now: tuesdayAfter(monday) })).status).toBe("busy");
      await client.query("rollback");
    } finally {
      client.release();
    }
    expect(smtp.received).toHaveLength(0);
    expect((await runJob(deps(b), weeklyReminderJob, { now: tuesdayAfter(monday) })).status).toBe("done");
    expect(recipients()).toEqual([late.user.email]);
  });
});
