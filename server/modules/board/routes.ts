/** Project boards: history, posting with mentions, read receipts and the members list. */
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { boardMessages } from "../../../src/core/messages";
import {
  boardHistoryAnswer,
  boardHistoryQuery,
  boardMembersAnswer,
  boardMessageSchema,
  boardPostAnswer,
  markReadAnswer,
  markReadSchema,
} from "../../../src/core/schemas/board";
import { projects } from "../../db/schema";
import { currentUser } from "../../http/auth";
import { parseWrapped } from "../../http/body";
import { forbidden, HttpError, notFound } from "../../http/errors";
import { doc, idParams } from "../../http/openapi";
import { idOf } from "../../http/resource";
import { pushNotified } from "../notifications";
import { boardMembers, canReadBoard, history, markRead, postMessage, unreadTotal } from "./service";

export async function boardRoutes(app: FastifyInstance) {
  const tags = ["board"];

  /** The project (404 when it does not exist) after checking the user may read its board (403). */
  const boardOf = async (request: Parameters<typeof idOf>[0]) => {
    const user = currentUser(request);
    const id = idOf(request);
    const [project] = await app.db.db
      .select({ id: projects.id, name: projects.name, code: projects.project_code })
      .from(projects)
      .where(eq(projects.id, id));
    if (!project) throw notFound();
    if (!(await canReadBoard(app.db.db, user, id))) throw forbidden();
    return { user, project };
  };

  app.get(
    "/projects/:id/messages",
    {
      config: { signedIn: true },
      schema: doc({
        tags,
        summary: "Mensajes del tablero del proyecto (paginados)",
        params: idParams,
        querystring: boardHistoryQuery,
        response: { 200: boardHistoryAnswer },
      }),
    },
    async (request) => {
      const { project } = await boardOf(request);
      const query = request.query as z.output<typeof boardHistoryQuery>;
      const page = await history(app.db.db, project.id, query.before_id, query.per_page);
      return { ...page, per_page: query.per_page };
    },
  );

  app.post(
    "/projects/:id/messages",
    {
      config: { signedIn: true },
      schema: doc({
        tags,
        summary: "Escribir en el tablero del proyecto",
        params: idParams,
        body: boardMessageSchema,
        wrap: "message",
        // Who may write on this board is said first (403), whatever the message holds.
        bodyReadByHandler: true,
        response: { 201: boardPostAnswer },
      }),
    },
    async (request, reply) => {
      const { user, project } = await boardOf(request);
      const input = parseWrapped(request.body, "message", boardMessageSchema);
      if (!user.can_chat) throw new HttpError(403, boardMessages.cannotChat);
      const posted = await postMessage(app.db.db, user, project.id, input.body);
      pushNotified(
        app,
        posted.notified.map((n) => n.user_id),
        {
          title: boardMessages.mentionTitle(user.name, posted.projectName),
          body: input.body,
          url: `/app/projects/${project.id}?tab=board`,
          tag: `board-${project.id}`,
        },
      );
      reply.status(201);
      return { message: posted.message, mentioned: posted.notified.map((n) => n.user_id) };
    },
  );

  app.post(
    "/projects/:id/messages/read",
    {
      config: { signedIn: true },
      schema: doc({
        tags,
        summary: "Marcar mensajes del tablero como leídos",
        params: idParams,
        body: markReadSchema,
        wrap: "read",
        response: { 200: markReadAnswer },
      }),
    },
    async (request) => {
      const { user, project } = await boardOf(request);
      const input = (request.body as { read: z.output<typeof markReadSchema> }).read;
      const read = await app.db.db.transaction((tx) => markRead(tx, user.id, project.id, input.up_to_id ?? null));
      return { read, unread_messages: await unreadTotal(app.db.db, user.id) };
    },
  );

  app.get(
    "/projects/:id/members",
    {
      config: { signedIn: true },
      schema: doc({
        tags,
        summary: "Usuarios del proyecto (para mencionar)",
        params: idParams,
        response: { 200: boardMembersAnswer },
      }),
    },
    async (request) => {
      const { project } = await boardOf(request);
      const members = await boardMembers(app.db.db, project.id);
      return { members: members.map(({ email: _email, ...m }) => m) };
    },
  );
}
