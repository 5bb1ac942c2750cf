/**
 * A 409 in a dialog or an in-place action (a state change, «Facturación», a switch): the record behind it
 * is read again (so what the other person saved shows, and the next try carries the current version).
 * What the message says must be what the screen then shows: a dialog keeps what was typed and invites
 * confirming again (unless the record, read again, no longer allows the action: the dialog says that
 * instead); an action with nothing typed says only that the other person's change is shown.
 * Anything else: the error's own message.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useRefresh } from "react-admin";
import { messages } from "../../core/messages";

export const isStale = (error: unknown) => (error as { status?: number } | null)?.status === 409;

/** `typed`: whether the screen keeps something the person typed (a dialog's fields, a comment box). */
export function useStaleRetry() {
  const refresh = useRefresh();
  return useCallback(
    (error: unknown, fallback: string = messages.unexpected, typed = true) => {
      if (isStale(error)) {
        refresh();
        return typed ? messages.staleVersionRetry : messages.staleVersionReread;
      }
      return (error as Error)?.message || fallback;
    },
    [refresh],
  );
}

/**
 * The same for a dialog, answered once the record has been read again: until then the dialog cannot
 * know whether the action is still possible, so it says nothing that the reread may contradict.
 */
export function useStaleReread() {
  const queryClient = useQueryClient();
  return useCallback(
    async (error: unknown, fallback: string = messages.unexpected) => {
      if (!isStale(error)) return (error as Error)?.message || fallback;
      await queryClient.invalidateQueries();
      return messages.staleVersionRetry;
    },
    [queryClient],
  );
}
