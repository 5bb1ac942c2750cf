/**
 * The local saved week of the timesheet (SPEC §3 "Local saved week", §4 "Local week lifecycle").
 *
 * Imports (calendar .ics / Google, CSV) answer local events; the browser keeps them in localStorage under
 * `weekCalendar` until the employee fixes what did not parse and saves the week in one
 * POST activities/batch (creates, updates and deletions together). This module is the contract between
 * the import routes, the browser's saved week and the batch save: field names exactly as SPEC §3 writes them.
 */
import { z } from "zod";
import { ACTION_TYPES } from "./constants";

export const WEEK_STORAGE_KEY = "weekCalendar";

/** GCL: Google Calendar; CSV: a CSV file; ICS: an .ics file (ours). */
export const IMPORT_TYPES = ["GCL", "CSV", "ICS"] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

export const googleCalendarEventInfo = z.object({
  organizer: z.string().nullable().optional(),
  hangoutLink: z.string().nullable().optional(),
});
export type GoogleCalendarEventInfo = z.infer<typeof googleCalendarEventInfo>;

/** One local event, as the imports answer it and the saved week keeps it. */
export const localEventAnswer = z.object({
  /** The source's id (calendar UID + instance start, CSV row key); duplicates get `CP-<time>` ids. */
  id: z.string(),
  /** The event's title as it came (`P|PRY-001|DE|…`). */
  summary: z.string(),
  /** ISO 8601 instants. */
  start: z.string(),
  end: z.string(),
  description: z.string(),
  actionType: z.enum(ACTION_TYPES),
  clientId: z.number().nullable(),
  clientName: z.string().nullable(),
  ownerableType: z.enum(["Client", "Prospect"]).nullable(),
  activityTypeCatalogId: z.number().nullable(),
  projectId: z.number().nullable(),
  projectName: z.string().nullable(),
  project_code: z.string().nullable(),
  productId: z.number().nullable(),
  ticketId: z.string().nullable(),
  ticketName: z.string().nullable(),
  favorite: z.boolean(),
  /** Everything the title names resolved and a description exists. */
  isValidate: z.boolean(),
  isRecurring: z.boolean(),
  /** Already saved in SIA (shown brown after "Refrescar actividades"). */
  isintoSia: z.boolean(),
  /** The calendar's recurring-series id (for remembering how a series was mapped). */
  googleCId: z.string().nullable(),
  /** The calendar event instance id, kept on the saved activity: re-saving it creates no duplicate. */
  google_calendar_id: z.string().nullable(),
  google_calendar_event: googleCalendarEventInfo.nullable(),
  shortTitle: z.string().nullable(),
  /** Why the event is not valid yet (Spanish), when isValidate is false. Not in SPEC §3; shown to the user. */
  errors: z.array(z.string()).optional(),
  /**
   * The rule code of each of `errors`, in the same order (src/core/activityRules.ts): what a drag can cure
   * is read from the codes, never from the Spanish text. Absent for reasons without one (never cured by a move).
   */
  errorCodes: z.array(z.string()).optional(),
  /** The stable key that makes the batch save idempotent (calendar instance or CSV row). */
  importKey: z.string().nullable().optional(),
});
export type LocalEvent = z.infer<typeof localEventAnswer>;

export interface SavedWeek {
  importType: ImportType;
  /** YYYY-MM-DD of the Monday and of the Sunday. */
  startOfWeek: string;
  endOfWeek: string;
  events: LocalEvent[];
}
