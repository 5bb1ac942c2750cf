/**
 * The one way a notification reaches someone: the row in their bell and the event on their live feed,
 * written in the caller's transaction (so neither exists without the other), then, once it has committed,
 * a push to their devices. Board mentions, administrators' notices and a project's notify_user all use it.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { boardMessages, messages } from "../../../src/core/messages";
import type { noticeSchema } from "../../../src/core/schemas/board";
import type { SessionUser } from "../../../src/core/session";
import type { Tx } from "../../db/client";
import { employees, notices, notifications, users, workspaces } from "../../db/schema";
import { ValidationError } from "../../http/errors";
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

/**
 * An administrator's notice (SPEC §7): to every user, or to the active employees of one notifiable
 * workspace. The notice and its notifications in the caller's transaction; pushing is the caller's.
 */
export async function sendNotice(tx: Tx, author: SessionUser, input: z.infer<typeof noticeSchema>) {
  const authorName = input.author_name?.trim() || author.name;
  const workspaceId = input.workspace_id ?? null;
  if (workspaceId) {
    const [workspace] = await tx.select().from(workspaces).where(eq(workspaces.id, workspaceId));
    if (!workspace) throw ValidationError.field("workspace_id", messages.invalidReference);
    if (!workspace.is_notifiable) throw ValidationError.field("workspace_id", boardMessages.workspaceNotNotifiable);
  }
  const recipients = workspaceId
    ? await tx
        .selectDistinct({ id: employees.user_id })
        .from(employees)
        .where(and(eq(employees.workspace_id, workspaceId), eq(employees.is_active, true), isNotNull(employees.user_id)))
    : await tx.select({ id: users.id }).from(users);
  const ids = recipients.map((r) => r.id as number);
  const [notice] = await tx
    .insert(notices)
    .values({ message: input.message, author_name: authorName, workspace_id: workspaceId, created_by: author.id })
    .returning();
  await notify(
    tx,
    ids.map((user_id) => ({
      kind: "notice",
      user_id,
      workspace_id: workspaceId,
      notice_id: notice.id,
      message: input.message,
      author_name: authorName,
    })),
  );
  return { notice, ids };
}
