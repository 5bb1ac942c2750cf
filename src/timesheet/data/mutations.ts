/**
 * The timesheet's changes as react-query mutations on react-admin's client: each one, done or refused,
 * invalidates the timesheet's queries (the week, its state), so what is shown is what SIA holds.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Identifier, useDataProvider } from "react-admin";
import type { Activity } from "../../core/activity";
import type { FreezeVerb, SiaDataProvider } from "../../dataProvider";
import type { SavePayload } from "../model/draft";
import { timesheetKeys } from "./keys";

export function useTimesheetMutations() {
  const dp = useDataProvider<SiaDataProvider>();
  const client = useQueryClient();
  const onSettled = () => client.invalidateQueries({ queryKey: timesheetKeys.all });
  // A change the person makes now is tried now: offline it fails at once with «Sin conexión» instead of
  // waiting paused and being carried out after its dialog was cancelled. Only the week save waits
  // (networkMode "online"), and the bar says it is waiting.
  const now = "always" as const;

  /** A drag or resize of an activity in SIA (outside a draft): written at the version it was read at. */
  const move = useMutation({
    networkMode: now,
    mutationFn: ({ activity, start, end }: { activity: Activity; start: Date; end: Date }) =>
      dp
        .update<Activity>("activities", {
          id: activity.id,
          data: { begins_at: start.toISOString(), ends_at: end.toISOString(), lock_version: activity.lock_version },
          previousData: activity,
        })
        .then((r) => r.data),
    onSettled,
  });

  const create = useMutation({
    networkMode: now,
    mutationFn: (data: Record<string, unknown>) => dp.create<Activity>("activities", { data }).then((r) => r.data),
    onSettled,
  });

  const update = useMutation({
    networkMode: now,
    mutationFn: ({ activity, data }: { activity: Activity; data: Record<string, unknown> }) =>
      dp
        .update<Activity>("activities", {
          id: activity.id,
          data: { ...data, lock_version: activity.lock_version },
          previousData: activity,
        })
        .then((r) => r.data),
    onSettled,
  });

  const remove = useMutation({
    networkMode: now,
    mutationFn: (activity: Activity) => dp.delete("activities", { id: activity.id, previousData: activity }),
    onSettled,
  });

  const freeze = useMutation({
    networkMode: now,
    mutationFn: ({ verb, weekStart, employee }: { verb: FreezeVerb; weekStart: string; employee?: Identifier | null }) =>
      dp.freezeActivities(verb, weekStart, employee),
    onSettled,
  });

  const copyPreviousWeek = useMutation({
    networkMode: now,
    mutationFn: ({ weekStart, employee, dryRun }: { weekStart: string; employee?: Identifier | null; dryRun?: boolean }) =>
      dp.copyPreviousWeek(weekStart, employee, { dryRun }),
    onSettled: (_data, _error, variables) => (variables.dryRun ? undefined : onSettled()),
  });

  /** The draft week in one request: new activities, changes and deletions, all or nothing. */
  const saveWeek = useMutation({
    networkMode: "online",
    // The week is read again right after (onSettled): the answer needs the ids only.
    mutationFn: (payload: SavePayload) => dp.saveWeek(payload, { minimal: true }),
    onSettled,
  });

  return { move, create, update, remove, freeze, copyPreviousWeek, saveWeek };
}

export type TimesheetMutations = ReturnType<typeof useTimesheetMutations>;
