/**
 * The activity dialog's lookups as react-query queries on react-admin's own queryClient: the catalogues
 * (activity types, products, a client's products), the starters (favourites and recent activities) and
 * the pickers' searches. Each is kept for CHOICES_STALE_MS, so reopening the dialog asks nothing again.
 */
import { type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { type Identifier, useDataProvider, useTranslate } from "react-admin";
import type { Activity } from "../../../core/activity";
import { ACTIVITY_TYPES, MAX_PER_PAGE } from "../../../core/constants";
import { projectStateLabel } from "../../../core/projectMachine";
import type { SiaDataProvider } from "../../../dataProvider";
import type { PickerOption } from "./AsyncPicker";

/** Catalogues change rarely (an administrator's edit): five minutes is fresh enough for a form. */
export const CHOICES_STALE_MS = 5 * 60_000;
/** A search typed again within a minute answers from the cache. */
const SEARCH_STALE_MS = 60_000;
const SEARCH_SIZE = 20;

export interface ProductChoice {
  id: number;
  name: string;
}
export interface TypeChoice {
  id: number;
  code: string;
  name: string;
}

const KEY = "activity-choices";

/** The activity type catalogue (SPEC §9); the built-in list until the server answers. */
export function useActivityTypes(): TypeChoice[] {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const { data } = useQuery({
    queryKey: [KEY, "activity_type_catalogs"],
    queryFn: async () => {
      const { data } = await dataProvider.getList("activity_type_catalogs", {
        pagination: { page: 1, perPage: MAX_PER_PAGE },
        sort: { field: "id", order: "ASC" },
        filter: {},
      });
      return data as TypeChoice[];
    },
    staleTime: CHOICES_STALE_MS,
  });
  return data?.length ? data : [...ACTIVITY_TYPES];
}

/**
 * Selectable products: a client's catalogue when `clientId` is given (support), the whole catalogue when
 * it is null and `all` is set (preventa: a prospect has no catalogue), none otherwise.
 */
export function useProducts(clientId: number | null, all: boolean): { products: ProductChoice[]; loading: boolean } {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const enabled = all || clientId !== null;
  const { data, isFetching } = useQuery({
    queryKey: [KEY, "products", all ? "all" : clientId],
    queryFn: async () => {
      const { data } = await dataProvider.getList("products", {
        pagination: { page: 1, perPage: MAX_PER_PAGE },
        sort: { field: "name", order: "ASC" },
        filter: all ? { selectable: true } : { selectable: true, by_client: clientId },
      });
      return (data as (ProductChoice & { is_selectable?: boolean })[]).filter((p) => p.is_selectable !== false);
    },
    enabled,
    staleTime: CHOICES_STALE_MS,
  });
  return { products: enabled ? (data ?? []) : [], loading: enabled && isFetching };
}

/** Favourites first, then the recent activities that are not favourites: what a new activity may start from. */
export function useStarters(employeeId: Identifier | null, enabled: boolean): Activity[] {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const { data } = useQuery({
    queryKey: [KEY, "starters", employeeId],
    queryFn: async () => {
      const employee = employeeId ?? undefined;
      const [favourites, recent] = await Promise.all([
        dataProvider
          .getList<Activity>("activities", {
            pagination: { page: 1, perPage: 50 },
            sort: { field: "begins_at", order: "DESC" },
            filter: { by_favorite: true, by_employee: employee },
          })
          .then((r) => r.data)
          .catch(() => [] as Activity[]),
        dataProvider.recentActivities(employee).catch(() => []),
      ]);
      return [...favourites, ...(recent as Activity[]).filter((r) => !favourites.some((f) => f.id === r.id))];
    },
    enabled,
    // Short: a favourite starred a minute ago should be offered.
    staleTime: 30_000,
  });
  return enabled ? (data ?? []) : [];
}

/** A project picker option: its code and name, and its state label beside it. */
export const projectOption = (p: { id: unknown; project_code?: unknown; name?: unknown; state?: unknown }): PickerOption => ({
  id: Number(p.id),
  label: [p.project_code, p.name].filter(Boolean).join(" – ") || `#${p.id}`,
  detail: p.state ? projectStateLabel(String(p.state)) : undefined,
});

/** The state of the activity's project (it may be finished or cancelled, and then not among the choices). */
export function useProjectState(projectId: number | null): string | undefined {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const { data } = useQuery({
    queryKey: [KEY, "project", projectId],
    queryFn: async () => (await dataProvider.getOne("projects", { id: projectId as number })).data,
    enabled: projectId !== null,
    staleTime: CHOICES_STALE_MS,
  });
  return projectId !== null && data?.state ? projectStateLabel(String(data.state)) : undefined;
}

const cachedSearch = <T>(queryClient: QueryClient, key: unknown[], fn: () => Promise<T>) =>
  queryClient.fetchQuery({ queryKey: [KEY, ...key], queryFn: fn, staleTime: SEARCH_STALE_MS });

/** The pickers' searches: current projects only, support clients (without the excluded one), clients and prospects. */
export function useSearches(supportExcludedCustomerId: number | null | undefined) {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const queryClient = useQueryClient();
  const translate = useTranslate();
  const projects = useCallback(
    (q: string) =>
      cachedSearch(queryClient, ["projects", q], async () => {
        const { data } = await dataProvider.getList("projects", {
          pagination: { page: 1, perPage: SEARCH_SIZE },
          sort: { field: "project_code", order: "ASC" },
          filter: q ? { q, by_status: "vigentes" } : { by_status: "vigentes" },
        });
        return data.map(projectOption);
      }),
    [dataProvider, queryClient],
  );
  const clients = useCallback(
    (q: string) =>
      cachedSearch(queryClient, ["clients", q], async () => {
        const { data } = await dataProvider.getList("clients", {
          pagination: { page: 1, perPage: SEARCH_SIZE },
          sort: { field: "name", order: "ASC" },
          filter: q ? { q } : {},
        });
        return data.map((c) => ({ id: c.id as number, label: c.name as string, kind: "Client" }));
      }).then((options) => options.filter((o) => o.id !== supportExcludedCustomerId)),
    [dataProvider, queryClient, supportExcludedCustomerId],
  );
  const owners = useCallback(
    (q: string) =>
      cachedSearch(queryClient, ["owners", q], async () => {
        const r = await dataProvider.searchClientsAndProspects(q);
        return [
          ...r.clients.map((c) => ({ id: c.id as number, label: c.name as string, kind: "Client" })),
          ...r.prospects.map((p) => ({
            id: p.id as number,
            label: translate("sia.activity_form.prospect_suffix", { name: p.name }),
            kind: "Prospect",
          })),
        ];
      }),
    [dataProvider, queryClient, translate],
  );
  return { projects, clients, owners };
}

export interface TicketChoice {
  id: string;
  name: string;
}

/** Azure DevOps tickets for a project or a client and product; the same search within a minute is not asked again. */
export function useTicketSearch() {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const queryClient = useQueryClient();
  return useCallback(
    (params: { search: string; project_id: number | null; client_id: number | null; product_catalog_id: number | null }) =>
      cachedSearch<TicketChoice[]>(queryClient, ["tickets", params], () => dataProvider.searchTickets(params)),
    [dataProvider, queryClient],
  );
}
