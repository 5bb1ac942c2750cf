import { createHash, randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { and, eq, gt, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { COOKIE_MAX_AGE_SECONDS } from "../../../src/core/constants";
import { messages } from "../../../src/core/messages";
import { SESSION_COOKIE, type SessionUser, TOKEN_PREFIX } from "../../../src/core/session";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { employees, login_attempts, sessions, users } from "../../db/schema";
import { HttpError } from "../../http/errors";

const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: 2 /* Argon2id */ } as const;

export const hashPassword = (password: string) => hash(password, ARGON2);
export async function verifyPassword(digest: string | null, password: string): Promise<boolean> {
  if (!digest) return false;
  try {
    return await verify(digest, password);
  } catch {
    return false;
  }
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** What a SessionUser holds, and the session's id and last use. */
const sessionUserColumns = {
  session: { id: sessions.id, last_seen_at: sessions.last_seen_at },
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

/**
 * The users of these sessions as they are now (roles, employee), for the ones still valid: what a
 * long-lived connection (the realtime stream) re-reads before acting on the authority it was opened with.
 */
export async function sessionUsers(db: Db, sessionIds: number[], config: Config): Promise<Map<number, SessionUser>> {
  const out = new Map<number, SessionUser>();
  if (sessionIds.length === 0) return out;
  const idleLimit = new Date(Date.now() - config.SESSION_IDLE_DAYS * 86_400_000);
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

/** One query: the session's user with its employee. */
export async function userForToken(db: Db, token: string, config: Config) {
  const idleLimit = new Date(Date.now() - config.SESSION_IDLE_DAYS * 86_400_000);
  let query = sessionUserQueries.get(db);
  if (!query) {
    query = sessionUserQuery(db);
    sessionUserQueries.set(db, query);
  }
  const [row] = await query.execute({ token_hash: hashToken(token), idle_limit: idleLimit.toISOString() });
  if (!row) return null;
  if (Date.now() - row.session.last_seen_at.getTime() > 60_000) {
    await db.update(sessions).set({ last_seen_at: new Date() }).where(eq(sessions.id, row.session.id));
  }
  const { user, employee } = row;
  return { sessionId: row.session.id, user: { ...user, employee } as SessionUser };
}

export function toSessionUser(user: typeof users.$inferSelect, employee: typeof employees.$inferSelect | null): SessionUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    administrator_role: user.administrator_role,
    operator_role: user.operator_role,
    finance_role: user.finance_role,
    can_chat: user.can_chat,
    employee: employee
      ? {
          id: employee.id,
          name: employee.name,
          employee_code: employee.employee_code,
          workspace_id: employee.workspace_id,
          is_active: employee.is_active,
          is_admin_group: employee.is_admin_group,
          is_rape: employee.is_rape,
          assignable: employee.assignable,
        }
      : null,
  };
}

/**
 * A new session for the user, or null when the user may no longer sign in. The check and the insert share
 * one transaction that holds the user's employee row FOR SHARE: a deactivation (UPDATE of that row, then
 * deleting the user's sessions, in its own transaction) either commits first, and this sees the employee
 * inactive, or waits for this insert to commit, and then deletes the new session with the others.
 */
export async function createSession(db: Db, userId: number, meta: { userAgent?: string; ip?: string }) {
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const created = await db.transaction(async (tx) => {
    const [employee] = await tx
      .select({ is_active: employees.is_active })
      .from(employees)
      .where(eq(employees.user_id, userId))
      .for("share");
    if (employee && !employee.is_active) return false;
    await tx.insert(sessions).values({
      token_hash: hashToken(token),
      user_id: userId,
      user_agent: meta.userAgent?.slice(0, 500),
      ip: meta.ip?.slice(0, 64),
      expires_at: new Date(Date.now() + COOKIE_MAX_AGE_SECONDS * 1000),
    });
    return true;
  });
  return created ? token : null;
}

export const destroySession = (db: Db, sessionId: number) => db.delete(sessions).where(eq(sessions.id, sessionId));
/** Logout everywhere (password change, user deactivated). */
export const destroyUserSessions = (db: Db, userId: number) => db.delete(sessions).where(eq(sessions.user_id, userId));

export async function recordFailure(db: Db, email: string, ip: string) {
  await db.insert(login_attempts).values({ email, ip: ip.slice(0, 64) });
}

/** The user with this (lower-cased) e-mail and its employee, whatever their state. */
async function userByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ user: users, employee: employees })
    .from(users)
    .leftJoin(employees, eq(employees.user_id, users.id))
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  return row ?? null;
}

/** May sign in: a user whose employee, when it has one, is active. */
const mayUseSia = (row: { employee: typeof employees.$inferSelect | null }) => !row.employee || row.employee.is_active;

/** Sign-in by e-mail and password: the user row, or null for any kind of mismatch. */
export async function authenticate(db: Db, email: string, password: string) {
  const row = await userByEmail(db, email);
  // Verify even when no user matches, so timing does not tell which e-mails exist.
  const ok = await verifyPassword(row?.user.password_digest ?? DUMMY_DIGEST, password);
  if (!row || !ok) return null;
  return mayUseSia(row) ? row : null;
}

/** Sign-in by an e-mail a trusted identity provider vouched for: an existing user who may sign in, or null. */
export async function userForVerifiedEmail(db: Db, email: string) {
  const row = await userByEmail(db, email.trim().toLowerCase());
  return row && mayUseSia(row) ? row : null;
}

/**
 * The one way every sign-in ends (password or identity provider): a new session, its HttpOnly cookie,
 * and SPEC §7's body `{ token, user }`.
 */
export async function openSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  found: { user: typeof users.$inferSelect; employee: typeof employees.$inferSelect | null },
) {
  const token = await createSession(app.db.db, found.user.id, { userAgent: request.headers["user-agent"], ip: request.ip });
  // Deactivated between the password check and here: refused like any other inactive employee.
  if (!token) throw new HttpError(401, messages.invalidCredentials);
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: app.config.PUBLIC_URL?.startsWith("https:") ?? false,
    maxAge: COOKIE_MAX_AGE_SECONDS,
  });
  return {
    token,
    user: toSessionUser(found.user, found.employee),
    ...sessionServices(app, found.user),
  };
}

/**
 * SPEC §7's sign-in answer also carries the calendar and realtime tokens. SIA keeps the user's Google token on
 * the server (encrypted; the server reads the calendar and refreshes it), and the realtime stream is
 * authenticated by this same session, so the browser gets what it needs instead of secrets: whether the
 * calendar is connected (only when Google Calendar is configured) and where the realtime stream is.
 */
function sessionServices(app: FastifyInstance, user: typeof users.$inferSelect) {
  return {
    ...(app.config.CALENDAR_ADAPTER === "google" ? { google_calendar: { connected: Boolean(user.cloud_token_encrypted) } } : {}),
    realtime: { url: "/api/v1/realtime" },
  };
}
const DUMMY_DIGEST = "$argon2id$v=19$m=19456,t=2,p=1$c2lhLXNpYS1zaWEtc2lh$2nVqNBu+5y0hxtXt2LyfcEf4e0rgfs58IbFbvAPsRBs";
