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
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
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

/** The fields of activities edited directly and not yet read back, by id; REMOVED for a removal. */
type Overlay = ReadonlyMap<number, Record<string, unknown>>;
const NO_OVERLAY: Overlay = new Map();
const REMOVED: Record<string, unknown> = Object.freeze({});

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
  const [overlayState, setOverlayState] = useState<Overlay>(NO_OVERLAY);
  const overlay = useRef<Overlay>(NO_OVERLAY);
  const setOverlay = (next: Overlay) => {
    overlay.current = next;
    setOverlayState(next);
  };
  /** The week with the direct edits still on their way drawn where they go. */
  const withEdits = useCallback(
    (list: Activity[]) =>
      overlayState.size
        ? list
            .filter((a) => overlayState.get(Number(a.id)) !== REMOVED)
            .map((a) => {
              const data = overlayState.get(Number(a.id));
              return data ? ({ ...a, ...data } as Activity) : a;
            })
        : list,
    [overlayState],
  );
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
    // Shown at once where it goes (the next key reads it there), over whatever a read in flight brings
    // back, until the week has been read again after the last edit.
    onMutate: (change) => {
      pending.current++;
      const next = new Map(overlay.current);
      for (const { activity, data } of change.updates ?? [])
        next.set(Number(activity.id), { ...next.get(Number(activity.id)), ...data });
      for (const a of change.deletions ?? []) next.set(Number(a.id), REMOVED);
      setOverlay(next);
    },
    // A refused edit is drawn back at once: the week as SIA holds it, less the edits still on their way.
    onError: (_error, change) => {
      const next = new Map(overlay.current);
      for (const { activity } of change.updates ?? []) next.delete(Number(activity.id));
      for (const a of change.deletions ?? []) next.delete(Number(a.id));
      setOverlay(next);
    },
    // Read again once the last edit is answered; the edits are drawn over the reads until then.
    onSettled: async () => {
      pending.current--;
      if (pending.current) return;
      await onSettled();
      if (!pending.current) setOverlay(NO_OVERLAY);
    },
  });

  const freeze = useMutation({
    networkMode: now,
    mutationFn: ({
      verb,
      weekStart,
      employee,
      reason,
    }: {
      verb: FreezeVerb;
      weekStart: string;
      employee?: Identifier | null;
      reason?: string;
    }) => dp.freezeActivities(verb, weekStart, employee, reason),
    onSettled,
  });

  /** Sends the week to review: it is frozen until a reviewer returns it. */
  const submit = useMutation({
    networkMode: now,
    mutationFn: ({ weekStart }: { weekStart: string }) => dp.submitWeek(weekStart),
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

  return { edit, withEdits, freeze, submit, copyPreviousWeek, saveWeek };
}

export type TimesheetMutations = ReturnType<typeof useTimesheetMutations>;
