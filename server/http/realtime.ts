/**
 * The realtime hub: every server process LISTENs on one PostgreSQL channel and hands what
 * arrives to its open event streams (GET /api/v1/realtime). Writers NOTIFY inside their transaction, so
 * an event is delivered only once its rows are committed and visible to every process. Payloads are
 * small (ids); each process loads rows and filters them per connected user.
 *  - server/db/listen.ts keeps the channel listened to; after a reconnection the streams are told to catch
 *    up ("resync"), since NOTIFYs sent meanwhile are lost.
 * Listening starts with the first subscriber and stops when the app closes.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Database, Tx } from "../db/client";
import { listenTo } from "../db/listen";

export const REALTIME_CHANNEL = "sia_realtime";

export type RealtimeEvent =
  | { t: "message"; id: number; project_id: number }
  | { t: "receipt"; project_id: number; user_id: number; up_to: number }
  | { t: "notification"; id: number; user_id: number }
  | { t: "resync" };

type Listener = (event: RealtimeEvent) => void;

export const notifySql = (event: RealtimeEvent): SQL => sql`select pg_notify(${REALTIME_CHANNEL}, ${JSON.stringify(event)})`;

/** NOTIFY in the caller's transaction: delivered at commit, dropped on rollback. */
export async function publish(tx: Tx, event: RealtimeEvent) {
  await tx.execute(notifySql(event));
}

export class RealtimeHub {
  private readonly listeners = new Set<Listener>();
  private started?: Promise<void>;
  private stopListening?: () => Promise<void>;
  private closed = false;

  constructor(private readonly database: Database) {}

  get size() {
    return this.listeners.size;
  }

  /** Adds a listener once the channel is listened to; answers the function that removes it. */
  async subscribe(listener: Listener): Promise<() => void> {
    if (this.closed) throw new Error("realtime hub closed");
    this.listeners.add(listener);
    try {
      await this.start();
    } catch (error) {
      this.listeners.delete(listener);
      throw error;
    }
    return () => {
      this.listeners.delete(listener);
    };
  }

  private dispatch(payload: string | undefined) {
    if (!payload) return;
    let event: RealtimeEvent;
    try {
      event = JSON.parse(payload) as RealtimeEvent;
    } catch {
      return;
    }
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // one stream's failure does not stop the others
      }
    }
  }

  private start(): Promise<void> {
    this.started ??= this.listen().catch((error) => {
      this.started = undefined;
      throw error;
    });
    return this.started;
  }

  private async listen(): Promise<void> {
    this.stopListening = await listenTo(this.database, REALTIME_CHANNEL, "sia-realtime", {
      message: (payload) => this.dispatch(payload),
      // NOTIFYs sent while the connection was down are lost: the streams catch up.
      resumed: () => this.dispatch(JSON.stringify({ t: "resync" })),
    });
  }

  async close() {
    this.closed = true;
    this.listeners.clear();
    if (this.started) await this.started.catch(() => {});
    const stop = this.stopListening;
    this.stopListening = undefined;
    await stop?.();
  }
}
