/**
 * The boards' live feed while a board is open (the dataProvider's `openRealtime`, GET /api/v1/realtime),
 * and the page-wide signal that board activity happened.
 */
import { useEffect, useRef } from "react";
import { useDataProvider } from "react-admin";
import type { RealtimeEvent, SiaDataProvider } from "../../dataProvider";

/** Board events other parts of the page (menu badge, bell) refresh on. */
export const BOARD_ACTIVITY_EVENT = "sia:board-activity";
export const announceBoardActivity = () => window.dispatchEvent(new Event(BOARD_ACTIVITY_EVENT));

export function useRealtime(onEvent: (event: RealtimeEvent) => void, enabled = true) {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const handler = useRef(onEvent);
  handler.current = onEvent;
  // react-admin's hook answers a new object when the page moves; the feed stays open across that.
  const provider = useRef(dataProvider);
  provider.current = dataProvider;
  useEffect(() => {
    if (!enabled) return;
    let stop: (() => void) | undefined;
    let unmounted = false;
    provider.current
      .openRealtime((event) => handler.current(event))
      .then((close) => {
        if (unmounted) close();
        else stop = close;
      })
      .catch(() => {});
    return () => {
      unmounted = true;
      stop?.();
    };
  }, [enabled]);
}
