/**
 * Sign-in with an OpenID Connect provider: POST /api/v1/auth/callback verifies the ID token
 * against the keys a local provider publishes (a small HTTP server started here, serving the discovery
 * document and the JWKS the way Entra ID does) and maps its e-mail to an existing active user.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config";
import { employees, login_attempts, sessions, users } from "../../server/db/schema";
import { secretKey } from "../../server/http/secrets";
import { issueNonce } from "../../server/modules/sessions/ssoIdentity";
import { messages } from "../../src/core/messages";
import { SESSION_COOKIE } from "../../src/core/session";
import { buildTestApp, type TestApp } from "../support/app";
import { buildUser, call, PASSWORD } from "../support/factories";

const CLIENT_ID = "8f1c2b7e-sia-pruebas";
type Key = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];

/** The provider: discovery + JWKS on port 0, counting the requests each path gets. */
let provider: http.Server;
let base: string;
let authority: string;
const hits: Record<string, number> = {};
let rsa: Key;
let ec: Key;
/** A key the provider never published. */
let stranger: Key;
let tenantDown = true;

let t: TestApp;

beforeAll(async () => {
  const rsaPair = await generateKeyPair("RS256");
  const ecPair = await generateKeyPair("ES256");
  rsa = rsaPair.privateKey;
  ec = ecPair.privateKey;
  stranger = (await generateKeyPair("RS256")).privateKey;
  const jwks = {
    keys: [
      { ...(await exportJWK(rsaPair.publicKey)), kid: "rsa-1", alg: "RS256", use: "sig" },
      { ...(await exportJWK(ecPair.publicKey)), kid: "ec-1", alg: "ES256", use: "sig" },
    ],
  };
  provider = http.createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    hits[path] = (hits[path] ?? 0) + 1;
    const json = (body: unknown) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (path === "/inquilino/v2.0/.well-known/openid-configuration") {
      return json({
        issuer: authority,
        authorization_endpoint: `${base}/inquilino/oauth2/v2.0/authorize`,
        token_endpoint: `${base}/inquilino/oauth2/v2.0/token`,
        jwks_uri: `${base}/inquilino/discovery/v2.0/keys`,
        id_token_signing_alg_values_supported: ["RS256", "ES256"],
      });
    }
    if (path === "/inquilino/discovery/v2.0/keys") return json(jwks);
    // A second tenant whose provider is down until the test says otherwise.
    if (path === "/caido/v2.0/.well-known/openid-configuration") {
      if (tenantDown) return response.writeHead(503).end("mantenimiento");
      return json({ issuer: `${base}/caido/v2.0`, jwks_uri: `${base}/inquilino/discovery/v2.0/keys` });
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  authority = `${base}/inquilino/v2.0`;
  t = await buildTestApp({ OIDC_AUTHORITY: authority, OIDC_CLIENT_ID: CLIENT_ID, LOGIN_MAX_FAILURES: "50" });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => provider?.close(resolve));
});

const db = () => t.app.db.db;

/** An ID token as the provider would issue it to SIA; `overrides` change one thing at a time. */
function idToken(
  claims: JWTPayload,
  overrides: { key?: Key; kid?: string; alg?: string; issuer?: string; audience?: string | string[]; exp?: number } = {},
) {
  const alg = overrides.alg ?? "RS256";
  const now = Math.floor(Date.now() / 1000);
  // One account per e-mail at the provider (users are bound to it on their first sign-in); a fresh
  // nonce of SIA's, as the sign-in page asks for; an e-mail the provider vouches for.
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  const sub = email ? `sujeto-${email}` : "sujeto-1";
  return new SignJWT({ sub, nonce: issueNonce(secretKey(t.app.config)), email_verified: true, ...claims })
    .setProtectedHeader({ alg, kid: overrides.kid ?? (alg === "ES256" ? "ec-1" : "rsa-1"), typ: "JWT" })
    .setIssuer(overrides.issuer ?? authority)
    .setAudience(overrides.audience ?? CLIENT_ID)
    .setIssuedAt(now - 5)
    .setExpirationTime(overrides.exp ?? now + 3600)
    .sign(overrides.key ?? (alg === "ES256" ? ec : rsa));
}

const callback = (body: unknown) => call(t.app, "POST", "/api/v1/auth/callback", body);
const cookieOf = (headers: Record<string, unknown>) => {
  const raw = headers["set-cookie"];
  const list = Array.isArray(raw) ? raw : [raw];
  return String(list.find((c) => String(c).startsWith(`${SESSION_COOKIE}=`)) ?? "").split(";")[0];
};
const count = async (table: typeof users | typeof sessions) =>
  (await db().select({ n: sql<number>`count(*)::int` }).from(table))[0].n;

describe("GET /auth/config", () => {
  it("tells the sign-in page the provider, the client and the button's label when configured", async () => {
    const res = await call(t.app, "GET", "/api/v1/auth/config");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: true, authority, client_id: CLIENT_ID, button_label: "Entrar con Microsoft" });
  });

  it("says disabled without the variables, and the callback then answers a Spanish 404", async () => {
    const plain = await buildTestApp();
    try {
      expect((await call(plain.app, "GET", "/api/v1/auth/config")).body).toEqual({ enabled: false });
      const res = await call(plain.app, "POST", "/api/v1/auth/callback", { id_token: "x.y.z" });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: messages.ssoNotConfigured });
      // No provider in the page's CSP either.
      expect(String((await call(plain.app, "GET", "/healthz")).headers["content-security-policy"])).toMatch(
        /connect-src 'self'(;|$)/,
      );
    } finally {
      await plain.close();
    }
  });

  it("lets the page's CSP reach the provider (MSAL fetches its discovery document and token endpoint)", async () => {
    const csp = String((await call(t.app, "GET", "/healthz")).headers["content-security-policy"]);
    expect(csp).toContain(`connect-src 'self' ${base}`);
  });

  it("takes a custom label, and refuses half a configuration in Spanish", () => {
    const config = loadConfig({ OIDC_AUTHORITY: `${authority}/`, OIDC_CLIENT_ID: "c", OIDC_BUTTON_LABEL: "Entrar con Okta" });
    expect(config.OIDC_AUTHORITY).toBe(authority);
    expect(config.OIDC_BUTTON_LABEL).toBe("Entrar con Okta");
    expect(() => loadConfig({ OIDC_AUTHORITY: authority })).toThrow(
      /Configuración inválida[\s\S]*OIDC_CLIENT_ID: es obligatoria/,
    );
    expect(() => loadConfig({ OIDC_CLIENT_ID: "c" })).toThrow(/OIDC_AUTHORITY: es obligatoria/);
    expect(() => loadConfig({ OIDC_AUTHORITY: "https://login.microsoftonline.com/common/v2.0", OIDC_CLIENT_ID: "c" })).toThrow(
      /OIDC_AUTHORITY: debe ser la autoridad de su inquilino/,
    );
    expect(() => loadConfig({ OIDC_AUTHORITY: "login.microsoftonline.com", OIDC_CLIENT_ID: "c" })).toThrow(
      /OIDC_AUTHORITY: debe ser una URL/,
    );
  });
});

describe("POST /auth/callback", () => {
  it("signs an existing user in: the same body as the password sign-in, and a cookie session that works", async () => {
    const { user } = await buildUser(db(), "finance");
    const before = await count(users);
    const res = await callback({ id_token: await idToken({ email: user.email.toUpperCase(), name: "Otro Nombre" }) });
    expect(res.status).toBe(200);
    const password = await call(t.app, "POST", "/api/v1/sessions", { email: user.email, password: PASSWORD });
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(password.body).sort());
    expect(res.body.user).toEqual(password.body.user);
    expect(res.body.token).toMatch(/^thoth_[A-Za-z0-9_-]{40,}$/);
    const current = await call(t.app, "GET", "/api/v1/sessions/current", undefined, { cookie: cookieOf(res.headers) });
    expect(current.status).toBe(200);
    expect(current.body.user.id).toBe(user.id);
    const bearer = await call(t.app, "GET", "/api/v1/sessions/current", undefined, { authorization: `Bearer ${res.body.token}` });
    expect(bearer.body.user.email).toBe(user.email);
    expect(await count(users)).toBe(before);
  });

  it("never signs in by preferred_username or upn (Entra's display hints); ES256 keys too; MSAL's idToken name", async () => {
    const a = (await buildUser(db(), "operator")).user;
    const b = (await buildUser(db(), "admin")).user;
    const byPreferred = await callback({ id_token: await idToken({ preferred_username: a.email }, { alg: "ES256" }) });
    expect(byPreferred.status).toBe(401);
    const byUpn = await callback({ idToken: await idToken({ upn: ` ${b.email} ` }) });
    expect(byUpn.status).toBe(401);
    const byEmail = await callback({ idToken: await idToken({ email: b.email }, { alg: "ES256" }) });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.user.id).toBe(b.id);
    // A user without an employee signs in as with a password.
    const loose = (await buildUser(db(), "admin", {}, false)).user;
    expect((await callback({ id_token: await idToken({ email: loose.email }) })).status).toBe(200);
  });

  it("fetches the discovery document once, not on every sign-in", async () => {
    const { user } = await buildUser(db(), "operator");
    for (let i = 0; i < 3; i++) expect((await callback({ id_token: await idToken({ email: user.email }) })).status).toBe(200);
    expect(hits["/inquilino/v2.0/.well-known/openid-configuration"]).toBe(1);
  });

  it("refuses every bad token, unknown or inactive e-mail, and bad body with 401 «Credenciales Invalidas», creating nobody", async () => {
    const { user } = await buildUser(db(), "operator");
    const inactive = await buildUser(db(), "operator");
    await db().update(employees).set({ is_active: false }).where(eq(employees.id, inactive.employee!.id));
    const email = user.email;
    const now = Math.floor(Date.now() / 1000);
    const cases: Record<string, unknown> = {
      "firmado con otra llave (mismo kid)": { id_token: await idToken({ email }, { key: stranger }) },
      "kid desconocido": { id_token: await idToken({ email }, { key: stranger, kid: "otra" }) },
      "otro emisor": { id_token: await idToken({ email }, { issuer: `${base}/otro-inquilino/v2.0` }) },
      "otra audiencia": { id_token: await idToken({ email }, { audience: "otra-aplicacion" }) },
      "varias audiencias sin azp de SIA": { id_token: await idToken({ email, azp: "otra" }, { audience: [CLIENT_ID, "otra"] }) },
      vencido: { id_token: await idToken({ email }, { exp: now - 600 }) },
      "sin firma (alg none)": {
        id_token: new UnsecuredJWT({ email, sub: "s" })
          .setIssuer(authority)
          .setAudience(CLIENT_ID)
          .setIssuedAt()
          .setExpirationTime("1h")
          .encode(),
      },
      "firmado con secreto compartido (HS256)": {
        id_token: await new SignJWT({ email, sub: "s" })
          .setProtectedHeader({ alg: "HS256", kid: "rsa-1" })
          .setIssuer(authority)
          .setAudience(CLIENT_ID)
          .setIssuedAt()
          .setExpirationTime("1h")
          .sign(new TextEncoder().encode("un-secreto-cualquiera-de-32-bytes!!")),
      },
      "sin correo": { id_token: await idToken({ name: "Sin Correo" }) },
      "correo desconocido": { id_token: await idToken({ email: "nadie@desconocido.mx" }) },
      "empleado inactivo": { id_token: await idToken({ email: inactive.user.email }) },
      basura: { id_token: "esto.no.es-un-token" },
      "token no texto": { id_token: { a: 1 } },
      "token enorme": { id_token: "a".repeat(20_000) },
      "sin token": {},
      "code en lugar de token": { code: "abc123" },
    };
    const usersBefore = await count(users);
    const sessionsBefore = await count(sessions);
    const failures: string[] = [];
    for (const [name, body] of Object.entries(cases)) {
      const res = await callback(body);
      if (res.status !== 401 || res.body?.error !== messages.invalidCredentials || res.headers["set-cookie"])
        failures.push(`${name} → ${res.status} ${res.text}`);
    }
    const empty = await call(t.app, "POST", "/api/v1/auth/callback", "no es json", { "content-type": "application/json" });
    if (empty.status >= 500 || empty.status < 400) failures.push(`JSON inválido → ${empty.status}`);
    expect(failures).toEqual([]);
    expect(await count(users)).toBe(usersBefore);
    expect(await count(sessions)).toBe(sessionsBefore);
    // The verified but unknown e-mail is counted with the password failures.
    const attempts = await db().select().from(login_attempts).where(eq(login_attempts.email, "nadie@desconocido.mx"));
    expect(attempts).toHaveLength(1);
  });

  it("answers any hostile body (property-based) with 401 «Credenciales Invalidas», never a 500", async () => {
    const sessionsBefore = await count(sessions);
    const token = fc.oneof(
      fc.string(),
      fc.string({ unit: "grapheme", maxLength: 300 }),
      fc.tuple(fc.base64String(), fc.base64String(), fc.base64String()).map((parts) => parts.join(".")),
      fc.constantFrom("'; DROP TABLE users; --", "<script>alert(1)</script>", "e30.e30.", "..", "a".repeat(17_000)),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(fc.record({ id_token: token }, { requiredKeys: [] }), async (body) => {
        const res = await callback(body);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: messages.invalidCredentials });
      }),
      { numRuns: 60 },
    );
    expect(await count(sessions)).toBe(sessionsBefore);
  });

  it("asks a provider that was down again on the next sign-in (503 first, then 200)", async () => {
    const other = await buildTestApp({ OIDC_AUTHORITY: `${base}/caido/v2.0`, OIDC_CLIENT_ID: CLIENT_ID });
    try {
      const { user } = await buildUser(other.app.db.db, "operator");
      const token = await idToken(
        { email: user.email, nonce: issueNonce(secretKey(other.app.config)) },
        { issuer: `${base}/caido/v2.0` },
      );
      const down = await call(other.app, "POST", "/api/v1/auth/callback", { id_token: token });
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ error: messages.ssoUnavailable });
      tenantDown = false;
      const up = await call(other.app, "POST", "/api/v1/auth/callback", { id_token: token });
      expect(up.status).toBe(200);
      expect(up.body.user.id).toBe(user.id);
    } finally {
      await other.close();
    }
  });

  it("answers a Spanish 503 when the provider cannot be reached, never a 500", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const down = await buildTestApp({ OIDC_AUTHORITY: `http://127.0.0.1:${port}/inquilino/v2.0`, OIDC_CLIENT_ID: CLIENT_ID });
    try {
      const res = await call(down.app, "POST", "/api/v1/auth/callback", { id_token: await idToken({ email: "a@b.mx" }) });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: messages.ssoUnavailable });
    } finally {
      await down.close();
    }
  });
});
