/**
 * Sending Web Push. Pushes never go out inside the request that caused them: a notice or a mention
 * puts one job on the app's PushQueue and answers; the queue sends in the background, a few at a time,
 * each push bounded by PUSH_TIMEOUT_MS, so slow or dead push services cannot hold an administrator's
 * request (nor the connection pool). The in-app notification is the record; a push is best effort and
 * is not kept across a restart (docs/decisions/022-outbound-push-sso-secrets.md).
 */
import { eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { push_subscriptions } from "../../db/schema";
import type { PushPayload } from "../../ports/push";

/** Devices one user may have subscribed at once; subscribing one more drops the oldest. */
export const MAX_SUBSCRIPTIONS_PER_USER = 10;
/** Pushes of one job in flight at once. */
const SENDS_AT_ONCE = 8;
/** Jobs the queue works on at once. */
const JOBS_AT_ONCE = 2;
/** Jobs waiting beyond this are dropped (logged): a flood of notices must not grow the process without bound. */
const MAX_PENDING_JOBS = 1000;

/**
 * Sends a push to every subscription of the users; subscriptions the push service says are gone (or
 * whose endpoint the allow-list no longer admits) are deleted. Failures are logged, never thrown.
 */
export async function pushTo(
  app: FastifyInstance,
  userIds: number[],
  payload: PushPayload,
): Promise<{ sent: number; removed: number; failed: number }> {
  if (userIds.length === 0) return { sent: 0, removed: 0, failed: 0 };
  const subscriptions = await app.db.db.select().from(push_subscriptions).where(inArray(push_subscriptions.user_id, userIds));
  let sent = 0;
  let removed = 0;
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < subscriptions.length) {
      const s = subscriptions[next++];
      try {
        const result = await app.push.send({ endpoint: s.endpoint, keys: s.keys as never }, payload);
        if (result === "gone") {
          await app.db.db.delete(push_subscriptions).where(eq(push_subscriptions.id, s.id));
          removed++;
        } else sent++;
      } catch (error) {
        failed++;
        app.log.warn({ err: error, subscription: s.id }, "no se pudo enviar la notificación push");
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SENDS_AT_ONCE, subscriptions.length) }, worker));
  return { sent, removed, failed };
}

interface PushJob {
  userIds: number[];
  payload: PushPayload;
}

/** In-process queue of push jobs, drained in the background. */
export class PushQueue {
  private readonly pending: PushJob[] = [];
  private running = 0;
  private closed = false;
  private waiters: Array<() => void> = [];

  constructor(private readonly app: FastifyInstance) {}

  /** Queues the push and returns at once; the caller's request does not wait for any push service. */
  enqueue(userIds: number[], payload: PushPayload): void {
    if (this.closed || userIds.length === 0) return;
    if (this.pending.length >= MAX_PENDING_JOBS) {
      this.app.log.warn({ pending: this.pending.length }, "cola de notificaciones push llena: se descarta un envío");
      return;
    }
    this.pending.push({ userIds: [...userIds], payload });
    setImmediate(() => this.pump());
  }

  private pump() {
    while (!this.closed && this.running < JOBS_AT_ONCE && this.pending.length) {
      const job = this.pending.shift() as PushJob;
      this.running++;
      pushTo(this.app, job.userIds, job.payload)
        .catch((error) => this.app.log.warn({ err: error }, "no se pudieron enviar las notificaciones push"))
        .finally(() => {
          this.running--;
          this.pump();
          if (this.running === 0 && this.pending.length === 0) for (const done of this.waiters.splice(0)) done();
        });
    }
  }

  /** Resolves when nothing is queued or being sent (tests; shutdown). */
  idle(): Promise<void> {
    if (this.running === 0 && this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stops taking jobs, drops the waiting ones and waits (at most `ms`) for those being sent. */
  async close(ms: number): Promise<void> {
    this.closed = true;
    this.pending.length = 0;
    if (this.running === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.idle(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
    ]);
    clearTimeout(timer);
  }
}
