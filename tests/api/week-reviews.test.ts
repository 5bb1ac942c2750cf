/**
 * Weeks sent to review (docs/decisions/050-week-approval.md): an employee sends an ended week, a boss of
 * their workspace or an administrator approves it or returns it with a reason; nobody their own. A week in
 * review or approved refuses every write path; a returned one is told in the bell, by push and by e-mail.
 * Two reviewers at once: one wins, the other gets 409. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */
import { and, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_logs, bosses_workspaces, employees, week_reviews } from "../../server/db/schema";
import { runJob } from "../../server/jobs/runner";
import { weekAutoApproveJob } from "../../server/jobs/weekAutoApprove";
import { weeklyReminderJob } from "../../server/jobs/weeklyReminder";
import { maySubmitOn } from "../../server/modules/week_reviews";
import { messages, reviewMessages } from "../../src/core/messages";
import { PAGE_PATHS } from "../../src/core/resources";
import { ACTIVITY_CSV_COLUMNS, weekStateAnswer } from "../../src/core/schemas/activity";
import { weekFiguresAnswer } from "../../src/core/schemas/week_review";
import { addDays, businessToday, mondayOf, zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { importWeekCsv } from "../support/catalog-factories";
import { type ApiClient, buildUser, buildWorkspace, type RoleName, signIn } from "../support/factories";
import { startSmtp } from "../support/smtp";

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let t: TestApp;
const db = () => t.app.db.db;

interface Person {
  api: ApiClient;
  user: { id: number; name: string; email: string };
  employee: { id: number; name: string };
}
/** A signed-in user with an employee, in `workspaceId` when given, boss of `leads`. */
const person = async (role: RoleName, workspaceId: number | null, leads: number[] = []): Promise<Person> => {
  const { user, employee } = await buildUser(db(), role);
  const e = employee as NonNullable<typeof employee>;
  if (workspaceId) await db().update(employees).set({ workspace_id: workspaceId }).where(eq(employees.id, e.id));
  for (const ws of leads) await db().insert(bosses_workspaces).values({ workspace_id: ws, employee_id: e.id });
  return { api: await signIn(t.app, user.email), user, employee: e };
};

let admin: Person;
let secondAdmin: Person;
/** Boss of the team (an Operador who belongs to it) and a second boss of it (Finanzas). */
let boss: Person;
let coBoss: Person;
/** Boss of another workspace only. */
let otherBoss: Person;
/** People of the team without boss rights. */
let worker: Person;
let accountant: Person;
/** Someone of the other workspace. */
let outsider: Person;

const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m).toISOString();
};
const vacation = (date: string, from = "09:00", to = "10:00") => ({
  begins_at: at(date, from),
  ends_at: at(date, to),
  action_type: "vacation",
  description: `Vacaciones ${from}`,
});
const logged = async (p: Person, date: string, from = "09:00", to = "10:00") => {
  const res = await p.api.post("/api/v1/activities", { activity: vacation(date, from, to) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.activity as { id: number; lock_version: number };
};
const submit = (p: Person, week: string, byEmployee?: number) =>
  p.api.post("/api/v1/week_reviews/submit", { week_start: week, ...(byEmployee ? { by_employee: byEmployee } : {}) });
type Review = { id: number; lock_version: number; state: string; starts_on: string; return_reason: string | null };
const submitted = async (p: Person, week: string): Promise<Review> => {
  const res = await submit(p, week);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.week_review;
};
const approve = (p: Person, ...reviews: Array<Pick<Review, "id" | "lock_version">>) =>
  p.api.post("/api/v1/week_reviews/approve", { weeks: reviews.map((r) => ({ id: r.id, lock_version: r.lock_version })) });
const giveBack = (p: Person, review: Pick<Review, "id" | "lock_version">, reason: unknown) =>
  p.api.post(`/api/v1/week_reviews/${review.id}/return`, { reason, lock_version: review.lock_version });
const stored = async (id: number) => (await db().select().from(week_reviews).where(eq(week_reviews.id, id)))[0];
const weekState = async (p: Person, week: string) => {
  const res = await p.api.get(`/api/v1/activities/week_state?week_start=${week}`);
  expect(res.status).toBe(200);
  return res.body;
};
/** The mails to `to` whose subject is `subject`, waiting a little: they leave after the answer. */
const mailsTo = async (to: string, subject: string, wanted = 1) => {
  const found = () => smtp.received.filter((m) => m.envelope.to.includes(to) && m.parsed.subject === subject);
  for (let i = 0; i < 100 && found().length < wanted; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return found();
};

let team: number;
let elsewhere: number;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM: "SIA <sia@prueba.mx>" });
  team = (await buildWorkspace(db())).id;
  elsewhere = (await buildWorkspace(db())).id;
  admin = await person("admin", null);
  secondAdmin = await person("admin", null);
  boss = await person("operator", team, [team]);
  coBoss = await person("finance", null, [team]);
  otherBoss = await person("operator", elsewhere, [elsewhere]);
  worker = await person("operator", team);
  accountant = await person("finance", team);
  outsider = await person("operator", elsewhere);
}, 30_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe("sending a week to review", () => {
  it("from its Friday on: before it, a Spanish 422", async () => {
    expect(maySubmitOn("2025-02-03", "2025-02-06")).toBe(false);
    expect(maySubmitOn("2025-02-03", "2025-02-07")).toBe(true);
    const nextWeek = addDays(mondayOf(businessToday()), 7);
    for (const p of [worker, admin]) {
      const early = await submit(p, nextWeek);
      expect(early.status).toBe(422);
      expect(early.body.errors.week_start).toEqual([reviewMessages.notYet]);
    }
    expect(await db().select().from(week_reviews).where(eq(week_reviews.starts_on, nextWeek))).toEqual([]);
  });

  it("an employee sends their own week (any day of it names it), once; it is then closed", async () => {
    await logged(worker, "2025-02-03");
    const res = await submit(worker, "2025-02-05");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(reviewMessages.submitted);
    expect(res.body.week_review).toMatchObject({
      employee_id: worker.employee.id,
      employee_name: worker.employee.name,
      starts_on: "2025-02-03",
      ends_on: "2025-02-09",
      state: "submitted",
      submitted_by_name: worker.user.name,
      reviewer_name: null,
      return_reason: null,
      auto_approved: false,
    });
    expect(res.body.week_review.figures.logged_hours).toBe(1);
    expect(res.body.week_review.figures.groups.vacation).toBe(1);
    const twice = await submit(worker, "2025-02-03");
    expect(twice.status).toBe(422);
    expect(twice.body.errors.base).toEqual([reviewMessages.alreadySubmitted]);
    expect(await weekState(worker, "2025-02-03")).toMatchObject({
      frozen: true,
      frozen_kind: "week",
      can_submit: false,
      review: { state: "submitted", return_reason: null },
    });
  });

  it("Finanzas sends theirs; an Operador never someone else's (403); an administrator may", async () => {
    expect((await submit(accountant, "2025-02-10")).status).toBe(200);
    const theirs = await submit(worker, "2025-02-10", accountant.employee.id);
    expect(theirs.status).toBe(403);
    expect(theirs.body.error).toBe(messages.forbidden);
    const forSomeone = await submit(admin, "2025-02-17", worker.employee.id);
    expect(forSomeone.status).toBe(200);
    expect(forSomeone.body.week_review).toMatchObject({ employee_id: worker.employee.id, submitted_by_name: admin.user.name });
  });

  it("a week that expects nothing and holds nothing (before the person started) has nothing to review", async () => {
    const newcomer = await person("operator", team);
    await db().update(employees).set({ start_on: "2025-03-01" }).where(eq(employees.id, newcomer.employee.id));
    for (const week of ["1900-01-01", "2025-02-03"]) {
      const res = await submit(newcomer, week);
      expect(res.status).toBe(422);
      expect(res.body.errors.base).toEqual([reviewMessages.nothingToReview]);
    }
    // Hours logged before the start date are something to review.
    await logged(newcomer, "2025-02-11");
    expect((await submit(newcomer, "2025-02-10")).status).toBe(200);
  });
});

describe("who reviews whose weeks", () => {
  let week: Review;
  beforeAll(async () => {
    week = await submitted(worker, "2025-03-03");
    await submitted(outsider, "2025-03-03");
  });

  it("a boss lists the people of the workspaces they lead (never their own week); an administrator everyone's", async () => {
    const own = await submitted(boss, "2025-03-03");
    const list = await boss.api.get("/api/v1/week_reviews");
    expect(list.status).toBe(200);
    expect(list.body.reviewer).toBe(true);
    const names = (list.body.week_reviews as Array<{ employee_id: number }>).map((r) => r.employee_id);
    expect(names).toContain(worker.employee.id);
    expect(names).toContain(accountant.employee.id);
    expect(names).not.toContain(outsider.employee.id);
    expect(names).not.toContain(boss.employee.id);
    const other = await otherBoss.api.get("/api/v1/week_reviews");
    expect((other.body.week_reviews as Array<{ employee_id: number }>).map((r) => r.employee_id)).toEqual([outsider.employee.id]);
    const all = (await admin.api.get("/api/v1/week_reviews")).body.week_reviews as Array<{ id: number }>;
    expect(all.map((r) => r.id)).toEqual(expect.arrayContaining([week.id, own.id]));
    // Of one workspace when asked.
    const ofElsewhere = await admin.api.get(`/api/v1/week_reviews?workspace_id=${elsewhere}`);
    expect(
      (ofElsewhere.body.week_reviews as Array<{ employee_id: number }>).every((r) => r.employee_id === outsider.employee.id),
    ).toBe(true);
    const bad = await admin.api.get("/api/v1/week_reviews?state=pendiente");
    expect(bad.status).toBe(422);
  });

  it("the summary counts what waits for each reviewer; someone who reviews nobody gets an empty list", async () => {
    const pending = (await db().select().from(week_reviews).where(eq(week_reviews.state, "submitted"))).length;
    const teamPending = (
      await db()
        .select({ id: week_reviews.id })
        .from(week_reviews)
        .innerJoin(employees, eq(employees.id, week_reviews.employee_id))
        .where(and(eq(week_reviews.state, "submitted"), eq(employees.workspace_id, team)))
    ).length;
    const bossOwn = (
      await db()
        .select()
        .from(week_reviews)
        .where(and(eq(week_reviews.state, "submitted"), eq(week_reviews.employee_id, boss.employee.id)))
    ).length;
    expect((await boss.api.get("/api/v1/week_reviews/summary")).body).toEqual({ reviewer: true, pending: teamPending - bossOwn });
    expect((await coBoss.api.get("/api/v1/week_reviews/summary")).body).toEqual({ reviewer: true, pending: teamPending });
    expect((await admin.api.get("/api/v1/week_reviews/summary")).body).toEqual({ reviewer: true, pending });
    for (const p of [worker, accountant]) {
      expect((await p.api.get("/api/v1/week_reviews")).body).toEqual({ week_reviews: [], reviewer: false });
      expect((await p.api.get("/api/v1/week_reviews/summary")).body).toEqual({ reviewer: false, pending: 0 });
    }
  });

  it("one week with its activities: its employee and its reviewers read it; anyone else gets 404", async () => {
    const mine = await worker.api.get(`/api/v1/week_reviews/${week.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ week_review: { id: week.id }, can_review: false });
    expect((await boss.api.get(`/api/v1/week_reviews/${week.id}`)).body.can_review).toBe(true);
    expect((await admin.api.get(`/api/v1/week_reviews/${week.id}`)).body.can_review).toBe(true);
    for (const p of [otherBoss, accountant, outsider])
      expect((await p.api.get(`/api/v1/week_reviews/${week.id}`)).status).toBe(404);
  });

  it("a boss of another workspace and an employee without boss rights are refused (403); nothing changes", async () => {
    for (const p of [otherBoss, accountant, outsider]) {
      const approved = await approve(p, week);
      expect(approved.status).toBe(403);
      expect(approved.body.error).toBe(reviewMessages.notReviewer);
      const returned = await giveBack(p, week, "No me gusta");
      expect(returned.status).toBe(403);
      expect(returned.body.error).toBe(reviewMessages.notReviewer);
    }
    expect(await stored(week.id)).toMatchObject({ state: "submitted", lock_version: week.lock_version });
  });

  it("nobody approves or returns their own week: not a boss, not an administrator", async () => {
    const [bossWeek] = await db()
      .select()
      .from(week_reviews)
      .where(and(eq(week_reviews.employee_id, boss.employee.id), eq(week_reviews.starts_on, "2025-03-03")));
    for (const res of [await approve(boss, bossWeek), await giveBack(boss, bossWeek, "Me la devuelvo")]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(reviewMessages.ownWeek);
    }
    const adminWeek = await submitted(admin, "2025-03-03");
    for (const res of [await approve(admin, adminWeek), await giveBack(admin, adminWeek, "Me la devuelvo")]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(reviewMessages.ownWeek);
    }
    // Another of their reviewers does it: the co-boss, another administrator.
    expect((await approve(coBoss, bossWeek)).status).toBe(200);
    expect((await approve(secondAdmin, adminWeek)).status).toBe(200);
    expect((await stored(bossWeek.id)).state).toBe("approved");
    expect((await stored(adminWeek.id)).state).toBe("approved");
  });
});

describe("approving and returning", () => {
  it("a return needs a reason (Spanish 422); it opens the week, shows the reason, rings the bell and sends an e-mail", async () => {
    const activity = await logged(worker, "2025-04-08");
    let week = await submitted(worker, "2025-04-07");
    for (const reason of ["", "   ", undefined]) {
      const res = await giveBack(boss, week, reason);
      expect(res.status).toBe(422);
      expect(res.body.errors.reason).toEqual([reviewMessages.reasonRequired]);
    }
    // Invisible characters alone say nothing: zero-width space and no-break space.
    const invisible = await giveBack(boss, week, "\u200b\u00a0\u200d");
    expect(invisible.status).toBe(422);
    expect(invisible.body.errors.reason).toEqual([reviewMessages.reasonInvisible]);
    const long = await giveBack(boss, week, "x".repeat(1001));
    expect(long.body.errors.reason).toEqual([reviewMessages.reasonTooLong]);
    expect((await stored(week.id)).state).toBe("submitted");

    const reason = "Falta el martes por la tarde";
    const res = await giveBack(boss, week, `  ${reason} `);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(reviewMessages.returned);
    expect(res.body.week_review).toMatchObject({ state: "returned", return_reason: reason, reviewer_name: boss.user.name });
    const reopened = await weekState(worker, "2025-04-07");
    expect(reopened).toMatchObject({
      frozen: false,
      can_submit: true,
      review: { state: "returned", return_reason: reason, reviewer_name: boss.user.name },
    });
    // Its history, read by its employee: sent, then returned by the boss with the reason.
    const detail = await worker.api.get(`/api/v1/week_reviews/${week.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.history).toEqual([
      expect.objectContaining({ state: "submitted", by_name: worker.user.name, comment: null }),
      expect.objectContaining({ state: "returned", by_name: boss.user.name, comment: reason }),
    ]);
    // Exactly what the answers declare; what sending it again would show.
    expect(weekStateAnswer.strict().safeParse(reopened).success).toBe(true);
    const preview = await worker.api.get("/api/v1/week_reviews/preview?week_start=2025-04-09");
    expect(preview.status).toBe(200);
    expect(preview.body.figures).toMatchObject({ logged_hours: 1, expected_hours: 40 });
    expect(weekFiguresAnswer.strict().safeParse(preview.body.figures).success).toBe(true);
    // Writable again.
    const edit = await worker.api.put(`/api/v1/activities/${activity.id}`, { activity: { ends_at: at("2025-04-08", "11:00") } });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    await logged(worker, "2025-04-09");
    // The bell.
    const bell = await worker.api.get("/api/v1/notifications");
    expect(bell.status).toBe(200);
    expect(bell.body.notifications).toContainEqual(
      expect.objectContaining({
        kind: "review",
        week_start: "2025-04-07",
        message: reviewMessages.returnedBody(boss.user.name, "2025-04-07", "2025-04-13", reason),
      }),
    );
    // The e-mail, after the answer.
    const [mail] = await mailsTo(worker.user.email, reviewMessages.returnedTitle("2025-04-07", "2025-04-13"));
    expect(mail, "no e-mail to the employee").toBeDefined();
    expect(mail.parsed.text).toContain(`Motivo: ${reason}`);
    expect(mail.parsed.text).toContain("/app/activities");
    expect(mail.parsed.text).toContain("2025-04-07");

    // Sent again: in review, the reason gone; approved by the boss.
    week = await submitted(worker, "2025-04-07");
    expect(week).toMatchObject({ state: "submitted", return_reason: null });
    const approved = await approve(boss, week);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.message).toBe(reviewMessages.approvedCount(1));
    expect(approved.body.week_reviews).toMatchObject([{ id: week.id, state: "approved", reviewer_name: boss.user.name }]);
    const current = approved.body.week_reviews[0] as Review;
    expect(await weekState(worker, "2025-04-07")).toMatchObject({
      frozen: true,
      can_submit: false,
      review: { state: "approved" },
    });
    // Only an administrator reopens an approved week.
    const reopen = await giveBack(boss, current, "Otra vez");
    expect(reopen.status).toBe(403);
    expect(reopen.body.error).toBe(reviewMessages.onlyAdminReopens);
    const again = await approve(coBoss, current);
    expect(again.status).toBe(422);
    expect(again.body.errors.base).toEqual([reviewMessages.alreadyApproved]);
    const resend = await submit(worker, "2025-04-07");
    expect(resend.status).toBe(422);
    expect(resend.body.errors.base).toEqual([reviewMessages.alreadyApproved]);
    const byAdmin = await giveBack(admin, current, "Corrige el miércoles");
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.week_review).toMatchObject({ state: "returned", return_reason: "Corrige el miércoles" });
    expect((await weekState(worker, "2025-04-07")).frozen).toBe(false);
  });

  it("a returned week that was returned already, or never sent, is not returned again", async () => {
    const week = await submitted(worker, "2025-04-14");
    const returned = (await giveBack(boss, week, "Revisa")).body.week_review as Review;
    const twice = await giveBack(coBoss, returned, "Otra vez");
    expect(twice.status).toBe(422);
    expect(twice.body.errors.base).toEqual([reviewMessages.notSubmitted]);
    const approveReturned = await approve(coBoss, returned);
    expect(approveReturned.status).toBe(422);
    expect(approveReturned.body.errors.base).toEqual([reviewMessages.notSubmitted]);
    expect((await giveBack(admin, { id: 2_000_000_000, lock_version: 0 }, "x")).status).toBe(404);
  });

  it("bulk approval: all or none (one stale version, or one week out of scope, saves nothing)", async () => {
    const weeks = [
      await submitted(worker, "2025-05-05"),
      await submitted(worker, "2025-05-12"),
      await submitted(accountant, "2025-05-05"),
    ];
    const before = await Promise.all(weeks.map((w) => stored(w.id)));
    const stale = await approve(boss, weeks[0], weeks[1], { ...weeks[2], lock_version: weeks[2].lock_version + 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe(reviewMessages.reviewedMeanwhile(accountant.employee.name, "2025-05-05"));
    expect(stale.body.week_review).toMatchObject({ id: weeks[2].id, state: "submitted" });
    expect(await Promise.all(weeks.map((w) => stored(w.id)))).toEqual(before);
    const foreign = await submitted(outsider, "2025-05-05");
    const outOfScope = await approve(boss, ...weeks, foreign);
    expect(outOfScope.status).toBe(403);
    expect(await Promise.all(weeks.map((w) => stored(w.id)))).toEqual(before);
    expect((await stored(foreign.id)).state).toBe("submitted");
    const none = await boss.api.post("/api/v1/week_reviews/approve", { weeks: [] });
    expect(none.status).toBe(422);
    expect(JSON.stringify(none.body.errors)).toContain(reviewMessages.weeksRequired);

    const all = await approve(boss, ...weeks);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.message).toBe(reviewMessages.approvedCount(3));
    expect((all.body.week_reviews as Review[]).map((w) => w.state)).toEqual(["approved", "approved", "approved"]);
    for (const w of weeks) expect((await stored(w.id)).state).toBe("approved");
  });

  it("two reviewers at once: exactly one wins, the other gets 409 in Spanish", async () => {
    for (const [i, week] of ["2025-06-09", "2025-06-16"].entries()) {
      const review = await submitted(worker, week);
      const answers = await Promise.all(
        i === 0 ? [approve(boss, review), giveBack(coBoss, review, "A la vez")] : [approve(boss, review), approve(admin, review)],
      );
      expect(answers.map((a) => a.status).sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 409]);
      const lost = answers.find((a) => a.status === 409);
      expect(lost?.body.error).toBe(reviewMessages.reviewedMeanwhile(worker.employee.name, week));
      const won = answers.find((a) => a.status === 200);
      const state = won?.body.week_review?.state ?? won?.body.week_reviews?.[0]?.state;
      expect((await stored(review.id)).state).toBe(state);
      // The audit trail has the winner's change only.
      const trail = await db()
        .select()
        .from(audit_logs)
        .where(and(eq(audit_logs.auditable_type, "WeekReview"), eq(audit_logs.auditable_id, review.id)));
      expect(trail.map((r) => r.new_value)).toEqual(["submitted", state]);
    }
  });

  it("a week sent again while its reviewer returns it: one after the other, never a 500", async () => {
    // Sending and returning take the employee's week lock and the review's row in one order; in the other,
    // on PostgreSQL most of these pairs deadlock.
    for (let i = 0; i < 12; i++) {
      const week = addDays("2024-01-01", 7 * i);
      const review = await submitted(worker, week);
      const [returned, sent] = await Promise.all([giveBack(boss, review, "Revisa el lunes"), submit(worker, week)]);
      expect(returned.status, returned.text).toBe(200);
      expect([200, 422], sent.text).toContain(sent.status);
      const row = await stored(review.id);
      // Sent after the return: in review again; before it: refused, and the week is returned.
      expect(row.state).toBe(sent.status === 200 ? "submitted" : "returned");
      expect((await weekState(worker, week)).frozen).toBe(sent.status === 200);
    }
  });
});

describe("a week in review or approved refuses every write", () => {
  const csv = (date: string) => {
    const [y, m, d] = date.split("-");
    const row = [`${d}/${m}/${y}`, "11:00", "12:00", "V", "", "", "", "", "", "Vacaciones"];
    return Buffer.from(`${ACTIVITY_CSV_COLUMNS.join(";")}\r\n${row.join(";")}\r\n`, "utf8");
  };

  it.each([
    ["submitted", "2025-07-07"],
    ["approved", "2025-07-28"],
  ])("%s: create, edit, delete, the week save, copying the previous week, saving an import", async (state, monday) => {
    await logged(worker, addDays(monday, -7)); // something to copy
    const activity = await logged(worker, addDays(monday, 1));
    const review = await submitted(worker, monday);
    if (state === "approved") expect((await approve(coBoss, review)).status).toBe(200);
    const api = worker.api;
    const frozen = [messages.activityFrozen];

    const created = await api.post("/api/v1/activities", { activity: vacation(addDays(monday, 2)) });
    expect(created.status).toBe(422);
    expect(created.body.errors.base).toEqual(frozen);
    const edited = await api.put(`/api/v1/activities/${activity.id}`, { activity: { description: "Cambio" } });
    expect(edited.status).toBe(422);
    expect(edited.body.errors.base).toEqual(frozen);
    const removed = await api.delete(`/api/v1/activities/${activity.id}`);
    expect(removed.status).toBe(422);
    expect(removed.body.errors.base).toEqual(frozen);
    // An administrator is refused too: the week must be opened first.
    const byAdmin = await admin.api.post("/api/v1/activities", {
      activity: { ...vacation(addDays(monday, 2)), employee_id: worker.employee.id },
    });
    expect(byAdmin.status).toBe(422);

    const ref = { id: activity.id, lock_version: activity.lock_version };
    for (const body of [
      { activities: [vacation(addDays(monday, 3))] },
      { updates: [{ ...ref, description: "Cambio" }] },
      { deletions: [ref] },
    ]) {
      const saved = await api.post("/api/v1/activities/batch", body);
      expect(saved.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(saved.body.errors)).toContain(messages.activityFrozen);
    }

    const copied = await api.post("/api/v1/activities/copy_previous_week", { week_start: monday });
    expect(copied.status).toBe(200);
    expect(copied.body.created).toEqual(0);
    expect(copied.body.skipped.length).toBeGreaterThan(0);
    expect(copied.body.skipped.every((s: { reason: string }) => s.reason === messages.activityFrozen)).toBe(true);

    // The import reads the file (it saves nothing); saving what it read is refused like any save.
    const imported = await importWeekCsv(t.app, api.token, monday, csv(addDays(monday, 2)));
    expect(imported.status, imported.text).toBe(200);
    const events = imported.body.import_activities as Array<{ start: string; end: string; description: string }>;
    expect(events).toHaveLength(1);
    const fromImport = await api.post("/api/v1/activities/batch", {
      activities: events.map((e) => ({
        begins_at: e.start,
        ends_at: e.end,
        action_type: "vacation",
        description: e.description,
      })),
    });
    expect(fromImport.status).toBe(422);
    expect(JSON.stringify(fromImport.body.errors)).toContain(messages.activityFrozen);

    const rows = await api.get(
      `/api/v1/activities?per_page=all&by_begins_at[start_date]=${monday}&by_begins_at[end_date]=${addDays(monday, 6)}`,
    );
    expect(rows.status).toBe(200);
    expect((rows.body.activities as Array<{ id: number; is_editable: boolean }>).map((a) => [a.id, a.is_editable])).toEqual([
      [activity.id, false],
    ]);
  });
});

describe("a week inside a closed month", () => {
  it("is not returned: the person could not correct it; the month is opened first", async () => {
    const week = await submitted(worker, "2025-10-06");
    const month = await admin.api.put("/api/v1/activities/close_month_activities", {
      by_begins_at: { start_date: "2025-10-01" },
      by_employee: worker.employee.id,
    });
    expect(month.status).toBe(200);
    const refused = await giveBack(boss, week, "Falta el lunes");
    expect(refused.status).toBe(422);
    expect(refused.body.errors.base).toEqual([reviewMessages.monthClosed]);
    expect((await stored(week.id)).state).toBe("submitted");
    await admin.api.put("/api/v1/activities/open_month_activities", {
      by_begins_at: { start_date: "2025-10-01" },
      by_employee: worker.employee.id,
    });
    expect((await giveBack(boss, week, "Falta el lunes")).status).toBe(200);
  });
});

describe("an administrator reopens a week through PUT activities/open_activities", () => {
  it("a week in review or approved needs a reason, and goes back to its employee as a return does", async () => {
    const open = (body: Record<string, unknown>) =>
      admin.api.put("/api/v1/activities/open_activities", {
        by_begins_at: { start_date: "2025-08-04" },
        by_employee: worker.employee.id,
        ...body,
      });
    const week = await submitted(worker, "2025-08-04");
    expect((await approve(boss, week)).status).toBe(200);
    // The boss may not open weeks at all.
    const byBoss = await boss.api.put("/api/v1/activities/open_activities", {
      by_begins_at: { start_date: "2025-08-04" },
      by_employee: worker.employee.id,
      reason: "Corrige",
    });
    expect(byBoss.status).toBe(403);
    for (const reason of [undefined, "", "  "]) {
      const refused = await open({ reason });
      expect(refused.status).toBe(422);
      expect(refused.body.errors.reason).toEqual([reviewMessages.reasonRequired]);
    }
    expect(await stored(week.id)).toMatchObject({ state: "approved" });
    expect((await weekState(worker, "2025-08-04")).frozen).toBe(true);

    const reason = "Falta registrar la visita al cliente";
    const opened = await open({ reason });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(await stored(week.id)).toMatchObject({ state: "returned", return_reason: reason, reviewed_by: admin.user.id });
    expect(await weekState(worker, "2025-08-04")).toMatchObject({
      frozen: false,
      can_submit: true,
      review: { state: "returned", return_reason: reason },
    });
    const bell = (await worker.api.get("/api/v1/notifications")).body.notifications as Array<Record<string, unknown>>;
    expect(bell).toContainEqual(expect.objectContaining({ kind: "review", week_start: "2025-08-04" }));
    expect(await mailsTo(worker.user.email, reviewMessages.returnedTitle("2025-08-04", "2025-08-10"))).toHaveLength(1);
    // A week an administrator closed outright (no review) opens as before, with no reason.
    await admin.api.put("/api/v1/activities/close_activities", {
      by_begins_at: { start_date: "2025-08-11" },
      by_employee: worker.employee.id,
    });
    const plain = await admin.api.put("/api/v1/activities/open_activities", {
      by_begins_at: { start_date: "2025-08-11" },
      by_employee: worker.employee.id,
    });
    expect(plain.status).toBe(200);
  });
});

describe("automatic approval", () => {
  const settings = (value: unknown) => admin.api.put("/api/v1/app_settings/1", { app_setting: { auto_approve_days: value } });
  const deps = () => ({ db: t.app.db.db, mail: t.app.mail, config: t.app.config });

  it("the setting: whole days from 1 to 60, empty is off (Spanish 422 otherwise)", async () => {
    for (const value of [0, 61, 2.5, -3, "muchos"]) {
      const res = await settings(value);
      expect(res.status, String(value)).toBe(422);
      expect(res.body.errors.auto_approve_days, String(value)).toEqual([reviewMessages.autoApproveDays]);
    }
    for (const p of [boss, worker])
      expect((await p.api.put("/api/v1/app_settings/1", { app_setting: { auto_approve_days: 3 } })).status).toBe(403);
    expect((await settings(null)).status).toBe(200);
  });

  it("approves the weeks left in review that many days, as the system, with the rule in the audit trail", async () => {
    const old = await submitted(worker, "2025-09-01");
    const fresh = await submitted(worker, "2025-09-08");
    const now = new Date();
    await db()
      .update(week_reviews)
      .set({ submitted_at: new Date(now.getTime() - 10 * 86_400_000) })
      .where(eq(week_reviews.id, old.id));

    const off = await runJob(deps(), weekAutoApproveJob, { now: new Date(now.getTime() - 86_400_000) });
    expect(off.status).toBe("done");
    expect(off.summary).toMatchObject({ count: 0, message: reviewMessages.jobAutoApproveOff });
    expect((await stored(old.id)).state).toBe("submitted");

    const on = await settings(7);
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.app_setting.auto_approve_days).toBe(7);
    const run = await runJob(deps(), weekAutoApproveJob, { now });
    expect(run.status).toBe("done");
    expect(run.summary).toMatchObject({ approved: [old.id], days: 7 });
    expect(await stored(old.id)).toMatchObject({ state: "approved", auto_approved: true, reviewed_by: null });
    expect((await stored(fresh.id)).state).toBe("submitted");
    const trail = await db()
      .select()
      .from(audit_logs)
      .where(and(eq(audit_logs.auditable_type, "WeekReview"), eq(audit_logs.auditable_id, old.id)));
    expect(trail.map((r) => ({ old: r.old_value, new: r.new_value, user: r.user_id, comment: r.comment }))).toEqual([
      { old: null, new: "submitted", user: worker.user.id, comment: null },
      { old: "submitted", new: "approved", user: null, comment: "Aprobada automáticamente tras 7 días sin revisión" },
    ]);
    expect((await weekState(worker, "2025-09-01")).review).toMatchObject({
      state: "approved",
      auto_approved: true,
      reviewer_name: null,
    });
    expect((await settings("")).status).toBe(200);
  });
});

describe("the Tuesday digest", () => {
  it("tells each boss the weeks waiting for their review, not the other workspaces'", async () => {
    const monday = "2025-10-06";
    await submitted(worker, monday);
    const waiting = await db()
      .select({ id: week_reviews.id })
      .from(week_reviews)
      .innerJoin(employees, eq(employees.id, week_reviews.employee_id))
      .where(and(eq(week_reviews.state, "submitted"), eq(employees.workspace_id, team), ne(employees.id, boss.employee.id)));
    const tuesday = zonedTime(addDays(monday, 8), 9 * 60 + 5);
    const outcome = await runJob({ db: db(), mail: t.app.mail, config: t.app.config }, weeklyReminderJob, { now: tuesday });
    expect(outcome.status).toBe("done");
    const toBoss = smtp.received.filter((m) => m.envelope.to.includes(boss.user.email));
    const digest = toBoss.find((m) => /tu revisión/.test(m.parsed.text ?? ""));
    expect(digest, "no digest to the boss").toBeDefined();
    const text = digest?.parsed.text ?? "";
    expect(text).toMatch(/esperan? tu revisión/);
    expect(text).toContain(reviewMessages.digestPendingHeading(waiting.length));
    expect(text).toContain(reviewMessages.digestPendingLine(worker.employee.name, monday, addDays(monday, 6)));
    expect(text).toContain(PAGE_PATHS.week_reviews);
    expect(text).not.toContain(`- ${outsider.employee.name}: semana`);
    const toOther = smtp.received.filter((m) => m.envelope.to.includes(otherBoss.user.email));
    for (const m of toOther) expect(m.parsed.text).not.toContain(`- ${worker.employee.name}: semana`);
  });
});
