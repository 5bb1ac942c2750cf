/**
 * Session protections, each with a test that fails without it: cookie flags (Secure behind https),
 * idle timeout and absolute expiry, logout everywhere on a password change, login rate limit, the
 * Origin check on unsafe methods of any API route, security headers and CSP on the app and the API.
 * Complements tests/api/sessions.test.ts (sign-in shape, logout, malformed bodies).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login_attempts, sessions } from "../../server/db/schema";
import { SESSION_COOKIE } from "../../src/core/session";
import { buildTestApp, type TestApp } from "../support/app";
import { buildClient, buildUser, call, PASSWORD, signIn } from "../support/factories";

const PUBLIC_URL = "https://sia.ejemplo.mx";
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_URL, LOGIN_MAX_FAILURES: "3", LOGIN_WINDOW_MINUTES: "15", SESSION_IDLE_DAYS: "2" });
});
afterAll(() => t.close());

const DAY = 86_400_000;
const sessionCookie = (headers: Record<string, unknown>) => {
  const raw = headers["set-cookie"];
  const list = Array.isArray(raw) ? raw : [raw];
  return String(list.find((c) => String(c).startsWith(`${SESSION_COOKIE}=`)) ?? "");
};
const current = (token: string) =>
  call(t.app, "GET", "/api/v1/sessions/current", undefined, { authorization: `Bearer ${token}` });
async function login(email: string, password = PASSWORD) {
  return call(t.app, "POST", "/api/v1/sessions", { email, password });
}
async function sessionIdOf(userId: number) {
  const rows = await t.app.db.db.select().from(sessions).where(eq(sessions.user_id, userId));
  return rows.map((r) => r.id);
}

describe("session cookie", () => {
  it("is HttpOnly, SameSite=Lax and Secure when PUBLIC_URL is https", async () => {
    const { user } = await buildUser(t.app.db.db, "operator");
    const res = await login(user.email);
    expect(res.status).toBe(200);
    const cookie = sessionCookie(res.headers);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Secure/i);
  });
});

describe("session lifetime", () => {
  it("ends a session idle longer than SESSION_IDLE_DAYS, keeps a recently used one", async () => {
    const { user } = await buildUser(t.app.db.db, "operator");
    const { token } = (await login(user.email)).body;
    const [id] = await sessionIdOf(user.id);
    await t.app.db.db
      .update(sessions)
      .set({ last_seen_at: new Date(Date.now() - 1.5 * DAY) })
      .where(eq(sessions.id, id));
    expect((await current(token)).status).toBe(200);
    await t.app.db.db
      .update(sessions)
      .set({ last_seen_at: new Date(Date.now() - 2.5 * DAY) })
      .where(eq(sessions.id, id));
    const idle = await current(token);
    expect(idle.status).toBe(401);
    expect(idle.body).toEqual({ error: "Sin Autenticación" });
  });

  it("ends a session past its absolute expiry even when used every day", async () => {
    const { user } = await buildUser(t.app.db.db, "operator");
    const { token } = (await login(user.email)).body;
    const [id] = await sessionIdOf(user.id);
    await t.app.db.db
      .update(sessions)
      .set({ expires_at: new Date(Date.now() - 1000), last_seen_at: new Date() })
      .where(eq(sessions.id, id));
    expect((await current(token)).status).toBe(401);
  });
});

describe("logout everywhere on a password change", () => {
  it("an administrator changing a user's password ends every session of that user", async () => {
    const admin = await signIn(t.app, (await buildUser(t.app.db.db, "admin")).user.email);
    const { user } = await buildUser(t.app.db.db, "operator");
    const first = (await login(user.email)).body.token;
    const second = (await login(user.email)).body.token;
    expect((await current(first)).status).toBe(200);
    const res = await admin.put(`/api/v1/users/${user.id}`, {
      user: { password: "otra-clave-9", password_confirmation: "otra-clave-9" },
    });
    expect(res.status).toBe(200);
    expect((await current(first)).status).toBe(401);
    expect((await current(second)).status).toBe(401);
    expect((await login(user.email, "otra-clave-9")).status).toBe(200);
    // The administrator's own session is untouched.
    expect((await admin.get("/api/v1/sessions/current")).status).toBe(200);
  });

  it("changing one's own password keeps the session that made the change and ends the others", async () => {
    const { user } = await buildUser(t.app.db.db, "admin");
    const here = await signIn(t.app, user.email);
    const elsewhere = (await login(user.email)).body.token;
    const res = await here.put(`/api/v1/users/${user.id}`, {
      user: { password: "nueva-clave-7", password_confirmation: "nueva-clave-7" },
    });
    expect(res.status).toBe(200);
    expect((await here.get("/api/v1/sessions/current")).status).toBe(200);
    expect((await current(elsewhere)).status).toBe(401);
  });

  it("an update without a password ends no session", async () => {
    const admin = await signIn(t.app, (await buildUser(t.app.db.db, "admin")).user.email);
    const { user } = await buildUser(t.app.db.db, "operator");
    const token = (await login(user.email)).body.token;
    expect((await admin.put(`/api/v1/users/${user.id}`, { user: { name: "Otro nombre" } })).status).toBe(200);
    expect((await current(token)).status).toBe(200);
  });
});

describe("login rate limit", () => {
  it("answers a Spanish 429 after LOGIN_MAX_FAILURES failures, only for that e-mail, until the window passes", async () => {
    const { user } = await buildUser(t.app.db.db, "operator");
    const other = await buildUser(t.app.db.db, "operator");
    for (let i = 0; i < 3; i++) expect((await login(user.email, "mala")).status).toBe(401);
    const limited = await login(user.email);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: expect.stringMatching(/^Demasiados intentos/) });
    // The same e-mail written differently is the same account.
    expect((await login(` ${user.email.toUpperCase()} `)).status).toBe(429);
    expect((await login(other.user.email)).status).toBe(200);
    // Once the failures are older than the window, the right password works again.
    await t.app.db.db
      .update(login_attempts)
      .set({ created_at: new Date(Date.now() - 16 * 60_000) })
      .where(eq(login_attempts.email, user.email));
    expect((await login(user.email)).status).toBe(200);
  });
});

describe("Origin check on unsafe methods", () => {
  it("refuses POST, PUT and DELETE from a foreign or opaque origin with a Spanish 403, and writes nothing", async () => {
    const { user } = await buildUser(t.app.db.db, "admin");
    const { token } = (await login(user.email)).body;
    const client = await buildClient(t.app.db.db, { name: "Cliente intacto" });
    const auth = { authorization: `Bearer ${token}` };
    for (const origin of ["https://evil.example", "null", "https://sia.ejemplo.mx.evil.example", "http://sia.ejemplo.mx:8080"]) {
      for (const [method, url, body] of [
        ["POST", "/api/v1/clients", { client: { name: "Intruso", client_code: "9999" } }],
        ["PUT", `/api/v1/clients/${client.id}`, { client: { name: "Intruso" } }],
        ["DELETE", `/api/v1/clients/${client.id}`, undefined],
      ] as const) {
        const res = await call(t.app, method, url, body, { ...auth, origin });
        expect(res.status, `${method} ${url} desde ${origin}`).toBe(403);
        expect(res.body).toEqual({ error: "Origen de la solicitud no permitido" });
      }
    }
    const after = await call(t.app, "GET", `/api/v1/clients/${client.id}`, undefined, auth);
    expect(after.status).toBe(200);
    expect(JSON.stringify(after.body)).toContain("Cliente intacto");
    // With PUBLIC_URL set, a Host header the client wrote itself (or a proxy passed on) proves nothing:
    // only the public origin, with its scheme, may write.
    for (const origin of ["https://evil.example", "http://sia.ejemplo.mx"]) {
      const forged = await call(
        t.app,
        "PUT",
        `/api/v1/clients/${client.id}`,
        { client: { name: "Intruso" } },
        {
          ...auth,
          origin,
          host: new URL(origin).host,
        },
      );
      expect(forged.status, `${origin} con Host ${new URL(origin).host}`).toBe(403);
      expect(forged.body).toEqual({ error: "Origen de la solicitud no permitido" });
    }
    // Its public origin and a safe method from anywhere pass.
    const own = await call(
      t.app,
      "PUT",
      `/api/v1/clients/${client.id}`,
      { client: { name: "Renombrado", lock_version: client.lock_version } },
      { ...auth, origin: PUBLIC_URL },
    );
    expect(own.status).toBe(200);
    expect(
      (await call(t.app, "GET", `/api/v1/clients/${client.id}`, undefined, { ...auth, origin: "https://evil.example" })).status,
    ).toBe(200);
  });
});

describe("security headers and CSP", () => {
  const expectHardened = (headers: Record<string, unknown>, where: string) => {
    const csp = String(headers["content-security-policy"] ?? "");
    expect(csp, where).toMatch(/default-src 'self'/);
    expect(csp, where).toMatch(/script-src 'self'(;|$)/);
    expect(csp, where).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(csp, where).toMatch(/object-src 'none'/);
    expect(csp, where).toMatch(/frame-ancestors 'none'/);
    expect(csp, where).toMatch(/base-uri 'self'/);
    expect(headers["x-content-type-options"], where).toBe("nosniff");
    expect(headers["x-frame-options"], where).toBe("SAMEORIGIN");
    expect(String(headers["referrer-policy"]), where).toMatch(/no-referrer/);
    expect(String(headers["strict-transport-security"]), where).toMatch(/max-age=\d+/);
    expect(headers["x-powered-by"], where).toBeUndefined();
  };

  it("hardens the app screens, API answers (success and error) and the login", async () => {
    const { user } = await buildUser(t.app.db.db, "admin");
    const { token } = (await login(user.email)).body;
    for (const url of ["/app/activities", "/app/clients/1/show"]) {
      const res = await t.app.inject({ method: "GET", url });
      expectHardened(res.headers, url);
    }
    expectHardened((await current(token)).headers, "API 200");
    expectHardened((await call(t.app, "GET", "/api/v1/clients")).headers, "API 401");
    expectHardened(
      (await call(t.app, "GET", "/api/v1/no-existe", undefined, { authorization: `Bearer ${token}` })).headers,
      "API 404",
    );
    expectHardened((await login(user.email, "mala")).headers, "login");
  });
});
