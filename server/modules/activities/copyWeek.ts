/**
 * Copy the previous week (POST activities/copy_previous_week, SPEC §7): an employee's activities of one
 * week written again, shifted by whole days, into another. A copy that lands on a holiday or breaks a
 * rule of checkActivities is skipped with its reason; the rest are written in one multi-row INSERT. A dry
 * run answers what would be copied and writes nothing (the screen asks before copying).
 */
import { and, asc, eq, gte, lte } from "drizzle-orm";
import { messages } from "../../../src/core/messages";
import type { SessionUser } from "../../../src/core/session";
import {
  addDays,
  businessToday,
  daysBetween,
  isDateInRange,
  localDate,
  localDateOf,
  type Period,
  previousWeekOf,
  wallClock,
  weekOf,
  zonedTime,
} from "../../../src/core/week";
import type { Tx } from "../../db/client";
import { activities, holydays } from "../../db/schema";
import { ValidationError } from "../../http/errors";
import { type ActivityValues, type BatchItem, checkActivities, employeeFor, loadSettings, rangeStartDate } from "./service";
import { lockEmployeeWeeks } from "./weekLock";
import { insertBatch } from "./weekSave";

/** What one copy asks for: from which week to which, for whom, and whether to write. */
export interface WeekCopy {
  source: Period;
  target: Period;
  employeeId: number;
  dryRun: boolean;
}

export interface SkippedCopy {
  description: string;
  begins_at: string;
  ends_at: string;
  reason: string;
}

export type WeekCopyResult =
  | {
      dry_run: true;
      total: number;
      to_copy: { description: string; begins_at: string; ends_at: string; action_type: string }[];
      skipped: SkippedCopy[];
      message: string;
    }
  | { dry_run?: undefined; total: number; created: number[]; skipped: SkippedCopy[]; message: string };

/**
 * The copy a request's parameters (query and body together) describe. A week given and unreadable is
 * refused, never replaced by this week; both weeks lie whole within the dates SIA accepts, so no copied
 * activity lands where it could not be shown or edited.
 */
export function weekCopyOf(user: SessionUser, params: Record<string, unknown>): WeekCopy {
  const textOf = (value: unknown) => (typeof value === "string" ? value : typeof value === "number" ? String(value) : "\u0000");
  const weekStart = params.week_start ? localDateOf(textOf(params.week_start)) : null;
  if (params.week_start && !weekStart) throw ValidationError.field("week_start", messages.dateOutOfRange);
  const target = weekOf(weekStart ?? rangeStartDate(params) ?? businessToday());
  if (!isDateInRange(target.starts_on) || !isDateInRange(target.ends_on)) {
    throw ValidationError.field("week_start", messages.dateOutOfRange);
  }
  const sourceDay = params.id_previous_week ? localDateOf(textOf(params.id_previous_week)) : null;
  if (params.id_previous_week && !sourceDay) throw ValidationError.field("id_previous_week", messages.invalidDate);
  const source = sourceDay ? weekOf(sourceDay) : previousWeekOf(target.starts_on);
  if (!isDateInRange(source.starts_on) || !isDateInRange(source.ends_on)) {
    throw ValidationError.field("id_previous_week", messages.dateOutOfRange);
  }
  const employeeId = employeeFor(user, params.employee_id ?? params.by_employee);
  const dryRun = params.dry_run === true || params.dry_run === "true" || params.dry_run === "1";
  return { source, target, employeeId, dryRun };
}

/** Copies (or, in a dry run, plans) one week onto another; answers the ids written, in source order. */
export async function copyWeek(tx: Tx, copy: WeekCopy, userId: number): Promise<WeekCopyResult> {
  const { source, target, employeeId, dryRun } = copy;
  await lockEmployeeWeeks(tx, [employeeId]);
  const shift = daysBetween(source.starts_on, target.starts_on);
  const sourceRows = await tx
    .select()
    .from(activities)
    .where(
      and(eq(activities.employee_id, employeeId), gte(activities.begins_at, source.start), lte(activities.begins_at, source.end)),
    )
    .orderBy(asc(activities.begins_at));
  const holidays = new Set(
    (
      await tx
        .select({ date: holydays.date })
        .from(holydays)
        .where(and(gte(holydays.date, target.starts_on), lte(holydays.date, target.ends_on)))
    ).map((h) => h.date),
  );
  const settings = await loadSettings(tx);
  const skipped: SkippedCopy[] = [];
  const copies: { skip: (reason: string) => void; values?: ActivityValues; holiday?: boolean }[] = [];
  for (const row of sourceRows) {
    const b = wallClock(row.begins_at);
    const e = wallClock(row.ends_at);
    const begins = zonedTime(addDays(b.date, shift), b.minutes);
    const ends = zonedTime(addDays(e.date, shift), e.minutes);
    const skip = (reason: string) =>
      skipped.push({
        description: row.description,
        begins_at: begins.toISOString(),
        ends_at: ends.toISOString(),
        reason,
      });
    if (holidays.has(localDate(begins))) {
      copies.push({ skip, holiday: true });
      continue;
    }
    const values: ActivityValues = {
      ...(row as never as ActivityValues),
      begins_at: begins,
      ends_at: ends,
      is_favorite: false,
      google_calendar_id: null,
      google_calendar_event: null,
      import_key: null,
    };
    copies.push({ skip, values });
  }
  // The rules for every copy at once, then one multi-row INSERT; the skipped list keeps the source order.
  const checked = copies.filter((c) => c.values);
  const errors = await checkActivities(
    tx,
    checked.map((c) => c.values as ActivityValues),
    { settings },
  );
  const items: BatchItem[] = [];
  for (const entry of copies) {
    if (entry.holiday || !entry.values) {
      entry.skip(messages.copySkippedHoliday);
      continue;
    }
    const found = errors[checked.indexOf(entry)];
    if (found.length) entry.skip(found[0].message);
    else items.push({ index: items.length, values: entry.values });
  }
  const message = copyMessage(sourceRows.length, items.length, skipped, dryRun);
  if (dryRun) {
    return {
      dry_run: true,
      total: sourceRows.length,
      to_copy: items.map(({ values }) => ({
        description: values.description,
        begins_at: values.begins_at.toISOString(),
        ends_at: values.ends_at.toISOString(),
        action_type: values.action_type,
      })),
      skipped,
      message,
    };
  }
  const created = (await insertBatch(tx, items, userId)).map(({ id }) => id);
  return { total: sourceRows.length, created, skipped, message };
}

/**
 * What a copy says happened (or, in a dry run, would happen): all copied, some, none (with the reasons
 * and how many each), or nothing to copy.
 */
function copyMessage(total: number, copied: number, skipped: { reason: string }[], dryRun: boolean): string {
  if (!total) return messages.copyNothing;
  if (copied === total) return dryRun ? messages.copyDryRunAll(total) : messages.copyAllCopied(total);
  if (copied) return dryRun ? messages.copyDryRunSome(copied, total) : messages.copySomeCopied(copied, total);
  const counts = new Map<string, number>();
  for (const { reason } of skipped) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const why = [...counts].map(([reason, n]) => (total === 1 ? reason : `${reason} (${n})`)).join("; ");
  return dryRun ? messages.copyDryRunNone(total, why) : messages.copyNoneCopied(total, why);
}
