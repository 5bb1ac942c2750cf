/** Data of the shown week: its activities (by_begins_at, by_employee) and its holidays (holydays_by_date). */
import { useCallback, useEffect, useRef, useState } from "react";
import { type RaRecord, useDataProvider } from "react-admin";
import { sundayOf } from "../core/week";
import type { SiaDataProvider } from "../dataProvider";
import { dropEarlyWeek, type EmployeeChoice, earlyWeek, weekActivitiesParams } from "./early";

export type { EmployeeChoice } from "./early";

export interface Activity extends RaRecord {
  id: number;
  /** The version it was read at, sent back on update (a stale one answers 409). */
  lock_version?: number;
  employee_id: number;
  employee_name?: string | null;
  begins_at: string;
  ends_at: string;
  description: string;
  action_type: string;
  activity_type_catalog_id?: number | null;
  activity_type_code?: string | null;
  ownerable_id?: number | null;
  ownerable_type?: "Client" | "Prospect" | null;
  ownerable_name?: string | null;
  project_id?: number | null;
  project_code?: string | null;
  project_name?: string | null;
  product_catalog_id?: number | null;
  product_name?: string | null;
  short_title?: string | null;
  ticket_id?: string | null;
  ticket_name?: string | null;
  is_favorite?: boolean;
  is_editable?: boolean;
  is_month_frozen?: boolean;
}

export function useWeekActivities(weekStart: string | null, employee: EmployeeChoice) {
  const dataProvider = useDataProvider<SiaDataProvider>();
  // The opening week may have come already (src/timesheet/early.ts): drawn at once, not asked again.
  const [early] = useState(() => (weekStart && employee !== null ? earlyWeek<Activity>(weekStart, employee) : null));
  const [activities, setActivities] = useState<Activity[]>(early?.activities ?? []);
  const [holidays, setHolidays] = useState<{ date: string; name?: string | null }[]>(early?.holidays ?? []);
  const [loading, setLoading] = useState(false);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const served = useRef(early ? `${weekStart}|${employee}|0` : null);

  // version is how reload() asks again for the same week.
  useEffect(() => {
    if (!weekStart || employee === null) return;
    const servedKey = served.current;
    served.current = null;
    if (servedKey === `${weekStart}|${employee}|${version}`) return dropEarlyWeek(weekStart, employee);
    const controller = new AbortController();
    const end = sundayOf(weekStart);
    setLoading(true);
    Promise.all([
      dataProvider.getList<Activity>("activities", { ...weekActivitiesParams(weekStart, employee), signal: controller.signal }),
      dataProvider.holydaysByDate(weekStart, end, controller.signal).catch(() => []),
    ])
      .then(([list, days]) => {
        if (controller.signal.aborted) return;
        setActivities(list.data);
        setHolidays(days);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [dataProvider, weekStart, employee, version]);

  return { activities, setActivities, holidays, loading, reload };
}
