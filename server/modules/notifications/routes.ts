/**
 * The bell: each user's notifications (mentions, notices, project notes), marking them seen,
 * the menu's counters, and the administrators' notices (SPEC §7: POST notifications {notification:
 * {message, author_name}}), to everyone or to one notifiable workspace's employees.
 */
import { and, count, desc, eq, isNull, lt, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { boardMessages } from "../../../src/core/messages";
import {
  noticeAnswer,
  noticeSchema,
  notificationSeenAnswer,
  notificationSummary,
  notificationsAnswer,
  notificationsQuery,
} from "../../../src/core/schemas/board";
import { notifications, projects } from "../../db/schema";
import { currentUser, requires } from "../../http/auth";
import { notFound } from "../../http/errors";
import { doc, idParams } from "../../http/openapi";
import { idOf } from "../../http/resource";
import { unreadTotal } from "../board";
import { reviewSummary } from "../week_reviews";
import { pushNotified, sendNotice } from "./service";

export async function notificationRoutes(app: FastifyInstance) {
  const tags = ["notifications"];

  app.get(
    "/notifications",
    {
      config: requires("notifications", "list"),
      schema: doc({
        tags,
        summary: "Mis notificaciones (las más recientes primero)",
        querystring: notificationsQuery,
        response: { 200: notificationsAnswer },
      }),
    },
    async (request) => {
      const user = currentUser(request);
      const { before_id, per_page } = request.query as z.output<typeof notificationsQuery>;
      const rows = await app.db.db
        .select({
          id: notifications.id,
          kind: notifications.kind,
          message: notifications.message,
          author_name: notifications.author_name,
          project_id: notifications.project_id,
          project_name: projects.name,
          project_message_id: notifications.project_message_id,
          week_start: notifications.week_start,
          seen_at: notifications.seen_at,
          created_at: notifications.created_at,
        })
        .from(notifications)
        .leftJoin(projects, eq(projects.id, notifications.project_id))
        .where(and(eq(notifications.user_id, user.id), before_id ? lt(notifications.id, before_id) : undefined))
        .orderBy(desc(notifications.id))
        .limit(per_page + 1);
      return { notifications: rows.slice(0, per_page), has_more: rows.length > per_page };
    },
  );

  app.get(
    "/notifications/summary",
    {
      config: requires("notifications", "list"),
      schema: doc({ tags, summary: "Contadores del menú", response: { 200: notificationSummary } }),
    },
    async (request) => {
      const user = currentUser(request);
      const [unseen] = await app.db.db
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.user_id, user.id), isNull(notifications.seen_at)));
      const reviews = await reviewSummary(app.db.db, user);
      return {
        unread_messages: await unreadTotal(app.db.db, user.id),
        unseen_notifications: Number(unseen?.n ?? 0),
        reviewer: reviews.reviewer,
        pending_reviews: reviews.pending,
      };
    },
  );

  app.put(
    "/notifications/:id/seen",
    {
      config: requires("notifications", "update"),
      schema: doc({
        tags,
        summary: "Marcar una notificación como vista",
        params: idParams,
        response: { 200: notificationSeenAnswer },
      }),
    },
    async (request) => {
      const user = currentUser(request);
      const id = idOf(request);
      const [row] = await app.db.db
        .update(notifications)
        .set({ seen_at: sql`coalesce(${notifications.seen_at}, now())` })
        .where(and(eq(notifications.id, id), eq(notifications.user_id, user.id)))
        .returning();
      if (!row) throw notFound();
      return { notification: row };
    },
  );

  app.post(
    "/notifications",
    {
      config: requires("notifications", "create"),
      schema: doc({
        tags,
        summary: "Enviar un aviso a todos o a un espacio de trabajo",
        body: noticeSchema,
        wrap: "notification",
        response: { 201: noticeAnswer },
      }),
    },
    async (request, reply) => {
      const user = currentUser(request);
      const input = (request.body as { notification: z.output<typeof noticeSchema> }).notification;
      const result = await app.db.db.transaction((tx) => sendNotice(tx, user, input));
      pushNotified(app, result.ids, {
        title: boardMessages.noticeTitle(result.notice.author_name),
        body: input.message,
        url: "/app/notices",
        tag: `notice-${result.notice.id}`,
      });
      reply.status(201);
      return {
        notification: { ...result.notice, recipients: result.ids.length },
        message: boardMessages.noticeSent(result.ids.length),
      };
    },
  );
}
