/**
 * Sign-in with Microsoft Entra ID / any OpenID Connect provider. GET /auth/config tells the
 * sign-in page whether to show the button; GET /auth/nonce gives the nonce the page sends the provider;
 * POST /auth/callback takes the ID token the browser got, has the identity port verify it, checks its
 * nonce (issued here, recent, unused) and signs in the user bound to the provider's account, binding an
 * existing active user by a vouched-for e-mail on the first sign-in (ssoIdentity.ts). Nobody is created:
 * anything else is "Credenciales Invalidas", like any bad token. Success ends exactly as a password
 * sign-in does (openSession).
 */
import type { FastifyInstance } from "fastify";
import { messages } from "../../../src/core/messages";
import {
  type SsoConfig,
  sessionAnswer,
  ssoCallbackSchema,
  ssoConfigAnswer,
  ssoNonceAnswer,
} from "../../../src/core/schemas/session";
import { HttpError } from "../../http/errors";
import { doc } from "../../http/openapi";
import { secretKey } from "../../http/secrets";
import { IdentityError, type VerifiedIdentity } from "../../ports/identity";
import { openSession, recordFailure } from "./service";
import { consumeNonce, issueNonce, nonceIsFresh, userForIdentity } from "./ssoIdentity";

export async function ssoRoutes(app: FastifyInstance) {
  app.get(
    "/auth/config",
    {
      config: { public: true },
      schema: doc({
        tags: ["sesiones"],
        summary: "Inicio de sesión con proveedor de identidad",
        public: true,
        response: { 200: ssoConfigAnswer },
      }),
    },
    async (): Promise<SsoConfig> => {
      const identity = app.identity;
      if (!identity) return { enabled: false };
      return { enabled: true, authority: identity.authority, client_id: identity.clientId, button_label: identity.buttonLabel };
    },
  );

  app.get(
    "/auth/nonce",
    {
      config: { public: true },
      schema: doc({
        tags: ["sesiones"],
        summary: "Nonce para el inicio de sesión con el proveedor",
        public: true,
        response: { 200: ssoNonceAnswer },
      }),
    },
    async () => {
      if (!app.identity) throw new HttpError(404, messages.ssoNotConfigured);
      return { nonce: issueNonce(secretKey(app.config)) };
    },
  );

  app.post(
    "/auth/callback",
    {
      config: { public: true },
      schema: doc({
        tags: ["sesiones"],
        summary: "Iniciar sesión con el token de un proveedor de identidad",
        body: ssoCallbackSchema,
        // A bad token is a 401, never a field error.
        bodyReadByHandler: true,
        public: true,
        response: { 200: sessionAnswer },
      }),
    },
    async (request, reply) => {
      const identity = app.identity;
      if (!identity) throw new HttpError(404, messages.ssoNotConfigured);
      const raw = (request.body ?? {}) as Record<string, unknown>;
      // MSAL names it idToken; the OAuth response id_token: either is accepted.
      const parsed = ssoCallbackSchema.safeParse({ id_token: raw.id_token ?? raw.idToken });
      if (!parsed.success) throw new HttpError(401, messages.invalidCredentials);
      let verified: VerifiedIdentity;
      try {
        verified = await identity.verify(parsed.data.id_token);
      } catch (error) {
        if (error instanceof IdentityError && error.reason === "unreachable") {
          request.log.warn({ err: error }, "proveedor de identidad inalcanzable");
          throw new HttpError(503, messages.ssoUnavailable);
        }
        request.log.info({ reason: (error as Error).message }, "token de proveedor de identidad rechazado");
        throw new HttpError(401, messages.invalidCredentials);
      }
      // The token answers a sign-in this server started, and is used once.
      if (!nonceIsFresh(verified.nonce, secretKey(app.config)) || !(await consumeNonce(app.db.db, verified.nonce as string))) {
        request.log.info("token de proveedor de identidad sin nonce válido o repetido");
        throw new HttpError(401, messages.invalidCredentials);
      }
      const found = await userForIdentity(app.db.db, verified);
      if (!found) {
        // Counted with the password failures of that e-mail (the same login_attempts).
        if (verified.email) await recordFailure(app.db.db, verified.email.slice(0, 254), request.ip);
        throw new HttpError(401, messages.invalidCredentials);
      }
      return openSession(app, request, reply, found);
    },
  );
}
