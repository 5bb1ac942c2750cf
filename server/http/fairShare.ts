/**
 * The fair share of the server per session and per user (README, «Reparto justo del servidor»): each
 * request with a session token takes a place in its session's lane before the session is even looked up,
 * and then one in its user's lane; REQUESTS_IN_FLIGHT_PER_USER places each, REQUESTS_QUEUED_PER_USER
 * waiting, the rest a Spanish 429 with Retry-After. A user who fires two thousand requests at once thus
 * holds a handful of the database's attention (PGlite has one connection, PostgreSQL a pool of ten) and
 * everybody else's requests are served next, not after theirs. Requests without a session are not laned:
 * sign-in is bounded by its hashing lane (server/auth/passwords.ts) and the sign-in limits.
 * The place is given back when the answer is sent or the client goes away; a realtime stream gives it
 * back as soon as it is open (releaseFairShare), since a stream lasts as long as its tab.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fairShareMessages } from "../../src/core/messages";
import { hashToken } from "../auth/sessionLookup";
import { HttpError } from "./errors";
import { LaneBusy, Lanes, type Release } from "./lanes";

interface Held {
  releases: Release[];
  /** The answer was sent or the client left: a place granted later is given back at once. */
  done: boolean;
}

declare module "fastify" {
  interface FastifyRequest {
    fairShare: Held | null;
  }
}

export function registerFairShare(app: FastifyInstance) {
  const lanes = new Lanes(() => ({
    inFlight: app.config.REQUESTS_IN_FLIGHT_PER_USER,
    queued: app.config.REQUESTS_QUEUED_PER_USER,
    waitMs: app.config.REQUEST_QUEUE_WAIT_MS,
  }));
  app.decorateRequest("fairShare", null);
  app.addHook("onResponse", async (request) => releaseFairShare(request));
  app.addHook("onRequestAbort", async (request) => releaseFairShare(request));

  /** A place in the key's lane for this request, or a Spanish 429 with Retry-After. */
  const hold = async (request: FastifyRequest, reply: FastifyReply, key: string) => {
    request.fairShare ??= { releases: [], done: false };
    const held = request.fairShare;
    let release: Release;
    try {
      release = await lanes.acquire(key);
    } catch (error) {
      if (!(error instanceof LaneBusy)) throw error;
      reply.header("retry-after", String(error.retryAfterSeconds));
      throw new HttpError(429, fairShareMessages.tooManyRequests);
    }
    if (held.done) release();
    else held.releases.push(release);
  };
  return {
    /** Before the session is looked up: the lane of the token the request carries. */
    session: (request: FastifyRequest, reply: FastifyReply, token: string) => hold(request, reply, `s:${hashToken(token)}`),
    /** Once the user is known: the lane of the user, whatever their session. */
    user: (request: FastifyRequest, reply: FastifyReply, userId: number) => hold(request, reply, `u:${userId}`),
  };
}

/** Gives back the request's places (the answer is sent, the client left, or a stream is open). */
export function releaseFairShare(request: FastifyRequest) {
  const held = request.fairShare;
  if (!held) return;
  held.done = true;
  for (const release of held.releases.splice(0)) release();
}
