/** The project boards, the bell, notices and push subscriptions: their calls, and the boards' live feed. */
import type { z } from "zod";
import type {
  BellNotification,
  BoardMember,
  BoardMessageView as BoardMessage,
  boardHistoryAnswer,
  boardMembersAnswer,
  boardPostAnswer,
  markReadAnswer,
  noticeAnswer,
  notificationSeenAnswer,
  notificationsAnswer,
  Summary,
} from "../core/schemas/board";
import { API_ROOT, apiFetch } from "./http";

export type { BellNotification, BoardMember, BoardMessage, Summary };

/** An event of GET /api/v1/realtime (the boards' live feed). */
export type RealtimeEvent =
  | { type: "message"; data: BoardMessage }
  | { type: "receipt"; data: { project_id: number; user_id: number; name: string; up_to: number } }
  | { type: "notification"; data: { id: number; kind: string; user_id: number } }
  | { type: "ready"; data: { cursor: number } };

/**
 * One EventSource on GET /api/v1/realtime until the answered stop function is called. The browser
 * reconnects by itself with Last-Event-ID; when it gives up (the server answered an error while restarting)
 * a new one opens with ?last_id= after a pause, so no message is lost. A stream the server ended as the
 * user's oldest (`replaced`, too many tabs) stays closed until the page is reloaded.
 */
function openRealtime(onEvent: (event: RealtimeEvent) => void): () => void {
  if (typeof EventSource === "undefined") return () => {};
  let source: EventSource | null = null;
  let lastId: string | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const open = () => {
    const url = lastId ? `${API_ROOT}/realtime?last_id=${encodeURIComponent(lastId)}` : `${API_ROOT}/realtime`;
    source = new EventSource(url, { withCredentials: true });
    for (const type of ["message", "receipt", "notification", "ready"] as const) {
      source.addEventListener(type, (event) => {
        const message = event as MessageEvent<string>;
        if (message.lastEventId) lastId = message.lastEventId;
        try {
          onEvent({ type, data: JSON.parse(message.data) } as RealtimeEvent);
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
}

/** Named for the dataProvider, where `post` or `read` alone would read as resource calls. */
export const boardVerbs = {
  boardHistory: (projectId: number, beforeId?: number) =>
    apiFetch<z.infer<typeof boardHistoryAnswer>>(`projects/${projectId}/messages`, {
      query: { before_id: beforeId },
    }),
  postBoardMessage: (projectId: number, body: string) =>
    apiFetch<z.infer<typeof boardPostAnswer>>(`projects/${projectId}/messages`, { method: "POST", body: { message: { body } } }),
  markBoardRead: (projectId: number, upTo: number) =>
    apiFetch<z.infer<typeof markReadAnswer>>(`projects/${projectId}/messages/read`, {
      method: "POST",
      body: { read: { up_to_id: upTo } },
    }),
  boardMembers: (projectId: number) => apiFetch<z.infer<typeof boardMembersAnswer>>(`projects/${projectId}/members`),
  listNotifications: () => apiFetch<z.infer<typeof notificationsAnswer>>("notifications", { query: { per_page: 15 } }),
  markNotificationSeen: (id: number) =>
    apiFetch<z.infer<typeof notificationSeenAnswer>>(`notifications/${id}/seen`, { method: "PUT", body: {} }),
  notificationSummary: () => apiFetch<Summary>("notifications/summary"),
  sendNotice: (notification: { message: string; author_name?: string; workspace_id?: number | null }) =>
    apiFetch<z.infer<typeof noticeAnswer>>("notifications", { method: "POST", body: { notification } }),
  pushPublicKey: () => apiFetch<{ public_key: string }>("push/public_key"),
  subscribePush: (subscription: PushSubscriptionJSON) =>
    apiFetch("push/subscriptions", { method: "POST", body: { subscription } }),
  /**
   * The live feed while a board is open: answers (as a promise, like every verb react-admin's hook wraps)
   * the function that closes it.
   */
  openRealtime: (onEvent: (event: RealtimeEvent) => void) => Promise.resolve(openRealtime(onEvent)),
};
