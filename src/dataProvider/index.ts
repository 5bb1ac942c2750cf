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

const unwrap = <T,>(resource: string, json: unknown): T => (json as Record<string, T>)[singularOf(resource)];
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
      params.ids.map((id) => apiFetch(`${resource}/${encodeURIComponent(String(id))}`, { method: "PUT", body: wrap(resource, params.data) })),
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
    if (previous && key in previous && JSON.stringify(previous[key]) === JSON.stringify(value) && !key.endsWith("_attributes")) continue;
    out[key] = value;
  }
  return out;
}

/** Per-resource overrides: only what differs from the base. */
const overrides: Record<string, Partial<DataProvider>> = {};

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
  nextClientCode: () => apiFetch<{ client_code: string }>("clients/next_client_code").then((r) => r.client_code),
  searchClientsAndProspects: (search: string) =>
    apiFetch<{ clients: RaRecord[]; prospects: RaRecord[] }>("clients/search_clients_and_prospects", { query: { search } }),
  importHolidays,
};

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
