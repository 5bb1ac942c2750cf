/**
 * One lock per employee for everything that writes into their weeks: the week save, a single save or
 * delete, a copy of the previous week, and closing or opening a week or a month. Each takes the
 * transaction-scoped advisory lock of the employees it touches, in id order (one order everywhere, so two
 * of them never wait on each other), before reading which days are frozen. A close then waits for a save
 * that already passed its frozen check, and a save that starts after a close sees the period closed:
 * under READ COMMITTED a check-then-insert would otherwise let a month be reported closed and then gain
 * activities inside it. PGlite has one session, so there the lock is free and writes are serial anyway.
 */
import { sql } from "drizzle-orm";
import type { Tx } from "../../db/client";

/** Namespace of these advisory locks (pg_advisory_xact_lock's first key). */
const EMPLOYEE_WEEKS_LOCK = 7_020_001;
/** More employees than any save names is a hostile body: its extra ids take no lock (and fail validation). */
const MAX_LOCKED_EMPLOYEES = 50;

export async function lockEmployeeWeeks(db: Tx, employeeIds: Iterable<number>) {
  const ids = [...new Set(employeeIds)].filter((id) => Number.isInteger(id) && id > 0).sort((a, b) => a - b);
  for (const id of ids.slice(0, MAX_LOCKED_EMPLOYEES))
    await db.execute(sql`select pg_advisory_xact_lock(${EMPLOYEE_WEEKS_LOCK}, ${id})`);
}
