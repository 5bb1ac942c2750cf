/**
 * The sign-in limit (docs/decisions/021-auth-login-limit.md). Every password check first RESERVES an
 * attempt: one short transaction, serialised per key with an advisory lock, counts the key's recent
 * attempts and inserts a row (the reservation) when the key may try. Only then does argon2 run, outside
 * the transaction. A success deletes its reservation; a failure leaves it as the recorded failure. So N
 * parallel sign-ins are never all checked: only LOGIN_MAX_FAILURES of them get a reservation.
 *
 * Keys: the e-mail, and beside it the client's address (a password sprayed over every account). A browser
 * that has signed in as that e-mail before carries a signed device cookie (or still holds a session of that
 * user); its attempts are counted under the device instead, so an attacker who locks a named account does
 * not lock its owner out.
 * A locked e-mail gets one more try after LOGIN_LOCK_SECONDS, then twice that, and so on up to the
 * window: short for the owner, still only a few guesses an hour for an attacker.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, gt, lt, not, sql } from "drizzle-orm";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { login_attempts } from "../../db/schema";
import { secretKey } from "../../http/secrets";

export const DEVICE_COOKIE = "sia_device";
/** Rows of a device's attempts are keyed `#<id>` in login_attempts.email: no e-mail starts with '#' and lacks '@'. */
const DEVICE_KEY_PREFIX = "#";
const DEVICE_MAX_AGE_SECONDS = 365 * 86_400;
/** Advisory-lock namespaces (first argument of the two-int form), so they never meet other locks. */
const LOCK_BY_KEY = 7_310_101;
const LOCK_BY_ADDRESS = 7_310_102;

export type LimitConfig = Pick<
  Config,
  | "LOGIN_MAX_FAILURES"
  | "LOGIN_WINDOW_MINUTES"
  | "LOGIN_MAX_FAILURES_PER_ADDRESS"
  | "LOGIN_LOCK_SECONDS"
  | "SECRET_KEY"
  | "dataDir"
>;

export const perAddressLimit = (config: LimitConfig) => config.LOGIN_MAX_FAILURES_PER_ADDRESS ?? 5 * config.LOGIN_MAX_FAILURES;

/** Seconds an e-mail (or device) with `failures` recent failures stays locked after its latest one. */
export function lockSeconds(failures: number, config: LimitConfig): number {
  if (failures < config.LOGIN_MAX_FAILURES) return 0;
  const doublings = Math.min(failures - config.LOGIN_MAX_FAILURES, 30);
  return Math.min(config.LOGIN_LOCK_SECONDS * 2 ** doublings, config.LOGIN_WINDOW_MINUTES * 60);
}

const deviceMac = (config: LimitConfig, email: string, issued: string) =>
  createHmac("sha256", secretKey(config)).update(`sia-device|${email}|${issued}`).digest("base64url");

/** A device cookie for a browser that has just signed in as `email`. */
export function deviceCookie(config: LimitConfig, email: string, now = Date.now()) {
  const issued = Math.floor(now / 1000).toString(36);
  return { value: `${issued}.${deviceMac(config, email, issued)}`, maxAge: DEVICE_MAX_AGE_SECONDS };
}

/** The device's key when the cookie was issued by this installation for this e-mail and has not expired, else null. */
export function deviceKey(config: LimitConfig, email: string, cookie: string | undefined, now = Date.now()): string | null {
  if (!cookie || cookie.length > 200) return null;
  const [issued, mac, extra] = cookie.split(".");
  if (!issued || !mac || extra !== undefined || !/^[0-9a-z]{1,12}$/.test(issued)) return null;
  const age = now / 1000 - Number.parseInt(issued, 36);
  if (!(age >= -60 && age <= DEVICE_MAX_AGE_SECONDS)) return null;
  const expected = Buffer.from(deviceMac(config, email, issued));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return DEVICE_KEY_PREFIX + mac.slice(0, 32);
}

/** The key of a browser that holds an open session of the user signing in (counted like a device). */
export const sessionKey = (sessionId: number) => `${DEVICE_KEY_PREFIX}sesion-${sessionId}`;

/**
 * The address an attempt is counted under: an IPv4 address as it is; an IPv6 address by its /64 network,
 * the block one subscriber or one host is given, so rotating through the addresses of one network does
 * not buy a fresh limit each time.
 */
export function addressKey(ip: string): string {
  const address = ip
    .trim()
    .toLowerCase()
    .replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1");
  if (!address.includes(":")) return address.slice(0, 64);
  const [head, tail = ""] = address.split("%")[0].split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g || "0", 16) || 0).toString(16))
    .join(":")}::/64`;
}

export type Reservation = { ok: true; id: number; key: string } | { ok: false; retryAfter: number };

/**
 * Reserves one attempt for `email` (or its device) from `ip`, or says for how long it is refused.
 * Prunes attempts older than the window on the way.
 */
export async function reserveAttempt(
  db: Db,
  attempt: { email: string; ip: string; device: string | null },
  config: LimitConfig,
): Promise<Reservation> {
  const windowMs = config.LOGIN_WINDOW_MINUTES * 60_000;
  const since = new Date(Date.now() - windowMs);
  const key = attempt.device ?? attempt.email;
  const ip = addressKey(attempt.ip);
  return db.transaction(async (tx) => {
    // The same order everywhere (key, then address), so two reservations never wait on each other in a cycle.
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_BY_KEY}::int, hashtext(${key}))`);
    if (!attempt.device) await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_BY_ADDRESS}::int, hashtext(${ip}))`);
    await tx.delete(login_attempts).where(lt(login_attempts.created_at, since));
    const [mine] = await tx
      .select({ n: sql<number>`count(*)::int`, last: sql<string | null>`max(${login_attempts.created_at})` })
      .from(login_attempts)
      .where(and(eq(login_attempts.email, key), gt(login_attempts.created_at, since)));
    const failures = mine?.n ?? 0;
    const lock = lockSeconds(failures, config);
    if (lock > 0 && mine?.last) {
      const until = new Date(mine.last).getTime() + lock * 1000;
      if (until > Date.now()) return { ok: false, retryAfter: Math.ceil((until - Date.now()) / 1000) };
    }
    if (!attempt.device) {
      const [fromHere] = await tx
        .select({ n: sql<number>`count(*)::int`, first: sql<string | null>`min(${login_attempts.created_at})` })
        .from(login_attempts)
        .where(
          and(
            eq(login_attempts.ip, ip),
            gt(login_attempts.created_at, since),
            not(sql`starts_with(${login_attempts.email}, ${DEVICE_KEY_PREFIX})`),
          ),
        );
      if ((fromHere?.n ?? 0) >= perAddressLimit(config)) {
        const until = new Date(fromHere?.first ?? Date.now()).getTime() + windowMs;
        return { ok: false, retryAfter: Math.max(1, Math.ceil((until - Date.now()) / 1000)) };
      }
    }
    const [row] = await tx.insert(login_attempts).values({ email: key, ip }).returning({ id: login_attempts.id });
    return { ok: true, id: row.id, key };
  });
}

/**
 * A reserved attempt that succeeded: its reservation goes, and so do the earlier failures of the same
 * key (the owner typed the password; a device's success does not clear the e-mail's failures, which may
 * be an attacker's).
 */
export async function releaseAttempt(db: Db, reservation: { key: string }) {
  await db.delete(login_attempts).where(eq(login_attempts.email, reservation.key));
}
