/**
 * One activity of the weekly timesheet (SPEC §3, §5), shared by the activity form and the API.
 *
 * Fields follow the action type:
 * - project: project_id and activity_type_catalog_id (client and product come from the project, server side);
 * - support: a Client, a product, an activity type and a ticket, the last two optional (the excluded
 *   customer is refused by the server);
 * - quote: a Client or a Prospect, and a product;
 * - internal: an optional activity type; internal and rh: the server fills the default customer of the app
 *   settings (any owner sent is ignored);
 * - vacation: no owner, project or product; the description is always 'Vacaciones / Incapacidades'.
 * ACTION_PARTS says the same as a table, for the form.
 *
 * Times: begins_at < ends_at, both on the same local (Mexico City) day — ends_at may be exactly the next
 * midnight. Granularity decision: whole minutes are required, but the 15-minute grid is NOT enforced:
 * the calendar snaps to 15-minute slots (CALENDAR.slotMinutes) when drawing or dragging, yet events
 * imported from the calendar service or a CSV keep their real times (a meeting at 10:05–10:50 is valid).
 */

import type { RuleCode } from "../activityRules";
import { ACTION_TYPES, type ActionType, VACATION_DESCRIPTION } from "../constants";
import { messages } from "../messages";
import { isDateInRange, localDate, localDateOf, weekOf } from "../week";
import { flag, instant, optionalId, optionalText, z } from "./fields";
import { weekReviewState } from "./week_review";

export const OWNERABLE_TYPES = ["Client", "Prospect"] as const;

/**
 * The parts each action type carries: the same parts as its import title (src/core/eventTitle.ts,
 * TITLE_SHAPES: P|proyecto|tipo, S|cliente|producto|tipo, PC|cliente o prospecto|producto, AS|tipo, RH),
 * so manual entry offers what an import accepts. The activity type is required for projects only: the
 * import requires it in S and AS titles, but activities kept from before (and their copies) have none.
 */
export interface ActionParts {
  project?: true;
  owner?: "client" | "client_or_prospect";
  product?: true;
  activityType?: "required" | "optional";
  ticket?: true;
  /** The app settings' default customer, filled by the server. */
  defaultCustomer?: true;
}
export const ACTION_PARTS: Record<ActionType, ActionParts> = {
  project: { project: true, activityType: "required" },
  support: { owner: "client", product: true, activityType: "optional", ticket: true },
  quote: { owner: "client_or_prospect", product: true },
  internal: { activityType: "optional", defaultCustomer: true },
  rh: { defaultCustomer: true },
  vacation: {},
};

const nullIfBlank = (v: unknown) => (v === "" || v === "null" ? null : v);

/** Whether a JSON value nests at most `max` objects or arrays deep (read without recursion). */
function nestsWithin(value: unknown, max: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length) {
    const [item, depth] = pending.pop() as [unknown, number];
    if (item === null || typeof item !== "object") continue;
    if (depth >= max) return false;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return true;
}
/** A Google Calendar event nests four levels; a crafted one thousands deep would overflow what reads it. */
const CALENDAR_EVENT_DEPTH = 32;

/** google_calendar_event arrives as JSON text (SPEC §3) or as an object. */
const calendarEvent = z.preprocess(
  (v) => {
    if (v === "" || v === null || v === undefined) return null;
    if (typeof v === "string") {
      try {
        return JSON.parse(v);
      } catch {
        return v;
      }
    }
    return v;
  },
  z
    .record(z.string(), z.unknown(), { error: messages.invalidValue })
    .refine((v) => nestsWithin(v, CALENDAR_EVENT_DEPTH), { error: messages.nestedTooDeep(CALENDAR_EVENT_DEPTH) })
    .nullable()
    .optional(),
);

export const activityFields = {
  employee_id: optionalId(),
  begins_at: instant(),
  ends_at: instant(),
  description: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : v),
    z.string({ error: messages.required }).max(2000, { error: messages.tooLong(2000) }),
  ),
  action_type: z.enum(ACTION_TYPES, { error: messages.invalidActionType }),
  activity_type_catalog_id: optionalId(),
  ownerable_id: optionalId(),
  ownerable_type: z.preprocess(nullIfBlank, z.enum(OWNERABLE_TYPES, { error: messages.invalidValue }).nullable().optional()),
  project_id: optionalId(),
  product_catalog_id: optionalId(),
  short_title: optionalText(300),
  ticket_id: optionalText(60),
  ticket_name: optionalText(500),
  is_favorite: flag(),
  google_calendar_id: optionalText(300),
  google_calendar_event: calendarEvent,
  import_key: optionalText(300),
};

const base = z.object(activityFields);
type Base = z.infer<typeof base>;

/**
 * The time rules of an activity, once: each refused case with the field and message the form shows, and
 * the sentence an import shows on an event that breaks it (marked invalid before anyone tries to save).
 */
export function activityTimeIssues(begins: Date, ends: Date) {
  const issues: { path: "begins_at" | "ends_at"; code: RuleCode; message: string; reason: string }[] = [];
  if (ends.getTime() === begins.getTime())
    issues.push({
      path: "ends_at",
      code: "zero_length",
      message: messages.activityEndBeforeStart,
      reason: messages.importZeroLength,
    });
  else if (ends.getTime() < begins.getTime())
    issues.push({
      path: "ends_at",
      code: "ends_before_start",
      message: messages.activityEndBeforeStart,
      reason: messages.importEndsBeforeStart,
    });
  else if (localDate(begins) !== localDate(new Date(ends.getTime() - 1)))
    issues.push({
      path: "ends_at",
      code: "past_midnight",
      message: messages.activitySameDay,
      reason: messages.importPastMidnight,
    });
  for (const [path, instant] of [
    ["begins_at", begins],
    ["ends_at", ends],
  ] as const) {
    if (instant.getUTCSeconds() !== 0 || instant.getUTCMilliseconds() !== 0)
      issues.push({ path, code: "whole_minutes", message: messages.activityWholeMinutes, reason: messages.importWholeMinutes });
  }
  return issues;
}

/** Per-action-type rules and the time rules; also normalises vacation and drops fields a type does not use. */
export function activityRules(v: Base, ctx: z.RefinementCtx) {
  // The rule's code travels in the issue's params (server/http/errors.ts answers it beside the message).
  const issue = (path: string, message: string, rule?: RuleCode) =>
    ctx.addIssue({ code: "custom", path: [path], message, ...(rule ? { params: { rule } } : {}) });
  for (const { path, message, code } of activityTimeIssues(v.begins_at, v.ends_at)) issue(path, message, code);
  if (v.action_type !== "vacation" && !v.description) issue("description", messages.required);
  switch (v.action_type) {
    case "project":
      if (!v.project_id) issue("project_id", messages.required);
      if (!v.activity_type_catalog_id) issue("activity_type_catalog_id", messages.required);
      break;
    case "support":
      if (v.ownerable_type && v.ownerable_type !== "Client") issue("ownerable_type", messages.activitySupportClientOnly);
      if (!v.ownerable_id) issue("ownerable_id", messages.required);
      if (!v.product_catalog_id) issue("product_catalog_id", messages.required);
      break;
    case "quote":
      if (!v.ownerable_id) issue("ownerable_id", messages.required);
      if (!v.product_catalog_id) issue("product_catalog_id", messages.required);
      break;
  }
}

/** Clears what an action type does not carry and fixes the vacation text. */
export function normaliseActivity<T extends Base>(v: T): T {
  const out = { ...v };
  switch (v.action_type) {
    case "vacation":
      Object.assign(out, {
        description: VACATION_DESCRIPTION,
        ownerable_id: null,
        ownerable_type: null,
        project_id: null,
        product_catalog_id: null,
        activity_type_catalog_id: null,
        ticket_id: null,
        ticket_name: null,
      });
      break;
    case "support":
      out.ownerable_type = "Client";
      out.project_id = null;
      break;
    case "quote":
      out.ownerable_type = v.ownerable_type ?? "Client";
      out.project_id = null;
      out.ticket_id = null;
      out.ticket_name = null;
      break;
    case "project":
      out.ticket_id = v.ticket_id ?? null;
      break;
    case "internal":
    case "rh":
      out.project_id = null;
      out.product_catalog_id = null;
      out.ticket_id = null;
      out.ticket_name = null;
      break;
  }
  if (!ACTION_PARTS[v.action_type].activityType) out.activity_type_catalog_id = null;
  return out;
}

/** Create (and a merged update): every rule. */
export const activitySchema = base.superRefine(activityRules).transform((v) => normaliseActivity(v));
export type ActivityInput = z.output<typeof activitySchema>;
/** Update body: any subset; the server merges it with the stored activity and parses with activitySchema. */
export const activityUpdateSchema = base.partial();

/**
 * Batch calls (validate, batch): the week's draft as creates (`activities`, today's body), `updates` and
 * `deletions`, each list parsed item by item by the service (errors keyed by index: "0", "updates.0",
 * "deletions.0"). At least one item, at most ACTIVITY_BATCH_MAX in all.
 */
export const ACTIVITY_BATCH_MAX = 500;
const itemList = z
  .array(z.unknown(), { error: messages.invalidValue })
  .max(ACTIVITY_BATCH_MAX, { error: messages.activitiesTooMany(ACTIVITY_BATCH_MAX) })
  .optional()
  .default([]);
export const activityBatchSchema = z
  .object({ activities: itemList, updates: itemList, deletions: itemList })
  .superRefine((v, ctx) => {
    const total = v.activities.length + v.updates.length + v.deletions.length;
    if (!total) ctx.addIssue({ code: "custom", path: ["activities"], message: messages.activitiesNone });
    else if (total > ACTIVITY_BATCH_MAX)
      ctx.addIssue({ code: "custom", path: ["base"], message: messages.activitiesTooMany(ACTIVITY_BATCH_MAX) });
  });
export type ActivityBatch = z.output<typeof activityBatchSchema>;

/** An activity already stored, as the batch names it: its id and the version the draft read. */
export const activityRefSchema = z.object({
  id: z.coerce
    .number({ error: messages.required })
    .int({ error: messages.invalidValue })
    .positive({ error: messages.invalidValue }),
  lock_version: z.coerce
    .number({ error: messages.required })
    .int({ error: messages.invalidValue })
    .min(0, { error: messages.invalidValue })
    .max(2_147_483_647, { error: messages.invalidValue }),
});
/** A stored activity the batch names (a deletion, or the head of an update). */
export type ActivityRef = z.output<typeof activityRefSchema>;
/** One update of the batch: the id, the version read and the changed fields (merged with the stored row). */
export const activityBatchUpdateSchema = activityRefSchema.extend(activityUpdateSchema.shape);

/** Columns of the CSV import template (GET activities/download_csv_format). */
export const ACTIVITY_CSV_COLUMNS = [
  "fecha",
  "hora_inicio",
  "hora_fin",
  "tipo",
  "cliente_o_prospecto",
  "codigo_proyecto",
  "producto",
  "tipo_actividad",
  "ticket",
  "descripcion",
] as const;

/** An employee's id as a query names it; the route checks it (employeeFor), with its own messages. */
const employeeChoice = () => z.unknown().optional().meta({ description: "Id del empleado (solo administradores)" });

/**
 * GET activities/week_state: the week containing `week_start` (a date), and whose (`by_employee` or
 * `employee_id`: an administrator's choice; anyone else's own).
 */
export const weekStateQuery = z.object({
  week_start: z.string({ error: messages.invalidDate }).transform((value, ctx) => {
    const day = localDateOf(value);
    if (!day) {
      ctx.addIssue({ code: "custom", message: messages.invalidDate });
      return z.NEVER;
    }
    const week = weekOf(day);
    if (!isDateInRange(week.starts_on) || !isDateInRange(week.ends_on)) {
      ctx.addIssue({ code: "custom", message: messages.dateOutOfRange });
      return z.NEVER;
    }
    return week;
  }),
  by_employee: employeeChoice(),
  employee_id: employeeChoice(),
});

/** GET activities/recent_activities: whose (an administrator's choice; anyone else's own). */
export const recentActivitiesQuery = z.object({ employee_id: employeeChoice(), by_employee: employeeChoice() });

/** One employee's week as GET activities/week_state answers it. */
export const weekStateAnswer = z.object({
  week_start: z.string(),
  week_end: z.string(),
  employee_id: z.number().int(),
  /** Every day of the week is frozen. */
  frozen: z.boolean(),
  /** "week" when the week was closed, "month" when a frozen month covers some of its days, else null. */
  frozen_kind: z.enum(["week", "month"]).nullable(),
  frozen_days: z.array(z.string()),
  can_close: z.boolean(),
  can_open: z.boolean(),
  /** The employee's daily norm and start date: what the week expects of them (src/core/hours.ts). */
  daily_hours: z.number(),
  start_on: z.string().nullable(),
  /** The week's review (docs/decisions/050-week-approval.md), null when it was never sent to review. */
  review: weekReviewState.nullable(),
  /** Its employee may send it to review now (from its Friday, open, not in review nor approved). */
  can_submit: z.boolean(),
});
export type WeekState = z.infer<typeof weekStateAnswer>;

/** A stored activity inside an answer, as the browser relies on it (the server declares its whole record). */
export const storedActivity = z.looseObject({ id: z.number().int() });
type StoredActivity = z.infer<typeof storedActivity>;

/** POST activities/validate: the draft would be saved. */
export const weekValidAnswer = z.object({ valid: z.boolean() });

/**
 * POST activities/batch's answer to a week's draft, with `activity` the schema of a stored activity (with
 * `Prefer: return=minimal`, its id alone).
 */
export const weekSaveAnswerOf = <A extends z.ZodType>(activity: A) =>
  z.object({
    /** The created activities (and those already stored under their import key), in the order sent. */
    activities: z.array(activity),
    updated: z.array(activity),
    /** The ids of the removed activities. */
    deleted: z.array(z.number().int()),
    created: z.number().int(),
    existing: z.number().int(),
    message: z.string(),
  });
export const weekSaveAnswer = weekSaveAnswerOf(storedActivity);
/** POST activities/batch's answer (`Activity`: how the caller types a stored activity). */
export type WeekSave<Activity = StoredActivity> = Omit<z.infer<typeof weekSaveAnswer>, "activities" | "updated"> & {
  activities: Activity[];
  updated: Activity[];
};

/** An activity of the previous week that POST activities/copy_previous_week did not copy, and why. */
export const activitySkipped = z.object({
  description: z.string(),
  begins_at: z.string(),
  ends_at: z.string(),
  reason: z.string(),
});
export type ActivitySkipped = z.infer<typeof activitySkipped>;

/** POST activities/copy_previous_week's answer, with `activity` the schema of a stored activity. */
export const copyWeekAnswerOf = <A extends z.ZodType>(activity: A) =>
  z.object({
    created: z.number().int(),
    /** How many activities the previous week had. */
    total: z.number().int(),
    activities: z.array(activity),
    skipped: z.array(activitySkipped),
    /** A dry run: what would be copied (nothing was written). */
    dry_run: z.literal(true).optional(),
    to_copy: z
      .array(z.object({ description: z.string(), begins_at: z.string(), ends_at: z.string(), action_type: z.string() }))
      .optional(),
    message: z.string(),
  });
export const copyWeekAnswer = copyWeekAnswerOf(storedActivity);
/** POST activities/copy_previous_week's answer (`Activity`: how the caller types a stored activity). */
export type CopyWeekAnswer<Activity = StoredActivity> = Omit<z.infer<typeof copyWeekAnswer>, "activities"> & {
  activities: Activity[];
};

/** PUT activities/{close,open}_activities and {close,open}_month_activities. */
export const freezeAnswer = z.object({
  frozen: z.boolean(),
  message: z.string(),
  frozen_period: z.object({
    employee_id: z.number().int(),
    kind: z.enum(["week", "month"]),
    starts_on: z.string(),
    ends_on: z.string(),
  }),
});
export type FreezeAnswer = z.infer<typeof freezeAnswer>;

/** POST activities/get_ticket_by_proyect: the work items found. */
export const ticketsAnswer = z.object({
  tickets: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      state: z.string().nullable().optional(),
      url: z.string().nullable().optional(),
    }),
  ),
});
