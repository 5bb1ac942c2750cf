/**
 * The dataProvider, composed: a base that speaks the /api/v1 conventions for every resource, per-resource
 * overrides where a resource differs, and named custom verbs for the extra calls of SPEC §7.
 * Why not ra-data-simple-rest: docs/decisions/003-data-provider.md.
 */
import { type DataProvider, type GetListParams, HttpError, type Identifier, type RaRecord } from "react-admin";
import { apiResourceOf, singularOf } from "../core/resources";
import { API_ROOT, apiFetch, errorFor, type Query, validationFromBody } from "./http";
import { messages } from "../core/messages";

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
    const json = await apiFetch(`${resource}/${encodeURIComponent(String(params.id))}`, {
      method: "PUT",
      body: wrap(resource, changedFields(params.data, params.previousData)),
    });
    return { data: unwrap(resource, json) };
  },
  async updateMany(resource, params) {
    await Promise.all(
      params.ids.map((id) =>
        apiFetch(`${resource}/${encodeURIComponent(String(id))}`, { method: "PUT", body: wrap(resource, params.data) }),
      ),
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

/** Read-only and computed fields the server does not take back on update. */
const READ_ONLY = new Set(["id", "created_at", "updated_at"]);
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
  toggleWorkspaceNotification: (id: Identifier) =>
    apiFetch<{ workspace: RaRecord }>(`workspaces/${encodeURIComponent(String(id))}/toggle_notification`, { method: "PUT" }).then(
      (r) => r.workspace,
    ),
  // Projects (SPEC §7).
  /** GET projects/get_next_project_code → the code a new project gets. */
  nextProjectCode: () =>
    apiFetch<{ next_project_code: string }>("projects/get_next_project_code").then((r) => r.next_project_code),
  /** POST projects/:id/aasm_transition {project: {event, audit_comment, date, responsible_id, eta}}. */
  transitionProject: (id: Identifier, input: ProjectTransition) =>
    apiFetch<{ project: RaRecord }>(`projects/${encodeURIComponent(String(id))}/aasm_transition`, {
      method: "POST",
      body: { project: input },
    }).then((r) => r.project),
  projectStages: (id: Identifier) =>
    apiFetch<{ project_stages: ProjectStage[] }>(`projects/${encodeURIComponent(String(id))}/project_stages`).then(
      (r) => r.project_stages,
    ),
  /** POST projects/:id/extend_project {project: {eta, audit_comment, …}}. */
  extendProject: (id: Identifier, input: { eta: string | null; audit_comment: string }) =>
    apiFetch<{ project: RaRecord }>(`projects/${encodeURIComponent(String(id))}/extend_project`, {
      method: "POST",
      body: { project: input },
    }).then((r) => r.project),
  /** POST projects/:id/completely_invoiced | partially_invoiced. */
  markInvoiced: (id: Identifier, action: "completely_invoiced" | "partially_invoiced", audit_comment?: string) =>
    apiFetch<{ project: RaRecord }>(`projects/${encodeURIComponent(String(id))}/${action}`, {
      method: "POST",
      body: { project: { audit_comment: audit_comment || null } },
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
  /** GET projects/:id/audit_logs or invoices/:id/audit_logs. */
  auditLogs: (resource: "projects" | "invoices", id: Identifier) =>
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
  ) =>
    apiFetch<{ invoice: RaRecord }>(`invoices/${encodeURIComponent(String(id))}/aasm_transition`, {
      method: "POST",
      body: { invoice: input },
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
  copyPreviousWeek: (weekStart: string, employeeId?: Identifier | null) =>
    apiFetch<{ created: number; activities: RaRecord[]; skipped: ActivitySkipped[]; message: string }>(
      "activities/copy_previous_week",
      { method: "POST", body: { week_start: weekStart, employee_id: employeeId ?? undefined } },
    ),
  /** PUT activities/{close,open}_activities and {close,open}_month_activities for the period containing `date`. */
  freezeActivities: (verb: FreezeVerb, date: string, employeeId?: Identifier | null) =>
    apiFetch<{ frozen: boolean; message: string; frozen_period: { starts_on: string; ends_on: string } }>(`activities/${verb}`, {
      method: "PUT",
      body: { by_begins_at: { start_date: date }, by_employee: employeeId ?? undefined },
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
export type FreezeVerb = "close_activities" | "open_activities" | "close_month_activities" | "open_month_activities";

export type SiaDataProvider = DataProvider & typeof customVerbs;

export const dataProvider: SiaDataProvider = new Proxy(baseDataProvider, {
  get(target, method: string) {
    if (method in customVerbs) return customVerbs[method as keyof typeof customVerbs];
    const base = target[method as keyof DataProvider];
    if (typeof base !== "function") return base;
    return (raResource: string, params: unknown) => {
      const resource = apiResourceOf(raResource);
      const override = overrides[resource]?.[method as keyof DataProvider] as ((r: string, p: unknown) => unknown) | undefined;
      return (override ?? base)(resource, params as never);
    };
  },
}) as SiaDataProvider;
