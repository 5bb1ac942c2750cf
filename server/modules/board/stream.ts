/**
 * GET /api/v1/realtime: the signed-in user's server-sent events. Events `message` (a board
 * message of a project the user may read), `receipt` (someone read up to a message) and `notification`
 * (the user's bell). Every event carries `id:` = the newest board message id the stream has delivered,
 * so a reconnecting EventSource (Last-Event-ID) or `?last_id=` resumes without losing messages: the
 * stream first replays the messages after it, then follows the hub (server/http/realtime.ts).
 */
import { and, eq, gt, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { boardMessages, fairShareMessages } from "../../../src/core/messages";
import type { SessionUser } from "../../../src/core/session";
import { sessionUsers, userForToken } from "../../auth/sessionLookup";
import { notifications, project_messages, users } from "../../db/schema";
import { currentUser, tokenOf } from "../../http/auth";
import { HttpError } from "../../http/errors";
import { releaseFairShare } from "../../http/fairShare";
import { doc, fileAnswer } from "../../http/openapi";
import type { RealtimeEvent } from "../../http/realtime";
import { outer } from "../../http/sql";
import { loadMessages, memberSql } from "./service";

/** How often a stream sends a heartbeat comment and re-checks its session (tests shorten it). */
export const streamTiming = { heartbeatMs: 20_000 };
const REPLAY_LIMIT = 500;

const cursorOf = (value: unknown): number | null => {
  const n = Number(Array.isArray(value) ? value[0] : value);
  return Number.isInteger(n) && n >= 0 && n <= 2_147_483_647 ? n : null;
};

interface Stream {
  /** The user the stream was opened by (its cap counts per user and per session). */
  userId: number;
  /** As of the last event: re-read from the session before every event (roles and employee change). */
  user: SessionUser;
  sessionId: number | null;
  cursor: number;
  chain: Promise<void>;
  reply: FastifyReply;
  closed: boolean;
}

export async function realtimeRoutes(app: FastifyInstance) {
  const streams = new Set<Stream>();

  const write = (s: Stream, event: string, data: unknown) => {
    if (s.closed) return;
    s.reply.raw.write(`id: ${s.cursor}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };

  /** The board messages after the stream's cursor the user may read, in id order. */
  const catchUp = async (s: Stream) => {
    const readable = s.user.administrator_role ? undefined : memberSql(s.user.id, outer(project_messages.project_id));
    const rows = await loadMessages(app.db.db, and(gt(project_messages.id, s.cursor), readable), REPLAY_LIMIT, false);
    for (const message of rows) {
      s.cursor = Math.max(s.cursor, message.id);
      write(s, "message", message);
    }
  };

  const end = (s: Stream) => {
    if (s.closed) return;
    s.closed = true;
    s.reply.raw.end();
  };

  /**
   * The open streams whose session is still valid, each with its user as it is now (one query for all):
   * authority is never taken from when the stream was opened. A stream whose session is gone (signed out,
   * password changed, employee deactivated, expired) ends here.
   */
  const current = async () => {
    const open = [...streams].filter((s) => !s.closed);
    if (open.length === 0) return open;
    const fresh = await sessionUsers(
      app.db.db,
      open.flatMap((s) => (s.sessionId === null ? [] : [s.sessionId])),
      app.config,
    );
    return open.filter((s) => {
      const user = s.sessionId === null ? undefined : fresh.get(s.sessionId);
      if (!user) {
        end(s);
        return false;
      }
      s.user = user;
      return true;
    });
  };

  /** Per event, rows loaded once for every stream of this process. */
  const handle = async (event: RealtimeEvent) => {
    const open = await current();
    if (open.length === 0) return;
    if (event.t === "notification") {
      const targets = open.filter((s) => s.user.id === event.user_id);
      if (!targets.length) return;
      const [row] = await app.db.db.select().from(notifications).where(eq(notifications.id, event.id));
      if (row) for (const s of targets) enqueue(s, async () => write(s, "notification", row));
      return;
    }
    if (event.t === "resync") {
      for (const s of open) enqueue(s, () => catchUp(s));
      return;
    }
    const memberIds = new Set(
      (
        (await app.db.db.execute(
          sql`select u.id from users u where u.id in (${sql.join(
            [...new Set(open.map((s) => s.user.id))].map((id) => sql`${id}::int`),
            sql`, `,
          )}) and ${memberSql(sql`u.id`, sql`${event.project_id}::int`)}`,
        )) as unknown as { rows: Array<{ id: number }> }
      ).rows.map((r) => Number(r.id)),
    );
    const targets = open.filter((s) => s.user.administrator_role || memberIds.has(s.user.id));
    if (event.t === "message") {
      if (!targets.length) return;
      // Loaded once for every stream. Board inserts commit in id order (BOARD_INSERT_LOCK_KEY) and NOTIFYs
      // arrive in commit order, so a stream behind its cursor has nothing missing before this message.
      const [message] = await loadMessages(app.db.db, eq(project_messages.id, event.id), 1);
      if (!message) return;
      for (const s of targets)
        enqueue(s, async () => {
          if (message.id <= s.cursor) return;
          s.cursor = message.id;
          write(s, "message", message);
        });
      return;
    }
    const [reader] = await app.db.db.select({ name: users.name }).from(users).where(eq(users.id, event.user_id));
    for (const s of targets)
      enqueue(s, async () =>
        write(s, "receipt", {
          project_id: event.project_id,
          user_id: event.user_id,
          name: reader?.name ?? "",
          up_to: event.up_to,
        }),
      );
  };

  // One hub listener per process (made with the first stream), events handled one after the other so each
  // stream gets them in commit order.
  let subscription: Promise<unknown> | undefined;
  let handling: Promise<void> = Promise.resolve();
  const listen = () => {
    subscription ??= app.realtime
      .subscribe((event) => {
        handling = handling.then(() => handle(event)).catch((error) => app.log.warn({ err: error }, "evento de tiempo real"));
      })
      .catch((error) => {
        subscription = undefined;
        throw error;
      });
    return subscription;
  };

  const enqueue = (s: Stream, work: () => Promise<void>) => {
    s.chain = s.chain.then(work).catch((error) => app.log.warn({ err: error }, "flujo de eventos"));
  };

  /**
   * Past REALTIME_STREAMS_PER_SESSION streams of the new one's session, or REALTIME_STREAMS_PER_USER of its
   * user, the oldest ones end (with an event saying why): a browser needs one per tab, so a script or a
   * stuck page opening thousands cannot hold the server's memory and event loop, and the user's newest
   * tabs are the ones that keep receiving.
   */
  const makeRoom = (fresh: Stream) => {
    const { REALTIME_STREAMS_PER_SESSION: perSession, REALTIME_STREAMS_PER_USER: perUser } = app.config;
    const mine = [...streams].filter((s) => !s.closed && s.userId === fresh.userId);
    const sameSession = mine.filter((s) => s.sessionId === fresh.sessionId);
    const ending = new Set([
      ...sameSession.slice(0, Math.max(0, sameSession.length - perSession + 1)),
      ...mine.slice(0, Math.max(0, mine.length - perUser + 1)),
    ]);
    for (const s of ending) {
      write(s, "replaced", { message: fairShareMessages.streamReplaced });
      end(s);
      streams.delete(s);
    }
  };

  app.addHook("preClose", async () => {
    for (const s of streams) end(s);
    streams.clear();
  });

  app.get(
    "/realtime",
    {
      config: { signedIn: true },
      schema: doc({
        tags: ["board"],
        summary: "Flujo de eventos (SSE): mensajes de tablero, lecturas y notificaciones",
        response: { 200: fileAnswer("text/event-stream", "Eventos del servidor mientras la conexión siga abierta") },
      }),
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const user = currentUser(request);
      const accept = String(request.headers.accept ?? "");
      if (!accept.includes("text/event-stream")) throw new HttpError(406, boardMessages.streamOnly);
      const query = (request.query ?? {}) as Record<string, unknown>;
      let cursor = cursorOf(request.headers["last-event-id"]) ?? cursorOf(query.last_id);
      if (cursor === null) {
        const [row] = await app.db.db.select({ max: sql<number | null>`max(${project_messages.id})` }).from(project_messages);
        cursor = Number(row?.max ?? 0);
      }
      const s: Stream = {
        userId: user.id,
        user,
        sessionId: request.sessionId,
        cursor,
        chain: Promise.resolve(),
        reply,
        closed: false,
      };
      await listen();
      // An open stream lasts as long as its tab: it does not hold one of the user's places for requests.
      releaseFairShare(request);
      makeRoom(s);
      reply.hijack();
      reply.raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      });
      reply.raw.write(`retry: 2000\n\n`);
      streams.add(s);
      // Each heartbeat also checks the session: a stream ends soon after its user signs out or is revoked.
      const token = tokenOf(request);
      const heartbeat = setInterval(() => {
        if (s.closed) return;
        reply.raw.write(`: ping\n\n`);
        void (token ? userForToken(app.db.db, token, app.config, app.sessionCache) : Promise.resolve(null))
          .then((found) => {
            if (!found && !s.closed) reply.raw.end();
          })
          .catch(() => {});
      }, streamTiming.heartbeatMs);
      heartbeat.unref();
      let done = false;
      const close = () => {
        if (done) return;
        done = true;
        s.closed = true;
        streams.delete(s);
        clearInterval(heartbeat);
      };
      request.raw.on("close", close);
      reply.raw.on("close", close);
      enqueue(s, async () => {
        await catchUp(s);
        write(s, "ready", { cursor: s.cursor });
      });
    },
  );
}
