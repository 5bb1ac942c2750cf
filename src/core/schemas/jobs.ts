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
export interface OutboxSummary {
  id: string;
  date: string | null;
  from: string;
  to: string;
  subject: string;
  attachments: Array<{ filename: string; content_type: string; size: number }>;
}
export interface OutboxMessage extends OutboxSummary {
  text: string;
  html: string | null;
}

/** One run of a scheduled job as GET jobs and POST jobs/:name/run answer it. */
export interface JobRunView {
  id: number;
  job: string;
  period_key: string;
  status: string;
  ran_at: string;
  count?: number;
  message?: string;
  trigger?: "scheduled" | "manual";
  user_id?: number | null;
}
/** One scheduled job with its latest runs (GET jobs). */
export interface JobView {
  id: string;
  name: string;
  label: string;
  current_period: string;
  runs: JobRunView[];
}
/** POST jobs/:name/run. */
export interface JobRunAnswer {
  status: "done" | "already_done";
  period_key: string;
  message: string;
  job_run: JobRunView | null;
}
