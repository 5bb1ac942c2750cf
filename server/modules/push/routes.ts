/** Web Push subscriptions: one per device (endpoint), at most MAX_SUBSCRIPTIONS_PER_USER per user, only to push services of the allow-list. */
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { boardMessages } from "../../../src/core/messages";
import {
  pushPublicKeyAnswer,
  pushSubscriptionAnswer,
  pushSubscriptionSchema,
  pushUnsubscribeAnswer,
} from "../../../src/core/schemas/board";
import { z } from "../../../src/core/schemas/fields";
import { push_subscriptions } from "../../db/schema";
import { currentUser } from "../../http/auth";
import { parseWrapped } from "../../http/body";
import { ValidationError } from "../../http/errors";
import { doc } from "../../http/openapi";
import { MAX_SUBSCRIPTIONS_PER_USER } from "./service";

const endpointOnly = z.object({ endpoint: pushSubscriptionSchema.shape.endpoint });

export async function pushRoutes(app: FastifyInstance) {
  const tags = ["push"];

  app.get(
    "/push/public_key",
    {
      config: { signedIn: true },
      schema: doc({ tags, summary: "Clave pública VAPID", response: { 200: pushPublicKeyAnswer } }),
    },
    async (request) => {
      currentUser(request);
      return { public_key: await app.push.publicKey() };
    },
  );

  app.post(
    "/push/subscriptions",
    {
      config: { signedIn: true },
      schema: doc({
        tags,
        summary: "Registrar este dispositivo para notificaciones push",
        body: pushSubscriptionSchema,
        wrap: "subscription",
        response: { 201: pushSubscriptionAnswer },
      }),
    },
    async (request, reply) => {
      const user = currentUser(request);
      const input = (request.body as { subscription: z.output<typeof pushSubscriptionSchema> }).subscription;
      // Only the browsers' push services: any other address would make the server request it on every notice.
      if (!app.push.allows(input.endpoint)) throw ValidationError.field("endpoint", boardMessages.subscriptionHostNotAllowed);
      const userAgent = String(request.headers["user-agent"] ?? "").slice(0, 500) || null;
      const row = await app.db.db.transaction(async (tx) => {
        // One user's subscriptions change one at a time, so the cap holds under parallel requests.
        await tx.execute(sql`select id from users where id = ${user.id}::int for update`);
        // The endpoint is the device: subscribing again (or as another user on the same browser) takes it over.
        const [saved] = await tx
          .insert(push_subscriptions)
          .values({ user_id: user.id, endpoint: input.endpoint, keys: input.keys, user_agent: userAgent })
          .onConflictDoUpdate({
            target: push_subscriptions.endpoint,
            set: { user_id: user.id, keys: input.keys, user_agent: userAgent, created_at: sql`now()` },
          })
          .returning({
            id: push_subscriptions.id,
            endpoint: push_subscriptions.endpoint,
            created_at: push_subscriptions.created_at,
          });
        // At most MAX_SUBSCRIPTIONS_PER_USER devices: the oldest ones beyond it are dropped.
        await tx.execute(sql`delete from push_subscriptions where user_id = ${user.id}::int and id not in (
          select id from push_subscriptions where user_id = ${user.id}::int order by created_at desc, id desc limit ${MAX_SUBSCRIPTIONS_PER_USER}::int)`);
        return saved;
      });
      reply.status(201);
      return { subscription: row };
    },
  );

  app.delete(
    "/push/subscriptions",
    {
      config: { signedIn: true },
      schema: doc({
        tags,
        summary: "Dar de baja este dispositivo",
        description: "El endpoint va en el cuerpo ({subscription: {endpoint}}) o en la consulta (?endpoint=).",
        body: endpointOnly,
        wrap: "subscription",
        // The endpoint may come in the query string instead of a body (a DELETE's body is optional for
        // many clients), so the handler reads whichever came: the compiler would refuse a DELETE with none.
        bodyReadByHandler: true,
        response: { 200: pushUnsubscribeAnswer },
      }),
    },
    async (request) => {
      const user = currentUser(request);
      const raw = request.body && typeof request.body === "object" ? request.body : (request.query ?? {});
      const input = parseWrapped(raw, "subscription", endpointOnly);
      const removed = await app.db.db
        .delete(push_subscriptions)
        .where(and(eq(push_subscriptions.endpoint, input.endpoint), eq(push_subscriptions.user_id, user.id)))
        .returning({ id: push_subscriptions.id });
      return { removed: removed.length };
    },
  );
}
