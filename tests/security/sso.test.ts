/**
 * Single sign-on as an attacker would use it: tokens the provider signed but that must not sign anyone
 * in. An e-mail the provider does not vouch for (`email_verified` false or absent, `preferred_username`,
 * `upn`), a token that lives ten years or was issued long ago, one without SIA's nonce or with a forged
 * or stale one, the same token twice (also 20 times in parallel), and another account of the provider
 * with the e-mail of a user already bound to their own. Each protection has a test that fails without
 * it (docs/reliability.md, "Protection removed → test fails").
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, users } from "../../server/db/schema";
import { secretKey } from "../../server/http/secrets";
import { issueNonce, NONCE_MAX_AGE_SECONDS } from "../../server/modules/sessions/ssoIdentity";
import { messages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { burst } from "../support/burst";
import { buildUser, call } from "../support/factories";
import { recordFigures } from "../support/figures";

const CLIENT_ID = "sia-seguridad-sso";
let provider: http.Server;
let issuer: string;
let key: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
let t: TestApp;
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  const pair = await generateKeyPair("RS256");
  key = pair.privateKey;
  const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256", use: "sig" }] };
  provider = http.createServer((request, response) => {
    const json = (body: unknown) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (request.url === "/t/v2.0/.well-known/openid-configuration") return json({ issuer, jwks_uri: `${issuer}/keys` });
    if (request.url === "/t/v2.0/keys") return json(jwks);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/t/v2.0`;
  t = await buildTestApp({ OIDC_AUTHORITY: issuer, OIDC_CLIENT_ID: CLIENT_ID, LOGIN_MAX_FAILURES: "1000" });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => provider?.close(resolve));
  recordFigures("seguridad-sso", JSON.stringify(figures), figures);
});

const db = () => t.app.db.db;
const nonce = () => issueNonce(secretKey(t.app.config));
/** A token as the provider signs it; `times` moves iat/exp (seconds from now). */
function token(claims: JWTPayload, times: { iat?: number; exp?: number } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setIssuer(issuer)
    .setAudience(CLIENT_ID)
    .setIssuedAt(now + (times.iat ?? -5))
    .setExpirationTime(now + (times.exp ?? 3600))
    .sign(key);
}
const callback = (id_token: string) => call(t.app, "POST", "/api/v1/auth/callback", { id_token });
const refused = (res: { status: number; body: unknown }) =>
  res.status === 401 && JSON.stringify(res.body) === JSON.stringify({ error: messages.invalidCredentials });

describe("single sign-on refuses what the provider signed but does not vouch for", () => {
  it("an e-mail without email_verified: true (or Entra's xms_edov), preferred_username, upn: 401, nobody bound", async () => {
    const { user } = await buildUser(db(), "admin");
    const email = user.email;
    const cases: Record<string, JWTPayload> = {
      "email_verified: false": { sub: "x1", email, email_verified: false, nonce: nonce() },
      "email sin email_verified": { sub: "x2", email, nonce: nonce() },
      'email_verified: "true" (texto)': { sub: "x3", email, email_verified: "true", nonce: nonce() },
      "solo preferred_username": { sub: "x4", preferred_username: email, nonce: nonce() },
      "solo upn": { sub: "x5", upn: email, nonce: nonce() },
      "preferred_username verificado": { sub: "x6", preferred_username: email, email_verified: true, nonce: nonce() },
    };
    const wrong: string[] = [];
    for (const [name, claims] of Object.entries(cases)) {
      const res = await callback(await token(claims));
      if (!refused(res)) wrong.push(`${name} → ${res.status}`);
    }
    expect(wrong).toEqual([]);
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row.sso_subject).toBeNull();
    // What the provider vouches for signs in: email_verified, or Entra's xms_edov.
    expect((await callback(await token({ sub: "x7", email, xms_edov: true, nonce: nonce() }))).status).toBe(200);
    figures.unvouchedEmailsRefused = Object.keys(cases).length;
  });

  it("a token issued long ago or living too long: 401", async () => {
    const { user } = await buildUser(db(), "admin");
    const claims = { sub: `vida-${user.id}`, email: user.email, email_verified: true };
    const tenYears = 10 * 365 * 86_400;
    expect(refused(await callback(await token({ ...claims, nonce: nonce() }, { exp: tenYears })))).toBe(true);
    expect(refused(await callback(await token({ ...claims, nonce: nonce() }, { iat: -3600, exp: 600 })))).toBe(true);
    expect(refused(await callback(await token({ ...claims, nonce: nonce() }, { exp: 2 * 86_400 })))).toBe(true);
    expect((await callback(await token({ ...claims, nonce: nonce() }))).status).toBe(200);
  });

  it("a token without SIA's nonce, with a forged or a stale one: 401", async () => {
    const { user } = await buildUser(db(), "admin");
    const claims = { sub: `nonce-${user.id}`, email: user.email, email_verified: true };
    const real = nonce();
    const [at, random] = real.split(".");
    const cases: Record<string, string | undefined> = {
      "sin nonce": undefined,
      "nonce inventado": "abc",
      "firma falsa": `${at}.${random}.${"A".repeat(43)}`,
      "otra fecha con la misma firma": `${Number(at) + 1}.${random}.${real.split(".")[2]}`,
      vencido: issueNonce(secretKey(t.app.config), Date.now() - (NONCE_MAX_AGE_SECONDS + 60) * 1000),
      "de otra instalación": issueNonce(Buffer.alloc(32, 7)),
    };
    const wrong: string[] = [];
    for (const [name, value] of Object.entries(cases)) {
      const res = await callback(await token(value === undefined ? claims : { ...claims, nonce: value }));
      if (!refused(res)) wrong.push(`${name} → ${res.status}`);
    }
    expect(wrong).toEqual([]);
    const page = await call(t.app, "GET", "/api/v1/auth/nonce");
    expect(page.status).toBe(200);
    expect((await callback(await token({ ...claims, nonce: page.body.nonce }))).status).toBe(200);
    figures.badNoncesRefused = Object.keys(cases).length;
  });

  it("a token is used once: replayed it is 401; 20 parallel replays of a fresh one open exactly one session", async () => {
    const { user } = await buildUser(db(), "admin");
    const once = await token({ sub: `replay-${user.id}`, email: user.email, email_verified: true, nonce: nonce() });
    expect((await callback(once)).status).toBe(200);
    expect(refused(await callback(once))).toBe(true);
    const fresh = await token({ sub: `replay-${user.id}`, email: user.email, email_verified: true, nonce: nonce() });
    const before = (await db().select().from(sessions).where(eq(sessions.user_id, user.id))).length;
    const { byStatus } = await burst(20, () => callback(fresh));
    expect(byStatus).toEqual({ 200: 1, 401: 19 });
    expect(await db().select().from(sessions).where(eq(sessions.user_id, user.id))).toHaveLength(before + 1);
    figures.parallelReplays = 20;
    figures.replaysAccepted = byStatus[200];
  });
});

describe("a user is bound to the provider's account on the first sign-in", () => {
  it("binds issuer + oid (else sub); another account with the same e-mail is refused; the bound one signs in without it", async () => {
    const { user } = await buildUser(db(), "admin");
    const first = await callback(
      await token({ sub: "par-app-1", oid: `oid-${user.id}`, email: user.email, email_verified: true, nonce: nonce() }),
    );
    expect(first.status).toBe(200);
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ sso_issuer: issuer, sso_subject: `oid:oid-${user.id}` });
    // Another account of the provider (a recreated or look-alike one) vouched for the same e-mail.
    const intruder = await callback(await token({ sub: "otro", email: user.email, email_verified: true, nonce: nonce() }));
    expect(refused(intruder)).toBe(true);
    // The bound account: by its oid, whatever its sub, its e-mail or whether it brings one.
    const later = await callback(await token({ sub: "par-app-2", oid: `oid-${user.id}`, nonce: nonce() }));
    expect(later.status).toBe(200);
    expect(later.body.user.id).toBe(user.id);
  });

  it("an oid and a sub of the same text are different accounts", async () => {
    const { user } = await buildUser(db(), "finance");
    // Bound by a provider account that has no oid claim: its sub.
    const owner = await callback(await token({ sub: `cuenta-${user.id}`, email: user.email, xms_edov: true, nonce: nonce() }));
    expect(owner.status).toBe(200);
    // Another account whose oid repeats that text does not become the owner.
    const other = await callback(await token({ sub: "zzz", oid: `cuenta-${user.id}`, email: "x@y.mx", nonce: nonce() }));
    expect(refused(other)).toBe(true);
  });

  it("a bound account of a deactivated employee does not sign in", async () => {
    const built = await buildUser(db(), "operator");
    const claims = { sub: `baja-${built.user.id}`, email: built.user.email, email_verified: true };
    expect((await callback(await token({ ...claims, nonce: nonce() }))).status).toBe(200);
    const { employees } = await import("../../server/db/schema");
    await db().update(employees).set({ is_active: false }).where(eq(employees.id, built.employee!.id));
    expect(refused(await callback(await token({ ...claims, nonce: nonce() })))).toBe(true);
  });
});
