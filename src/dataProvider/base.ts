/**
 * react-admin's DataProvider over apiFetch, in the /api/v1 conventions (SPEC §7) every declared resource
 * follows: list params, bodies wrapped in the singular name, the version as If-Match.
 * Why not ra-data-simple-rest: docs/decisions/003-data-provider.md.
 */
import type { DataProvider, GetListParams, Identifier, RaRecord } from "react-admin";
import { singularOf } from "../core/resources";
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

/** The path of one record, or of one of its member calls (`projects/7/aasm_transition`). */
export const recordPath = (resource: string, id: Identifier, member?: string) =>
  `${resource}/${encodeURIComponent(String(id))}${member ? `/${member}` : ""}`;

const unwrap = <T>(resource: string, json: unknown): T => (json as Record<string, T>)[singularOf(resource)];
const wrap = (resource: string, data: unknown) => ({ [singularOf(resource)]: data });

export const baseDataProvider: DataProvider = {
  async getList(resource, params) {
    const json = await apiFetch<ListResponse>(resource, {
      query: listQuery(params),
      signal: params.signal,
      fieldToasts: false,
    });
    return { data: json[resource] as never[], total: json.meta.total_count };
  },
  async getOne(resource, params) {
    const json = await apiFetch(recordPath(resource, params.id), {
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
    const json = await apiFetch(recordPath(resource, params.id), {
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
        const path = recordPath(resource, id);
        const current = unwrap<RaRecord>(resource, await apiFetch(path));
        return apiFetch(path, { method: "PUT", body: wrap(resource, params.data), headers: ifMatch(current?.lock_version) });
      }),
    );
    return { data: params.ids };
  },
  async delete(resource, params) {
    const json = await apiFetch(recordPath(resource, params.id), { method: "DELETE" });
    return { data: unwrap(resource, json) };
  },
  async deleteMany(resource, params) {
    const deleted: Identifier[] = [];
    for (const id of params.ids) {
      await apiFetch(recordPath(resource, id), { method: "DELETE" });
      deleted.push(id);
    }
    return { data: deleted };
  },
};

/** If-Match for an update: the record's lock_version as its ETag. */
export function ifMatch(version: unknown): Record<string, string> {
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
