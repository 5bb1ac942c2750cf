/**
 * The week sent to review (docs/decisions/050-week-approval.md). An employee sends an ended week (from its
 * Friday on); a boss of their workspace, or an administrator, approves it or returns it with a reason.
 * Sending and approving freeze the week with SIA's own freeze (a frozen_periods week row, which every write
 * path already refuses); returning removes that row. Nobody approves or returns their own week. Each change
 * is taken at the version the reviewer saw: two reviewers at once, one wins and the other gets 409.
 */
import { and, asc, desc, eq, inArray, lte, ne, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { messages, reviewMessages } from "../../../src/core/messages";
import type { ReviewState, WeekReview } from "../../../src/core/schemas/week_review";
import type { SessionUser } from "../../../src/core/session";
import { addDays, businessToday, endOfDay, mondayOf, startOfDay } from "../../../src/core/week";
import { audit, auditTrail } from "../../db/audit";
import type { Tx } from "../../db/client";
import {
  activities,
  bosses_workspaces,
  clients,
  employees,
  frozen_periods,
  projects,
  users,
  week_reviews,
  workspaces,
} from "../../db/schema";
import { HttpError, notFound, ValidationError } from "../../http/errors";
import { outer } from "../../http/sql";
import { isAdmin, lockEmployeeWeeks } from "../activities";
import { notify } from "../notifications";
import { weekFigures } from "./figures";

/** The Friday of the week starting `monday`: from it on, the week may be sent to review. */
export const submittableFrom = (monday: string) => addDays(monday, 4);
export const maySubmitOn = (monday: string, today = businessToday()) => submittableFrom(monday) <= today;

/**
 * Whose weeks the user reviews, as a condition on `employees`: everyone's for an administrator, the people
 * of the workspaces their employee is a boss of for anyone else; never their own.
 */
export function reviewScope(user: SessionUser): SQL {
  const notOwn = user.employee ? ne(employees.id, user.employee.id) : sql`true`;
  if (isAdmin(user)) return notOwn as SQL;
  if (!user.employee) return sql`false`;
  return and(
    notOwn,
    sql`exists (select 1 from bosses_workspaces b where b.workspace_id = ${outer(employees.workspace_id)} and b.employee_id = ${user.employee.id})`,
  ) as SQL;
}

/** Whether the user reviews anyone's weeks: an administrator, or the boss of some workspace. */
export async function isReviewer(tx: Tx, user: SessionUser): Promise<boolean> {
  if (isAdmin(user)) return true;
  if (!user.employee) return false;
  const rows = await tx
    .select({ id: bosses_workspaces.id })
    .from(bosses_workspaces)
    .where(eq(bosses_workspaces.employee_id, user.employee.id))
    .limit(1);
  return rows.length > 0;
}

const submitter = alias(users, "submitter");
const reviewer = alias(users, "reviewer");

/**
 * The stored reviews `where` selects, with names: week by week (oldest first), each week's people by name;
 * `recent`: the latest reviewed first (the approved and returned lists).
 */
async function reviewRows(tx: Tx, where: SQL, limit = 500, recent = false) {
  return tx
    .select({
      id: week_reviews.id,
      lock_version: week_reviews.lock_version,
      employee_id: week_reviews.employee_id,
      employee_name: employees.name,
      workspace_name: workspaces.name,
      starts_on: week_reviews.starts_on,
      state: week_reviews.state,
      submitted_at: week_reviews.submitted_at,
      submitted_by_name: submitter.name,
      reviewed_at: week_reviews.reviewed_at,
      reviewer_name: reviewer.name,
      return_reason: week_reviews.return_reason,
      auto_approved: week_reviews.auto_approved,
    })
    .from(week_reviews)
    .innerJoin(employees, eq(employees.id, week_reviews.employee_id))
    .leftJoin(workspaces, eq(workspaces.id, employees.workspace_id))
    .leftJoin(submitter, eq(submitter.id, week_reviews.submitted_by))
    .leftJoin(reviewer, eq(reviewer.id, week_reviews.reviewed_by))
    .where(where)
    .orderBy(
      ...(recent
        ? [desc(week_reviews.reviewed_at), desc(week_reviews.id)]
        : [asc(week_reviews.starts_on), asc(employees.name), asc(week_reviews.id)]),
    )
    .limit(limit);
}

type ReviewRow = Awaited<ReturnType<typeof reviewRows>>[number];

/** The rows as the API answers them, each with its week's hours (one reading per week). */
async function answerRows(tx: Tx, rows: ReviewRow[]): Promise<WeekReview[]> {
  const weeks = [...new Set(rows.map((r) => r.starts_on))];
  const figures = new Map<string, Awaited<ReturnType<typeof weekFigures>>[number]>();
  for (const week of weeks) {
    const ids = rows.filter((r) => r.starts_on === week).map((r) => r.employee_id);
    for (const person of await weekFigures(tx, week, inArray(employees.id, ids)))
      figures.set(`${week}:${person.employee_id}`, person);
  }
  return rows.map((r) => {
    const person = figures.get(`${r.starts_on}:${r.employee_id}`);
    const { missing_hours: _missing, ...f } = person?.figures ?? {
      missing_hours: 0,
      logged_hours: 0,
      expected_hours: 0,
      groups: { project: 0, support: 0, internal: 0, vacation: 0 },
      short_days: [],
      empty_days: [],
    };
    return {
      ...r,
      state: r.state as ReviewState,
      ends_on: addDays(r.starts_on, 6),
      submitted_at: r.submitted_at.toISOString(),
      reviewed_at: r.reviewed_at ? r.reviewed_at.toISOString() : null,
      figures: f,
    };
  });
}

export async function reviewById(tx: Tx, id: number): Promise<WeekReview | null> {
  const [row] = await reviewRows(tx, eq(week_reviews.id, id), 1);
  return row ? (await answerRows(tx, [row]))[0] : null;
}

/** The weeks in `state` the user reviews (of one workspace when asked). */
export async function listReviews(tx: Tx, user: SessionUser, query: { state: ReviewState; workspace_id?: number | null }) {
  const where = and(
    eq(week_reviews.state, query.state),
    reviewScope(user),
    query.workspace_id ? eq(employees.workspace_id, query.workspace_id) : undefined,
  ) as SQL;
  const rows = await reviewRows(tx, where, 500, query.state !== "submitted");
  return { week_reviews: await answerRows(tx, rows), reviewer: await isReviewer(tx, user) };
}

export async function reviewSummary(tx: Tx, user: SessionUser) {
  const reviewerFlag = await isReviewer(tx, user);
  if (!reviewerFlag) return { reviewer: false, pending: 0 };
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(week_reviews)
    .innerJoin(employees, eq(employees.id, week_reviews.employee_id))
    .where(and(eq(week_reviews.state, "submitted"), reviewScope(user)));
  return { reviewer: true, pending: Number(row?.n ?? 0) };
}

/** One review with its activities, for its employee and for whoever reviews them; 404 for anyone else. */
export async function reviewDetail(tx: Tx, user: SessionUser, id: number) {
  const [row] = await reviewRows(tx, eq(week_reviews.id, id), 1);
  if (!row) throw notFound();
  const [scoped] = await tx
    .select({ id: employees.id })
    .from(employees)
    .where(and(eq(employees.id, row.employee_id), reviewScope(user)));
  const own = user.employee?.id === row.employee_id;
  if (!scoped && !own) throw notFound();
  const [review] = await answerRows(tx, [row]);
  const list = await tx
    .select({
      id: activities.id,
      begins_at: activities.begins_at,
      ends_at: activities.ends_at,
      action_type: activities.action_type,
      description: activities.description,
      project_name: projects.name,
      client_name: clients.name,
    })
    .from(activities)
    .leftJoin(projects, eq(projects.id, activities.project_id))
    .leftJoin(
      clients,
      sql`${clients.id} = coalesce(case when ${activities.ownerable_type} = 'Client' then ${activities.ownerable_id} end, ${projects.client_id})`,
    )
    .where(
      and(
        eq(activities.employee_id, row.employee_id),
        sql`${activities.begins_at} >= ${startOfDay(row.starts_on)}`,
        lte(activities.begins_at, endOfDay(review.ends_on)),
      ),
    )
    .orderBy(asc(activities.begins_at));
  const trail = await auditTrail(tx, "WeekReview", row.id);
  return {
    week_review: review,
    activities: list.map((a) => ({ ...a, begins_at: a.begins_at.toISOString(), ends_at: a.ends_at.toISOString() })),
    history: trail.map((step) => ({
      state: step.new_value as ReviewState,
      at: step.created_at.toISOString(),
      by_name: step.user_name,
      comment: step.comment,
    })),
    can_review: Boolean(scoped) && review.state === "submitted",
  };
}

/** The week of `date` of an employee as sending it would show it: its hours against the expected ones. */
export async function submitPreview(tx: Tx, employeeId: number, date: string) {
  const [person] = await weekFigures(tx, mondayOf(date), eq(employees.id, employeeId));
  if (!person) throw ValidationError.field("by_employee", messages.invalidReference);
  const { missing_hours: _missing, ...figures } = person.figures;
  return figures;
}

/** Freezes the week with SIA's own freeze (nothing when it is already frozen). */
async function freezeWeek(tx: Tx, employeeId: number, monday: string, userId: number | null) {
  await tx
    .insert(frozen_periods)
    .values({ employee_id: employeeId, kind: "week", starts_on: monday, ends_on: addDays(monday, 6), closed_by: userId })
    .onConflictDoNothing();
}
async function unfreezeWeek(tx: Tx, employeeId: number, monday: string) {
  await tx
    .delete(frozen_periods)
    .where(
      and(eq(frozen_periods.employee_id, employeeId), eq(frozen_periods.kind, "week"), eq(frozen_periods.starts_on, monday)),
    );
}

const auditState = (tx: Tx, id: number, from: string | null, to: ReviewState, userId: number | null, comment?: string | null) =>
  audit(tx, { type: "WeekReview", id }, [{ field: "state", old: from, new: to }], { userId, comment });

/**
 * Sends the week of `date` of `employeeId` to review. Refused before its Friday, while it is in review or
 * approved, and when an administrator closed it (or a frozen month covers it).
 */
export async function submitWeek(tx: Tx, user: SessionUser, employeeId: number, date: string, today = businessToday()) {
  const monday = mondayOf(date);
  await lockEmployeeWeeks(tx, [employeeId]);
  const [employee] = await tx.select({ id: employees.id }).from(employees).where(eq(employees.id, employeeId));
  if (!employee) throw ValidationError.field("by_employee", messages.invalidReference);
  if (!maySubmitOn(monday, today)) throw ValidationError.field("week_start", reviewMessages.notYet);
  const [existing] = await tx
    .select()
    .from(week_reviews)
    .where(and(eq(week_reviews.employee_id, employeeId), eq(week_reviews.starts_on, monday)))
    .for("update");
  if (existing?.state === "submitted") throw ValidationError.base(reviewMessages.alreadySubmitted);
  if (existing?.state === "approved") throw ValidationError.base(reviewMessages.alreadyApproved);
  const frozen = await tx
    .select({ id: frozen_periods.id })
    .from(frozen_periods)
    .where(
      and(
        eq(frozen_periods.employee_id, employeeId),
        lte(frozen_periods.starts_on, addDays(monday, 6)),
        sql`${frozen_periods.ends_on} >= ${monday}`,
      ),
    )
    .limit(1);
  if (frozen.length) throw ValidationError.base(reviewMessages.frozen);
  // A week that expects nothing of the person and holds nothing (before they started, a week of holidays).
  const figures = await submitPreview(tx, employeeId, monday);
  if (figures.expected_hours === 0 && figures.logged_hours === 0) throw ValidationError.base(reviewMessages.nothingToReview);
  const values = {
    state: "submitted" as const,
    submitted_at: new Date(),
    submitted_by: user.id,
    reviewed_at: null,
    reviewed_by: null,
    return_reason: null,
    auto_approved: false,
  };
  const [saved] = existing
    ? await tx.update(week_reviews).set(values).where(eq(week_reviews.id, existing.id)).returning({ id: week_reviews.id })
    : await tx
        .insert(week_reviews)
        .values({ employee_id: employeeId, starts_on: monday, ...values })
        .returning({ id: week_reviews.id });
  await freezeWeek(tx, employeeId, monday, user.id);
  await auditState(tx, saved.id, existing?.state ?? null, "submitted", user.id);
  return { week_review: (await reviewById(tx, saved.id)) as WeekReview, message: reviewMessages.submitted };
}

/** The reviews asked for, locked, each checked against the user's scope and the version they saw. */
async function takeForReview(tx: Tx, user: SessionUser, wanted: Array<{ id: number; lock_version: number }>) {
  const ids = [...new Set(wanted.map((w) => w.id))];
  const rows = await tx
    .select({
      id: week_reviews.id,
      lock_version: week_reviews.lock_version,
      state: week_reviews.state,
      employee_id: week_reviews.employee_id,
      starts_on: week_reviews.starts_on,
      name: employees.name,
      user_id: employees.user_id,
      email: users.email,
      in_scope: sql<boolean>`(${reviewScope(user)})`,
    })
    .from(week_reviews)
    .innerJoin(employees, eq(employees.id, week_reviews.employee_id))
    .leftJoin(users, eq(users.id, employees.user_id))
    .where(inArray(week_reviews.id, ids))
    .orderBy(asc(week_reviews.id))
    .for("update", { of: week_reviews });
  for (const id of ids) {
    const row = rows.find((r) => r.id === id);
    if (!row) throw notFound();
    if (user.employee?.id === row.employee_id) throw new HttpError(403, reviewMessages.ownWeek);
    if (!row.in_scope) throw new HttpError(403, reviewMessages.notReviewer);
  }
  // Every week at the version the reviewer saw, or none: the whole batch is refused, nothing is saved.
  for (const w of wanted) {
    const row = rows.find((r) => r.id === w.id);
    if (row && row.lock_version !== w.lock_version) {
      const current = await reviewById(tx, row.id);
      throw new HttpError(409, reviewMessages.reviewedMeanwhile(row.name, row.starts_on), {
        error: reviewMessages.reviewedMeanwhile(row.name, row.starts_on),
        week_review: current,
      });
    }
  }
  return rows;
}

/** Approves the weeks (one or many), all or none. */
export async function approveWeeks(tx: Tx, user: SessionUser, wanted: Array<{ id: number; lock_version: number }>) {
  const rows = await takeForReview(tx, user, wanted);
  for (const row of rows) {
    if (row.state !== "submitted")
      throw ValidationError.base(row.state === "approved" ? reviewMessages.alreadyApproved : reviewMessages.notSubmitted);
  }
  const now = new Date();
  for (const row of rows) {
    await tx
      .update(week_reviews)
      .set({ state: "approved", reviewed_at: now, reviewed_by: user.id, auto_approved: false })
      .where(eq(week_reviews.id, row.id));
    await freezeWeek(tx, row.employee_id, row.starts_on, user.id);
    await auditState(tx, row.id, row.state, "approved", user.id);
  }
  const answered = await answerRows(
    tx,
    await reviewRows(
      tx,
      inArray(
        week_reviews.id,
        rows.map((r) => r.id),
      ) as SQL,
    ),
  );
  return { week_reviews: answered, message: reviewMessages.approvedCount(rows.length) };
}

export interface ReturnedWeek {
  review: WeekReview;
  /** Who is told: the employee's user, when they have one. */
  userId: number | null;
  email: string | null;
}

/**
 * Returns a week to its employee with a reason: one in review (its reviewers), or an approved one
 * (administrators only: reopening). The freeze goes, the employee is told in the bell in this transaction;
 * the push and the e-mail are the caller's, after it commits.
 */
export async function returnWeek(
  tx: Tx,
  user: SessionUser,
  id: number,
  input: { reason: string; lock_version: number },
): Promise<ReturnedWeek> {
  // The employee's week lock before the review's row, in the order sending a week takes them: the other
  // order deadlocks against a send of the same week (each holding what the other waits for).
  const [owner] = await tx.select({ employee_id: week_reviews.employee_id }).from(week_reviews).where(eq(week_reviews.id, id));
  if (owner) await lockEmployeeWeeks(tx, [owner.employee_id]);
  const [row] = await takeForReview(tx, user, [{ id, lock_version: input.lock_version }]);
  if (row.state === "returned") throw ValidationError.base(reviewMessages.notSubmitted);
  if (row.state === "approved" && !isAdmin(user)) throw new HttpError(403, reviewMessages.onlyAdminReopens);
  // Inside a closed month the person could not correct it: the month is opened first.
  const month = await tx
    .select({ id: frozen_periods.id })
    .from(frozen_periods)
    .where(
      and(
        eq(frozen_periods.employee_id, row.employee_id),
        eq(frozen_periods.kind, "month"),
        lte(frozen_periods.starts_on, addDays(row.starts_on, 6)),
        sql`${frozen_periods.ends_on} >= ${row.starts_on}`,
      ),
    )
    .limit(1);
  if (month.length) throw ValidationError.base(reviewMessages.monthClosed);
  await tx
    .update(week_reviews)
    .set({ state: "returned", reviewed_at: new Date(), reviewed_by: user.id, return_reason: input.reason, auto_approved: false })
    .where(eq(week_reviews.id, row.id));
  await unfreezeWeek(tx, row.employee_id, row.starts_on);
  await auditState(tx, row.id, row.state, "returned", user.id, input.reason);
  if (row.user_id) {
    await notify(tx, [
      {
        kind: "review",
        user_id: row.user_id,
        week_start: row.starts_on,
        message: reviewMessages.returnedBody(user.name, row.starts_on, addDays(row.starts_on, 6), input.reason),
        author_name: user.name,
      },
    ]);
  }
  return { review: (await reviewById(tx, row.id)) as WeekReview, userId: row.user_id, email: row.email };
}

/**
 * An administrator opening a week through the freeze (PUT activities/open_activities): when the week is
 * in review or approved, it goes back to its employee with a reason, as returning it does.
 */
export async function reviewOfWeek(tx: Tx, employeeId: number, monday: string) {
  const [row] = await tx
    .select({ id: week_reviews.id, state: week_reviews.state, lock_version: week_reviews.lock_version })
    .from(week_reviews)
    .where(and(eq(week_reviews.employee_id, employeeId), eq(week_reviews.starts_on, monday)));
  return row ?? null;
}

/** The review of each of an employee's weeks, for the timesheet's week state. */
export async function weekReviewState(tx: Tx, employeeId: number, monday: string) {
  const [row] = await reviewRows(tx, and(eq(week_reviews.employee_id, employeeId), eq(week_reviews.starts_on, monday)) as SQL, 1);
  if (!row) return null;
  return {
    id: row.id,
    lock_version: row.lock_version,
    state: row.state as ReviewState,
    return_reason: row.return_reason,
    submitted_at: row.submitted_at.toISOString(),
    reviewed_at: row.reviewed_at ? row.reviewed_at.toISOString() : null,
    reviewer_name: row.reviewer_name,
    auto_approved: row.auto_approved,
  };
}

/**
 * The weeks submitted at least `days` days before `now`, approved by SIA (reviewed_by null, auto_approved),
 * the audit trail saying so. Skips rows another transaction holds.
 */
export async function autoApprove(tx: Tx, now: Date, days: number) {
  const due = await tx
    .select({ id: week_reviews.id, employee_id: week_reviews.employee_id, starts_on: week_reviews.starts_on })
    .from(week_reviews)
    .where(and(eq(week_reviews.state, "submitted"), lte(week_reviews.submitted_at, new Date(now.getTime() - days * 86_400_000))))
    .orderBy(asc(week_reviews.submitted_at))
    .for("update", { skipLocked: true });
  for (const row of due) {
    await tx
      .update(week_reviews)
      .set({ state: "approved", reviewed_at: now, reviewed_by: null, auto_approved: true })
      .where(eq(week_reviews.id, row.id));
    await freezeWeek(tx, row.employee_id, row.starts_on, null);
    await auditState(tx, row.id, "submitted", "approved", null, reviewMessages.autoApproved(days));
  }
  return due;
}

/** The weeks waiting for review, with the ids of the workspaces their employees belong to (the digest). */
export async function pendingReviews(tx: Tx) {
  return tx
    .select({
      id: week_reviews.id,
      employee_id: week_reviews.employee_id,
      workspace_id: employees.workspace_id,
      name: employees.name,
      starts_on: week_reviews.starts_on,
    })
    .from(week_reviews)
    .innerJoin(employees, eq(employees.id, week_reviews.employee_id))
    .where(eq(week_reviews.state, "submitted"))
    .orderBy(asc(employees.name), desc(week_reviews.starts_on));
}
