import type { FastifyInstance } from "fastify";
import { messages } from "../../../src/core/messages";
import { loginSchema } from "../../../src/core/schemas/session";
import { SESSION_COOKIE } from "../../../src/core/session";
import { currentUser } from "../../http/auth";
import { HttpError } from "../../http/errors";
import { doc } from "../../http/openapi";
import { authenticate, clearFailures, destroySession, openSession, recordFailure, tooManyFailures } from "./service";
import { ssoRoutes } from "./sso";

export async function sessionRoutes(app: FastifyInstance) {
  app.post(
    "/sessions",
    { config: { public: true }, schema: doc({ tags: ["sesiones"], summary: "Iniciar sesión", body: loginSchema }) },
    async (request, reply) => {
      const raw = (request.body ?? {}) as Record<string, unknown>;
      const parsed = loginSchema.safeParse((raw.session ?? raw.user ?? raw) as unknown);
      if (!parsed.success) throw new HttpError(401, messages.invalidCredentials);
      const email = parsed.data.email.trim().toLowerCase();
      if (await tooManyFailures(app.db.db, email, app.config)) throw new HttpError(429, messages.tooManyAttempts);
      const found = await authenticate(app.db.db, email, parsed.data.password);
      if (!found) {
        await recordFailure(app.db.db, email, request.ip);
        throw new HttpError(401, messages.invalidCredentials);
      }
      await clearFailures(app.db.db, email);
      return openSession(app, request, reply, found);
    },
  );

  await app.register(ssoRoutes);

  app.get("/sessions/current", { schema: doc({ tags: ["sesiones"], summary: "Sesión actual" }) }, async (request) => ({
    user: currentUser(request),
  }));

  app.delete("/sessions", { schema: doc({ tags: ["sesiones"], summary: "Cerrar sesión" }) }, async (request, reply) => {
    if (request.sessionId) await destroySession(app.db.db, request.sessionId);
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    return { ok: true };
  });
}
