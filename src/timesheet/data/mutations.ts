/**
 * The timesheet's changes as react-query mutations on react-admin's client: each one, done or refused,
 * invalidates the timesheet's queries (the week, its state), so what is shown is what SIA holds.
 *
 * One editing model (docs/decisions/041): every edit of the week is a change to the week saved through the
 * week save (POST activities/batch), whether it is a whole draft or one drag, key, form or copy. A direct
 * edit is a one-change week saved at once: `edit`. Direct edits run one after another and each one is sent
 * at the version the previous answer gave, so a second key press before the first one's answer moves on
 * from where the first left the activity instead of being refused as another person's change.
 */
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { type Identifier, useDataProvider } from "react-admin";
import type { Activity } from "../../core/activity";
import type { FreezeVerb, SiaDataProvider, WeekSaveAnswer } from "../../dataProvider";
import type { SavePayload } from "../model/draft";
import { timesheetKeys } from "./keys";

/** One edit of the week as SIA holds it: new activities, changed fields of stored ones, removed ones. */
export interface WeekChange {
  creates?: Record<string, unknown>[];
  updates?: { activity: Activity; data: Record<string, unknown> }[];
  deletions?: Activity[];
}

const WEEKS = ["timesheet", "week"] as const;

/** Every cached week's activities, changed by `change` (the week shown and any other kept in memory). */
const patchWeeks = (client: QueryClient, change: (list: Activity[]) => Activity[]) =>
  client.setQueriesData<Activity[]>({ queryKey: WEEKS }, (list) => (list ? change(list) : list));

export function useTimesheetMutations() {
  const dp = useDataProvider<SiaDataProvider>();
  const client = useQueryClient();
  const onSettled = () => client.invalidateQueries({ queryKey: timesheetKeys.all });
  // A change the person makes now is tried now: offline it fails at once with «Sin conexión» instead of
  // waiting paused and being carried out after its dialog was cancelled. Only the week save waits
  // (networkMode "online"), and the bar says it is waiting.
  const now = "always" as const;

  // Direct edits in order: the last one's promise, how many are on their way, and the version each
  // activity's last answer gave (a cached row may still carry the version it was read at).
  const line = useRef<Promise<unknown>>(Promise.resolve());
  const pending = useRef(0);
  const versions = useRef(new Map<number, number>());
  const versionOf = (a: Activity) => Math.max(a.lock_version ?? 0, versions.current.get(Number(a.id)) ?? 0);

  /** A one-change week saved at once: a drag, a key, the form, a copy, a removal. All or nothing. */
  const edit = useMutation({
    networkMode: now,
    mutationFn: (change: WeekChange) => {
      const run = line.current.then(async (): Promise<WeekSaveAnswer> => {
        const answer = await dp.saveWeek({
          creates: change.creates,
          updates: change.updates?.map(({ activity, data }) => ({
            ...data,
            id: Number(activity.id),
            lock_version: versionOf(activity),
          })),
          deletions: change.deletions?.map((a) => ({ id: Number(a.id), lock_version: versionOf(a) })),
        });
        for (const row of answer.updated) versions.current.set(Number(row.id), Number(row.lock_version));
        return answer;
      });
      line.current = run.catch(() => undefined);
      return run;
    },
    // Shown at once where it goes (the next key reads it there). The answers only teach the versions: a
    // row from an earlier answer would draw the activity back from where a later key put it.
    onMutate: async (change) => {
      pending.current++;
      await client.cancelQueries({ queryKey: WEEKS });
      const updated = new Map((change.updates ?? []).map((u) => [Number(u.activity.id), u.data]));
      const removed = new Set((change.deletions ?? []).map((a) => Number(a.id)));
      patchWeeks(client, (list) =>
        list
          .filter((a) => !removed.has(Number(a.id)))
          .map((a) => (updated.has(Number(a.id)) ? ({ ...a, ...updated.get(Number(a.id)) } as Activity) : a)),
      );
    },
    // Read again once the last edit is answered: a read between two of them would draw the activity back.
    onSettled: () => {
      pending.current--;
      if (!pending.current) return onSettled();
    },
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

  return { edit, freeze, copyPreviousWeek, saveWeek };
}

export type TimesheetMutations = ReturnType<typeof useTimesheetMutations>;
