/**
 * The job runner: every scheduled job runs through runJob(), which makes it safe across several server
 * processes and once per period.
 *  - One transaction holds a transaction-scoped advisory lock of the job (pg_try_advisory_xact_lock): a
 *    second process that comes at the same time skips ("busy") instead of waiting.
 *  - Inside the lock, job_runs (unique on job + period_key) tells whether the period already ran; the job's
 *    work and its run row commit together, so a run that fails records nothing and is retried later.
 *  - `force` (administrators, by hand) runs a period again and overwrites its row.
 * startJobs() checks every minute which jobs are due and runs them.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { JobName } from "../../src/core/constants";
import type { Config } from "../config";
import type { Db, Tx } from "../db/client";
import { job_runs } from "../db/schema";
import type { MailMessage, MailPort } from "../ports/mail";
import type { JobPeriod, ScheduleConfig } from "./schedule";

export type JobRun = typeof job_runs.$inferSelect;

export interface JobContext {
  tx: Tx;
  /** The database itself, for a job that works beside its transaction (the backup dumps it). */
  db: Db;
  now: Date;
  period: JobPeriod;
  mail: MailPort;
  config: Config;
  /** By the schedule or by hand (the backup names and keeps the two apart). */
  trigger: "scheduled" | "manual";
}

/** What a run did, kept as JSON in job_runs.detail. */
export interface JobSummary {
  /** How many things the run did (messages sent, projects closed). */
  count: number;
  /** What it did, in Spanish, for the administrators' page. */
  message: string;
  recipients?: string[];
  [key: string]: unknown;
}

export interface JobDefinition {
  name: JobName;
  /** Advisory-lock key of the job (one per job). */
  lockKey: number;
  period(now: Date, schedule: ScheduleConfig): JobPeriod;
  due(now: Date, schedule: ScheduleConfig): boolean;
  run(ctx: JobContext): Promise<JobSummary>;
}

export type RunStatus = "done" | "already_done" | "busy";
export interface RunOutcome {
  status: RunStatus;
  period: JobPeriod;
  run?: JobRun;
  summary?: JobSummary;
}

export class AllSendsFailedError extends Error {}

/**
 * Sends each message on its own: one refused address does not stop the others nor undo the run (which
 * would send the rest again on the next try). When every message fails (the server is down) it throws,
 * so nothing is recorded and the scheduler tries again later.
 */
export async function sendEach(mail: MailPort, messages: MailMessage[]) {
  const sent: string[] = [];
  /** Which of `messages` went out, by position (one address may get two kinds of message). */
  const sentIndexes: number[] = [];
  const failed: Array<{ to: string; error: string }> = [];
  for (const [index, message] of messages.entries()) {
    const to = Array.isArray(message.to) ? message.to.join(", ") : message.to;
    try {
      await mail.send(message);
      sent.push(to);
      sentIndexes.push(index);
    } catch (error) {
      failed.push({ to, error: error instanceof Error ? error.message : String(error) });
    }
  }
  if (messages.length && !sent.length) throw new AllSendsFailedError(failed[0]?.error ?? "");
  return { sent, sentIndexes, failed };
}

/** Runs `work` inside a transaction holding the advisory lock `key`, or answers locked: false at once. */
export async function withAdvisoryLock<T>(
  db: Db,
  key: number,
  work: (tx: Tx) => Promise<T>,
): Promise<{ locked: false } | { locked: true; value: T }> {
  return db.transaction(async (tx) => {
    const lock = await tx.execute(sql`select pg_try_advisory_xact_lock(${key}) as locked`);
    const locked = (lock as unknown as { rows: Array<{ locked: boolean }> }).rows[0]?.locked;
    if (!locked) return { locked: false as const };
    return { locked: true as const, value: await work(tx) };
  });
}

export interface RunnerDeps {
  db: Db;
  mail: MailPort;
  config: JobContext["config"];
}

/** How many earlier runs of one period a forced run keeps in its detail. */
const EARLIER_RUNS_KEPT = 10;

/** The earlier runs of a period (its last run and the ones that run kept), for a forced run's detail. */
function earlierRuns(existing: JobRun | undefined): unknown[] | undefined {
  if (!existing) return undefined;
  let detail: Record<string, unknown> = {};
  try {
    detail = existing.detail ? (JSON.parse(existing.detail) as Record<string, unknown>) : {};
  } catch {
    detail = { message: existing.detail };
  }
  const { earlier, ...last } = detail;
  return [{ ...last, ran_at: existing.ran_at }, ...(Array.isArray(earlier) ? earlier : [])].slice(0, EARLIER_RUNS_KEPT);
}

export async function runJob(
  deps: RunnerDeps,
  job: JobDefinition,
  options: { now?: Date; force?: boolean; trigger?: "scheduled" | "manual"; userId?: number | null } = {},
): Promise<RunOutcome> {
  const now = options.now ?? new Date();
  const period = job.period(now, deps.config);
  const result = await withAdvisoryLock(deps.db, job.lockKey, async (tx): Promise<RunOutcome> => {
    const [existing] = await tx
      .select()
      .from(job_runs)
      .where(and(eq(job_runs.job, job.name), eq(job_runs.period_key, period.key)))
      .limit(1);
    if (existing && !options.force) return { status: "already_done", period, run: existing };
    const trigger = options.trigger ?? "scheduled";
    const summary = await job.run({ tx, db: deps.db, now, period, mail: deps.mail, config: deps.config, trigger });
    // A forced run of a period already run keeps what the earlier runs did (who got what), newest first.
    const detail = JSON.stringify({ ...summary, trigger, user_id: options.userId ?? null, earlier: earlierRuns(existing) });
    const [run] = await tx
      .insert(job_runs)
      .values({ job: job.name, period_key: period.key, status: "done", detail, ran_at: now })
      .onConflictDoUpdate({ target: [job_runs.job, job_runs.period_key], set: { status: "done", detail, ran_at: now } })
      .returning();
    return { status: "done", period, run, summary };
  });
  return result.locked ? result.value : { status: "busy", period };
}

/** The latest runs of a job, newest first. */
export function lastRuns(db: Db, job: JobName, limit = 5) {
  return db.select().from(job_runs).where(eq(job_runs.job, job)).orderBy(desc(job_runs.ran_at), desc(job_runs.id)).limit(limit);
}

/** One scheduler tick: runs, one after the other, every job due at `now`; a failing job does not stop the others. */
export async function runDueJobs(
  deps: RunnerDeps,
  jobs: readonly JobDefinition[],
  now: Date,
  log?: Pick<FastifyInstance["log"], "info" | "error">,
): Promise<Array<{ job: JobDefinition["name"]; outcome?: RunOutcome; error?: unknown }>> {
  const results: Array<{ job: JobDefinition["name"]; outcome?: RunOutcome; error?: unknown }> = [];
  for (const job of jobs) {
    if (!job.due(now, deps.config)) continue;
    try {
      const outcome = await runJob(deps, job, { now });
      if (outcome.status === "done" && outcome.summary?.count)
        log?.info({ job: job.name, period: outcome.period.key, summary: outcome.summary }, "tarea programada ejecutada");
      results.push({ job: job.name, outcome });
    } catch (error) {
      log?.error({ err: error, job: job.name }, "la tarea programada falló");
      results.push({ job: job.name, error });
    }
  }
  return results;
}

/** Checks the due jobs once a minute (first shortly after start); timers are unref'd and stop with the app. */
export function startJobs(app: FastifyInstance, jobs: readonly JobDefinition[], every = 60_000) {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await runDueJobs({ db: app.db.db, mail: app.mail, config: app.config }, jobs, new Date(), app.log);
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void tick(), 10_000);
  const timer = setInterval(() => void tick(), every);
  first.unref();
  timer.unref();
  const stop = () => {
    clearTimeout(first);
    clearInterval(timer);
  };
  app.addHook("onClose", async () => stop());
  return stop;
}
