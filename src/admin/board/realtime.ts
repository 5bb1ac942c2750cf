/**
 * The browser side of GET /api/v1/realtime: one EventSource while a board is open. The
 * browser reconnects by itself with Last-Event-ID; when it gives up (the server answered an error while
 * restarting) we open a new one with ?last_id= after a pause, so no message is lost. A stream the server
 * ended as the user's oldest (`replaced`, too many tabs) stays closed until the page is reloaded.
 */
import { useEffect, useRef } from "react";
import type { BoardMessage } from "../../dataProvider/board";

export type RealtimeEvent =
  | { type: "message"; data: BoardMessage }
  | { type: "receipt"; data: { project_id: number; user_id: number; name: string; up_to: number } }
  | { type: "notification"; data: { id: number; kind: string; user_id: number } }
  | { type: "ready"; data: { cursor: number } };

/** Board events other parts of the page (menu badge, bell) refresh on. */
export const BOARD_ACTIVITY_EVENT = "sia:board-activity";
export const announceBoardActivity = () => window.dispatchEvent(new Event(BOARD_ACTIVITY_EVENT));

export function useRealtime(onEvent: (event: RealtimeEvent) => void, enabled = true) {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let lastId: string | null = null;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      const url = lastId ? `/api/v1/realtime?last_id=${encodeURIComponent(lastId)}` : "/api/v1/realtime";
      source = new EventSource(url, { withCredentials: true });
      for (const type of ["message", "receipt", "notification", "ready"] as const) {
        source.addEventListener(type, (event) => {
          const message = event as MessageEvent<string>;
          if (message.lastEventId) lastId = message.lastEventId;
          try {
            handler.current({ type, data: JSON.parse(message.data) } as RealtimeEvent);
          } catch {
            // a malformed event is skipped
          }
        });
      }
      // Too many tabs open: the server ended this, the oldest one. Reconnecting would only end another tab's.
      source.addEventListener("replaced", () => {
        stopped = true;
        source?.close();
      });
      source.onerror = () => {
        if (source?.readyState === EventSource.CLOSED && !stopped) {
          timer = setTimeout(open, 3000);
        }
      };
    };
    open();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      source?.close();
    };
  }, [enabled]);
}
