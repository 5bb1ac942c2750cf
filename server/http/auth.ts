/**
 * Authentication hook of the /api/v1 scope: reads the session cookie or `Authorization: Bearer`,
 * loads the user once per request, refuses unsafe cross-origin requests. Routes opt out with
 * `config: { public: true }`. Each route declares who may call it in its config — `permission`, a row of
 * the permission matrix, or `signedIn` for anyone signed in — and this hook checks it before the handler
 * runs, leaving the grant on `request.grant`. A route that declares neither is refused at start-up.
 */
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from "fastify";
import { messages } from "../../src/core/messages";
import { type Action, type Grant, grantFor } from "../../src/core/permissions";
import { SESSION_STAMP_HEADER, type SessionUser, sessionStamp } from "../../src/core/session";
import { userForToken } from "../auth/sessionLookup";
import { forbidden, HttpError, unauthorized } from "./errors";
import { registerFairShare } from "./fairShare";
import { tokenOf } from "./token";

export { tokenOf };

declare module "fastify" {
  interface FastifyRequest {
    user: SessionUser | null;
    sessionId: number | null;
    /** What the route's declared permission grants the user (set by the auth hook). */
    grant: Grant | null;
    /** The session cache's count of session-changing statements when the request came in (-1: not counted). */
    sessionWrites: number;
  }
  interface FastifyContextConfig {
    public?: boolean;
    /** Any signed-in user may call the route (it narrows to the user's own data itself). */
    signedIn?: boolean;
    /** The permission-matrix row the route needs. */
    permission?: RoutePermission;
  }
}

export interface RoutePermission {
  resource: string;
  action: Action;
}

/** A route's config that requires `action` on `resource` of the permission matrix. */
export const requires = (resource: string, action: Action) => ({ permission: { resource, action } });

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function registerAuth(app: FastifyInstance) {
  app.decorateRequest("user", null);
  app.decorateRequest("sessionId", null);
  app.decorateRequest("grant", null);
  app.decorateRequest("sessionWrites", -1);
  // A route that forgets to say who may call it must not be served to everyone: the app does not start.
  app.addHook("onRoute", (route) => {
    const config = route.config as FastifyContextConfig | undefined;
    if (config?.public || config?.signedIn || config?.permission) return;
    throw new Error(`${route.method} ${route.url}: the route declares none of public, signedIn or permission`);
  });
  const fairShare = registerFairShare(app);
  app.addHook("onRequest", async (request, reply) => {
    if (UNSAFE.has(request.method)) checkOrigin(app, request);
    const cache = app.sessionCache;
    if (cache) request.sessionWrites = cache.writes;
    const token = tokenOf(request);
    if (token) {
      // One session's crowd of requests waits in its own lane, before it costs the database anything.
      const lane = await fairShare.session(request, reply, token);
      // A role or can_chat changed by an administrator applies to the next request: the cache is told at once.
      let found: Awaited<ReturnType<typeof userForToken>>;
      try {
        // This process's own writes are heard before the cache answers (a change made outside any request).
        await cache?.catchUp();
        found = await userForToken(app.db.db, token, app.config, app.sessionCache);
      } finally {
        lane.looked();
      }
      if (found) {
        await fairShare.user(request, reply, lane.key, found.user.id);
        request.user = found.user;
        request.sessionId = found.sessionId;
        reply.header(SESSION_STAMP_HEADER, sessionStamp(found.user));
      }
    }
    const config = request.routeOptions.config;
    if (config?.public) return;
    if (!request.user) throw unauthorized();
    if (config?.permission) request.grant = authorize(request, config.permission.resource, config.permission.action);
  });
  // A request that changed who a session is (sign-out, a role, a password, a deactivation) answers only once
  // every process has been sent the change (server/auth/sessionCache.ts).
  app.addHook("onSend", async (request) => {
    const cache = app.sessionCache;
    if (cache && request.sessionWrites >= 0 && request.sessionWrites !== cache.writes) await cache.settle();
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
  // Behind a proxy the Host header is whatever the client or the proxy wrote: with PUBLIC_URL set, the
  // one origin SIA is served from is that URL's, and only it may send unsafe requests.
  if (app.config.PUBLIC_URL) {
    const own = new URL(app.config.PUBLIC_URL);
    if (from.protocol !== own.protocol || from.host !== own.host) throw new HttpError(403, messages.originRejected);
    return;
  }
  if (from.host !== hostOf(request.headers.host ?? "")) throw new HttpError(403, messages.originRejected);
}

export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** The grant of the route's declared permission (the auth hook has checked it; "all" or "own"). */
export function grantOf(request: FastifyRequest): Grant {
  if (!request.grant) throw forbidden();
  return request.grant;
}

/**
 * The grant the matrix gives the request's user, or 401/403. Routes declare their permission in their
 * config instead; this is for a second check that depends on the request (a batch with deletions).
 */
export function authorize(request: FastifyRequest, resource: string, action: Action): Grant {
  const user = currentUser(request);
  const grant = grantFor(user, resource, action);
  if (!grant) throw forbidden();
  return grant;
}
