/**
 * The timesheet's verbs (SPEC §4, §7 activities extras): recent activities, copying the previous week,
 * freezing weeks and months, the week's state, tickets, the week's CSVs, and the imports and the week's
 * save, whose refusals keep every line the server named.
 */
import type { Identifier, RaRecord } from "react-admin";
import { HttpError } from "react-admin";
import { type ItemIssue, isRuleCode } from "../core/activityRules";
import type { LocalEvent } from "../core/localEvent";
import { messages } from "../core/messages";
import type { ActivityRef, ActivitySkipped, CopyWeekAnswer, FreezeAnswer, WeekSave, WeekState } from "../core/schemas/activity";
import { downloadCsv } from "./downloads";
import { API_ROOT, apiFetch, errorFor, messagesOf, payloadOf, type Query, request } from "./http";

export type { ActivitySkipped, WeekState };
export type FreezeVerb = "close_activities" | "open_activities" | "close_month_activities" | "open_month_activities";

export const activityVerbs = {
  /** GET activities/recent_activities: the latest distinct activities to start a new one from. */
  recentActivities: (employeeId?: Identifier | null) =>
    apiFetch<{ activities: RaRecord[] }>("activities/recent_activities", {
      query: { employee_id: employeeId ?? undefined },
    }).then((r) => r.activities),
  /** POST activities/copy_previous_week: copies the week before into the week starting `weekStart`. */
  copyPreviousWeek: (weekStart: string, employeeId?: Identifier | null, options: { dryRun?: boolean } = {}) =>
    apiFetch<CopyWeekAnswer<RaRecord>>("activities/copy_previous_week", {
      method: "POST",
      body: { week_start: weekStart, employee_id: employeeId ?? undefined, ...(options.dryRun ? { dry_run: true } : {}) },
    }),
  /** PUT activities/{close,open}_activities and {close,open}_month_activities for the period containing `date`. */
  freezeActivities: (verb: FreezeVerb, date: string, employeeId?: Identifier | null, reason?: string) =>
    apiFetch<FreezeAnswer>(`activities/${verb}`, {
      method: "PUT",
      // `reason`: opening a week in review or approved returns it to its employee with it.
      body: { by_begins_at: { start_date: date }, by_employee: employeeId ?? undefined, reason },
    }),
  /** GET activities/week_state: whether the week is frozen (and why) and whether the caller may close or open it. */
  weekState: (weekStart: string, employeeId?: Identifier | null, signal?: AbortSignal) =>
    apiFetch<WeekState>("activities/week_state", {
      query: { week_start: weekStart, by_employee: employeeId ?? undefined },
      signal,
    }),
  /** POST activities/get_ticket_by_proyect (work-tracking service; failures titled 'Azure Devops'). */
  searchTickets: (params: {
    search: string;
    project_id?: Identifier | null;
    client_id?: Identifier | null;
    product_catalog_id?: Identifier | null;
  }) =>
    apiFetch<{ tickets: { id: string; name: string }[] }>("activities/get_ticket_by_proyect", {
      method: "POST",
      body: params,
    }).then((r) => r.tickets),
  /** Saves GET activities.csv or activities/download_personal_report.csv (SPEC §9: 300000 ms timeout). */
  downloadActivitiesCsv: (kind: "activities" | "personal", query: Query, signal?: AbortSignal) =>
    downloadCsv(kind === "activities" ? "activities.csv" : "activities/download_personal_report.csv", query, {
      signal,
      fallbackName: kind === "activities" ? "actividades.csv" : "reporte_personal_actividades.csv",
    }),
};

/**
 * A refused import or batch: the message to show and every line the server named (CSV lines, or the
 * validation messages per activity index), which apiFetch's toasts would reduce to the first.
 */
/** A create of the week save whose event another window already saved differently. */
export interface ImportKeyConflict {
  index: number;
  id: number;
  lock_version: number;
}

export class ImportCallError extends HttpError {
  constructor(
    message: string,
    status: number,
    readonly lines: string[],
    /** POST activities/validate: messages per index of the activities sent. */
    readonly byIndex: Record<string, Record<string, string[]>> = {},
    /** The week save's creates whose import key is stored with other content: the stored id and version. */
    readonly conflicts: ImportKeyConflict[] = [],
    /** The refusals by rule: item, field, code and message (src/core/activityRules.ts). */
    readonly issues: ItemIssue[] = [],
  ) {
    super(message, status, {});
    // react-admin's HttpError resets the prototype to its own: keep the subclass recognisable.
    Object.setPrototypeOf(this, ImportCallError.prototype);
  }
}

/** The answer's rule issues, each kept only when it has a known code and texts. */
const issuesOf = (value: unknown): ItemIssue[] =>
  Array.isArray(value)
    ? value.filter(
        (i): i is ItemIssue =>
          !!i &&
          typeof i === "object" &&
          isRuleCode(i.code) &&
          typeof i.field === "string" &&
          typeof i.message === "string" &&
          (i.item === undefined || typeof i.item === "string"),
      )
    : [];

/**
 * A call whose 422 keeps all its lines (errors.base, or errors keyed by index: "0", "updates.0",
 * "deletions.0"); other failures as apiFetch, except the statuses in `keep` (the week save's 409, which
 * names the stale activities the same way).
 */
async function callKeeping422<T>(
  path: string,
  method: "POST" | "PUT",
  body: FormData | unknown,
  query?: Query,
  keep: number[] = [],
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await request(path, { method, body, query, headers });
  const payload = await payloadOf(response);
  if (response.ok) return payload as T;
  if (response.status !== 422 && !keep.includes(response.status)) throw errorFor(response.status, payload);
  const errors = ((payload as { errors?: Record<string, unknown> }).errors ?? {}) as Record<string, unknown>;
  const error = (payload as { error?: string }).error;
  const byIndex: Record<string, Record<string, string[]>> = {};
  const lines: string[] = [];
  for (const [key, value] of Object.entries(errors)) {
    if (/^(\d+|(updates|deletions)\.\d+)$/.test(key) && value && typeof value === "object" && !Array.isArray(value)) {
      byIndex[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([f, v]) => [f, messagesOf(v)]));
      lines.push(...Object.values(byIndex[key]).flat());
    } else lines.push(...messagesOf(value));
  }
  throw new ImportCallError(
    error ?? lines[0] ?? messages.invalidValue,
    response.status,
    error && !lines.length ? [error] : lines,
    byIndex,
    ((payload as { conflicts?: ImportKeyConflict[] }).conflicts ?? []).filter((c) => c && typeof c.id === "number"),
    issuesOf((payload as { issues?: unknown }).issues),
  );
}

export const importVerbs = {
  /** GET calendar_imports/sources: whether the server can read Google Calendar. */
  calendarSources: () => apiFetch<{ google: boolean }>("calendar_imports/sources"),
  /** POST calendar_imports: an .ics file (multipart) or {source: "google"} for the week or one day → local events. */
  /** `onWarnings` hears which events or lines of an .ics file could not be read (the rest is imported). */
  importCalendar: (input: {
    startDate: string;
    day?: string | null;
    file?: File | null;
    source?: "google";
    onWarnings?: (warnings: string[]) => void;
  }) => {
    if (input.file) {
      const form = new FormData();
      form.append("start_date", input.startDate);
      if (input.day) form.append("day", input.day);
      form.append("file", input.file, input.file.name);
      return callKeeping422<{ events: LocalEvent[]; warnings?: string[] }>("calendar_imports", "POST", form).then((r) => {
        if (r.warnings?.length) input.onWarnings?.(r.warnings);
        return r.events;
      });
    }
    return callKeeping422<{ events: LocalEvent[] }>("calendar_imports", "POST", {
      start_date: input.startDate,
      day: input.day ?? undefined,
      source: input.source ?? "google",
    }).then((r) => r.events);
  },
  /** PUT activities/import_activities_csv?date= (multipart file) → local events. */
  importActivitiesCsv: (file: File, date: string) => {
    const form = new FormData();
    form.append("file", file, file.name);
    return callKeeping422<{ import_activities: LocalEvent[] }>("activities/import_activities_csv", "PUT", form, { date }).then(
      (r) => r.import_activities,
    );
  },
  /** POST activities/validate {activities}: resolves when all are valid; ImportCallError.byIndex otherwise. */
  validateActivities: (activities: unknown[]) =>
    callKeeping422<{ valid: boolean }>("activities/validate", "POST", { activities }),
  /** POST activities/batch {activities}: all or nothing, idempotent by import_key. */
  saveActivitiesBatch: (activities: unknown[]) =>
    callKeeping422<{ activities: RaRecord[]; created: number; existing: number; message: string }>("activities/batch", "POST", {
      activities,
    }),
  /**
   * POST activities/batch {activities, updates, deletions}: the week's draft in one request, all or
   * nothing. Refusals reject with ImportCallError: 422 with byIndex keyed "0" (creates), "updates.N" and
   * "deletions.N"; 409 when an activity changed since it was read (byIndex names it); 403 for another
   * employee's activity.
   */
  saveWeek: (draft: WeekDraft, options: { minimal?: boolean } = {}) =>
    callKeeping422<WeekSaveAnswer>(
      "activities/batch",
      "POST",
      weekDraftBody(draft),
      undefined,
      [409],
      options.minimal ? { Prefer: "return=minimal" } : {},
    ),
  /** POST activities/validate with the same draft: the same refusals, nothing written. */
  validateWeek: (draft: WeekDraft) =>
    callKeeping422<{ valid: boolean }>("activities/validate", "POST", weekDraftBody(draft), undefined, [409]),
};

/** A stored activity the draft changes: its id, the version it was read at, and the changed fields. */
export type WeekDraftUpdate = ActivityRef & Record<string, unknown>;
/** The week's draft: new activities (localEventToActivity bodies), changed ones and removed ones. */
export interface WeekDraft {
  creates?: unknown[];
  updates?: WeekDraftUpdate[];
  deletions?: ActivityRef[];
}
/** POST activities/batch with a draft: the rows as react-admin reads them. */
export type WeekSaveAnswer = WeekSave<RaRecord>;
const weekDraftBody = (draft: WeekDraft) => ({
  activities: draft.creates ?? [],
  updates: draft.updates ?? [],
  deletions: draft.deletions ?? [],
});

/** Where the activities CSV format is downloaded (GET activities/download_csv_format, a plain link). */
export const ACTIVITIES_CSV_FORMAT_URL = `${API_ROOT}/activities/download_csv_format`;
