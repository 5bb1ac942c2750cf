/**
 * The week sent to review (docs/decisions/050-week-approval.md): what the timesheet, the «Semanas por
 * revisar» screen and the routes of /api/v1/week_reviews parse and answer.
 */
import { LOGGED_GROUPS } from "../hours";
import { messages, reviewMessages } from "../messages";
import { isoDate, optionalId, z } from "./fields";

export const REVIEW_STATES = ["submitted", "approved", "returned"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];
/** The most weeks one bulk approval takes. */
export const MAX_BULK_APPROVAL = 200;
export const RETURN_REASON_MAX = 1000;

/** A week's review as the timesheet's week state carries it. */
export const weekReviewState = z.object({
  id: z.number().int(),
  lock_version: z.number().int(),
  state: z.enum(REVIEW_STATES),
  return_reason: z.string().nullable(),
  submitted_at: z.string(),
  reviewed_at: z.string().nullable(),
  reviewer_name: z.string().nullable(),
  auto_approved: z.boolean(),
});

/** POST week_reviews/submit: a day of the week (its Monday is taken) and, for an administrator, whose. */
export const submitWeekSchema = z.object({
  week_start: isoDate(),
  by_employee: optionalId(),
});

const version = z.coerce
  .number({ error: messages.versionRequired })
  .int({ error: messages.versionRequired })
  .min(0, { error: messages.versionRequired })
  .max(2_147_483_647, { error: messages.versionRequired });
const reviewId = z.coerce.number().int().positive().max(2_147_483_647);

/** POST week_reviews/approve: the weeks, each at the version the reviewer saw. */
export const approveWeeksSchema = z.object({
  weeks: z
    .array(z.object({ id: reviewId, lock_version: version }), { error: reviewMessages.weeksRequired })
    .min(1, { error: reviewMessages.weeksRequired })
    .max(MAX_BULK_APPROVAL, { error: reviewMessages.tooManyWeeks(MAX_BULK_APPROVAL) }),
});

/** The reason a week goes back to its employee (returned by a reviewer, or reopened by an administrator). */
export const returnReason = () =>
  z
    .string({ error: reviewMessages.reasonRequired })
    .trim()
    .min(1, { error: reviewMessages.reasonRequired })
    .max(RETURN_REASON_MAX, { error: reviewMessages.reasonTooLong })
    // Invisible characters alone (zero-width spaces, joiners) say nothing to the person who reads it.
    .refine((v) => v === "" || /[\p{L}\p{N}\p{P}\p{S}]/u.test(v), { error: reviewMessages.reasonInvisible });

/** POST week_reviews/:id/return. */
export const returnWeekSchema = z.object({ reason: returnReason(), lock_version: version });

/** GET week_reviews: which weeks (those waiting by default), of one workspace when asked. */
export const weekReviewsQuery = z.object({
  state: z.enum(REVIEW_STATES).default("submitted"),
  workspace_id: optionalId(),
});

const groupHours = z.object(
  Object.fromEntries(LOGGED_GROUPS.map((g) => [g, z.number()])) as Record<(typeof LOGGED_GROUPS)[number], z.ZodNumber>,
);

/** A week's hours against what was expected of its employee (src/core/hours.ts's rule). */
export const weekFiguresAnswer = z.object({
  logged_hours: z.number(),
  expected_hours: z.number(),
  groups: groupHours,
  /** Working days under the person's norm, with the hours missing on each. */
  short_days: z.array(z.object({ date: z.string(), logged: z.number(), expected: z.number(), missing: z.number() })),
  /** Working days with no hours at all. */
  empty_days: z.array(z.string()),
});
export type WeekFigures = z.infer<typeof weekFiguresAnswer>;

/** One reviewed week as the routes answer it. */
export const weekReviewAnswer = z.object({
  id: z.number().int(),
  lock_version: z.number().int(),
  employee_id: z.number().int(),
  employee_name: z.string(),
  workspace_name: z.string().nullable(),
  starts_on: z.string(),
  ends_on: z.string(),
  state: z.enum(REVIEW_STATES),
  submitted_at: z.string(),
  submitted_by_name: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  /** Null when nobody reviewed it yet, or SIA approved it (auto_approved). */
  reviewer_name: z.string().nullable(),
  return_reason: z.string().nullable(),
  auto_approved: z.boolean(),
  figures: weekFiguresAnswer,
});
export type WeekReview = z.infer<typeof weekReviewAnswer>;

export const weekReviewsAnswer = z.object({
  week_reviews: z.array(weekReviewAnswer),
  /** Whether the caller reviews anyone's weeks (an administrator, or a boss of a workspace). */
  reviewer: z.boolean(),
});

/** GET week_reviews/summary: for the menu. */
export const weekReviewSummaryAnswer = z.object({ reviewer: z.boolean(), pending: z.number().int() });

/** An activity of a week under review, read-only. */
export const reviewedActivity = z.object({
  id: z.number().int(),
  begins_at: z.string(),
  ends_at: z.string(),
  action_type: z.string(),
  description: z.string().nullable(),
  project_name: z.string().nullable(),
  client_name: z.string().nullable(),
});
export type ReviewedActivity = z.infer<typeof reviewedActivity>;

/** GET week_reviews/:id: the week and its activities. */
/** One step of a week's review (the audit trail): who moved it to which state, when, and why. */
export const reviewStep = z.object({
  state: z.enum(REVIEW_STATES),
  at: z.string(),
  /** Null: SIA (the automatic approval). */
  by_name: z.string().nullable(),
  comment: z.string().nullable(),
});
export type ReviewStep = z.infer<typeof reviewStep>;

export const weekReviewDetailAnswer = z.object({
  week_review: weekReviewAnswer,
  activities: z.array(reviewedActivity),
  /** Every step of its review, oldest first. */
  history: z.array(reviewStep),
  /** Whether the caller may approve or return it now. */
  can_review: z.boolean(),
});

/** GET week_reviews/preview: what sending the week would show, before it is sent. */
export const submitPreviewAnswer = z.object({ figures: weekFiguresAnswer });

export const submitWeekAnswer = z.object({ week_review: weekReviewAnswer, message: z.string() });
export const approveWeeksAnswer = z.object({ week_reviews: z.array(weekReviewAnswer), message: z.string() });
export const returnWeekAnswer = z.object({ week_review: weekReviewAnswer, message: z.string() });

/** The automatic approval setting: whole days, 1–60; empty is off. */
export const autoApproveDays = () =>
  z.preprocess(
    (v) => (v === "" || v === undefined ? null : v),
    z.coerce
      .number({ error: reviewMessages.autoApproveDays })
      .int({ error: reviewMessages.autoApproveDays })
      .min(1, { error: reviewMessages.autoApproveDays })
      .max(60, { error: reviewMessages.autoApproveDays })
      .nullable(),
  );
