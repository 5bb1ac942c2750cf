/**
 * Which SIA user a verified ID token signs in as, and the nonce that makes each token usable once.
 *
 * Binding: a user is bound to the provider's account (issuer + stable subject) on their first single
 * sign-on, found by an e-mail the provider vouches for; from then on the account, not the e-mail, is
 * what signs in, and another account with the same e-mail (a recreated or look-alike one) is refused.
 *
 * Nonce: the sign-in page asks GET /auth/nonce before going to the provider and passes it along; the
 * provider puts it in the ID token. It is stateless (issued-at, random part, HMAC with the installation's
 * key) so asking for one writes nothing; a token is accepted only with a nonce this server issued less
 * than NONCE_MAX_AGE_SECONDS ago, and only once (its hash is kept in sso_used_nonces for a day).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, isNull, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { employees, sso_used_nonces, users } from "../../db/schema";
import type { VerifiedIdentity } from "../../ports/identity";
import { userForVerifiedEmail } from "./service";

export const NONCE_MAX_AGE_SECONDS = 10 * 60;
/** Used nonces are kept longer than any nonce or token could still be valid. */
const USED_NONCE_RETENTION_MS = 24 * 60 * 60 * 1000;

const nonceKey = (secret: Buffer) => createHmac("sha256", secret).update("sia-sso-nonce").digest();
const mac = (key: Buffer, body: string) => createHmac("sha256", key).update(body).digest("base64url");

/** A fresh nonce: "<issued-at seconds>.<random>.<hmac>". */
export function issueNonce(secret: Buffer, now = Date.now()): string {
  const body = `${Math.floor(now / 1000)}.${randomBytes(18).toString("base64url")}`;
  return `${body}.${mac(nonceKey(secret), body)}`;
}

/** Whether this server issued the nonce, less than NONCE_MAX_AGE_SECONDS ago. */
export function nonceIsFresh(nonce: string | null, secret: Buffer, now = Date.now()): boolean {
  if (!nonce || nonce.length > 200) return false;
  const parts = nonce.split(".");
  if (parts.length !== 3 || !/^\d{1,12}$/.test(parts[0])) return false;
  const expected = Buffer.from(mac(nonceKey(secret), `${parts[0]}.${parts[1]}`));
  const given = Buffer.from(parts[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  const age = now / 1000 - Number(parts[0]);
  return age >= -60 && age <= NONCE_MAX_AGE_SECONDS;
}

/** Marks the nonce used; false when it already was (a replayed token). */
export async function consumeNonce(db: Db, nonce: string): Promise<boolean> {
  const hash = createHash("sha256").update(nonce).digest("hex");
  await db.delete(sso_used_nonces).where(lt(sso_used_nonces.used_at, new Date(Date.now() - USED_NONCE_RETENTION_MS)));
  const inserted = await db
    .insert(sso_used_nonces)
    .values({ nonce_hash: hash })
    .onConflictDoNothing()
    .returning({ hash: sso_used_nonces.nonce_hash });
  return inserted.length === 1;
}

type Found = NonNullable<Awaited<ReturnType<typeof userForVerifiedEmail>>>;

/**
 * The user the provider's account signs in as, binding it on first use; null when none may. `email`
 * is only read to find an unbound user on the first sign-in.
 */
export async function userForIdentity(db: Db, identity: VerifiedIdentity): Promise<Found | null> {
  const [bound] = await db
    .select({ user: users, employee: employees })
    .from(users)
    .leftJoin(employees, eq(employees.user_id, users.id))
    .where(and(eq(users.sso_issuer, identity.issuer), eq(users.sso_subject, identity.subject)))
    .limit(1);
  if (bound) return !bound.employee || bound.employee.is_active ? bound : null;
  if (!identity.email) return null;
  const found = await userForVerifiedEmail(db, identity.email);
  // Bound to another account of the provider: this one may not take the user over.
  if (!found || found.user.sso_subject !== null) return null;
  const claimed = await db
    .update(users)
    .set({ sso_issuer: identity.issuer, sso_subject: identity.subject })
    .where(and(eq(users.id, found.user.id), isNull(users.sso_subject)))
    .returning({ id: users.id })
    .catch((error: unknown) => {
      // The same account bound to another user by a concurrent sign-in (unique index): not this one.
      if ((error as { code?: string }).code === "23505" || String(error).includes("users_sso_subject_unique")) return [];
      throw error;
    });
  if (claimed.length === 0) return null;
  return { ...found, user: { ...found.user, sso_issuer: identity.issuer, sso_subject: identity.subject } };
}
