/**
 * A download's fair share (docs/decisions/037-downloads-fair-share.md). A CSV that reads the database
 * holds a connection (PostgreSQL: its cursor's transaction or its COPY) or a materialised cursor (PGlite)
 * for as long as it streams, and it streams only as fast as its reader takes the bytes. So:
 * - one user has at most DOWNLOADS_PER_USER downloads running, and everyone together DOWNLOADS_TOTAL (less
 *   than the pool), each refused past its cap with a Spanish 429 and Retry-After;
 * - a download whose reader takes nothing for DOWNLOAD_STALL_SECONDS while data is waiting is ended: its
 *   cursor is closed and its connection returned, and the client sees a cut download.
 * Time spent by the database itself (a long query before the first row) is not a stall: only the wait
 * for the reader is measured.
 */
import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";
import { messages } from "../../src/core/messages";
import type { Config } from "../config";
import { currentUser } from "./auth";
import { HttpError } from "./errors";

interface Slots {
  total: number;
  perUser: Map<number, number>;
}
/** Per app (its config object: the same for every plugin scope of one app, distinct between test apps). */
const slotsOf = new WeakMap<Config, Slots>();

export class DownloadStalled extends Error {
  constructor() {
    super(messages.downloadStalled);
  }
}

/**
 * Takes a download slot for the request's user, or throws the 429. The answer frees the slot; call it
 * exactly once (guardDownload does when its stream closes).
 */
export function takeDownloadSlot(reply: FastifyReply): () => void {
  const config = reply.server.config;
  const userId = currentUser(reply.request).id;
  let slots = slotsOf.get(config);
  if (!slots) {
    slots = { total: 0, perUser: new Map() };
    slotsOf.set(config, slots);
  }
  const mine = slots.perUser.get(userId) ?? 0;
  if (mine >= config.DOWNLOADS_PER_USER) {
    reply.header("retry-after", String(Math.ceil(config.DOWNLOAD_STALL_SECONDS)));
    throw new HttpError(429, messages.downloadInProgress(config.DOWNLOADS_PER_USER));
  }
  if (slots.total >= config.DOWNLOADS_TOTAL) {
    reply.header("retry-after", String(Math.ceil(config.DOWNLOAD_STALL_SECONDS)));
    throw new HttpError(429, messages.downloadsBusy);
  }
  slots.total++;
  slots.perUser.set(userId, mine + 1);
  let freed = false;
  const held = slots;
  return () => {
    if (freed) return;
    freed = true;
    held.total--;
    const left = (held.perUser.get(userId) ?? 1) - 1;
    if (left > 0) held.perUser.set(userId, left);
    else held.perUser.delete(userId);
  };
}

/**
 * The body as a stream that pulls from `body` only when its reader asks, and destroys itself (and so
 * `body`: its cursor is closed, its connection released) when the reader has left data waiting for
 * `stallMs`. `onClose` runs once, however the stream ends.
 */
export function guardDownload(body: Readable, stallMs: number, onClose: () => void): Readable {
  const source = body[Symbol.asyncIterator]() as AsyncIterator<string | Buffer>;
  let pumping = false;
  let stall: NodeJS.Timeout | undefined;
  const stream = new Readable({
    highWaterMark: 64 * 1024,
    read() {
      clearTimeout(stall);
      stall = undefined;
      if (pumping) return;
      pumping = true;
      void pump();
    },
    destroy(error, callback) {
      clearTimeout(stall);
      // Ends the source's generator wherever it waits: its finally closes the cursor.
      Promise.resolve(source.return?.())
        .catch(() => {})
        .finally(() => body.destroy());
      callback(error);
    },
  });
  async function pump() {
    try {
      for (;;) {
        const next = await source.next();
        if (stream.destroyed) return;
        if (next.done) {
          stream.push(null);
          return;
        }
        if (!stream.push(next.value)) {
          // The reader's buffer is full: wait for it to ask again, for a bounded time.
          pumping = false;
          stall = setTimeout(() => stream.destroy(new DownloadStalled()), stallMs);
          stall.unref();
          return;
        }
      }
    } catch (error) {
      stream.destroy(error as Error);
    }
  }
  stream.once("close", onClose);
  return stream;
}

/** A streamed download's slot and stall guard: throws the 429 before anything is read. */
export function guardedDownload(reply: FastifyReply, body: Readable): Readable {
  let free: () => void;
  try {
    free = takeDownloadSlot(reply);
  } catch (error) {
    body.destroy();
    throw error;
  }
  return guardDownload(body, reply.server.config.DOWNLOAD_STALL_SECONDS * 1000, free);
}
