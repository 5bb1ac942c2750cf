/**
 * Garantía closes itself after WARRANTY_AUTO_CLOSE_DAYS (SPEC §4). The job is idempotent (a closed
 * project is no longer in garantia) and safe with several server processes: the whole run holds a
 * transaction-scoped advisory lock taken with pg_try_advisory_xact_lock, so a second process that
 * comes at the same time skips its run instead of waiting; rows are also locked FOR UPDATE, so a
 * user's transition on the same project is serialised with the job.
 */
import { and, eq, lte, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { messages } from "../../src/core/messages";
import { projectEvent, WARRANTY_AUTO_CLOSE_DAYS } from "../../src/core/projectMachine";
import type { ProjectState } from "../../src/core/states";
import type { Db } from "../db/client";
import { projects } from "../db/schema";
import { businessToday } from "../modules/assignments/service";
import { applyProjectEvent } from "../modules/projects/service";

/** Advisory-lock key of this job ("SIA" warranty). */
export const WARRANTY_JOB_LOCK_KEY = 7_310_060;
export const WARRANTY_CLOSE_EVENT = "cerrar_garantia";
const HOUR = 60 * 60 * 1000;

export interface WarrantyRunResult {
  /** False when another process held the lock and this run did nothing. */
  ran: boolean;
  closed: number[];
}

export async function runWarrantyAutoClose(
  db: Db,
  now: Date = new Date(),
  days = WARRANTY_AUTO_CLOSE_DAYS,
): Promise<WarrantyRunResult> {
  const event = projectEvent(WARRANTY_CLOSE_EVENT);
  if (!event) throw new Error(`missing project event ${WARRANTY_CLOSE_EVENT}`);
  return db.transaction(async (tx) => {
    const lock = await tx.execute(sql`select pg_try_advisory_xact_lock(${WARRANTY_JOB_LOCK_KEY}) as locked`);
    const locked = (lock as unknown as { rows: Array<{ locked: boolean }> }).rows[0]?.locked;
    if (!locked) return { ran: false, closed: [] };
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
    return { ran: true, closed: due.map((p) => p.id) };
  });
}

/** Runs the scheduled jobs hourly (and once shortly after start); timers are unref'd and stop with the app. */
export function startJobs(app: FastifyInstance, every = HOUR) {
  const run = () =>
    runWarrantyAutoClose(app.db.db)
      .then((result) => {
        if (result.closed.length) app.log.info({ closed: result.closed }, "garantías cerradas automáticamente");
      })
      .catch((error) => app.log.error({ err: error }, "cierre automático de garantías falló"));
  const first = setTimeout(run, 10_000);
  const timer = setInterval(run, every);
  first.unref();
  timer.unref();
  const stop = () => {
    clearTimeout(first);
    clearInterval(timer);
  };
  app.addHook("onClose", async () => stop());
  return stop;
}
