/** Capacity and utilisation (GET /api/v1/capacity and its CSV): the query the screen and the route parse, and the answer. */
import { capacityMessages } from "../messages";
import { dayOfWeek } from "../week";
import { isoDate, optionalId, z } from "./fields";

/** Weeks before the current one the screen shows by default. */
export const CAPACITY_WEEKS_BACK = 12;
/** Weeks after the current one the screen shows by default. */
export const CAPACITY_WEEKS_AHEAD = 8;
/** The most weeks one request covers: a year and a bit, so a year's CSV fits in one file. */
export const CAPACITY_MAX_WEEKS = 53;
/**
 * A person is under-assigned in a week when less than this share of their capacity is assigned: below half,
 * a planner has room for another engagement; a day or two free is ordinary slack, not a signal.
 */
export const UNDER_ASSIGNED_SHARE = 0.5;

export const CAPACITY_STATES = ["over", "under", "ok", "none"] as const;
export type CapacityState = (typeof CAPACITY_STATES)[number];

const emptyToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);
const monday = (label: string) =>
  z.preprocess(
    emptyToUndefined,
    isoDate()
      .refine((d) => dayOfWeek(d) === 1, { error: capacityMessages.notMonday(label) })
      .optional(),
  );

export const capacityQuery = z
  .object({
    /** The first week's Monday; CAPACITY_WEEKS_BACK weeks before the current one when absent. */
    from: monday(capacityMessages.fromLabel),
    /** The last week's Monday; CAPACITY_WEEKS_AHEAD weeks after the current one when absent. */
    to: monday(capacityMessages.toLabel),
    workspace_id: optionalId(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ["to"], error: capacityMessages.rangeOrder });
export type CapacityQuery = z.output<typeof capacityQuery>;

const hours = z.number();
export const loggedHours = z.object({
  project: hours,
  support: hours,
  internal: hours,
  vacation: hours,
  total: hours,
});
export type LoggedHours = z.infer<typeof loggedHours>;

export const capacityWeek = z.object({
  /** The week's Monday. */
  week: z.string(),
  capacity_hours: hours,
  assigned_hours: hours,
  state: z.enum(CAPACITY_STATES),
  /** Hours logged in the week, by group; null for a week still to come. */
  logged: loggedHours.nullable(),
});
export type CapacityWeek = z.infer<typeof capacityWeek>;

export const capacityPerson = z.object({
  id: z.number(),
  name: z.string(),
  workspace_id: z.number().nullable(),
  workspace_name: z.string().nullable(),
  daily_hours: hours,
  start_on: z.string().nullable(),
  weeks: z.array(capacityWeek),
});
export type CapacityPerson = z.infer<typeof capacityPerson>;

export const capacityAnswer = z.object({
  /** First and last Monday shown. */
  from: z.string(),
  to: z.string(),
  /** The current week's Monday (business time zone): weeks up to it show logged hours. */
  current_week: z.string(),
  weeks: z.array(z.string()),
  holidays: z.array(z.object({ date: z.string(), name: z.string().nullable() })),
  under_share: z.number(),
  employees: z.array(capacityPerson),
});
export type Capacity = z.infer<typeof capacityAnswer>;
