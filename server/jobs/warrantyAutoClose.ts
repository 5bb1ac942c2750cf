/**
 * Garantía closes itself after WARRANTY_AUTO_CLOSE_DAYS (SPEC §4). The job is idempotent (a closed
 * project is no longer in garantia) and safe with several server processes: it runs under the job's
 * advisory lock (server/jobs/runner.ts), so a second process that comes at the same time skips its run
 * instead of waiting; rows are also locked FOR UPDATE, so a user's transition on the same project is
 * serialised with the job. The scheduler runs it through the runner once per hour (recorded in job_runs).
 */
import { and, eq, lte } from "drizzle-orm";
import { jobMessages, messages } from "../../src/core/messages";
import { projectEvent, WARRANTY_AUTO_CLOSE_DAYS } from "../../src/core/projectMachine";
import type { ProjectState } from "../../src/core/states";
import { businessToday } from "../../src/core/week";
import type { Db, Tx } from "../db/client";
import { projects } from "../db/schema";
import { applyProjectEvent } from "../modules/projects";
import { type JobDefinition, withAdvisoryLock } from "./runner";
import { hourPeriod } from "./schedule";

/** Advisory-lock key of this job ("SIA" warranty). */
export const WARRANTY_JOB_LOCK_KEY = 7_310_060;
export const WARRANTY_CLOSE_EVENT = "cerrar_garantia";
const HOUR = 60 * 60 * 1000;

export interface WarrantyRunResult {
  /** False when another process held the lock and this run did nothing. */
  ran: boolean;
  closed: number[];
}

/** Closes the projects due at `now`, in the caller's transaction (which must hold the job's lock). */
export async function closeDueWarranties(tx: Tx, now: Date, days = WARRANTY_AUTO_CLOSE_DAYS): Promise<number[]> {
  const event = projectEvent(WARRANTY_CLOSE_EVENT);
  if (!event) throw new Error(`missing project event ${WARRANTY_CLOSE_EVENT}`);
  const cutoff = new Date(now.getTime() - days * 24 * HOUR);
  const due = await tx
    .select({ id: projects.id, state: projects.state, eta: projects.eta })
    .from(projects)
    .where(and(eq(projects.state, "garantia" satisfies ProjectState), lte(projects.state_changed_at, cutoff)))
    .orderBy(projects.id)
    .for("update", { skipLocked: true });
  for (const project of due) {
    await applyProjectEvent(
      tx,
      project,
      event,
      { event: event.name, audit_comment: messages.warrantyAutoClosed(days), date: businessToday(now) },
      null,
      now,
    );
  }
  return due.map((p) => p.id);
}

export async function runWarrantyAutoClose(
  db: Db,
  now: Date = new Date(),
  days = WARRANTY_AUTO_CLOSE_DAYS,
): Promise<WarrantyRunResult> {
  const result = await withAdvisoryLock(db, WARRANTY_JOB_LOCK_KEY, (tx) => closeDueWarranties(tx, now, days));
  return result.locked ? { ran: true, closed: result.value } : { ran: false, closed: [] };
}

/** The job as the runner sees it: hourly. */
export const warrantyJob: JobDefinition = {
  name: "warranty_auto_close",
  lockKey: WARRANTY_JOB_LOCK_KEY,
  period: hourPeriod,
  due: () => true,
  async run({ tx, now }) {
    const closed = await closeDueWarranties(tx, now);
    return { count: closed.length, message: jobMessages.jobWarrantyClosed(closed.length), closed };
  },
};
