/**
 * Closing and opening an employee's week or month (PUT activities/close_activities and the like, SPEC §7):
 * a frozen period covers whole local dates, and nothing inside it can be created, changed or removed.
 */
import { and, eq } from "drizzle-orm";
import { messages } from "../../../src/core/messages";
import type { SessionUser } from "../../../src/core/session";
import { monthOf, weekOf } from "../../../src/core/week";
import type { Tx } from "../../db/client";
import { employees, frozen_periods } from "../../db/schema";
import { forbidden, ValidationError } from "../../http/errors";
import { isAdmin } from "./service";
import { lockEmployeeWeeks } from "./weekLock";

export type FreezeKind = "week" | "month";

export interface Freeze {
  kind: FreezeKind;
  /** true closes the period, false opens it. */
  close: boolean;
  /** A local date inside the period. */
  date: string;
  employeeId: number;
}

/**
 * Whose period a freeze call acts on. An admin (freeze_others) must name an employee; anyone else may only
 * close their own week, which sends it to review (activities/resource.ts; reopening a week and any month are
 * admin-only).
 */
export function freezeTarget(user: SessionUser, byEmployee: unknown, kind: FreezeKind, close: boolean): number {
  if (isAdmin(user)) {
    const id = Number(byEmployee);
    if (byEmployee === undefined || byEmployee === null || byEmployee === "" || !Number.isInteger(id) || id <= 0) {
      throw ValidationError.base(messages.selectEmployee);
    }
    return id;
  }
  if (kind === "month" || !close) throw forbidden();
  if (!user.employee) throw ValidationError.base(messages.noEmployee);
  if (byEmployee !== undefined && byEmployee !== null && byEmployee !== "" && Number(byEmployee) !== user.employee.id)
    throw forbidden();
  return user.employee.id;
}

/** Closes or opens the period; closing twice or opening an open period changes nothing. */
export async function setFrozen(tx: Tx, user: SessionUser, freeze: Freeze) {
  const { kind, close, employeeId } = freeze;
  // After any save into this employee's weeks that already checked them, before any that has not.
  await lockEmployeeWeeks(tx, [employeeId]);
  const [employee] = await tx.select({ id: employees.id }).from(employees).where(eq(employees.id, employeeId));
  if (!employee) throw ValidationError.field("by_employee", messages.invalidReference);
  const period = kind === "week" ? weekOf(freeze.date) : monthOf(freeze.date);
  if (close) {
    await tx
      .insert(frozen_periods)
      .values({ employee_id: employeeId, kind, starts_on: period.starts_on, ends_on: period.ends_on, closed_by: user.id })
      .onConflictDoNothing();
  } else {
    await tx
      .delete(frozen_periods)
      .where(
        and(
          eq(frozen_periods.employee_id, employeeId),
          eq(frozen_periods.kind, kind),
          eq(frozen_periods.starts_on, period.starts_on),
        ),
      );
  }
  return {
    frozen: close,
    frozen_period: { employee_id: employeeId, kind, starts_on: period.starts_on, ends_on: period.ends_on },
    message: freezeMessage(kind, close),
  };
}

const freezeMessage = (kind: FreezeKind, close: boolean) =>
  kind === "week" ? (close ? messages.weekClosed : messages.weekOpened) : close ? messages.monthClosed : messages.monthOpened;
