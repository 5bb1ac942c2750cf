/** The project boards, the bell, notices and push subscriptions: their calls. */
import type { BoardMessageView as BoardMessage } from "../core/schemas/board";
import { apiFetch } from "./http";

export type { BoardMessage };

export interface BoardMember {
  id: number;
  name: string;
  handle: string;
  can_chat: boolean;
}
export interface BellNotification {
  id: number;
  kind: "mention" | "notice" | "project";
  message: string;
  author_name: string;
  project_id: number | null;
  project_name: string | null;
  seen_at: string | null;
  created_at: string;
}
export interface Summary {
  unread_messages: number;
  unseen_notifications: number;
}

export const boardApi = {
  history: (projectId: number, beforeId?: number) =>
    apiFetch<{ messages: BoardMessage[]; has_more: boolean }>(`projects/${projectId}/messages`, {
      query: { before_id: beforeId },
    }),
  post: (projectId: number, body: string) =>
    apiFetch<{ message: BoardMessage }>(`projects/${projectId}/messages`, { method: "POST", body: { message: { body } } }),
  read: (projectId: number, upTo: number) =>
    apiFetch<{ read: number; unread_messages: number }>(`projects/${projectId}/messages/read`, {
      method: "POST",
      body: { read: { up_to_id: upTo } },
    }),
  members: (projectId: number) => apiFetch<{ members: BoardMember[] }>(`projects/${projectId}/members`),
  notifications: () => apiFetch<{ notifications: BellNotification[] }>("notifications", { query: { per_page: 15 } }),
  seen: (id: number) => apiFetch(`notifications/${id}/seen`, { method: "PUT", body: {} }),
  summary: () => apiFetch<Summary>("notifications/summary"),
  sendNotice: (notification: { message: string; author_name?: string; workspace_id?: number | null }) =>
    apiFetch<{ message: string }>("notifications", { method: "POST", body: { notification } }),
  publicKey: () => apiFetch<{ public_key: string }>("push/public_key"),
  subscribe: (subscription: PushSubscriptionJSON) => apiFetch("push/subscriptions", { method: "POST", body: { subscription } }),
};
