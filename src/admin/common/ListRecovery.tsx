/**
 * A list whose sort, filter or page the server refuses (422) recovers by itself. react-admin keeps those
 * params in its store (localStorage) and in the address, so one refused value would otherwise empty the
 * list on every visit, reload and new tab until the user signs out. The list drops them, goes back to its
 * defaults (which also rewrites the store) and says so once. Refused at its defaults, the error stays.
 */
import { Alert } from "@mui/material";
import { type ReactNode, useEffect, useRef } from "react";
import { type SortPayload, useListContext, useNotify, useTranslate } from "react-admin";

/** The refusals a list's own params can cause: a 422 (a field error), or a 400 (a malformed query). */
export const isRefusedParams = (error: unknown) => {
  const status = (error as { status?: number } | null)?.status;
  return status === 422 || status === 400;
};

/** Equal filters whatever the order of their keys (the store and the address may order them differently). */
const sameFilter = (a: Record<string, unknown>, b: Record<string, unknown>) => {
  const canonical = (value: Record<string, unknown>) =>
    JSON.stringify(Object.entries(value).sort(([x], [y]) => x.localeCompare(y)));
  return canonical(a) === canonical(b);
};

export interface ListDefaults {
  sort: SortPayload;
  filter: Record<string, unknown>;
  perPage: number;
}

/** Whether the list asks for anything but its defaults (and so has something to drop). */
export function atDefaults(
  current: { sort: SortPayload; filterValues: Record<string, unknown>; page: number; perPage: number },
  defaults: ListDefaults,
) {
  return (
    current.sort.field === defaults.sort.field &&
    current.sort.order === defaults.sort.order &&
    sameFilter(current.filterValues ?? {}, defaults.filter) &&
    current.page === 1 &&
    current.perPage === defaults.perPage
  );
}

/** Inside a List: drops refused params once; at the defaults, shows the refusal in place of the rows. */
export function ListRecovery({ defaults }: { defaults: ListDefaults }): ReactNode {
  const { error, sort, filterValues, page, perPage, setSort, setFilters, setPerPage } = useListContext();
  const notify = useNotify();
  const translate = useTranslate();
  const handled = useRef<unknown>(null);
  const refused = isRefusedParams(error);
  const recoverable = refused && !atDefaults({ sort, filterValues, page, perPage }, defaults);

  useEffect(() => {
    if (!recoverable || handled.current === error) return;
    handled.current = error;
    // One batch (react-admin applies the params changed in one tick together): store and address follow.
    setFilters(defaults.filter, {});
    setSort(defaults.sort);
    setPerPage(defaults.perPage);
    notify("sia.lists.params_dropped", { type: "info" });
  }, [recoverable, error, defaults, setFilters, setSort, setPerPage, notify]);

  if (!refused || recoverable) return null;
  return (
    <Alert severity="error" sx={{ m: 1 }}>
      {(error as Error)?.message || translate("ra.notification.http_error")}
    </Alert>
  );
}
