import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { COOKIE_MAX_AGE_SECONDS } from "../../../src/core/constants";
import { messages } from "../../../src/core/messages";
import { SESSION_COOKIE, type SessionUser, TOKEN_PREFIX } from "../../../src/core/session";
import { verifyPassword } from "../../auth/passwords";
import { hashToken } from "../../auth/sessionLookup";
import type { Db } from "../../db/client";
import { employees, login_attempts, sessions, users } from "../../db/schema";
import { HttpError } from "../../http/errors";

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
