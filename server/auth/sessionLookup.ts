/**
 * Who a session token belongs to, read on every API request by the authentication hook and by the
 * realtime stream. It lives below the modules so server/http and server/app.ts need no module's service.
 */
import { createHash } from "node:crypto";
import { and, eq, gt, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import type { SessionUser } from "../../src/core/session";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { employees, sessions, users } from "../db/schema";
import type { SessionCache } from "./sessionCache";

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** What a SessionUser holds, and the session's id and last use. */
const sessionUserColumns = {
  session: { id: sessions.id, last_seen_at: sessions.last_seen_at, expires_at: sessions.expires_at },
  user: {
    id: users.id,
    name: users.name,
    email: users.email,
    administrator_role: users.administrator_role,
    operator_role: users.operator_role,
    finance_role: users.finance_role,
    can_chat: users.can_chat,
  },
  employee: {
    id: employees.id,
    name: employees.name,
    employee_code: employees.employee_code,
    workspace_id: employees.workspace_id,
    is_active: employees.is_active,
    is_admin_group: employees.is_admin_group,
    is_rape: employees.is_rape,
    assignable: employees.assignable,
  },
};

/** A session still valid at this moment: not expired, not idle too long, its employee (if any) active. */
const sessionValid = (idleLimit: SQL | Date) =>
  and(
    gt(sessions.expires_at, sql`now()`),
    gt(sessions.last_seen_at, idleLimit as SQL),
    // A deactivated employee's user is signed out on the next request, whatever removed (or missed) its sessions.
    or(isNull(employees.id), eq(employees.is_active, true)),
  );

/**
 * The statement of userForToken, built once per database (a prepared statement): every API request
 * runs it, so drizzle does not rebuild it each time.
 */
function sessionUserQuery(db: Db) {
  return db
    .select(sessionUserColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .leftJoin(employees, eq(employees.user_id, users.id))
    .where(and(eq(sessions.token_hash, sql.placeholder("token_hash")), sessionValid(sql.placeholder("idle_limit") as never)))
    .limit(1)
    .prepare("sia_session_user");
}

/** Sessions unused since before this instant have expired (SESSION_IDLE_DAYS). */
const idleSince = (config: Config) => new Date(Date.now() - config.SESSION_IDLE_DAYS * 86_400_000);

/**
 * The users of these sessions as they are now (roles, employee), for the ones still valid: what a
 * long-lived connection (the realtime stream) re-reads before acting on the authority it was opened with.
 */
export async function sessionUsers(db: Db, sessionIds: number[], config: Config): Promise<Map<number, SessionUser>> {
  const out = new Map<number, SessionUser>();
  if (sessionIds.length === 0) return out;
  const idleLimit = idleSince(config);
  const rows = await db
    .select(sessionUserColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .leftJoin(employees, eq(employees.user_id, users.id))
    .where(and(inArray(sessions.id, [...new Set(sessionIds)]), sessionValid(idleLimit)));
  for (const row of rows) out.set(row.session.id, { ...row.user, employee: row.employee } as SessionUser);
  return out;
}
const sessionUserQueries = new WeakMap<Db, ReturnType<typeof sessionUserQuery>>();

/** A session's last use is written at most once a minute. */
const LAST_SEEN_EVERY_MS = 60_000;

/**
 * Writes a session's last use, only ever forward. Its statement's text is what the session cache
 * (server/auth/sessionCache.ts, LAST_SEEN_UPDATE) knows changes nobody's session.
 */
const touchSession = (db: Db, sessionId: number, now: number) =>
  db
    .update(sessions)
    .set({ last_seen_at: sql`greatest(${sessions.last_seen_at}, ${new Date(now)})` })
    .where(eq(sessions.id, sessionId));

/**
 * The session's user with its employee: from this process's cache when it holds the token
 * (server/auth/sessionCache.ts), otherwise one query.
 */
export async function userForToken(db: Db, token: string, config: Config, cache?: SessionCache) {
  const now = Date.now();
  const idleLimit = idleSince(config);
  const tokenHash = hashToken(token);
  const cached = cache?.get(tokenHash, now, idleLimit.getTime());
  if (cached) {
    if (now - cached.lastSeenAt > LAST_SEEN_EVERY_MS) {
      cached.lastSeenAt = now;
      await touchSession(db, cached.sessionId, now);
    }
    return { sessionId: cached.sessionId, user: cached.user };
  }
  const version = cache?.version ?? 0;
  let query = sessionUserQueries.get(db);
  if (!query) {
    query = sessionUserQuery(db);
    sessionUserQueries.set(db, query);
  }
  const [row] = await query.execute({ token_hash: tokenHash, idle_limit: idleLimit.toISOString() });
  if (!row) return null;
  let lastSeenAt = row.session.last_seen_at.getTime();
  if (now - lastSeenAt > LAST_SEEN_EVERY_MS) {
    lastSeenAt = now;
    await touchSession(db, row.session.id, now);
  }
  const { user, employee } = row;
  const found = { sessionId: row.session.id, user: { ...user, employee } as SessionUser };
  cache?.put(tokenHash, { ...found, expiresAt: row.session.expires_at.getTime(), lastSeenAt }, version);
  return found;
}
