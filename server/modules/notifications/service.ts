/**
 * The one way a notification reaches someone: the row in their bell and the event on their live feed,
 * written in the caller's transaction (so neither exists without the other), then, once it has committed,
 * a push to their devices. Board mentions, administrators' notices and a project's notify_user all use it.
 */
import type { FastifyInstance } from "fastify";
import type { Tx } from "../../db/client";
import { notifications } from "../../db/schema";
import { publish } from "../../http/realtime";
import type { PushPayload } from "../../ports/push";

export type NewNotification = typeof notifications.$inferInsert & { user_id: number };

export interface Notified {
  id: number;
  user_id: number;
}

/** Inserts the notifications and announces each on its user's live feed; nothing when `rows` is empty. */
export async function notify(tx: Tx, rows: NewNotification[]): Promise<Notified[]> {
  if (rows.length === 0) return [];
  const inserted = (await tx
    .insert(notifications)
    .values(rows)
    .returning({ id: notifications.id, user_id: notifications.user_id })) as Notified[];
  for (const n of inserted) await publish(tx, { t: "notification", id: n.id, user_id: n.user_id });
  return inserted;
}

/**
 * Pushes to the users' devices in the background, after the transaction that notified them has committed:
 * a slow push service must not hold the request.
 */
export function pushNotified(app: FastifyInstance, userIds: number[], payload: PushPayload) {
  app.pushes.enqueue(userIds, payload);
}
