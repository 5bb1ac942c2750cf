import type { FastifyInstance } from "fastify";
import { fairShareMessages, messages } from "../../../src/core/messages";
import { currentSessionAnswer, loginSchema, sessionAnswer, signOutAnswer } from "../../../src/core/schemas/session";
import { SESSION_COOKIE } from "../../../src/core/session";
import { HashingBusy } from "../../auth/passwords";
import { PUBLIC_DEMO_PASSWORD } from "../../config";
import { currentUser } from "../../http/auth";
import { HttpError } from "../../http/errors";
import { doc } from "../../http/openapi";
import { DEVICE_COOKIE, deviceCookie, deviceKey, releaseAttempt, reserveAttempt, sessionKey } from "./limit";
import { authenticate, destroySession, openSession } from "./service";
import { ssoRoutes } from "./sso";

export async function sessionRoutes(app: FastifyInstance) {
  app.post(
    "/sessions",
    {
      config: { public: true },
      schema: doc({
        tags: ["sesiones"],
        summary: "Iniciar sesión",
        body: loginSchema,
        // Wrong or malformed credentials are one 401: a sign-in never says which field failed.
        bodyReadByHandler: true,
        public: true,
        response: { 200: sessionAnswer },
      }),
    },
    async (request, reply) => {
      const raw = (request.body ?? {}) as Record<string, unknown>;
      const parsed = loginSchema.safeParse((raw.session ?? raw.user ?? raw) as unknown);
      if (!parsed.success) throw new HttpError(401, messages.invalidCredentials);
      const email = parsed.data.email.trim().toLowerCase();
      // No account has such an e-mail (lower-casing can lengthen it; the database refuses NUL): nothing to reserve.
      if (email.length > 254 || email.includes("\0")) throw new HttpError(401, messages.invalidCredentials);
      // A browser known to the e-mail: its device cookie, or a session of that same user still open in it.
      const device =
        deviceKey(app.config, email, request.cookies?.[DEVICE_COOKIE]) ??
        (request.user && request.user.email.toLowerCase() === email && request.sessionId ? sessionKey(request.sessionId) : null);
      const reservation = await reserveAttempt(app.db.db, { email, ip: request.ip, device }, app.config);
      if (!reservation.ok) {
        reply.header("retry-after", String(reservation.retryAfter));
        throw new HttpError(429, messages.tooManyAttempts);
      }
      // Only now, with an attempt reserved, does the password get checked; a failure keeps the reservation.
      // In production the demo's public password opens no account, however it came to be stored.
      const publicPassword = app.config.NODE_ENV === "production" && parsed.data.password === PUBLIC_DEMO_PASSWORD;
      let found: Awaited<ReturnType<typeof authenticate>>;
      try {
        found = publicPassword ? null : await authenticate(app.db.db, email, parsed.data.password);
      } catch (error) {
        if (!(error instanceof HashingBusy)) throw error;
        // Not an attempt at all: the password was never checked, so it does not count towards the limits.
        await releaseAttempt(app.db.db, reservation);
        reply.header("retry-after", String(error.retryAfterSeconds));
        throw new HttpError(429, fairShareMessages.signInBusy);
      }
      if (!found) throw new HttpError(401, messages.invalidCredentials);
      await releaseAttempt(app.db.db, reservation);
      const known = deviceCookie(app.config, email);
      reply.setCookie(DEVICE_COOKIE, known.value, {
        path: "/api/v1/sessions",
        httpOnly: true,
        sameSite: "strict",
        secure: app.config.PUBLIC_URL?.startsWith("https:") ?? false,
        maxAge: known.maxAge,
      });
      return openSession(app, request, reply, found);
    },
  );

  await app.register(ssoRoutes);

  app.get(
    "/sessions/current",
    {
      config: { signedIn: true },
      schema: doc({ tags: ["sesiones"], summary: "Sesión actual", response: { 200: currentSessionAnswer } }),
    },
    async (request) => ({
      user: currentUser(request),
    }),
  );

  app.delete(
    "/sessions",
    {
      config: { signedIn: true },
      schema: doc({ tags: ["sesiones"], summary: "Cerrar sesión", response: { 200: signOutAnswer } }),
    },
    async (request, reply) => {
      if (request.sessionId) await destroySession(app.db.db, request.sessionId);
      reply.clearCookie(SESSION_COOKIE, { path: "/" });
      return { ok: true };
    },
  );
}
