/**
 * LISTEN on one PostgreSQL channel, for as long as the caller wants: what every server process uses to hear
 * what the others committed (the realtime hub's messages, the session cache's invalidations).
 *  - PostgreSQL (pg): one dedicated client outside the pool. When it drops, `lost` is called at once (what
 *    was sent meanwhile is missed) and it reconnects every second until it listens again, then `resumed`.
 *  - PGlite (one process): PGlite's own listen(); it is never lost.
 * The first connection's failure is the caller's (the promise rejects); later ones are retried here.
 */
import pg from "pg";
import type { Database } from "./client";

export interface ChannelHandlers {
  message(payload: string): void;
  /** The connection dropped: notifications may be missed until `resumed`. */
  lost?(): void;
  /** Listening again after a loss. */
  resumed?(): void;
}

const RETRY_MS = 1000;

/** Listens on `channel`; answers the function that stops listening. */
export async function listenTo(
  database: Database,
  channel: string,
  /** The connection's application_name (pg_stat_activity), for whoever counts the listeners. */
  applicationName: string,
  handlers: ChannelHandlers,
): Promise<() => Promise<void>> {
  if (database.pglite) {
    const unlisten = await database.pglite.listen(channel, (payload) => handlers.message(payload));
    return () => unlisten();
  }
  const options = database.pool?.options as pg.PoolConfig | undefined;
  if (!options) throw new Error(`listen ${channel}: no database to listen to`);
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const current = new pg.Client({
      connectionString: options.connectionString,
      ...(options.connectionString ? {} : options),
      application_name: applicationName,
    });
    let ended = false;
    const drop = () => {
      if (ended) return;
      ended = true;
      current.end().catch(() => {});
      if (stopped) return;
      handlers.lost?.();
      schedule();
    };
    current.on("notification", (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.message(message.payload);
    });
    current.on("error", drop);
    current.on("end", drop);
    try {
      await current.connect();
      await current.query(`LISTEN ${channel}`);
    } catch (error) {
      ended = true;
      current.end().catch(() => {});
      throw error;
    }
    client = current;
  };
  const schedule = () => {
    retry = setTimeout(() => {
      if (stopped) return;
      connect()
        .then(() => {
          if (!stopped) handlers.resumed?.();
        })
        .catch(schedule);
    }, RETRY_MS);
    retry.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
