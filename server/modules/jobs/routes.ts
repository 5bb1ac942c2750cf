/**
 * The outbox and the scheduled jobs, for administrators (matrix: outbox list/show, jobs list/create).
 *   GET  /api/v1/outbox?page&per_page    messages the local adapter wrote (DATA_DIR/outbox), newest first
 *   GET  /api/v1/outbox/:id              one message: headers, text, attachments' names
 *   GET  /api/v1/outbox/:id/eml          the message as it was written (message/rfc822, with attachments)
 *   GET  /api/v1/jobs                    every job, its current period and its last runs
 *   POST /api/v1/jobs/:name/run {force}  runs the job now for its current period; a period already run
 *                                        sends nothing (status already_done) unless force is true
 */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { jobMessages } from "../../../src/core/messages";
import {
  jobListAnswer,
  jobRunAnswer,
  jobRunBody,
  outboxListAnswer,
  outboxListQuery,
  outboxMessageAnswer,
} from "../../../src/core/schemas/jobs";
import { currentUser, requires } from "../../http/auth";
import { HttpError, notFound } from "../../http/errors";
import { doc, fileAnswer } from "../../http/openapi";
import { JOBS, jobByName } from "../../jobs";
import { type JobRun, lastRuns, runJob } from "../../jobs/runner";
import { listOutbox, outboxDir, readOutbox, readOutboxRaw } from "../../ports/mail";
import { OUTBOX_ID } from "../../ports/mail/nodemailer";

/** A message of the outbox by its file's id (an id that is not one answers 404, as a missing message). */
const outboxParams = z.object({ id: z.string().regex(OUTBOX_ID) });
/** A job by its name; an unknown one answers its own 404 (jobMessages.jobUnknown). */
const jobParams = z.object({ name: z.string() });

const runView = (run: JobRun) => {
  let detail: Record<string, unknown> = {};
  try {
    detail = run.detail ? (JSON.parse(run.detail) as Record<string, unknown>) : {};
  } catch {
    detail = { message: run.detail };
  }
  return { id: run.id, job: run.job, period_key: run.period_key, status: run.status, ran_at: run.ran_at, ...detail };
};

export async function jobsRoutes(api: FastifyInstance) {
  const tags = ["jobs"];
  api.get(
    "/outbox",
    {
      config: requires("outbox", "list"),
      schema: doc({
        tags,
        summary: "Buzón local de correo (.eml)",
        querystring: outboxListQuery,
        response: { 200: outboxListAnswer },
      }),
    },
    async (request) => {
      const query = request.query as z.output<typeof outboxListQuery>;
      const { items, total } = await listOutbox(outboxDir(api.config), query.page, query.per_page);
      return {
        outbox: items,
        meta: { total_count: total, page: query.page, per_page: query.per_page, adapter: api.mail.kind },
      };
    },
  );

  api.get(
    "/outbox/:id",
    {
      config: requires("outbox", "show"),
      schema: doc({
        tags,
        summary: "Un mensaje del buzón local",
        params: outboxParams,
        response: { 200: z.object({ outbox: outboxMessageAnswer }) },
      }),
    },
    async (request) => {
      const message = await readOutbox(outboxDir(api.config), (request.params as z.output<typeof outboxParams>).id);
      if (!message) throw notFound();
      return { outbox: message };
    },
  );

  api.get(
    "/outbox/:id/eml",
    {
      config: requires("outbox", "show"),
      schema: doc({
        tags,
        summary: "Un mensaje del buzón local como archivo .eml",
        params: outboxParams,
        response: { 200: fileAnswer("message/rfc822", "El mensaje tal como se habría enviado") },
      }),
    },
    async (request, reply) => {
      const id = (request.params as z.output<typeof outboxParams>).id;
      const raw = await readOutboxRaw(outboxDir(api.config), id);
      if (!raw) throw notFound();
      return reply.type("message/rfc822").header("content-disposition", `attachment; filename="${id}.eml"`).send(raw);
    },
  );

  api.get(
    "/jobs",
    {
      config: requires("jobs", "list"),
      schema: doc({ tags, summary: "Tareas programadas y sus últimas ejecuciones", response: { 200: jobListAnswer } }),
    },
    async (_request) => {
      const now = new Date();
      const jobs = await Promise.all(
        JOBS.map(async (job) => ({
          id: job.name,
          name: job.name,
          label: jobMessages.jobLabels[job.name] ?? job.name,
          current_period: job.period(now, api.config).key,
          runs: (await lastRuns(api.db.db, job.name)).map(runView),
        })),
      );
      return { jobs, meta: { total_count: jobs.length, adapter: api.mail.kind } };
    },
  );

  api.post(
    "/jobs/:name/run",
    {
      config: requires("jobs", "create"),
      schema: doc({
        tags,
        summary: "Ejecutar una tarea programada ahora",
        params: jobParams,
        body: jobRunBody,
        response: { 200: jobRunAnswer },
      }),
    },
    async (request) => {
      const job = jobByName((request.params as z.output<typeof jobParams>).name);
      if (!job) throw new HttpError(404, jobMessages.jobUnknown);
      const body = request.body as z.output<typeof jobRunBody>;
      const label = jobMessages.jobLabels[job.name] ?? job.name;
      const outcome = await runJob({ db: api.db.db, mail: api.mail, config: api.config }, job, {
        force: body.force,
        trigger: "manual",
        userId: currentUser(request).id,
      });
      if (outcome.status === "busy") throw new HttpError(409, jobMessages.jobBusy(label));
      const message =
        outcome.status === "done"
          ? jobMessages.jobDone(label, outcome.summary?.message ?? "")
          : jobMessages.jobAlreadyDone(label, outcome.period.key);
      return {
        status: outcome.status,
        period_key: outcome.period.key,
        message,
        job_run: outcome.run ? runView(outcome.run) : null,
      };
    },
  );
}
