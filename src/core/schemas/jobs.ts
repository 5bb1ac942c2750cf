/** The outbox and scheduled jobs pages (administrators): query and body of their routes. */
import { z } from "zod";
import { messages } from "../messages";
import { notANumber } from "./fields";

export const outboxListQuery = z.object({
  page: z.coerce.number({ error: notANumber }).int({ error: messages.mustBeNumber }).min(1).max(1_000_000).default(1),
  per_page: z.coerce.number({ error: notANumber }).int({ error: messages.mustBeNumber }).min(1).max(200).default(25),
});

/** POST jobs/:name/run. `force` runs a period that already ran again (and sends again). */
export const jobRunBody = z.object({
  force: z.preprocess(
    (v) => (v === "true" ? true : v === "false" ? false : v),
    z.boolean({ error: messages.invalidValue }).default(false),
  ),
});

/** One message of the outbox as the API answers it (server/ports/mail, the admin page). */
export const outboxSummaryAnswer = z.object({
  id: z.string(),
  date: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  attachments: z.array(z.object({ filename: z.string(), content_type: z.string(), size: z.number() })),
});
export type OutboxSummary = z.infer<typeof outboxSummaryAnswer>;
export const outboxMessageAnswer = outboxSummaryAnswer.extend({ text: z.string(), html: z.string().nullable() });
export type OutboxMessage = z.infer<typeof outboxMessageAnswer>;

/** GET outbox: a page of messages, and which mail adapter the server runs. */
export const outboxListAnswer = z.object({
  outbox: z.array(outboxSummaryAnswer),
  meta: z.object({ total_count: z.number(), page: z.number(), per_page: z.number(), adapter: z.string() }),
});

/**
 * One run of a scheduled job as GET jobs and POST jobs/:name/run answer it: the row, and what the run kept
 * in its detail (each job adds its own keys, so the shape stays open).
 */
export const jobRunViewAnswer = z.looseObject({
  id: z.number(),
  job: z.string(),
  period_key: z.string(),
  status: z.string(),
  ran_at: z.string(),
  count: z.number().optional(),
  message: z.string().optional(),
  trigger: z.enum(["scheduled", "manual"]).optional(),
  user_id: z.number().nullable().optional(),
});
export type JobRunView = z.infer<typeof jobRunViewAnswer>;

/** One scheduled job with its latest runs (GET jobs). */
export const jobViewAnswer = z.object({
  id: z.string(),
  name: z.string(),
  label: z.string(),
  current_period: z.string(),
  runs: z.array(jobRunViewAnswer),
});
export type JobView = z.infer<typeof jobViewAnswer>;

/** GET jobs: every job, and which mail adapter the server runs. */
export const jobListAnswer = z.object({
  jobs: z.array(jobViewAnswer),
  meta: z.object({ total_count: z.number(), adapter: z.string() }),
});

/** POST jobs/:name/run. */
export const jobRunAnswer = z.object({
  status: z.enum(["done", "already_done"]),
  period_key: z.string(),
  message: z.string(),
  job_run: jobRunViewAnswer.nullable(),
});
export type JobRunAnswer = z.infer<typeof jobRunAnswer>;

/**
 * One archive of BACKUP_DIR (GET backups): its file name, size in bytes, when it was written, and whether it
 * was made by hand (kept until deleted; BACKUP_KEEP counts the nightly ones only).
 */
export const backupAnswer = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number(),
  created_at: z.string(),
  manual: z.boolean(),
});
export type BackupView = z.infer<typeof backupAnswer>;
export const backupListAnswer = z.object({
  backups: z.array(backupAnswer),
  meta: z.object({ total_count: z.number(), keep: z.number() }),
});
/** POST backups: the archive written and the toast's text. */
export const backupDoneAnswer = z.object({ backup: backupAnswer, message: z.string() });
export type BackupDoneAnswer = z.infer<typeof backupDoneAnswer>;
