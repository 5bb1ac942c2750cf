/** Web Push subscriptions (issue 8): one per user and device (endpoint). */
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { pushSubscriptionSchema } from "../../../src/core/schemas/board";
import { z } from "../../../src/core/schemas/fields";
import { push_subscriptions } from "../../db/schema";
import { currentUser } from "../../http/auth";
import { parseWrapped } from "../../http/body";
import { doc } from "../../http/openapi";

const endpointOnly = z.object({ endpoint: pushSubscriptionSchema.shape.endpoint });

export async function pushRoutes(app: FastifyInstance) {
  const tags = ["push"];

  app.get("/push/public_key", { schema: doc({ tags, summary: "Clave pública VAPID" }) }, async (request) => {
    currentUser(request);
    return { public_key: await app.push.publicKey() };
  });

  app.post(
    "/push/subscriptions",
    {
      schema: doc({
        tags,
        summary: "Registrar este dispositivo para notificaciones push",
        body: pushSubscriptionSchema,
        wrap: "subscription",
      }),
    },
    async (request, reply) => {
      const user = currentUser(request);
      const input = parseWrapped(request.body, "subscription", pushSubscriptionSchema);
      const userAgent = String(request.headers["user-agent"] ?? "").slice(0, 500) || null;
      // The endpoint is the device: subscribing again (or as another user on the same browser) takes it over.
      const [row] = await app.db.db
        .insert(push_subscriptions)
        .values({ user_id: user.id, endpoint: input.endpoint, keys: input.keys, user_agent: userAgent })
        .onConflictDoUpdate({
          target: push_subscriptions.endpoint,
          set: { user_id: user.id, keys: input.keys, user_agent: userAgent },
        })
        .returning({
          id: push_subscriptions.id,
          endpoint: push_subscriptions.endpoint,
          created_at: push_subscriptions.created_at,
        });
      reply.status(201);
      return { subscription: row };
    },
  );

  app.delete("/push/subscriptions", { schema: doc({ tags, summary: "Dar de baja este dispositivo" }) }, async (request) => {
    const user = currentUser(request);
    const raw = request.body && typeof request.body === "object" ? request.body : (request.query ?? {});
    const input = parseWrapped(raw, "subscription", endpointOnly);
    const removed = await app.db.db
      .delete(push_subscriptions)
      .where(and(eq(push_subscriptions.endpoint, input.endpoint), eq(push_subscriptions.user_id, user.id)))
      .returning({ id: push_subscriptions.id });
    return { removed: removed.length };
  });
}
