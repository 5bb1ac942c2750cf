/**
 * The fair share of the server per session and per user (README, «Reparto justo del servidor»): each
 * request with a session token takes a place in its session's lane before the session is even looked up,
 * and then one in its user's lane; REQUESTS_IN_FLIGHT_PER_USER places each, REQUESTS_QUEUED_PER_USER
 * waiting, the rest a Spanish 429 with Retry-After. A user who fires two thousand requests at once thus
 * holds a handful of the database's attention (PGlite has one connection, PostgreSQL a pool of ten) and
 * everybody else's requests are served next, not after theirs. A token not seen valid lately (a made-up
 * one) costs a lookup before anyone knows whose it is: the lookup takes a place in its address's lane
 * (REQUESTS_IN_FLIGHT_PER_ADDRESS, then REQUESTS_QUEUED_PER_ADDRESS waiting), and so does a public route's
 * request without a session (a sign-in) once its body has arrived. A thousand invented tokens thus hold a
 * few of the database's turns, not all of them, while a signed-in colleague behind the same address goes
 * straight to their own lane.
 * The place is given back when the answer is sent or the client goes away; a realtime stream gives it
 * back as soon as it is open (releaseFairShare), since a stream lasts as long as its tab.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fairShareMessages } from "../../src/core/messages";
import { hashToken } from "../auth/sessionLookup";
import { asOwner } from "../db/fairTurns";
import { HttpError } from "./errors";
import { LaneBusy, Lanes, type Release } from "./lanes";
import { tokenOf } from "./token";

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

/** Sessions found valid lately (by their token's hash), most recent last: their requests skip the address lane. */
class RecentSessions {
  private readonly seen = new Map<string, number>();
  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
  ) {}

  has(key: string) {
    const at = this.seen.get(key);
    if (at === undefined) return false;
    if (Date.now() - at <= this.ttlMs) return true;
    this.seen.delete(key);
    return false;
  }

  add(key: string) {
    this.seen.delete(key);
    this.seen.set(key, Date.now());
    if (this.seen.size > this.max) this.seen.delete(this.seen.keys().next().value as string);
  }
}

export function registerFairShare(app: FastifyInstance) {
  const lanes = new Lanes(() => ({
    inFlight: app.config.REQUESTS_IN_FLIGHT_PER_USER,
    queued: app.config.REQUESTS_QUEUED_PER_USER,
    waitMs: app.config.REQUEST_QUEUE_WAIT_MS,
  }));
  const addressLanes = new Lanes(() => ({
    inFlight: app.config.REQUESTS_IN_FLIGHT_PER_ADDRESS,
    queued: app.config.REQUESTS_QUEUED_PER_ADDRESS,
    waitMs: app.config.REQUEST_QUEUE_WAIT_MS,
  }));
  // Ten thousand sessions of the last ten minutes: far more than a firm's staff, a few hundred KB at most.
  const recent = new RecentSessions(10_000, 10 * 60_000);
  app.decorateRequest("fairShare", null);
  // The embedded database's turns (server/db/fairTurns.ts) are taken in the name of the request's owner:
  // its session or address until the session is looked up, then its user (set again once the body is read).
  app.addHook("onRequest", (request, _reply, done) => {
    const token = tokenOf(request);
    asOwner(token ? `s:${hashToken(token)}` : `a:${request.ip}`, done);
  });
  app.addHook("preHandler", (request, _reply, done) => {
    if (request.user) asOwner(`u:${request.user.id}`, done);
    else done();
  });
  app.addHook("onResponse", async (request) => releaseFairShare(request));
  app.addHook("onRequestAbort", async (request) => releaseFairShare(request));

  /** A place in the key's lane, or a Spanish 429 with Retry-After. */
  const acquire = async (reply: FastifyReply, key: string, from: Lanes, busy: string): Promise<Release> => {
    try {
      return await from.acquire(key);
    } catch (error) {
      if (!(error instanceof LaneBusy)) throw error;
      reply.header("retry-after", String(error.retryAfterSeconds));
      throw new HttpError(429, busy);
    }
  };
  /** A place held by the request until its answer is sent or its client leaves. */
  const hold = async (
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    from = lanes,
    busy: string = fairShareMessages.tooManyRequests,
  ) => {
    request.fairShare ??= { releases: [], done: false };
    const held = request.fairShare;
    const release = await acquire(reply, key, from, busy);
    if (held.done) release();
    else held.releases.push(release);
  };
  const addressKey = (request: FastifyRequest) => `a:${request.ip}`;
  // A public route's request (a sign-in) takes its address's place once its body has arrived: a body sent a
  // byte at a time holds nobody's place (it ends at the server's request timeout).
  app.addHook("preHandler", async (request, reply) => {
    if (!request.user) await hold(request, reply, addressKey(request), addressLanes, fairShareMessages.addressBusy);
  });
  return {
    /**
     * Before the session is looked up: the lane of the token the request carries, and, unless that session
     * was found valid lately, a place in the address's lane for the lookup itself. Answers the token's key
     * (for `user`) and what gives that place back once the lookup is done.
     */
    async session(request: FastifyRequest, reply: FastifyReply, token: string) {
      const key = `s:${hashToken(token)}`;
      await hold(request, reply, key);
      const looked = recent.has(key)
        ? () => {}
        : await acquire(reply, addressKey(request), addressLanes, fairShareMessages.addressBusy);
      return { key, looked };
    },
    /** The session was found: the lane of its user, whatever their session; its next requests skip the address lane. */
    async user(request: FastifyRequest, reply: FastifyReply, sessionKey: string, userId: number) {
      recent.add(sessionKey);
      await hold(request, reply, `u:${userId}`);
    },
  };
}

/** Gives back the request's places (the answer is sent, the client left, or a stream is open). */
export function releaseFairShare(request: FastifyRequest) {
  const held = request.fairShare;
  if (!held) return;
  held.done = true;
  for (const release of held.releases.splice(0)) release();
}
