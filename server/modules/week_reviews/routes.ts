/**
 * Weeks sent to review (docs/decisions/050-week-approval.md):
 *   GET  /api/v1/week_reviews?state&workspace_id    the weeks the caller reviews (waiting ones by default)
 *   GET  /api/v1/week_reviews/summary               whether the caller reviews anyone, and how many wait
 *   GET  /api/v1/week_reviews/:id                   one week with its activities (its employee or a reviewer)
 *   POST /api/v1/week_reviews/submit                send a week to review
 *   POST /api/v1/week_reviews/approve               approve one or many weeks, all or none
 *   POST /api/v1/week_reviews/:id/return            return a week to its employee with a reason
 */
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { reviewMessages } from "../../../src/core/messages";
import { PAGE_PATHS, TIMESHEET_WEEK_PARAM } from "../../../src/core/resources";
import {
  approveWeeksAnswer,
  approveWeeksSchema,
  returnWeekAnswer,
  returnWeekSchema,
  submitPreviewAnswer,
  submitWeekAnswer,
  submitWeekSchema,
  weekReviewDetailAnswer,
  weekReviewSummaryAnswer,
  weekReviewsAnswer,
  weekReviewsQuery,
} from "../../../src/core/schemas/week_review";
import { publicAddress } from "../../config";
import { currentUser, requires } from "../../http/auth";
import { doc, idParams } from "../../http/openapi";
import { sendEach } from "../../jobs/runner";
import { employeeFor } from "../activities";
import { pushNotified } from "../notifications";
import {
  approveWeeks,
  listReviews,
  type ReturnedWeek,
  returnWeek,
  reviewDetail,
  reviewSummary,
  submitPreview,
  submitWeek,
} from "./service";

const tags = ["week_reviews"];

/** The week's link on the timesheet. */
export const reviewWeekPath = (monday: string) => `${PAGE_PATHS.activities}?${TIMESHEET_WEEK_PARAM}=${monday}`;

/**
 * Tells the employee their week came back, once the return has committed: a push to their devices and an
 * e-mail with the reason, in the background (a slow push service or mail server never holds the request).
 */
export function tellReturned(app: FastifyInstance, returned: ReturnedWeek, reviewerName: string) {
  const { review } = returned;
  const reason = review.return_reason ?? "";
  const path = reviewWeekPath(review.starts_on);
  if (returned.userId)
    pushNotified(app, [returned.userId], {
      title: reviewMessages.returnedTitle(review.starts_on, review.ends_on),
      body: reviewMessages.returnedBody(reviewerName, review.starts_on, review.ends_on, reason),
      url: path,
      tag: `review-${review.id}`,
    });
  if (returned.email) {
    const url = new URL(path, publicAddress(app.config)).toString();
    void sendEach(app.mail, [
      {
        to: returned.email,
        subject: reviewMessages.returnedTitle(review.starts_on, review.ends_on),
        text: reviewMessages.returnedMailText(review.employee_name, review.starts_on, review.ends_on, reviewerName, reason, url),
      },
    ])
      .then((result) => {
        if (result.failed.length) app.log.warn({ failed: result.failed }, "week return e-mail not sent");
      })
      .catch((error: Error) => app.log.warn({ err: error }, "week return e-mail not sent"));
  }
}

export async function weekReviewRoutes(app: FastifyInstance) {
  const db = () => app.db.db;

  app.get(
    "/week_reviews",
    {
      config: requires("week_reviews", "list"),
      schema: doc({
        tags,
        summary:
          "Semanas por revisar: las de la gente de los espacios que dirige quien pregunta (todas para un administrador), nunca la propia",
        querystring: weekReviewsQuery,
        response: { 200: weekReviewsAnswer },
      }),
    },
    async (request) => listReviews(db(), currentUser(request), request.query as z.output<typeof weekReviewsQuery>),
  );

  app.get(
    "/week_reviews/summary",
    {
      config: requires("week_reviews", "list"),
      schema: doc({
        tags,
        summary: "Si quien pregunta revisa semanas, y cuántas esperan su revisión",
        response: { 200: weekReviewSummaryAnswer },
      }),
    },
    async (request) => reviewSummary(db(), currentUser(request)),
  );

  app.get(
    "/week_reviews/:id",
    {
      config: requires("week_reviews", "list"),
      schema: doc({
        tags,
        summary: "Una semana enviada a revisión, con sus actividades (solo lectura)",
        params: idParams,
        response: { 200: weekReviewDetailAnswer },
      }),
    },
    async (request) => reviewDetail(db(), currentUser(request), (request.params as { id: number }).id),
  );

  app.get(
    "/week_reviews/preview",
    {
      config: requires("week_reviews", "create"),
      schema: doc({
        tags,
        summary: "Las horas de una semana contra las esperadas y sus días sin horas, antes de enviarla a revisión",
        querystring: submitWeekSchema,
        response: { 200: submitPreviewAnswer },
      }),
    },
    async (request) => {
      const user = currentUser(request);
      const input = request.query as z.output<typeof submitWeekSchema>;
      return { figures: await submitPreview(db(), employeeFor(user, input.by_employee), input.week_start) };
    },
  );

  app.post(
    "/week_reviews/submit",
    {
      config: requires("week_reviews", "create"),
      schema: doc({
        tags,
        summary: "Enviar una semana a revisión (a partir de su viernes); la semana queda cerrada mientras se revisa",
        body: submitWeekSchema,
        response: { 200: submitWeekAnswer },
      }),
    },
    async (request) => {
      const user = currentUser(request);
      const input = request.body as z.output<typeof submitWeekSchema>;
      const employeeId = employeeFor(user, input.by_employee);
      return db().transaction((tx) => submitWeek(tx, user, employeeId, input.week_start));
    },
  );

  app.post(
    "/week_reviews/approve",
    {
      config: requires("week_reviews", "transition"),
      schema: doc({
        tags,
        summary: "Aprobar una o varias semanas en revisión: todas o ninguna (409 si otra persona ya revisó alguna)",
        body: approveWeeksSchema,
        response: { 200: approveWeeksAnswer },
      }),
    },
    async (request) => {
      const user = currentUser(request);
      const input = request.body as z.output<typeof approveWeeksSchema>;
      return db().transaction((tx) => approveWeeks(tx, user, input.weeks));
    },
  );

  app.post(
    "/week_reviews/:id/return",
    {
      config: requires("week_reviews", "transition"),
      schema: doc({
        tags,
        summary: "Devolver una semana a su empleado con un motivo (una aprobada, solo un administrador): se abre y se le avisa",
        params: idParams,
        body: returnWeekSchema,
        response: { 200: returnWeekAnswer },
      }),
    },
    async (request) => {
      const user = currentUser(request);
      const input = request.body as z.output<typeof returnWeekSchema>;
      const returned = await db().transaction((tx) => returnWeek(tx, user, (request.params as { id: number }).id, input));
      tellReturned(app, returned, user.name);
      return { week_review: returned.review, message: reviewMessages.returned };
    },
  );
}
