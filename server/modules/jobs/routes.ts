/**
 * The outbox and the scheduled jobs, for administrators (matrix: outbox list/show, jobs list/create).
 *   GET  /api/v1/outbox?page&per_page    messages the local adapter wrote (DATA_DIR/outbox), newest first
 *   GET  /api/v1/outbox/:id              one message: headers, text, attachments' names
 *   GET  /api/v1/outbox/:id/eml          the message as it was written (message/rfc822, with attachments)
 *   GET  /api/v1/jobs                    every job, its current period and its last runs
 *   POST /api/v1/jobs/:name/run {force}  runs the job now for its current period; a period already run
 *                                        sends nothing (status already_done) unless force is true
 *   GET  /api/v1/backups                 the archives in BACKUP_DIR, newest first (matrix: backups list)
 *   POST /api/v1/backups                 «Respaldar ahora»: runs the nightly backup job now (backups create)
 *   GET  /api/v1/backups/:name           one archive, downloaded (backups show)
 */

import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { backupMessages, jobMessages } from "../../../src/core/messages";
import {
  backupDoneAnswer,
  backupListAnswer,
  jobListAnswer,
  jobRunAnswer,
  jobRunBody,
  outboxListAnswer,
  outboxListQuery,
  outboxMessageAnswer,
} from "../../../src/core/schemas/jobs";
import { ARCHIVE_NAME, archiveFile, BackupError, listArchives } from "../../cli/backups";
import { currentUser, requires } from "../../http/auth";
import { HttpError, notFound } from "../../http/errors";
import { doc, errorAnswer, fileAnswer } from "../../http/openapi";
import { JOBS, jobByName } from "../../jobs";
import { nightlyBackupJob } from "../../jobs/nightlyBackup";
import { type JobRun, lastRuns, runJob } from "../../jobs/runner";
import { listOutbox, outboxDir, readOutbox, readOutboxRaw } from "../../ports/mail";
import { OUTBOX_ID } from "../../ports/mail/nodemailer";

/** Jobs that change records and send no message: a second run of their period "did not repeat", not "sent nothing". */
const SENDS_NOTHING = new Set<string>(["warranty_auto_close", "nightly_backup", "week_auto_approve"]);

/** A message of the outbox by its file's id (an id that is not one answers 404, as a missing message). */
const outboxParams = z.object({ id: z.string().regex(OUTBOX_ID) });
/** A job by its name; an unknown one answers its own 404 (jobMessages.jobUnknown). */
const jobParams = z.object({ name: z.string() });
/** An archive by its file name: only the names SIA writes (anything else, a path among them, is a 404). */
const backupParams = z.object({ name: z.string().regex(ARCHIVE_NAME) });

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
        response: {
          200: jobRunAnswer,
          503: errorAnswer.describe("El respaldo nocturno no se pudo escribir (p. ej. BACKUP_DIR ya no es una carpeta)"),
        },
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
      }).catch((error: unknown) => {
        if (job !== nightlyBackupJob) throw error;
        // As «Respaldar ahora»: a backup the server cannot write is said in Spanish, never a 500.
        request.log.error({ err: error }, "respaldo forzado fallido");
        throw new HttpError(
          503,
          backupMessages.backupFailed(error instanceof BackupError ? error.message : backupMessages.seeLog),
        );
      });
      if (outcome.status === "busy") throw new HttpError(409, jobMessages.jobBusy(label));
      const message =
        outcome.status === "done"
          ? jobMessages.jobDone(label, outcome.summary?.message ?? "")
          : jobMessages.jobAlreadyDone(label, outcome.period.key, !SENDS_NOTHING.has(job.name));
      return {
        status: outcome.status,
        period_key: outcome.period.key,
        message,
        job_run: outcome.run ? runView(outcome.run) : null,
      };
    },
  );

  api.get(
    "/backups",
    {
      config: requires("backups", "list"),
      schema: doc({
        tags,
        summary: "Respaldos guardados en BACKUP_DIR",
        response: {
          200: backupListAnswer,
          503: errorAnswer.describe("BACKUP_DIR no se puede leer (p. ej. no es una carpeta)"),
        },
      }),
    },
    async (request) => {
      let archives: ReturnType<typeof listArchives>;
      try {
        archives = listArchives(api.config.backupDir);
      } catch (error) {
        // The folder was checked at start; one broken since (a file in its place, its rights taken) is the
        // server's state, not the administrator's mistake: a Spanish 503, never a 500.
        request.log.error({ err: error }, "BACKUP_DIR ilegible");
        throw new HttpError(503, backupMessages.listFailed);
      }
      const backups = archives.map((a) => ({ id: a.name, ...a }));
      return { backups, meta: { total_count: backups.length, keep: api.config.BACKUP_KEEP } };
    },
  );

  api.post(
    "/backups",
    {
      config: requires("backups", "create"),
      schema: doc({
        tags,
        summary: "Respaldar ahora (base de datos y archivos)",
        response: {
          200: backupDoneAnswer,
          409: errorAnswer.describe("Ya se está escribiendo un respaldo"),
          503: errorAnswer.describe("El servidor no pudo escribirlo (p. ej. falta pg_dump o BACKUP_DIR no es una carpeta)"),
        },
      }),
    },
    async (request) => {
      const outcome = await runJob({ db: api.db.db, mail: api.mail, config: api.config }, nightlyBackupJob, {
        force: true,
        trigger: "manual",
        userId: currentUser(request).id,
      }).catch((error: unknown) => {
        // The server cannot write it (pg_dump missing, BACKUP_DIR not a folder, a full disk): the
        // administrator reads why in Spanish, and nothing was recorded as done.
        request.log.error({ err: error }, "respaldo manual fallido");
        throw new HttpError(
          503,
          backupMessages.backupFailed(error instanceof BackupError ? error.message : backupMessages.seeLog),
        );
      });
      const name = outcome.summary?.file;
      if (outcome.status === "busy" || typeof name !== "string") throw new HttpError(409, backupMessages.backupBusy);
      const written = listArchives(api.config.backupDir).find((a) => a.name === name) ?? {
        name,
        size: 0,
        created_at: new Date().toISOString(),
        manual: true,
      };
      return { backup: { id: name, ...written }, message: backupMessages.backupDone(name) };
    },
  );

  api.get(
    "/backups/:name",
    {
      config: requires("backups", "show"),
      schema: doc({
        tags,
        summary: "Descargar un respaldo",
        params: backupParams,
        response: {
          200: fileAnswer(
            "application/gzip",
            "El respaldo (.tar.gz): base de datos, drive/, outbox/, secret.key y manifest.json",
          ),
        },
      }),
    },
    async (request, reply) => {
      const { name } = request.params as z.output<typeof backupParams>;
      const file = path.join(api.config.backupDir, name);
      if (!archiveFile(api.config.backupDir, name)) throw notFound();
      // O_NOFOLLOW: a link put in its place after the check is refused too, never followed.
      const opened = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW).catch(() => undefined);
      if (!opened) throw notFound();
      if (!(await opened.stat()).isFile()) {
        await opened.close();
        throw notFound();
      }
      return reply
        .type("application/gzip")
        .header("content-disposition", `attachment; filename="${name}"`)
        .send(opened.createReadStream());
    },
  );
}
