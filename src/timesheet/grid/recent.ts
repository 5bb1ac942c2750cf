/**
 * The activities of the four weeks before the shown one: what a person used recently gives the grid its
 * rows. Read through the data provider under the timesheet's keys, so a save refreshes it too.
 */
import { useQuery } from "@tanstack/react-query";
import { useDataProvider } from "react-admin";
import type { Activity } from "../../core/activity";
import { MAX_PER_PAGE } from "../../core/constants";
import { addDays } from "../../core/week";
import type { SiaDataProvider } from "../../dataProvider";
import { timesheetKeys, WEEK_STALE_MS } from "../data/keys";

export const RECENT_WEEKS = 4;
const NONE: Activity[] = [];

export function useRecentActivities(weekStart: string, employee: number | null) {
  const dp = useDataProvider<SiaDataProvider>();
  const query = useQuery({
    queryKey: [...timesheetKeys.all, "recent", weekStart, String(employee)],
    queryFn: ({ signal }) =>
      dp
        .getList<Activity>("activities", {
          pagination: { page: 1, perPage: MAX_PER_PAGE },
          sort: { field: "begins_at", order: "DESC" },
          filter: {
            "by_begins_at[start_date]": addDays(weekStart, -7 * RECENT_WEEKS),
            "by_begins_at[end_date]": addDays(weekStart, -1),
            by_employee: employee,
          },
          signal,
        })
        .then((r) => r.data),
    enabled: employee !== null,
    staleTime: WEEK_STALE_MS,
  });
  return query.data ?? NONE;
}
