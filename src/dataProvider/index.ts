/**
 * The dataProvider, composed: a base that speaks the /api/v1 conventions for every resource, per-resource
 * overrides where a resource differs, and named custom verbs for the extra calls of SPEC §7.
 * Why not ra-data-simple-rest: docs/decisions/003-data-provider.md.
 */
import { type DataProvider, type GetListParams, HttpError, type Identifier, type RaRecord } from "react-admin";
import type { LocalEvent } from "../core/localEvent";
import { messages } from "../core/messages";
import { apiResourceOf, singularOf } from "../core/resources";
import { API_ROOT, apiFetch, errorFor, type Query, toQueryString, validationFromBody } from "./http";

type ListResponse = { meta: { total_count: number } } & Record<string, unknown>;

/** react-admin list params → /api/v1 list query. */
export function listQuery(params: Partial<GetListParams>): Query {
  const { pagination, sort, filter = {} } = params;
  const query: Query = {};
  if (pagination) {
    query.page = pagination.page;
    query.per_page = pagination.perPage;
  }
  if (sort?.field) {
    query["by_column[column]"] = sort.field;
    query["by_column[order]"] = sort.order?.toLowerCase() === "desc" ? "desc" : "asc";
  }
  for (const [key, value] of Object.entries(filter)) {
    if (key === "q") query.search = value as string;
    else query[key] = value as Query[string];
  }
  return query;
}

const unwrap = <T>(resource: string, json: unknown): T => (json as Record<string, T>)[singularOf(resource)];
const wrap = (resource: string, data: unknown) => ({ [singularOf(resource)]: data });

export const baseDataProvider: DataProvider = {
  async getList(resource, params) {
    const json = await apiFetch<ListResponse>(resource, { query: listQuery(params), signal: params.signal });
    return { data: json[resource] as never[], total: json.meta.total_count };
  },
  async getOne(resource, params) {
    const json = await apiFetch(`${resource}/${encodeURIComponent(String(params.id))}`, {
      signal: params.signal,
    });
    return { data: unwrap(resource, json) };
  },
  async getMany(resource, params) {
    if (params.ids.length === 0) return { data: [] };
    const json = await apiFetch<ListResponse>(resource, {
      query: { ids: params.ids as unknown[], per_page: "all" },
      signal: params.signal,
    });
    return { data: json[resource] as never[] };
  },
  async getManyReference(resource, params) {
    const json = await apiFetch<ListResponse>(resource, {
      query: listQuery({ ...params, filter: { ...params.filter, [params.target]: params.id } }),
      signal: params.signal,
    });
    return { data: json[resource] as never[], total: json.meta.total_count };
  },
  async create(resource, params) {
    const json = await apiFetch(resource, { method: "POST", body: wrap(resource, params.data) });
    return { data: unwrap(resource, json) };
  },
  async update(resource, params) {
    // The version the form read (or the one the user chose to overwrite): a stale save answers 409.
    const json = await apiFetch(`${resource}/${encodeURIComponent(String(params.id))}`, {
      method: "PUT",
      body: wrap(resource, changedFields(params.data, params.previousData)),
      headers: ifMatch(params.data?.lock_version ?? params.previousData?.lock_version),
    });
    return { data: unwrap(resource, json) };
  },
  async updateMany(resource, params) {
    // A bulk change is deliberate: each record is written at the version it has now.
    await Promise.all(
      params.ids.map(async (id) => {
        const path = `${resource}/${encodeURIComponent(String(id))}`;
        const current = unwrap<RaRecord>(resource, await apiFetch(path));
        return apiFetch(path, { method: "PUT", body: wrap(resource, params.data), headers: ifMatch(current?.lock_version) });
      }),
    );
    return { data: params.ids };
  },
  async delete(resource, params) {
    const json = await apiFetch(`${resource}/${encodeURIComponent(String(params.id))}`, { method: "DELETE" });
    return { data: unwrap(resource, json) };
  },
  async deleteMany(resource, params) {
    const deleted: Identifier[] = [];
    for (const id of params.ids) {
      await apiFetch(`${resource}/${encodeURIComponent(String(id))}`, { method: "DELETE" });
      deleted.push(id);
    }
    return { data: deleted };
  },
};

/** If-Match for an update: the record's lock_version as its ETag. */
function ifMatch(version: unknown): Record<string, string> {
  return typeof version === "number" ? { "If-Match": `"${version}"` } : {};
}

/** Read-only and computed fields the server does not take back on update (the version travels as If-Match). */
const READ_ONLY = new Set(["id", "created_at", "updated_at", "lock_version"]);
function changedFields(data: Record<string, unknown>, previous?: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (READ_ONLY.has(key)) continue;
    if (previous && key in previous && JSON.stringify(previous[key]) === JSON.stringify(value) && !key.endsWith("_attributes"))
      continue;
    out[key] = value;
  }
  return out;
}

/** Per-resource overrides: only what differs from the base. */
const overrides: Record<string, Partial<DataProvider>> = {};

export interface DriveItem {
  id: string;
  name: string;
  kind: "folder" | "file";
  parentId: string | null;
  url: string;
}

export interface ProjectTransition {
  event: string;
  audit_comment: string;
  date?: string | null;
  responsible_id?: Identifier | null;
  eta?: string | null;
}

export interface ProjectStage {
  id: number;
  event: string;
  event_label: string;
  from_state: string | null;
  from_state_label: string | null;
  to_state: string;
  to_state_label: string;
  comment: string | null;
  stage_date: string | null;
  eta: string | null;
  responsible_id: number | null;
  responsible_name: string | null;
  user_id: number | null;
  user_name: string | null;
  created_at: string;
}

export interface AuditLog {
  id: number;
  field: string;
  old_value: string | null;
  new_value: string | null;
  comment: string | null;
  user_id: number | null;
  user_name: string | null;
  created_at: string;
}

/** Answer of PUT holydays/import_holydays. */
export interface HolidayImportResult {
  imported: number;
  skipped: number;
  warning?: string;
}

/** A refused holiday file: the base message and every bad row the server named (fila N: …). */
export class HolidayImportError extends Error {
  constructor(
    message: string,
    readonly rows: string[],
  ) {
    super(message);
  }
}

/**
 * PUT holydays/import_holydays (multipart `file`). A 422 keeps every row the server listed
 * (invalid_dates, invalid_names) instead of the first one only.
 */
async function importHolidays(file: File): Promise<HolidayImportResult> {
  const body = new FormData();
  body.append("file", file, file.name);
  let response: Response;
  try {
    response = await fetch(`${API_ROOT}/holydays/import_holydays`, {
      method: "PUT",
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      body,
    });
  } catch {
    throw new HttpError(messages.unexpected, -1, {});
  }
  const payload = await response.json().catch(() => ({}));
  if (response.ok) return payload as HolidayImportResult;
  if (response.status === 422) {
    const errors = ((payload as { errors?: Record<string, unknown> }).errors ?? {}) as Record<string, unknown>;
    const rows = Object.entries(errors)
      .filter(([field]) => field !== "base")
      .flatMap(([, value]) => (Array.isArray(value) ? value.map(String) : [String(value)]));
    const { base } = validationFromBody(payload);
    throw new HolidayImportError(base[0] ?? (rows.length ? "El archivo tiene filas no válidas" : messages.invalidValue), rows);
  }
  throw errorFor(response.status, payload);
}

/** Named verbs for the extra calls of SPEC §7. */
export const customVerbs = {
  listDriveFolder: (parentId?: string, pageToken?: string) =>
    apiFetch<{ folder: DriveItem; items: DriveItem[]; next_page_token: string | null }>("drive/folders", {
      query: { parent_id: parentId, page_token: pageToken },
    }),
  createDriveFolder: (parentId: string, name: string) =>
    apiFetch<{ folder: DriveItem }>("drive/folders", { method: "POST", body: { folder: { parent_id: parentId, name } } }).then(
      (r) => r.folder,
    ),
  nextClientCode: () => apiFetch<{ client_code: string }>("clients/next_client_code").then((r) => r.client_code),
  searchClientsAndProspects: (search: string) =>
    apiFetch<{ clients: RaRecord[]; prospects: RaRecord[] }>("clients/search_clients_and_prospects", { query: { search } }),
  /** PUT workspaces/:id/toggle_notification: flips is_notifiable, answers the workspace. */
  toggleWorkspaceNotification: (id: Identifier, version?: number) =>
    apiFetch<{ workspace: RaRecord }>(`workspaces/${encodeURIComponent(String(id))}/toggle_notification`, {
      method: "PUT",
      headers: ifMatch(version),
    }).then((r) => r.workspace),
  // Projects (SPEC §7).
  /** GET projects/get_next_project_code → the code a new project gets. */
  nextProjectCode: () =>
    apiFetch<{ next_project_code: string }>("projects/get_next_project_code").then((r) => r.next_project_code),
  /** POST projects/:id/aasm_transition {project: {event, audit_comment, date, responsible_id, eta}}. */
  transitionProject: (id: Identifier, input: ProjectTransition, version?: number) =>
    apiFetch<{ project: RaRecord }>(`projects/${encodeURIComponent(String(id))}/aasm_transition`, {
      method: "POST",
      body: { project: input },
      headers: ifMatch(version),
    }).then((r) => r.project),
  projectStages: (id: Identifier) =>
    apiFetch<{ project_stages: ProjectStage[] }>(`projects/${encodeURIComponent(String(id))}/project_stages`).then(
      (r) => r.project_stages,
    ),
  /** POST projects/:id/extend_project {project: {eta, audit_comment, …}}. */
  extendProject: (id: Identifier, input: { eta: string | null; audit_comment: string }, version?: number) =>
    apiFetch<{ project: RaRecord }>(`projects/${encodeURIComponent(String(id))}/extend_project`, {
      method: "POST",
      body: { project: input },
      headers: ifMatch(version),
    }).then((r) => r.project),
  /** POST projects/:id/completely_invoiced | partially_invoiced. */
  markInvoiced: (
    id: Identifier,
    action: "completely_invoiced" | "partially_invoiced",
    audit_comment?: string,
    version?: number,
  ) =>
    apiFetch<{ project: RaRecord }>(`projects/${encodeURIComponent(String(id))}/${action}`, {
      method: "POST",
      body: { project: { audit_comment: audit_comment || null } },
      headers: ifMatch(version),
    }).then((r) => r.project),
  /** POST projects/:id/notify_user: records notifications; answers whether an e-mail went out. */
  notifyProjectUsers: (id: Identifier, message?: string) =>
    apiFetch<{ notified: number; email_sent: boolean; message: string }>(
      `projects/${encodeURIComponent(String(id))}/notify_user`,
      {
        method: "POST",
        body: { project: { message: message || null } },
      },
    ),
  /** GET projects/:id/audit_logs, invoices/:id/audit_logs or quotations/:id/audit_logs. */
  auditLogs: (resource: "projects" | "invoices" | "quotations", id: Identifier) =>
    apiFetch<{ audit_logs: AuditLog[] }>(`${resource}/${encodeURIComponent(String(id))}/audit_logs`).then((r) => r.audit_logs),
  // Invoices (SPEC §7).
  /** GET invoices/percentage_to_invoice?project_id → missing_percentage. */
  percentageToInvoice: (projectId: Identifier) =>
    apiFetch<{ missing_percentage: number }>("invoices/percentage_to_invoice", { query: { project_id: String(projectId) } }).then(
      (r) => Number(r.missing_percentage),
    ),
  /** POST invoices/:id/aasm_transition {invoice: {event, audit_comment, date, folio}}. */
  transitionInvoice: (
    id: Identifier,
    input: { event: string; audit_comment: string; date?: string | null; folio?: string | null },
    version?: number,
  ) =>
    apiFetch<{ invoice: RaRecord }>(`invoices/${encodeURIComponent(String(id))}/aasm_transition`, {
      method: "POST",
      body: { invoice: input },
      headers: ifMatch(version),
    }).then((r) => r.invoice),
  importHolidays,
  // --- timesheet (SPEC §7, activities and holydays extras) ---
  /** GET holydays/holydays_by_date?from&to (inclusive local dates). */
  holydaysByDate: (from: string, to: string, signal?: AbortSignal) =>
    apiFetch<{ holydays: { id: number; date: string; name?: string | null }[] }>("holydays/holydays_by_date", {
      query: { from, to },
      signal,
    }).then((r) => r.holydays),
  /** GET activities/recent_activities: the latest distinct activities to start a new one from. */
  recentActivities: (employeeId?: Identifier | null) =>
    apiFetch<{ activities: RaRecord[] }>("activities/recent_activities", {
      query: { employee_id: employeeId ?? undefined },
    }).then((r) => r.activities),
  /** POST activities/copy_previous_week: copies the week before into the week starting `weekStart`. */
  copyPreviousWeek: (weekStart: string, employeeId?: Identifier | null, options: { dryRun?: boolean } = {}) =>
    apiFetch<{
      created: number;
      /** How many activities the previous week had. */
      total: number;
      activities: RaRecord[];
      skipped: ActivitySkipped[];
      /** A dry run: what would be copied (nothing was written). */
      dry_run?: true;
      to_copy?: { description: string; begins_at: string; ends_at: string; action_type: string }[];
      message: string;
    }>("activities/copy_previous_week", {
      method: "POST",
      body: { week_start: weekStart, employee_id: employeeId ?? undefined, ...(options.dryRun ? { dry_run: true } : {}) },
    }),
  /** PUT activities/{close,open}_activities and {close,open}_month_activities for the period containing `date`. */
  freezeActivities: (verb: FreezeVerb, date: string, employeeId?: Identifier | null) =>
    apiFetch<{ frozen: boolean; message: string; frozen_period: { starts_on: string; ends_on: string } }>(`activities/${verb}`, {
      method: "PUT",
      body: { by_begins_at: { start_date: date }, by_employee: employeeId ?? undefined },
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
  /** GET activities.csv or activities/download_personal_report.csv as a Blob (SPEC §9: 300000 ms timeout). */
  downloadActivitiesCsv: async (kind: "activities" | "personal", query: Query, signal?: AbortSignal) => {
    const response = await apiFetch<Response>(
      kind === "activities" ? "activities.csv" : "activities/download_personal_report.csv",
      {
        query,
        signal,
        raw: true,
      },
    );
    const disposition = response.headers.get("content-disposition") ?? "";
    const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1];
    return {
      blob: await response.blob(),
      filename: filename ?? (kind === "activities" ? "actividades.csv" : "reporte_personal_actividades.csv"),
    };
  },
  // --- dashboards (issue 7: GET dashboards/…) ---
  /** One employee's week (the own one unless an admin names another), containing `week`. */
  employeeDashboard: (week?: string, employeeId?: Identifier | null, signal?: AbortSignal) =>
    apiFetch<{ dashboard: EmployeeDashboard }>("dashboards/employee", {
      query: { week, employee_id: employeeId ?? undefined },
      signal,
    }).then((r) => r.dashboard),
  /** The team's weeks between two dates (administrators). */
  teamDashboard: (from?: string, to?: string, signal?: AbortSignal) =>
    apiFetch<{ dashboard: TeamDashboard }>("dashboards/team", { query: { from, to }, signal }).then((r) => r.dashboard),
  projectDashboard: (id: Identifier, signal?: AbortSignal) =>
    apiFetch<{ dashboard: ProjectDashboard }>(`dashboards/projects/${encodeURIComponent(String(id))}`, { signal }).then(
      (r) => r.dashboard,
    ),
  clientDashboard: (id: Identifier, year?: number, signal?: AbortSignal) =>
    apiFetch<{ dashboard: ClientDashboard }>(`dashboards/clients/${encodeURIComponent(String(id))}`, {
      query: { year },
      signal,
    }).then((r) => r.dashboard),
};

// --- timesheet imports (SPEC §4 local saved week, §7) ---

/**
 * A refused import or batch: the message to show and every line the server named (CSV lines, or the
 * validation messages per activity index), which apiFetch's toasts would reduce to the first.
 */
export class ImportCallError extends HttpError {
  constructor(
    message: string,
    status: number,
    readonly lines: string[],
    /** POST activities/validate: messages per index of the activities sent. */
    readonly byIndex: Record<string, Record<string, string[]>> = {},
  ) {
    super(message, status, {});
    // react-admin's HttpError resets the prototype to its own: keep the subclass recognisable.
    Object.setPrototypeOf(this, ImportCallError.prototype);
  }
}

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
  const isForm = body instanceof FormData;
  let response: Response;
  try {
    response = await fetch(`${API_ROOT}/${path}${toQueryString(query)}`, {
      method,
      credentials: "same-origin",
      headers: { Accept: "application/json", ...(isForm ? {} : { "Content-Type": "application/json" }), ...headers },
      body: isForm ? body : JSON.stringify(body),
    });
  } catch {
    throw new HttpError(messages.unexpected, -1, {});
  }
  const payload = await response.json().catch(() => ({}));
  if (response.ok) return payload as T;
  if (response.status !== 422 && !keep.includes(response.status)) throw errorFor(response.status, payload);
  const errors = ((payload as { errors?: Record<string, unknown> }).errors ?? {}) as Record<string, unknown>;
  const error = (payload as { error?: string }).error;
  const byIndex: Record<string, Record<string, string[]>> = {};
  const lines: string[] = [];
  for (const [key, value] of Object.entries(errors)) {
    if (/^(\d+|(updates|deletions)\.\d+)$/.test(key) && value && typeof value === "object" && !Array.isArray(value)) {
      byIndex[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([f, v]) => [f, Array.isArray(v) ? v.map(String) : [String(v)]]),
      );
      lines.push(...Object.values(byIndex[key]).flat());
    } else lines.push(...(Array.isArray(value) ? value.map(String) : [String(value)]));
  }
  throw new ImportCallError(
    error ?? lines[0] ?? messages.invalidValue,
    response.status,
    error && !lines.length ? [error] : lines,
    byIndex,
  );
}

export const importVerbs = {
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

/** One employee's week as GET activities/week_state answers it. */
export interface WeekState {
  week_start: string;
  week_end: string;
  employee_id: number;
  /** Every day of the week is frozen. */
  frozen: boolean;
  /** "week" when the week was closed, "month" when a frozen month covers some of its days, else null. */
  frozen_kind: "week" | "month" | null;
  frozen_days: string[];
  can_close: boolean;
  can_open: boolean;
}

/** A stored activity the draft changes: its id, the version it was read at, and the changed fields. */
export type WeekDraftUpdate = { id: Identifier; lock_version: number } & Record<string, unknown>;
/** The week's draft: new activities (localEventToActivity bodies), changed ones and removed ones. */
export interface WeekDraft {
  creates?: unknown[];
  updates?: WeekDraftUpdate[];
  deletions?: { id: Identifier; lock_version: number }[];
}
export interface WeekSaveAnswer {
  /** The created activities (and those already stored under their import key), in the order sent. */
  activities: RaRecord[];
  updated: RaRecord[];
  deleted: number[];
  created: number;
  existing: number;
  message: string;
}
const weekDraftBody = (draft: WeekDraft) => ({
  activities: draft.creates ?? [],
  updates: draft.updates ?? [],
  deletions: draft.deletions ?? [],
});

/** Where the activities CSV format is downloaded (GET activities/download_csv_format, a plain link). */
export const ACTIVITIES_CSV_FORMAT_URL = `${API_ROOT}/activities/download_csv_format`;

// --- outbox and scheduled jobs (issue 7) ---
import type { OutboxMessage, OutboxSummary } from "../core/schemas/jobs";

export type { OutboxMessage, OutboxSummary };
export interface JobRunView {
  id: number;
  job: string;
  period_key: string;
  status: string;
  ran_at: string;
  count?: number;
  message?: string;
  trigger?: "scheduled" | "manual";
  user_id?: number | null;
}
export interface JobView {
  id: string;
  name: string;
  label: string;
  current_period: string;
  runs: JobRunView[];
}
export interface JobRunAnswer {
  status: "done" | "already_done";
  period_key: string;
  message: string;
  job_run: JobRunView | null;
}

// --- pipeline: quotations, prospect conversion, project drive check (SPEC §4, §7) ---
/** POST quotations/:id/aasm_transition body (client_hash / project_hash adjust what approve_quote creates). */
export interface QuotationTransition {
  quotation: { event: string; audit_comment: string };
  client_hash?: Record<string, unknown>;
  project_hash?: Record<string, unknown>;
}

export const pipelineVerbs = {
  /** GET quotations/quotation_states → [{id, name}] (Spanish labels; finalizada is "Alta Cliente"). */
  quotationStates: () =>
    apiFetch<{ quotation_states: { id: string; name: string }[] }>("quotations/quotation_states").then((r) => r.quotation_states),
  /** POST quotations/:id/aasm_transition: answers the quotation (after approve_quote, with client_id and project_id). */
  transitionQuotation: (id: Identifier, input: QuotationTransition, version?: number) =>
    apiFetch<{ quotation: RaRecord }>(`quotations/${encodeURIComponent(String(id))}/aasm_transition`, {
      method: "POST",
      body: input,
      headers: ifMatch(version),
    }).then((r) => r.quotation),
  /** POST prospects/:id/convert_to_client {client}: the new client, and the warning when the old folder stayed. */
  convertProspectToClient: (id: Identifier, client: Record<string, unknown>) =>
    apiFetch<{ client: RaRecord; warning?: string }>(`prospects/${encodeURIComponent(String(id))}/convert_to_client`, {
      method: "POST",
      body: { client },
    }),
  /**
   * POST projects/:id/drive_check or clients/:id/drive_check («Revisar drive»): verifies the record's folders,
   * repairs any drift and says what it repaired (`summary`, in Spanish).
   */
  checkDrive: (resource: "projects" | "clients", id: Identifier) =>
    apiFetch<{ message: string; repaired: string[]; summary: string }>(
      `${resource}/${encodeURIComponent(String(id))}/drive_check`,
      { method: "POST" },
    ),
  // reports: the reporting screen's download (docs/reports.md)
  /**
   * GET activities/reporting_activities.csv, read as the server streams it: `onProgress` receives the bytes
   * received so far (the screen's progress indicator). Validation failures reject as HttpError (422).
   */
  downloadReportCsv: async (query: Query, onProgress?: (bytes: number) => void, signal?: AbortSignal) => {
    const response = await apiFetch<Response>("activities/reporting_activities.csv", { query, signal, raw: true });
    const disposition = response.headers.get("content-disposition") ?? "";
    const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? "reporte_actividades.csv";
    const reader = response.body?.getReader();
    if (!reader) return { blob: await response.blob(), filename };
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.byteLength;
      onProgress?.(bytes);
    }
    return { blob: new Blob(chunks as BlobPart[], { type: "text/csv;charset=utf-8" }), filename };
  },
};

export interface ActivitySkipped {
  description: string;
  begins_at: string;
  ends_at: string;
  reason: string;
}
/** Named verbs of the outbox and jobs page (administrators). */
export const mailVerbs = {
  /** GET outbox?page&per_page: the local outbox, newest first; meta.adapter says whether mail goes by SMTP. */
  listOutbox: (page = 1, perPage = 25) =>
    apiFetch<{ outbox: OutboxSummary[]; meta: { total_count: number; adapter: "smtp" | "outbox" } }>("outbox", {
      query: { page, per_page: perPage },
    }),
  getOutboxMessage: (id: string) => apiFetch<{ outbox: OutboxMessage }>(`outbox/${encodeURIComponent(id)}`).then((r) => r.outbox),
  listJobs: () => apiFetch<{ jobs: JobView[] }>("jobs").then((r) => r.jobs),
  /** POST jobs/:name/run {force}: runs the job for its current period (force: again, even if it already ran). */
  runJob: (name: string, force = false) =>
    apiFetch<JobRunAnswer>(`jobs/${encodeURIComponent(name)}/run`, { method: "POST", body: { force } }),
};
/** One port on the «Integraciones» page (GET integrations, server/modules/integrations/routes.ts). */
export interface IntegrationView {
  port: string;
  label: string;
  kind: string;
  active: boolean;
  variables: string[];
}
export const integrationVerbs = {
  list: () => apiFetch<{ integrations: IntegrationView[] }>("integrations").then((r) => r.integrations),
  /** POST integrations/:port/check: a failed test is {ok: false, message} (not an HTTP error). */
  check: (port: string) =>
    apiFetch<{ ok: boolean; message: string }>(`integrations/${encodeURIComponent(port)}/check`, { method: "POST", body: {} }),
};
/** Answers of GET dashboards/… (server/modules/dashboards/service.ts). */
export interface EmployeeDashboard {
  employee: { id: number; name: string };
  week: { starts_on: string; ends_on: string };
  expected_hours: number;
  total_hours: number;
  holidays: { date: string; name: string | null }[];
  by_day: { date: string; action_type: string; hours: number }[];
  by_type: { action_type: string; hours: number }[];
}
export interface TeamDashboard {
  from: string;
  to: string;
  weeks: { week: string; expected_hours: number }[];
  by_workspace: { workspace_id: number | null; workspace_name: string | null; week: string; hours: number }[];
  total_hours: number;
  weeks_not_closed: { employee_id: number; employee_name: string; workspace_name: string | null; week: string; hours: number }[];
}
export interface ProjectDashboard {
  project: { id: number; name: string; project_code: string };
  estimates_visible: boolean;
  estimated_hours: number | null;
  logged_hours: number;
  by_position: {
    position_id: number | null;
    position_name: string | null;
    estimated_hours: number | null;
    logged_hours: number;
  }[];
  weekly: { week: string; hours: number; cumulative_hours: number }[];
}
export interface ClientDashboard {
  client: { id: number; name: string };
  year: number;
  annual_support_hours: number;
  used_hours: number;
  by_product: {
    product_id: number | null;
    product_name: string | null;
    annual_support_hours: number | null;
    used_hours: number;
  }[];
}

export type FreezeVerb = "close_activities" | "open_activities" | "close_month_activities" | "open_month_activities";

/** Every named verb, whatever its group: the dataProvider answers them all. */
const verbs = { ...customVerbs, ...pipelineVerbs, ...mailVerbs, ...importVerbs };
export type SiaDataProvider = DataProvider & typeof verbs;

export const dataProvider: SiaDataProvider = new Proxy(baseDataProvider, {
  get(target, method: string) {
    if (method in verbs) return verbs[method as keyof typeof verbs];
    const base = target[method as keyof DataProvider];
    if (typeof base !== "function") return base;
    return (raResource: string, params: unknown) => {
      const resource = apiResourceOf(raResource);
      const override = overrides[resource]?.[method as keyof DataProvider] as ((r: string, p: unknown) => unknown) | undefined;
      return (override ?? base)(resource, params);
    };
  },
}) as SiaDataProvider;
