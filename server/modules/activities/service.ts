/**
 * Rules of activities (SPEC §3, §4, §5), enforced for single writes, batches, validation and copies:
 * the owner's employee (admins: any), an active employee, per-action-type references (support refuses
 * the excluded customer, non-selectable products are refused, internal/rh get the default customer),
 * nothing inside a frozen week or month (exact to the day), no overlap (also the DB's
 * activities_no_overlap exclusion constraint, mapped to the same Spanish 422 in server/http/errors.ts).
 */
import { and, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { ACTIVITY_INSERT_COLUMNS, ACTIVITY_WRITABLE, type ActivityField } from "../../../src/core/activity";
import { type RuleCode, type RuleIssue, weekIssues } from "../../../src/core/activityRules";
import { messages } from "../../../src/core/messages";
import { grantFor } from "../../../src/core/permissions";
import { projectStateLabel } from "../../../src/core/projectMachine";
import { type ActivityInput, activitySchema, type activityUpdateSchema } from "../../../src/core/schemas/activity";
import type { SessionUser } from "../../../src/core/session";
import { ARCHIVED_PROJECT_STATES } from "../../../src/core/states";
import { addDays, BUSINESS_TIME_ZONE, businessToday, localDate, localDateOf } from "../../../src/core/week";
import type { Tx } from "../../db/client";
import { activities, app_settings, employees, frozen_periods } from "../../db/schema";
import { forbidden, parse, ValidationError } from "../../http/errors";
import type { WriteArgs } from "../../http/resource";
import { lockEmployeeWeeks } from "./weekLock";

export type ActivityValues = ActivityInput & { employee_id: number };

export interface Settings {
  default_customer_id: number | null;
  support_excluded_customer_id: number | null;
  /** Hours on days after today's local day; vacation planned ahead is always allowed. */
  allow_future_activities: boolean;
}
export async function loadSettings(db: Tx): Promise<Settings> {
  const [row] = await db
    .select({
      default_customer_id: app_settings.default_customer_id,
      support_excluded_customer_id: app_settings.support_excluded_customer_id,
      allow_future_activities: app_settings.allow_future_activities,
    })
    .from(app_settings)
    .where(eq(app_settings.id, 1))
    .limit(1);
  return row ?? { default_customer_id: null, support_excluded_customer_id: null, allow_future_activities: false };
}

export const isAdmin = (user: SessionUser) => grantFor(user, "activities", "freeze_others") === "all";

/**
 * The employee an activity is written for: an admin may name any employee (default their own); anyone
 * else only their own (naming another answers 403).
 */
export function employeeFor(user: SessionUser, requested: unknown): number {
  // Only a number or its text: an object (hostile JSON such as {"toString": false}) is not an id, and
  // Number() of it would throw.
  const wanted =
    requested === undefined || requested === null || requested === ""
      ? null
      : typeof requested === "number" || typeof requested === "string"
        ? Number(requested)
        : Number.NaN;
  if (isAdmin(user)) {
    const id = wanted ?? user.employee?.id;
    if (!id || !Number.isInteger(id) || id <= 0) throw ValidationError.field("employee_id", messages.selectEmployee);
    return id;
  }
  if (!user.employee) throw ValidationError.base(messages.noEmployee);
  if (wanted !== null && wanted !== user.employee.id) throw forbidden();
  return user.employee.id;
}

/** The zone as a SQL literal: the same statement text every time (a bound parameter would vary the plan). */
const businessZoneSql = sql.raw(`'${BUSINESS_TIME_ZONE}'`);
/** Local date (the firm's zone) an activity belongs to, as SQL. */
export const localDaySql = (column: unknown) => sql`((${column} at time zone ${businessZoneSql})::date)`;

const add = (issues: RuleIssue[], code: RuleCode, field: string, message: string) => {
  issues.push({ code, field, message });
};

/** What checkActivities reads, as the one statement answers it (json arrays). */
interface Lookup {
  employees: [number, boolean][];
  types: number[];
  projects: [number, number, number | null, string, string | null][];
  clients: number[];
  prospects: number[];
  products: [number, boolean][];
  frozen: [number, string, string][];
  stored: [number, number | string, number | string][];
  /** [default_customer_id, support_excluded_customer_id, allow_future_activities] of app_settings, when the caller did not pass them. */
  settings: [number | null, number | null, boolean] | null;
}

/** What checkActivities needs besides the activities; settings read in its own statement when absent. */
interface CheckOptions {
  settings?: Settings;
  exceptId?: number;
  /** Stored activities left out of the overlap check: the batch deletes or moves them. */
  exceptIds?: number[];
  /**
   * Whether the activities are checked against each other too (the week save writes them together); a
   * copy checks each against the stored week only, as it always did.
   */
  together?: boolean;
  /**
   * Per activity (same order), the project its stored row already has; absent for a new activity. A
   * project no longer current (not authorised, cancelled, finished) takes no new time, but an activity
   * already on it keeps it when other fields change.
   */
  storedProjects?: ReadonlyArray<number | null | undefined>;
}

/**
 * Checks one parsed activity and completes the fields the server fills (client and product of a project,
 * default customer of internal/rh). Returns its issues ([] when valid); `values` is completed in place.
 */
export async function checkActivity(
  db: Tx,
  values: ActivityValues,
  options: CheckOptions & { settings: Settings },
): Promise<RuleIssue[]> {
  const [issues] = await checkActivities(db, [values], options);
  return issues;
}

const idsOf = (list: ActivityValues[], pick: (v: ActivityValues) => unknown) => {
  const ids = new Set<number>();
  for (const v of list) {
    const id = pick(v);
    if (typeof id === "number" && id > 0) ids.add(id);
  }
  return ids;
};

/**
 * checkActivity for many activities at once, with the same rules and messages: each reference table,
 * the frozen periods and the stored activities of the batch's employees and span are read once (a
 * constant number of queries however long the batch), then every activity is checked in memory:
 * its references here, and the week's rules (src/core/activityRules.ts) over the week as it will be.
 * Completes each `values` in place; answers the issues of each activity, in order.
 */
export async function checkActivities(db: Tx, list: ActivityValues[], checkOptions: CheckOptions): Promise<RuleIssue[][]> {
  if (!list.length) return [];
  const employeeIds = idsOf(list, (v) => v.employee_id);
  const projectIds = idsOf(list, (v) => (v.action_type === "project" ? v.project_id : null));
  const clientIds = idsOf(list, (v) =>
    v.action_type === "support" || (v.action_type === "quote" && v.ownerable_type !== "Prospect") ? v.ownerable_id : null,
  );
  const prospectIds = idsOf(list, (v) => (v.action_type === "quote" && v.ownerable_type === "Prospect" ? v.ownerable_id : null));
  const productIds = idsOf(list, (v) => (v.action_type === "support" || v.action_type === "quote" ? v.product_catalog_id : null));
  const typeIds = idsOf(list, (v) => v.activity_type_catalog_id);
  const days = list.map((v) => localDate(v.begins_at));
  const sortedDays = [...days].sort();
  const firstDay = sortedDays[0];
  const lastDay = sortedDays[sortedDays.length - 1];
  const spanStart = new Date(Math.min(...list.map((v) => v.begins_at.getTime())));
  const spanEnd = new Date(Math.max(...list.map((v) => v.ends_at.getTime())));
  // Everything the rules read, in one statement (one round trip, however long the batch).
  const inList = (ids: Set<number>) =>
    ids.size
      ? sql`in (${sql.join(
          [...ids].map((id) => sql`${id}`),
          sql`, `,
        )})`
      : sql`in (null)`;
  const employeeList = inList(employeeIds);
  const [found] = await db
    .execute(sql`select
      (select coalesce(json_agg(json_build_array(id, is_active)), '[]') from employees where id ${employeeList}) as employees,
      (select coalesce(json_agg(id), '[]') from activity_type_catalogs where id ${inList(typeIds)}) as types,
      (select coalesce(json_agg(json_build_array(id, client_id, product_catalog_id, state, project_code)), '[]') from projects where id ${inList(projectIds)}) as projects,
      (select coalesce(json_agg(id), '[]') from clients where id ${inList(clientIds)}) as clients,
      (select coalesce(json_agg(id), '[]') from prospects where id ${inList(prospectIds)}
        and not exists (select 1 from clients where clients.prospect_id = prospects.id)) as prospects,
      (select coalesce(json_agg(json_build_array(id, is_selectable)), '[]') from products where id ${inList(productIds)}) as products,
      (select coalesce(json_agg(json_build_array(employee_id, starts_on::text, ends_on::text)), '[]') from frozen_periods
        where employee_id ${employeeList} and starts_on <= ${lastDay}::date and ends_on >= ${firstDay}::date) as frozen,
      (select coalesce(json_agg(json_build_array(employee_id, extract(epoch from begins_at) * 1000, extract(epoch from ends_at) * 1000)), '[]')
        from activities where employee_id ${employeeList}
          and tstzrange(begins_at, ends_at, '[)') && tstzrange(${spanStart.toISOString()}::timestamptz, ${spanEnd.toISOString()}::timestamptz, '[)')
          ${checkOptions.exceptId ? sql`and id <> ${checkOptions.exceptId}` : sql``}
          ${checkOptions.exceptIds?.length ? sql`and id not ${inList(new Set(checkOptions.exceptIds))}` : sql``}) as stored,
      ${
        checkOptions.settings
          ? sql`null::json`
          : sql`(select json_build_array(default_customer_id, support_excluded_customer_id, allow_future_activities) from app_settings where id = 1)`
      } as settings`)
    .then((r) => (r as unknown as { rows: Lookup[] }).rows ?? (r as unknown as Lookup[]));
  const options = {
    ...checkOptions,
    settings: checkOptions.settings ?? {
      default_customer_id: found.settings?.[0] ?? null,
      support_excluded_customer_id: found.settings?.[1] ?? null,
      allow_future_activities: found.settings?.[2] ?? false,
    },
  };
  // One "today" for the whole batch, so a save that spans midnight judges every activity alike.
  const today = businessToday();
  const employeeById = new Map(found.employees.map(([id, is_active]) => [id, { id, is_active }]));
  const types = new Set(found.types);
  const projectById = new Map(
    found.projects.map(([id, client_id, product_catalog_id, state, code]) => [
      id,
      { client_id, product_catalog_id, state, code },
    ]),
  );
  const clientSet = new Set(found.clients);
  const prospectSet = new Set(found.prospects);
  const productById = new Map(found.products.map(([id, is_selectable]) => [id, { is_selectable }]));
  const frozen = found.frozen.map(([employee_id, starts_on, ends_on]) => ({ employee_id, starts_on, ends_on }));
  const stored = found.stored.map(([employee_id, begins, ends]) => ({
    employee_id,
    begins_at: new Date(Number(begins)),
    ends_at: new Date(Number(ends)),
  }));

  const checkProduct = (issues: RuleIssue[], id: number | null | undefined) => {
    if (!id) return;
    const row = productById.get(id);
    if (!row) add(issues, "reference", "product_catalog_id", messages.invalidReference);
    else if (!row.is_selectable)
      add(issues, "product_not_selectable", "product_catalog_id", messages.activityProductNotSelectable);
  };
  const found_ = list.map((values, i) => {
    const issues: RuleIssue[] = [];
    const employee = employeeById.get(values.employee_id);
    if (!employee) add(issues, "reference", "employee_id", messages.invalidReference);
    else if (!employee.is_active) add(issues, "employee_inactive", "employee_id", messages.employeeInactive);
    if (values.activity_type_catalog_id && !types.has(values.activity_type_catalog_id)) {
      add(issues, "reference", "activity_type_catalog_id", messages.invalidReference);
    }
    switch (values.action_type) {
      case "project": {
        const project = projectById.get(values.project_id as number);
        if (!project) add(issues, "reference", "project_id", messages.invalidReference);
        else if (
          (ARCHIVED_PROJECT_STATES as string[]).includes(project.state) &&
          options.storedProjects?.[i] !== values.project_id
        )
          add(
            issues,
            "project_not_current",
            "project_id",
            messages.activityProjectNotCurrent(project.code ?? `#${values.project_id}`, projectStateLabel(project.state)),
          );
        else
          Object.assign(values, {
            ownerable_type: "Client",
            ownerable_id: project.client_id,
            product_catalog_id: project.product_catalog_id,
          });
        break;
      }
      case "support":
        if (values.ownerable_id && values.ownerable_id === options.settings.support_excluded_customer_id) {
          add(issues, "excluded_customer", "ownerable_id", messages.activityExcludedCustomer);
        } else if (values.ownerable_id && !clientSet.has(values.ownerable_id))
          add(issues, "reference", "ownerable_id", messages.invalidReference);
        checkProduct(issues, values.product_catalog_id);
        break;
      case "quote": {
        const known = values.ownerable_type === "Prospect" ? prospectSet : clientSet;
        if (values.ownerable_id && !known.has(values.ownerable_id))
          add(issues, "reference", "ownerable_id", messages.invalidReference);
        checkProduct(issues, values.product_catalog_id);
        break;
      }
      case "internal":
      case "rh": {
        const customer = options.settings.default_customer_id;
        Object.assign(values, { ownerable_type: customer ? "Client" : null, ownerable_id: customer ?? null });
        break;
      }
    }
    return issues;
  });
  // The week's rules, over the week as it will be: the stored rows this change leaves, and (in a save)
  // the activities it writes together. An unknown employee has no week to check.
  const known = list.map((v) => employeeById.has(v.employee_id));
  const facts = {
    unchanged: stored,
    frozen,
    today,
    allowFuture: options.settings.allow_future_activities,
  };
  const week = options.together
    ? weekIssues(
        list.filter((_, i) => known[i]),
        facts,
      )
    : list.map((v, i) => (known[i] ? weekIssues([v], facts)[0] : []));
  let k = 0;
  return found_.map((issues, i) => (known[i] ? [...issues, ...(options.together ? week[k++] : week[i])] : issues));
}

/** The columns written for an activity: every stored field of the vocabulary (src/core/activity.ts). */
export function rowOf(values: ActivityValues, userId: number): ActivityRow {
  const row = {} as Record<ActivityField, unknown>;
  for (const [field] of ACTIVITY_INSERT_COLUMNS) row[field] = (values as Record<string, unknown>)[field] ?? null;
  row.is_favorite = values.is_favorite ?? false;
  row.import_key = values.import_key ?? values.google_calendar_id ?? null;
  row.update_by = userId;
  return row as ActivityRow;
}
export type ActivityRow = { [K in ActivityField]: K extends keyof ActivityValues ? ActivityValues[K] | null : number | null };

/** Whether the local day of `instant` lies in a closed week or month of the employee. */
export async function isFrozenDay(db: Tx, employeeId: number, instant: Date): Promise<boolean> {
  const day = localDate(instant);
  const [row] = await db
    .select({ id: frozen_periods.id })
    .from(frozen_periods)
    .where(and(eq(frozen_periods.employee_id, employeeId), lte(frozen_periods.starts_on, day), gte(frozen_periods.ends_on, day)))
    .limit(1);
  return !!row;
}

/** beforeWrite of the resource: merges an update with the stored row, parses, authorises, checks. */
export async function prepareActivityWrite(
  ...[input, ctx, existing]: WriteArgs<typeof activities, typeof activitySchema, typeof activityUpdateSchema>
) {
  if (existing) {
    if (existing.is_editable === false) throw ValidationError.rule("frozen", messages.activityFrozen);
  }
  const merged: Record<string, unknown> = {};
  if (existing) for (const key of ACTIVITY_WRITABLE) merged[key] = existing[key];
  for (const [key, value] of Object.entries(input)) if (value !== undefined) merged[key] = value;
  // Changing the action type drops the old type's fields unless sent again (normaliseActivity clears them).
  const parsed = parse(activitySchema, merged);
  const target = existing && input.employee_id === undefined ? existing.employee_id : employeeFor(ctx.user, input.employee_id);
  // Serialised with closing a week or month (./weekLock.ts); the stored row's day is checked again under
  // the lock, since a close may have committed after it was read.
  await lockEmployeeWeeks(ctx.db, existing ? [target, existing.employee_id] : [target]);
  if (existing && (await isFrozenDay(ctx.db, existing.employee_id, existing.begins_at)))
    throw ValidationError.rule("frozen", messages.activityFrozen);
  const values: ActivityValues = { ...parsed, employee_id: target };
  const issues = await checkActivity(ctx.db, values, {
    settings: await loadSettings(ctx.db),
    exceptId: existing?.id,
    storedProjects: [existing ? existing.project_id : undefined],
  });
  if (issues.length) throw ValidationError.ofIssues(issues);
  return rowOf(values, ctx.user.id);
}

/* ---------- batches ---------- */

export interface BatchItem {
  index: number;
  values: ActivityValues;
  /** An already stored row with the same import key (idempotency): nothing to write. */
  existingId?: number;
}

/** The map key of an employee's import key (storedImportKeys answers ids under it). */
export const importKeyOf = (employeeId: number, importKey: string) => `${employeeId}\u0000${importKey}`;

/**
 * The ids of activities already stored under these employees' import keys, in one query (the week save's
 * idempotency: checkBatch before writing, insertBatch for rows another save wrote meanwhile).
 */
export async function storedImportKeys(
  db: Tx,
  rows: { employee_id: number; import_key?: string | null }[],
): Promise<Map<string, number>> {
  const keyed = rows.filter((r) => r.import_key);
  if (!keyed.length) return new Map();
  const stored = await db
    .select({ id: activities.id, employee_id: activities.employee_id, import_key: activities.import_key })
    .from(activities)
    .where(
      and(
        inArray(activities.employee_id, [...new Set(keyed.map((r) => r.employee_id))]),
        inArray(activities.import_key, [...new Set(keyed.map((r) => r.import_key as string))]),
      ),
    );
  return new Map(stored.map((r) => [importKeyOf(r.employee_id, r.import_key as string), r.id]));
}

/** Parses a by_begins_at value: {start_date, end_date} object, JSON text, or a single date. */
export function parseRange(value: unknown): { start?: string; end?: string } {
  let v = value;
  if (typeof v === "string") {
    const text = v.trim();
    if (text.startsWith("{")) {
      try {
        v = JSON.parse(text);
      } catch {
        return {};
      }
    } else return { start: text };
  }
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return {
      start: typeof o.start_date === "string" ? o.start_date : undefined,
      end: typeof o.end_date === "string" ? o.end_date : undefined,
    };
  }
  return {};
}

/** The local date of the start of a by_begins_at range (body or query, object or bracket keys). */
export function rangeStartDate(params: Record<string, unknown>): string | null {
  const range = parseRange(params.by_begins_at);
  const start = range.start ?? (params["by_begins_at[start_date]"] as string | undefined);
  return typeof start === "string" ? localDateOf(start) : null;
}

/**
 * What the timesheet needs to know of one employee's week before anyone types: which days are frozen
 * (a closed week, or the days a frozen month covers), why, and whether the caller may close or open it
 * (the freeze routes' rules: a non-admin closes only their own week once it has begun; only admins open).
 */
export async function weekState(db: Tx, user: SessionUser, employeeId: number, week: { starts_on: string; ends_on: string }) {
  const [employee] = await db
    .select({ id: employees.id, daily_hours: employees.daily_hours, start_on: employees.start_on })
    .from(employees)
    .where(eq(employees.id, employeeId));
  if (!employee) throw ValidationError.field("by_employee", messages.invalidReference);
  const periods = await db
    .select({ kind: frozen_periods.kind, starts_on: frozen_periods.starts_on, ends_on: frozen_periods.ends_on })
    .from(frozen_periods)
    .where(
      and(
        eq(frozen_periods.employee_id, employeeId),
        lte(frozen_periods.starts_on, week.ends_on),
        gte(frozen_periods.ends_on, week.starts_on),
      ),
    );
  const days = Array.from({ length: 7 }, (_, i) => addDays(week.starts_on, i));
  const frozenDays = days.filter((d) => periods.some((p) => p.starts_on <= d && p.ends_on >= d));
  const weekClosed = periods.some((p) => p.kind === "week");
  const admin = isAdmin(user);
  return {
    week_start: week.starts_on,
    week_end: week.ends_on,
    employee_id: employeeId,
    /** Every day of the week is frozen: nothing in it can be created, changed or removed. */
    frozen: frozenDays.length === days.length,
    /** Why days are frozen: the week was closed, or a frozen month covers some of them; null when none is. */
    frozen_kind: weekClosed ? ("week" as const) : frozenDays.length ? ("month" as const) : null,
    frozen_days: frozenDays,
    // Closing outright is an administrator's; an employee sends their week to review (can_submit).
    can_close: !weekClosed && admin,
    can_open: weekClosed && admin,
    /** What the week expects of its employee (src/core/hours.ts): their daily norm, from their start date. */
    daily_hours: Number(employee.daily_hours),
    start_on: employee.start_on,
  };
}
