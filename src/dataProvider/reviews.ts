/** The weeks sent to review (server/modules/week_reviews): sending one, the reviewers' list, approving, returning. */
import type { Identifier } from "react-admin";
import type { z } from "zod";
import type {
  approveWeeksAnswer,
  ReviewState,
  returnWeekAnswer,
  submitPreviewAnswer,
  submitWeekAnswer,
  WeekReview,
  weekReviewDetailAnswer,
  weekReviewsAnswer,
} from "../core/schemas/week_review";
import { apiFetch } from "./http";

export type { ReviewState, WeekReview };
export type WeekReviewDetail = z.infer<typeof weekReviewDetailAnswer>;

export const reviewVerbs = {
  /** POST week_reviews/submit: the week containing `weekStart`, of the signed-in user (or `employeeId`, administrators). */
  submitWeek: (weekStart: string, employeeId?: Identifier | null) =>
    apiFetch<z.infer<typeof submitWeekAnswer>>("week_reviews/submit", {
      method: "POST",
      body: { week_start: weekStart, by_employee: employeeId ?? undefined },
    }),
  /** GET week_reviews/preview: the week's hours against the expected ones, before sending it. */
  submitPreview: (weekStart: string, signal?: AbortSignal) =>
    apiFetch<z.infer<typeof submitPreviewAnswer>>("week_reviews/preview", { query: { week_start: weekStart }, signal }).then(
      (r) => r.figures,
    ),
  /** GET week_reviews: the weeks in `state` the user reviews. */
  weekReviews: (state: ReviewState = "submitted", workspaceId?: Identifier | null, signal?: AbortSignal) =>
    apiFetch<z.infer<typeof weekReviewsAnswer>>("week_reviews", {
      query: { state, workspace_id: workspaceId ?? undefined },
      signal,
    }),
  /** GET week_reviews/:id: one week with its activities. */
  weekReview: (id: Identifier, signal?: AbortSignal) => apiFetch<WeekReviewDetail>(`week_reviews/${id}`, { signal }),
  /** POST week_reviews/approve: all the weeks, or none (409 when someone reviewed one meanwhile). */
  approveWeeks: (weeks: Array<{ id: number; lock_version: number }>) =>
    apiFetch<z.infer<typeof approveWeeksAnswer>>("week_reviews/approve", { method: "POST", body: { weeks } }),
  /** POST week_reviews/:id/return: back to its employee with a reason. */
  returnWeek: (id: Identifier, reason: string, lockVersion: number) =>
    apiFetch<z.infer<typeof returnWeekAnswer>>(`week_reviews/${id}/return`, {
      method: "POST",
      body: { reason, lock_version: lockVersion },
    }),
};
