/** Rules of user writes: password hashing, what a non-administrator may change, sessions. */
import { and, eq, isNotNull, isNull, ne, notLike, or, type SQL, sql } from "drizzle-orm";
import { ROLES } from "../../../src/core/constants";
import { accessMessages, messages } from "../../../src/core/messages";
import { isAdmin } from "../../../src/core/permissions";
import type { userSchema, userUpdateSchema } from "../../../src/core/schemas/user";
import { hashPassword } from "../../auth/passwords";
import { PUBLIC_DEMO_PASSWORD } from "../../config";
import type { Db, Tx } from "../../db/client";
import { employees, sessions, users } from "../../db/schema";
import { forbidden, ValidationError } from "../../http/errors";
import type { RequestContext, ResourceRecord, WriteArgs } from "../../http/resource";
import { decryptSecret, encryptSecret, secretKey } from "../../http/secrets";

type Values = Record<string, unknown>;

/** The only field a non-administrator may change, and only on their own user (SPEC §6). */
const SELF_WRITABLE = new Set(["azure_token", "clear_azure_token"]);

/**
 * A non-administrator's update. React-Admin sends the whole record back, so a field sent with the
 * value it already has is dropped silently; trying to CHANGE anything but azure_token (a name, an
 * e-mail, a role flag, can_chat, a password) refuses the whole request with 403 'Error de Permisos'
 * rather than saving part of it, so the person knows the change did not happen.
 */
export function restrictToSelfWritable(values: Values, existing: ResourceRecord<typeof users>): Values {
  const out: Values = {};
  for (const [key, value] of Object.entries(values)) {
    if (SELF_WRITABLE.has(key)) {
      out[key] = value;
      continue;
    }
    if (value === undefined) continue;
    if (key === "password" || key === "password_confirmation") throw forbidden();
    if (value === existing[key]) continue;
    throw forbidden();
  }
  return out;
}

export async function prepareUserWrite(
  ...[input, ctx, existing]: WriteArgs<typeof users, typeof userSchema, typeof userUpdateSchema>
) {
  const {
    password,
    password_confirmation: _confirmation,
    clear_azure_token: clearAzureToken,
    ...values
  } = existing && !isAdmin(ctx.user) ? restrictToSelfWritable(input, existing) : input;
  // Write-only secret: a text replaces it (encrypted), null or clear_azure_token clears it, absent keeps it.
  if (clearAzureToken === true) values.azure_token = null;
  if (values.azure_token !== undefined)
    values.azure_token =
      typeof values.azure_token === "string" && values.azure_token
        ? encryptSecret(values.azure_token, secretKey(ctx.app.config))
        : null;
  if (typeof password === "string") {
    if (ctx.app.config.NODE_ENV === "production" && password === PUBLIC_DEMO_PASSWORD) {
      throw ValidationError.field("password", messages.publicPassword);
    }
    values.password_digest = await hashPassword(password);
    values.password_changed_at = new Date();
    if (existing) await destroyOtherSessions(ctx, existing.id);
  }
  // A user with no role lands on screens where every call is refused: one role at least, also when an
  // update sends only some of the flags.
  if (ROLES.every((role) => !(values[role] ?? existing?.[role] ?? false))) {
    throw ValidationError.field("administrator_role", accessMessages.roleRequired);
  }
  return values;
}

/** Namespace of the lock that makes "at least one administrator remains" checks run one at a time. */
export const LAST_ADMIN_LOCK_KEY = 7_310_120;

/**
 * Refuses (a Spanish 422) a write that leaves no active administrator: with none, nobody can give the role
 * back from the app. Called inside the transaction AFTER the write. The advisory lock makes two such writes
 * check one after the other, and the count runs after it (READ COMMITTED: a fresh snapshot), so it sees what
 * the other committed: two administrators demoting each other at once leave one. Active means what the
 * session lookup lets in: the role, and an active employee or none.
 */
export async function assertAdministratorRemains(tx: Tx, field = "base") {
  await tx.execute(sql`select pg_advisory_xact_lock(${LAST_ADMIN_LOCK_KEY})`);
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .leftJoin(employees, eq(employees.user_id, users.id))
    .where(and(eq(users.administrator_role, true), or(isNull(employees.id), eq(employees.is_active, true))));
  if (!row || row.n === 0) throw ValidationError.field(field, accessMessages.lastAdministrator);
}

/** After a user's update: losing the role may leave no administrator. */
export async function afterUserWrite(
  saved: ResourceRecord<typeof users>,
  ctx: RequestContext,
  existing: ResourceRecord<typeof users> | null,
) {
  if (existing?.administrator_role && !saved.administrator_role) await assertAdministratorRemains(ctx.db, "administrator_role");
}

/** After a user's deletion: an administrator without an employee may be the last one. */
export async function afterUserDelete(deleted: ResourceRecord<typeof users>, ctx: RequestContext) {
  if (deleted.administrator_role) await assertAdministratorRemains(ctx.db);
}

/**
 * A password change signs the user out everywhere else: every session of that user except the one
 * making the request (an administrator changing their own password stays signed in).
 */
async function destroyOtherSessions(ctx: RequestContext, userId: number) {
  const conditions: SQL[] = [eq(sessions.user_id, userId)];
  if (ctx.user.id === userId && ctx.request.sessionId) conditions.push(ne(sessions.id, ctx.request.sessionId));
  await ctx.db.delete(sessions).where(and(...conditions));
}

/** Delete guard: a user linked to an employee stays (the employee's history hangs from it). */
export async function userEmployeeGuard(id: number, db: Tx): Promise<string | null> {
  const [row] = await db.select({ id: employees.id }).from(employees).where(eq(employees.user_id, id)).limit(1);
  return row ? messages.userHasEmployee : null;
}

export async function storeCloudToken(db: Tx, userId: number, encrypted: string, googleId: string | null | undefined) {
  await db
    .update(users)
    .set({ cloud_token_encrypted: encrypted, ...(googleId !== undefined ? { google_id: googleId } : {}) })
    .where(eq(users.id, userId));
}

/**
 * Azure DevOps tokens saved in plain text before they were encrypted: encrypted now (run on every
 * start; a no-op once done). A value is taken as plain unless it decrypts with this installation's key.
 */
export async function encryptStoredSecrets(db: Db, key: Buffer): Promise<number> {
  const rows = await db
    .select({ id: users.id, token: users.azure_token })
    .from(users)
    .where(and(isNotNull(users.azure_token), notLike(users.azure_token, "v1.%")));
  let done = 0;
  for (const row of rows) {
    const plain = row.token as string;
    if (decryptSecret(plain, key) !== null) continue;
    // Only if unchanged meanwhile (another process starting at once does the same).
    const updated = await db
      .update(users)
      .set({ azure_token: encryptSecret(plain, key) })
      .where(and(eq(users.id, row.id), eq(users.azure_token, plain)))
      .returning({ id: users.id });
    done += updated.length;
  }
  return done;
}
