/**
 * The local saved week of the timesheet (SPEC §3 "Local saved week", §4 "Local week lifecycle").
 *
 * Imports (calendar .ics / Google, CSV) answer local events; the browser keeps them in localStorage under
 * `weekCalendar` until the employee fixes what did not parse and saves the week in one
 * POST activities/batch (creates, updates and deletions together). This module is the contract between
 * the import routes, the browser's saved week and the batch save: field names exactly as SPEC §3 writes them.
 */
import type { ActionType } from "./constants";

export const WEEK_STORAGE_KEY = "weekCalendar";

/** GCL: Google Calendar; CSV: a CSV file; ICS: an .ics file (ours). */
export const IMPORT_TYPES = ["GCL", "CSV", "ICS"] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

export interface GoogleCalendarEventInfo {
  organizer?: string | null;
  hangoutLink?: string | null;
}

export interface LocalEvent {
  /** The source's id (calendar UID + instance start, CSV row key); duplicates get `CP-<time>` ids. */
  id: string;
  /** The event's title as it came (`P|PRY-001|DE|…`). */
  summary: string;
  /** ISO 8601 instants. */
  start: string;
  end: string;
  description: string;
  actionType: ActionType;
  clientId: number | null;
  clientName: string | null;
  ownerableType: "Client" | "Prospect" | null;
  activityTypeCatalogId: number | null;
  projectId: number | null;
  projectName: string | null;
  project_code: string | null;
  productId: number | null;
  ticketId: string | null;
  ticketName: string | null;
  favorite: boolean;
  /** Everything the title names resolved and a description exists. */
  isValidate: boolean;
  isRecurring: boolean;
  /** Already saved in SIA (shown brown after "Refrescar actividades"). */
  isintoSia: boolean;
  /** The calendar's recurring-series id (for remembering how a series was mapped). */
  googleCId: string | null;
  /** The calendar event instance id, kept on the saved activity: re-saving it creates no duplicate. */
  google_calendar_id: string | null;
  google_calendar_event: GoogleCalendarEventInfo | null;
  shortTitle: string | null;
  /** Why the event is not valid yet (Spanish), when isValidate is false. Not in SPEC §3; shown to the user. */
  errors?: string[];
  /** The stable key that makes the batch save idempotent (calendar instance or CSV row). */
  importKey?: string | null;
}

export interface SavedWeek {
  importType: ImportType;
  /** YYYY-MM-DD of the Monday and of the Sunday. */
  startOfWeek: string;
  endOfWeek: string;
  events: LocalEvent[];
}
