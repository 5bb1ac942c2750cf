/**
 * Authentication hook of the /api/v1 scope: reads the session cookie or `Authorization: Bearer`,
 * loads the user once per request, refuses unsafe cross-origin requests. Routes opt out with
 * `config: { public: true }`. Authorisation is `authorize()` against the permission matrix.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { messages } from "../../src/core/messages";
import { type Action, type Grant, grantFor } from "../../src/core/permissions";
import { SESSION_COOKIE, SESSION_STAMP_HEADER, type SessionUser, sessionStamp } from "../../src/core/session";
import { userForToken } from "../modules/sessions/service";
import { forbidden, HttpError, unauthorized } from "./errors";

declare module "fastify" {
  interface FastifyRequest {
    user: SessionUser | null;
    sessionId: number | null;
  }
  interface FastifyContextConfig {
    public?: boolean;
  }
}

export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header) {
    const [scheme, value] = header.split(" ", 2);
    if (value && /^(bearer|token)$/i.test(scheme)) return value.trim();
  }
  return request.cookies?.[SESSION_COOKIE];
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function registerAuth(app: FastifyInstance) {
  app.decorateRequest("user", null);
  app.decorateRequest("sessionId", null);
  app.addHook("onRequest", async (request, reply) => {
    if (UNSAFE.has(request.method)) checkOrigin(app, request);
    const token = tokenOf(request);
    if (token) {
      // Read on every request: a role or can_chat changed by an administrator applies to the next one.
      const found = await userForToken(app.db.db, token, app.config);
      if (found) {
        request.user = found.user;
        request.sessionId = found.sessionId;
        reply.header(SESSION_STAMP_HEADER, sessionStamp(found.user));
      }
    }
    if (!request.user && !request.routeOptions.config?.public) throw unauthorized();
  });
}

/** Unsafe methods must come from our own origin when the browser says where they come from. */
function checkOrigin(app: FastifyInstance, request: FastifyRequest) {
  const origin = request.headers.origin;
  if (!origin) return;
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    throw new HttpError(403, messages.originRejected);
  }
  // Compare hosts the way URL normalises them (a default port such as :80 disappears on both sides).
  const hostOf = (value: string) => {
    try {
      return new URL(`${from.protocol}//${value}`).host;
    } catch {
      return null;
    }
  };
  const allowed = new Set([hostOf(request.headers.host ?? "")]);
  if (app.config.PUBLIC_URL) allowed.add(new URL(app.config.PUBLIC_URL).host);
  if (!allowed.has(from.host)) throw new HttpError(403, messages.originRejected);
}

export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** The grant the matrix gives the request's user, or 401/403. */
export function authorize(request: FastifyRequest, resource: string, action: Action): Grant {
  const user = currentUser(request);
  const grant = grantFor(user, resource, action);
  if (!grant) throw forbidden();
  return grant;
}
