/**
 * «Conectar Google Calendar»: the OAuth 2.0 authorization-code flow, server side, so the browser
 * never holds Google tokens.
 *   GET /api/v1/google/connect   → 302 to Google's consent page (offline access, calendar scope), with a
 *                                  random `state` also kept in a short-lived HttpOnly cookie
 *   GET /api/v1/google/callback  ← Google sends the user back with ?code&state (or ?error): the state must
 *                                  match the cookie; the code is exchanged for tokens, stored encrypted for
 *                                  the signed-in user; → 302 to /app/activities?google=connected (or =error)
 * Both need a session (the browser navigates with its session cookie) and the import permission.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { importMessages } from "../../../src/core/messages";
import { currentUser, requires } from "../../http/auth";
import { ValidationError } from "../../http/errors";
import { doc, redirectAnswer } from "../../http/openapi";
import { encryptSecret, secretKey } from "../../http/secrets";
import { storeCloudToken } from "../users";

export const GOOGLE_STATE_COOKIE = "sia_google_state";
const COOKIE_PATH = "/api/v1/google";
const STATE_MINUTES = 10;
export const AFTER_CONNECT = "/app/activities";

const callbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
});

function redirectUri(app: FastifyInstance, request: FastifyRequest) {
  const base = app.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`;
  return new URL("/api/v1/google/callback", base).toString();
}

function connector(app: FastifyInstance) {
  const reader = app.calendarReader;
  if (!reader?.authorizationUrl || !reader.exchangeCode) throw ValidationError.base(importMessages.googleNotConfigured);
  return reader as Required<Pick<typeof reader, "authorizationUrl" | "exchangeCode">>;
}

const sameState = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export async function googleRoutes(app: FastifyInstance) {
  const secure = app.config.PUBLIC_URL?.startsWith("https:") ?? false;
  const clearState = (reply: FastifyReply) => reply.clearCookie(GOOGLE_STATE_COOKIE, { path: COOKIE_PATH });

  app.get(
    "/google/connect",
    {
      schema: doc({
        tags: ["calendar_imports"],
        summary: "Conectar Google Calendar: redirige a la página de permisos de Google",
        response: { 302: redirectAnswer("A la página de permisos de Google") },
      }),
      config: requires("calendar_imports", "import"),
    },
    async (request, reply) => {
      const user = currentUser(request);
      const reader = connector(app);
      const state = randomBytes(24).toString("base64url");
      reply.setCookie(GOOGLE_STATE_COOKIE, state, {
        path: COOKIE_PATH,
        httpOnly: true,
        sameSite: "lax",
        secure,
        maxAge: STATE_MINUTES * 60,
      });
      return reply.redirect(reader.authorizationUrl(redirectUri(app, request), state, user.email));
    },
  );

  app.get(
    "/google/callback",
    {
      schema: doc({
        tags: ["calendar_imports"],
        summary: "Regreso de Google: guarda el token del calendario del usuario",
        description:
          "Redirige (302) a /app/activities?google=connected, o ?google=error si Google no dio el permiso o el código no sirvió.",
        // A malformed query was already a 422 by field (never a redirect): declaring it keeps that answer.
        // The state that does not match, Google's ?error and a failed exchange stay the handler's (422 / 302).
        querystring: callbackQuery,
        response: { 302: redirectAnswer("A /app/activities?google=connected o ?google=error") },
      }),
      config: requires("calendar_imports", "import"),
    },
    async (request, reply) => {
      const user = currentUser(request);
      const reader = connector(app);
      const { code, state, error } = request.query as z.output<typeof callbackQuery>;
      const expected = request.cookies?.[GOOGLE_STATE_COOKIE] ?? "";
      clearState(reply);
      if (!state || !expected || !sameState(state, expected)) throw ValidationError.base(importMessages.googleConnectInvalid);
      if (error || !code) return reply.redirect(`${AFTER_CONNECT}?google=error`);
      let token: string;
      try {
        token = await reader.exchangeCode(code, redirectUri(app, request));
      } catch (failure) {
        request.log.warn({ err: failure }, "google code exchange failed");
        return reply.redirect(`${AFTER_CONNECT}?google=error`);
      }
      await storeCloudToken(app.db.db, user.id, encryptSecret(token, secretKey(app.config)), undefined);
      return reply.redirect(`${AFTER_CONNECT}?google=connected`);
    },
  );
}
