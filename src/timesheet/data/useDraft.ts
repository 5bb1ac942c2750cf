/**
 * The draft week of one owner (signed-in user × employee shown), read from localStorage as an external
 * store: every component sees the same value, another tab's change arrives through the `storage` event,
 * and switching the employee (or the user) switches to that owner's draft — never someone else's.
 */
import { useCallback, useMemo, useSyncExternalStore } from "react";
import { WEEK_STORAGE_KEY } from "../../core/localEvent";
import { queryClient } from "../../queryClient";
import type { Draft, DraftOwner } from "../model/draft";
import { browserStorage, draftKey, loadDraft, parseDraft, removeDraft, storeDraft } from "../model/storage";
import { timesheetKeys } from "./keys";

const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

/**
 * Another tab changed a draft: a save there wrote to SIA (and cleared the draft), so this tab's week is
 * read again too — otherwise it would leave draft mode showing the week as it was before that save.
 */
function onOtherTab(event: StorageEvent) {
  if (event.key === null || event.key.startsWith(`${WEEK_STORAGE_KEY}:`))
    void queryClient.invalidateQueries({ queryKey: timesheetKeys.all });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  if (listeners.size === 1) window.addEventListener("storage", onOtherTab);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
    if (listeners.size === 0) window.removeEventListener("storage", onOtherTab);
  };
}

export function useDraft(owner: DraftOwner | null) {
  const userId = owner?.userId ?? null;
  const employeeId = owner?.employeeId ?? null;
  const stable = useMemo(() => (userId !== null && employeeId !== null ? { userId, employeeId } : null), [userId, employeeId]);
  const key = stable ? draftKey(stable) : null;
  const text = useSyncExternalStore(
    subscribe,
    () => {
      if (!key) return null;
      try {
        return browserStorage()?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    () => null,
  );
  const draft = useMemo(() => (stable ? parseDraft(text, stable) : null), [text, stable]);

  /** Writes the draft; false (the previous one kept and shown) when the browser refuses. */
  const save = useCallback((next: Draft) => {
    const ok = storeDraft(next);
    notify();
    return ok;
  }, []);

  const clear = useCallback(() => {
    if (stable) removeDraft(stable);
    notify();
  }, [stable]);

  /** The stored draft right now (another tab may have changed or removed it). */
  const current = useCallback(() => (stable ? loadDraft(stable) : null), [stable]);

  return { owner: stable, draft, save, clear, current };
}

export type DraftStore = ReturnType<typeof useDraft>;
