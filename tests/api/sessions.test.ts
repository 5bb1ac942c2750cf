import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_VERSION } from "../../src/core/constants";
import { SESSION_COOKIE } from "../../src/core/session";
import { buildTestApp, type TestApp } from "../support/app";
import { buildUser, call, PASSWORD } from "../support/factories";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ LOGIN_MAX_FAILURES: "3" });
});
afterAll(() => t.close());

const cookieOf = (headers: Record<string, unknown>) => {
  const raw = headers["set-cookie"];
  const list = Array.isArray(raw) ? raw : [raw];
  return String(list.find((c) => String(c).startsWith(`${SESSION_COOKIE}=`)) ?? "");
};

describe("sessions", () => {
  it("signs in with e-mail and password: token, HttpOnly SameSite=Lax cookie, user with roles and employee", async () => {
    const { user, employee } = await buildUser(t.app.db.db, "finance");
    const res = await call(t.app, "POST", "/api/v1/sessions", { email: user.email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^thoth_[A-Za-z0-9_-]{40,}$/);
    expect(res.body.user).toEqual({
      id: user.id,
      name: user.name,
      email: user.email,
      administrator_role: false,
      operator_role: false,
      finance_role: true,
      can_chat: false,
      employee: expect.objectContaining({ id: employee?.id, name: employee?.name }),
    });
    // SPEC §7's calendar and realtime tokens: the realtime stream rides on this session; no calendar configured.
    expect(res.body.realtime).toEqual({ url: "/api/v1/realtime" });
    expect(res.body).not.toHaveProperty("google_calendar");
    const cookie = cookieOf(res.headers);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=31536000/);
    expect(cookie).toMatch(/Path=\//);
  });

  it("accepts sessions.json and the Rails-style {session: …} body", async () => {
    const { user } = await buildUser(t.app.db.db, "operator");
    const res = await call(t.app, "POST", "/api/v1/sessions.json", { session: { email: user.email, password: PASSWORD } });
    expect(res.status).toBe(200);
  });

  it("reads the current user by cookie or bearer token, and logout voids the old cookie", async () => {
    const { user } = await buildUser(t.app.db.db, "admin");
    const login = await call(t.app, "POST", "/api/v1/sessions", { email: user.email, password: PASSWORD });
    const cookieValue = cookieOf(login.headers).split(";")[0];
    const byCookie = await call(t.app, "GET", "/api/v1/sessions/current", undefined, { cookie: cookieValue });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body.user.email).toBe(user.email);
    const byBearer = await call(t.app, "GET", "/api/v1/sessions/current.json", undefined, {
      authorization: `Bearer ${login.body.token}`,
    });
    expect(byBearer.status).toBe(200);
    const out = await call(t.app, "DELETE", "/api/v1/sessions", undefined, { cookie: cookieValue });
    expect(out.status).toBe(200);
    const after = await call(t.app, "GET", "/api/v1/sessions/current", undefined, { cookie: cookieValue });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: "Sin Autenticación" });
  });

  it("refuses wrong credentials, unknown e-mails and inactive employees alike", async () => {
    const { user } = await buildUser(t.app.db.db, "operator");
    for (const body of [
      { email: user.email, password: "equivocada" },
      { email: "nadie@prueba.mx", password: PASSWORD },
      { email: "", password: "" },
      {},
      { email: ["x"], password: { $ne: 1 } },
    ]) {
      const res = await call(t.app, "POST", "/api/v1/sessions", body);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Credenciales Invalidas" });
    }
    const inactive = await buildUser(t.app.db.db, "operator");
    const { employees } = await import("../../server/db/schema");
    const { eq } = await import("drizzle-orm");
    await t.app.db.db.update(employees).set({ is_active: false }).where(eq(employees.user_id, inactive.user.id));
    expect((await call(t.app, "POST", "/api/v1/sessions", { email: inactive.user.email, password: PASSWORD })).status).toBe(401);
  });

  it("rate-limits repeated failures per e-mail with a Spanish 429, across processes (in the database)", async () => {
    const { user } = await buildUser(t.app.db.db, "operator");
    for (let i = 0; i < 3; i++) {
      expect((await call(t.app, "POST", "/api/v1/sessions", { email: user.email, password: "mal" })).status).toBe(401);
    }
    const limited = await call(t.app, "POST", "/api/v1/sessions", { email: user.email, password: PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(/Demasiados intentos/);
  });

  it("refuses unsafe requests from another origin, accepts its own", async () => {
    const { user } = await buildUser(t.app.db.db, "admin");
    const foreign = await call(
      t.app,
      "POST",
      "/api/v1/sessions",
      { email: user.email, password: PASSWORD },
      { origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ error: "Origen de la solicitud no permitido" });
    const own = await call(
      t.app,
      "POST",
      "/api/v1/sessions",
      { email: user.email, password: PASSWORD },
      { origin: "http://localhost:80", host: "localhost:80" },
    );
    expect(own.status).toBe(200);
  });

  it("never answers 500 for malformed input, and hides faults", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/sessions",
      payload: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: "El cuerpo de la solicitud no es un JSON válido" });
    const huge = await t.app.inject({
      method: "POST",
      url: "/api/v1/sessions",
      payload: JSON.stringify({ email: "x".repeat(2_000_000) }),
      headers: { "content-type": "application/json" },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toBe("La solicitud es demasiado grande");
  });

  it("answers 404 in Spanish for unknown API routes, and /healthz once the database answers", async () => {
    const { user } = await buildUser(t.app.db.db, "admin");
    const login = await call(t.app, "POST", "/api/v1/sessions", { email: user.email, password: PASSWORD });
    const res = await call(t.app, "GET", "/api/v1/no_existe", undefined, { authorization: `Bearer ${login.body.token}` });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("La ruta solicitada no existe");
    const health = await call(t.app, "GET", "/healthz");
    expect(health.body).toEqual({ status: "ok", version: APP_VERSION });
  });
});

describe("error handler", () => {
  it("logs a real fault and answers 500 without leaking it", async () => {
    const { build } = await import("../../server/app");
    const { loadConfig } = await import("../../server/config");
    const app = await build({ config: loadConfig({ LOG_LEVEL: "silent", SIA_DEMO: "0" }), database: t.database, logger: false });
    app.get("/boom", async () => {
      throw new Error("secreto interno en /srv/sia/db.ts:42");
    });
    const res = await app.inject({ method: "GET", url: "/boom" });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toMatch(/secreto|db\.ts|stack/);
    expect(res.json()).toEqual({ error: "Hubo un error inesperado. Favor de contactar al administrador del sistema" });
  });
});

describe("sessions with Google Calendar configured", () => {
  it("say whether the user's calendar is connected, never the token itself", async () => {
    const google = await buildTestApp({
      CALENDAR_ADAPTER: "google",
      GOOGLE_CLIENT_ID: "cliente",
      GOOGLE_CLIENT_SECRET: "secreto",
    });
    try {
      const { user } = await buildUser(google.app.db.db, "operator");
      const first = await call(google.app, "POST", "/api/v1/sessions", { email: user.email, password: PASSWORD });
      expect(first.body.google_calendar).toEqual({ connected: false });
      const saved = await call(
        google.app,
        "POST",
        "/api/v1/users/save_cloud_token",
        { token: "1//refresh-token-de-prueba", google_id: "g-1" },
        { authorization: `Bearer ${first.body.token}` },
      );
      expect(saved.status).toBe(200);
      const again = await call(google.app, "POST", "/api/v1/sessions", { email: user.email, password: PASSWORD });
      expect(again.body.google_calendar).toEqual({ connected: true });
      expect(again.text).not.toContain("refresh-token-de-prueba");
    } finally {
      await google.close();
    }
  });
});
