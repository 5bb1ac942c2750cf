/**
 * Fair turns at the embedded database. PGlite has one connection: each query, exec or transaction runs
 * alone, in the order asked. In arrival order, a user whose six admitted requests each run a heavy statement
 * (a 500-activity week save, a page of a thousand activities) made another user's one query wait for all
 * six. Here every statement (or transaction, as a whole) waits in its owner's queue, and the owners take
 * turns: the next statement run is the oldest of the owner served longest ago. A colleague's query waits for
 * at most one statement of each other busy owner.
 *
 * The owner is the request's (server/http/fairShare.ts sets it: the user once known, before that the session
 * token or the address); work outside a request (jobs, start-up) shares one owner. Each turn starts on a later
 * turn of the event loop, after pending input is read, so a request that just arrived is already queued.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const owner = new AsyncLocalStorage<string>();

/** Runs `work` (and everything it starts) as `key`'s. */
export function asOwner<T>(key: string, work: () => T): T {
  return owner.run(key, work);
}

export class FairTurns {
  /** Waiting work per owner; a Map keeps insertion order: the first key is the next owner served. */
  private readonly queues = new Map<string, Array<() => void>>();
  private running = false;

  run<T>(work: () => Promise<T>): Promise<T> {
    const key = owner.getStore() ?? "";
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        work()
          .then(resolve, reject)
          .finally(() => {
            this.running = false;
            this.schedule();
          });
      };
      const queue = this.queues.get(key);
      if (queue) queue.push(start);
      else this.queues.set(key, [start]);
      this.schedule();
    });
  }

  private schedule() {
    if (this.running || this.queues.size === 0) return;
    this.running = true;
    setImmediate(() => {
      const next = this.queues.entries().next();
      if (next.done) {
        this.running = false;
        return;
      }
      const [key, queue] = next.value;
      const start = queue.shift() as () => void;
      // Served: this owner goes to the back of the line (with what it still has waiting).
      this.queues.delete(key);
      if (queue.length) this.queues.set(key, queue);
      start();
    });
  }
}
