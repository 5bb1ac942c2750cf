/**
 * A 409 in a dialog or an in-place action (a state change, «Facturación», a switch): the record behind it
 * is read again (so what the other person saved shows, and the next try carries the current version), the
 * dialog keeps what was typed, and the message says so. Anything else: the error's own message.
 */
import { useCallback } from "react";
import { useRefresh } from "react-admin";
import { messages } from "../../core/messages";

export const isStale = (error: unknown) => (error as { status?: number } | null)?.status === 409;

export function useStaleRetry() {
  const refresh = useRefresh();
  return useCallback(
    (error: unknown, fallback: string = messages.unexpected) => {
      if (isStale(error)) {
        refresh();
        return messages.staleVersionRetry;
      }
      return (error as Error)?.message || fallback;
    },
    [refresh],
  );
}
