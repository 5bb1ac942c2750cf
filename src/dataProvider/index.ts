/**
 * The dataProvider, composed: a base that speaks the /api/v1 conventions for every resource, per-resource
 * overrides where a resource differs, and named custom verbs for the extra calls of SPEC §7.
 * Why not ra-data-simple-rest: docs/decisions/003-data-provider.md.
 */
import type { DataProvider, GetListParams, Identifier, RaRecord } from "react-admin";
import { apiResourceOf, singularOf } from "../core/resources";
import { apiFetch, type Query } from "./http";

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
      notFoundPage: true,
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
