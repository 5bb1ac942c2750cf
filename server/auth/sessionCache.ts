/**
 * Who a session token belongs to, kept per server process (docs/decisions/045-cluster-and-session-cache.md):
 * every API request needs it, and it changes rarely. The cache is exact because it is told of every change:
 *  - Triggers (migration 0012) NOTIFY the user's id on `sia_sessions` whenever a session ends or its expiry
 *    changes, a user changes or is removed, or an employee is linked, changed or removed, whoever writes it;
 *    '*' when a table is emptied (and after a restore). Each process LISTENs and drops that user's entries.
 *  - The cache answers only while its channel is listened to: when the connection drops it is emptied and
 *    every lookup goes to the database until it listens again.
 *  - A lookup that was running when a change arrived does not store what it read (it may predate the change).
 *  - This process sees the statements it sends (drizzle's logger). After one that may have changed a
 *    session, a user or an employee, the next lookup first waits until the process has heard its own
 *    notifications (`catchUp`), and a request that sent one answers only after that (`settle`):
 *    PostgreSQL has then sent the change to every process.
 * Expiry and the idle limit are checked on every hit, against the session's stored expiry and last use.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { SessionUser } from "../../src/core/session";
import type { Database } from "../db/client";
import { listenTo } from "../db/listen";

export const SESSIONS_CHANNEL = "sia_sessions";
/** Every cached session is dropped. */
export const ALL_SESSIONS = "*";
const SETTLE_PREFIX = "settle:";
const ACK_PREFIX = "ack:";
/** The listening connections' application_name: how a process counts the others (pg_stat_activity). */
const LISTENER_NAME = "sia-session-cache";
/** How long a request waits to hear its own notifications before giving up (and emptying the cache). */
const SETTLE_TIMEOUT_MS = 2000;
/** A statement that may change who a session is: its triggers will NOTIFY (a new session cannot). */
const SESSION_WRITE = /^\s*(update|delete\s+from|insert\s+into|truncate(\s+table)?)\s+"?(users|sessions|employees)"?([\s(,;]|$)/i;
const SESSION_INSERT = /^\s*insert\s+into\s+"?sessions"?/i;
/** The last use the server writes once a minute (userForToken): it moves forward and notifies nobody. */
const LAST_SEEN_UPDATE = /^update "sessions" set "last_seen_at" = greatest\("sessions"\."last_seen_at", \$1\) where/;

export interface CachedSession {
  sessionId: number;
  user: SessionUser;
  expiresAt: number;
  lastSeenAt: number;
}

export class SessionCache {
  /** By token hash; a Map keeps insertion order, so the first entries are the oldest. */
  private readonly entries = new Map<string, CachedSession>();
  private readonly byUser = new Map<number, Set<string>>();
  private readonly settling = new Map<string, { acks: number; needed: number; done: () => void }>();
  /** Bumped by every change heard: a lookup started under an older one does not store its answer. */
  private changes = 0;
  /** Statements sent by this process that may have changed a session; how many of them are heard. */
  private written = 0;
  private heardUpTo = 0;
  private listening = false;
  private started?: Promise<void>;
  private stop?: () => Promise<void>;
  private closed = false;

  constructor(
    private readonly database: Database,
    private readonly max = 10_000,
  ) {}

  /** Starts listening (once); until it does, and whenever the connection is lost, nothing is cached. */
  start(): Promise<void> {
    this.started ??= listenTo(this.database, SESSIONS_CHANNEL, LISTENER_NAME, {
      message: (payload) => this.heard(payload),
      lost: () => {
        this.listening = false;
        this.clear();
      },
      resumed: () => {
        this.clear();
        this.listening = !this.closed;
      },
    }).then(
      (stop) => {
        this.stop = stop;
        this.listening = !this.closed;
      },
      () => {
        // Not listened to: the cache stays off (every lookup reads the database); a later start retries.
        this.started = undefined;
      },
    );
    return this.started;
  }

  get size() {
    return this.entries.size;
  }

  /** Listening, so answering from memory. */
  get active() {
    return this.listening;
  }

  /** What a lookup starting now must hand back to `put`. */
  get version() {
    return this.changes;
  }

  /** Told of each statement this process sends. */
  noteStatement(text: string) {
    if (SESSION_WRITE.test(text) && !SESSION_INSERT.test(text) && !LAST_SEEN_UPDATE.test(text)) this.written++;
  }

  /** How many statements that may change a session this process has sent. */
  get writes() {
    return this.written;
  }

  /** Settles if this process wrote something that may change a session since it last did. */
  async catchUp(): Promise<void> {
    if (this.heardUpTo === this.written) return;
    const upTo = this.written;
    await this.settle();
    this.heardUpTo = Math.max(this.heardUpTo, upTo);
  }

  /** The session of this token hash, if cached and still valid at `now` (ms) for this idle limit. */
  get(tokenHash: string, now: number, idleSince: number): CachedSession | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= now || entry.lastSeenAt <= idleSince) {
      this.remove(tokenHash);
      return undefined;
    }
    return entry;
  }

  /** Keeps a lookup's answer, unless a change was heard since it started (`version` then). */
  put(tokenHash: string, entry: CachedSession, version: number) {
    if (!this.listening || version !== this.changes) return;
    this.remove(tokenHash);
    this.entries.set(tokenHash, entry);
    let tokens = this.byUser.get(entry.user.id);
    if (!tokens) {
      tokens = new Set();
      this.byUser.set(entry.user.id, tokens);
    }
    tokens.add(tokenHash);
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.remove(oldest);
    }
  }

  /**
   * Resolves once every process that listens has heard every notification committed before the call: each
   * answers a NOTIFY `settle:<key>` with `ack:<key>` once it hears it, which is after every earlier one
   * (PostgreSQL delivers them in commit order), and the call counts the listeners as it sends it. Nothing
   * to wait for while this process caches nothing.
   */
  async settle(): Promise<void> {
    if (!this.listening) return;
    const key = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const waiting = { acks: 0, needed: Number.POSITIVE_INFINITY, done: () => {} };
    const heard = new Promise<boolean>((resolve) => {
      waiting.done = () => resolve(true);
      timer = setTimeout(() => resolve(false), SETTLE_TIMEOUT_MS);
    });
    this.settling.set(key, waiting);
    try {
      const notify = sql`select pg_notify(${SESSIONS_CHANNEL}, ${`${SETTLE_PREFIX}${key}`})`;
      if (this.database.kind === "pglite") {
        await this.database.db.execute(notify);
        waiting.needed = 1;
      } else {
        const [row] = await this.database.rows<{ listeners: number }>(
          sql`${notify}, (select count(*)::int from pg_stat_activity where datname = current_database() and application_name = ${LISTENER_NAME}) as listeners`,
        );
        waiting.needed = Math.max(1, row?.listeners ?? 1);
      }
      if (waiting.acks >= waiting.needed) waiting.done();
      if (!(await heard)) this.clear();
    } catch {
      this.clear();
    } finally {
      clearTimeout(timer);
      this.settling.delete(key);
    }
  }

  async close() {
    this.closed = true;
    this.listening = false;
    this.clear();
    await this.started;
    await this.stop?.();
  }

  private heard(payload: string) {
    if (payload.startsWith(SETTLE_PREFIX)) {
      // Everything committed before it has been heard here: say so.
      const ack = `${ACK_PREFIX}${payload.slice(SETTLE_PREFIX.length)}`;
      this.database.db.execute(sql`select pg_notify(${SESSIONS_CHANNEL}, ${ack})`).catch(() => {});
      return;
    }
    if (payload.startsWith(ACK_PREFIX)) {
      const waiting = this.settling.get(payload.slice(ACK_PREFIX.length));
      if (waiting && ++waiting.acks >= waiting.needed) waiting.done();
      return;
    }
    this.changes++;
    if (payload === ALL_SESSIONS) {
      this.clear();
      return;
    }
    const userId = Number(payload);
    if (!Number.isInteger(userId)) {
      this.clear();
      return;
    }
    for (const tokenHash of this.byUser.get(userId) ?? []) this.entries.delete(tokenHash);
    this.byUser.delete(userId);
  }

  private remove(tokenHash: string) {
    const entry = this.entries.get(tokenHash);
    if (!entry) return;
    this.entries.delete(tokenHash);
    const tokens = this.byUser.get(entry.user.id);
    tokens?.delete(tokenHash);
    if (tokens?.size === 0) this.byUser.delete(entry.user.id);
  }

  private clear() {
    this.changes++;
    this.entries.clear();
    this.byUser.clear();
  }
}
