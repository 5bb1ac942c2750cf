/**
 * Google Calendar, switched on with CALENDAR_ADAPTER=google and pointed at a local server that
 * speaks Calendar v3 and Google's token endpoint (tests/support/fake-google.ts):
 * - the week import through the real POST calendar_imports (source «google»): paging over several pages,
 *   the import rules unchanged (cancelled, free, all-day, outside the week), a refresh of the stored
 *   token (the refreshed one stored back, encrypted), a revoked token → «Google Token caducado», a
 *   provider failure → «Error al obtener eventos…»;
 * - quotation events created, moved and removed in the organizer's calendar through the quotations routes.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config";
import { users } from "../../server/db/schema";
import { decryptSecret, secretKey } from "../../server/http/secrets";
import { createCalendar, createCalendarReader } from "../../server/ports/calendar";
import { GoogleCalendar, instanceOfGoogleEvent } from "../../server/ports/calendar/google";
import { zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { buildProspect } from "../support/catalog-factories";
import { type ApiClient, buildProduct, call, signInAs } from "../support/factories";
import { FakeGoogle } from "../support/fake-google";

const WEEK = "2031-03-03"; // Monday
const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m).toISOString();
};

let fake: FakeGoogle;
let t: TestApp;
let operator: ApiClient;
let operatorUser: { id: number; email: string };

const googleEnv = () => ({
  CALENDAR_ADAPTER: "google",
  GOOGLE_CLIENT_ID: fake.clientId,
  GOOGLE_CLIENT_SECRET: fake.clientSecret,
  GOOGLE_API_ROOT_URL: fake.url,
  GOOGLE_OAUTH_TOKEN_URL: fake.tokenUrl,
});

const storedToken = async (userId: number) => {
  const [row] = await t.app.db.db.select({ token: users.cloud_token_encrypted }).from(users).where(eq(users.id, userId));
  return row.token ? decryptSecret(row.token, secretKey(t.app.config)) : null;
};
const saveToken = (api: ApiClient, token: string) => api.post("/api/v1/users/save_cloud_token", { token });
const importWeek = (api: ApiClient) => api.post("/api/v1/calendar_imports", { start_date: WEEK, source: "google" });
const eventsCalls = () => fake.calls.filter((c) => c.path === "/calendar/v3/calendars/primary/events" && c.method === "GET");

beforeAll(async () => {
  fake = await new FakeGoogle().start();
  fake.calendarPageSize = 2;
  t = await buildTestApp(googleEnv());
  const op = await signInAs(t.app, "operator");
  operator = op.api;
  operatorUser = op.user;
  const email = op.user.email;
  const event = (id: string, summary: string, start: string, end: string, extra = {}) =>
    fake.addEvent(email, { id, summary, start: { dateTime: start }, end: { dateTime: end }, ...extra });
  event("e1", "RH|Plática de bienestar", at(WEEK, "09:00"), at(WEEK, "10:00"), {
    organizer: { email: "jefe@empresa.mx" },
    hangoutLink: "https://meet.google.com/abc-defg-hij",
  });
  event("e2", "RH|Libre", at(WEEK, "11:00"), at(WEEK, "12:00"), { transparency: "transparent" });
  event("e3", "RH|Cancelada", at(WEEK, "12:00"), at(WEEK, "13:00"), { status: "cancelled" });
  fake.addEvent(email, { id: "e4", summary: "RH|Todo el día", start: { date: "2031-03-04" }, end: { date: "2031-03-05" } });
  for (const [i, day] of ["2031-03-05", "2031-03-06", "2031-03-07"].entries())
    event(`serie_${day.replace(/-/g, "")}T150000Z`, "AS|Junta semanal", at(day, "09:00"), at(day, "10:00"), {
      recurringEventId: "serie",
      originalStartTime: { dateTime: at(day, "09:00") },
      sequence: i,
    });
  event("e5", "RH|Otra semana", at("2031-03-11", "09:00"), at("2031-03-11", "10:00"));
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("week import from Google Calendar (CALENDAR_ADAPTER=google)", () => {
  it("refreshes the stored refresh token, pages through every page and keeps the import rules", async () => {
    const refreshToken = fake.addUser(operatorUser.email);
    expect((await saveToken(operator, refreshToken)).status).toBe(200);
    const before = eventsCalls().length;
    const res = await importWeek(operator);
    expect(res.status).toBe(200);
    // 6 events of the week (the cancelled one is not listed without showDeleted), 2 per page: 3 pages.
    const calls = eventsCalls().slice(before);
    expect(calls).toHaveLength(3);
    expect(calls[0].query.get("timeMin")).toBe(at(WEEK, "00:00"));
    expect(calls[0].query.get("timeMax")).toBe(new Date(Date.parse(at("2031-03-10", "00:00")) - 1).toISOString());
    expect(calls[0].query.get("singleEvents")).toBe("true");
    expect(calls[0].query.get("pageToken")).toBeNull();
    expect(calls[1].query.get("pageToken")).toBeTruthy();
    expect(fake.grants.filter((g) => g.grantType === "refresh_token" && g.ok)).toHaveLength(1);
    const events = res.body.events as Array<Record<string, unknown>>;
    expect(events.map((e) => e.summary)).toEqual([
      "RH|Plática de bienestar",
      "AS|Junta semanal",
      "AS|Junta semanal",
      "AS|Junta semanal",
    ]);
    expect(events[0]).toMatchObject({
      id: "e1",
      google_calendar_id: "e1",
      actionType: "rh",
      isValidate: true,
      start: at(WEEK, "09:00"),
      google_calendar_event: { organizer: "jefe@empresa.mx", hangoutLink: "https://meet.google.com/abc-defg-hij" },
    });
    expect(events[1]).toMatchObject({ id: "serie_20310305T150000Z", googleCId: "serie", isRecurring: true });
    // The refreshed credentials were stored back (encrypted): the next import does not refresh again.
    const stored = JSON.parse((await storedToken(operatorUser.id)) as string);
    expect(stored).toMatchObject({ refresh_token: refreshToken, access_token: expect.stringMatching(/^ya29\./) });
    expect((await importWeek(operator)).status).toBe(200);
    expect(fake.grants.filter((g) => g.grantType === "refresh_token" && g.ok)).toHaveLength(1);
  });

  it("maps Google's event shape: cancelled, transparent, all-day, series and conference link", () => {
    expect(
      instanceOfGoogleEvent({
        id: "serie_20310305T150000Z",
        status: "cancelled",
        transparency: "transparent",
        start: { date: "2031-03-05" },
        end: { date: "2031-03-06" },
        recurringEventId: "serie",
        conferenceData: { entryPoints: [{ entryPointType: "video", uri: "https://meet.google.com/xyz-abcd-efg" }] },
      }),
    ).toMatchObject({
      uid: "serie",
      instanceId: "serie_20310305T150000Z",
      seriesId: "serie",
      summary: "",
      cancelled: true,
      transparent: true,
      allDay: true,
      start: new Date(at("2031-03-05", "00:00")),
      hangoutLink: "https://meet.google.com/xyz-abcd-efg",
    });
    expect(instanceOfGoogleEvent({ id: "sin-inicio" })).toBeNull();
  });

  it("an expired access token is refreshed on Google's 401 and the import goes on", async () => {
    fake.expireAccessTokens();
    const before = fake.grants.length;
    const res = await importWeek(operator);
    expect(res.status).toBe(200);
    expect(res.body.events).toHaveLength(4);
    expect(fake.grants.slice(before).filter((g) => g.grantType === "refresh_token" && g.ok)).toHaveLength(1);
  });

  it("a revoked refresh token → 422 «Google Token caducado»", async () => {
    const { api, user } = await signInAs(t.app, "operator");
    const refreshToken = fake.addUser(user.email);
    await saveToken(api, refreshToken);
    fake.revoke(refreshToken);
    const res = await importWeek(api);
    expect(res.status).toBe(422);
    expect(res.body.errors.base).toEqual(["Google Token caducado"]);
    // An access token alone (no refresh token) that Google no longer takes: the same.
    const access = fake.issueAccessToken(user.email);
    await saveToken(api, access);
    fake.expireAccessTokens();
    const expired = await importWeek(api);
    expect(expired.status).toBe(422);
    expect(expired.body.errors.base).toEqual(["Google Token caducado"]);
  });

  it("Google failing (500) → 422 «Error al obtener eventos. Recargue la página o inicie sesión nuevamente»", async () => {
    fake.failCalendar(1);
    const res = await importWeek(operator);
    expect(res.status).toBe(422);
    expect(res.body.errors.base).toEqual(["Error al obtener eventos. Recargue la página o inicie sesión nuevamente"]);
    expect((await importWeek(operator)).status).toBe(200);
  });
});

describe("quotation events in the organizer's Google Calendar", () => {
  let admin: ApiClient;
  let adminUser: { id: number; email: string };
  let base: Record<string, unknown>;

  beforeAll(async () => {
    const signed = await signInAs(t.app, "admin");
    admin = signed.api;
    adminUser = signed.user;
    const product = await buildProduct(t.app.db.db, { name: "Timbrado Google" });
    const prospect = await buildProspect(t.app.db.db, { name: "Prospecto Calendario" });
    base = { contact_name: "Ana", prospect_id: prospect.id, product_catalog_id: product.id };
  });

  it("without a connected calendar the event is refused in Spanish (422) and nothing is saved", async () => {
    const res = await admin.post("/api/v1/quotations", {
      quotation: { ...base, event: { starts_at: "2031-03-04T16:00:00Z", attendees: ["eva@cliente.mx"] } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.base[0]).toMatch(/no ha conectado su Google Calendar/);
  });

  it("creates the event with its attendees, moves it (patch) and deletes it, answering Google's link", async () => {
    await saveToken(admin, fake.addUser(adminUser.email));
    const created = await admin.post("/api/v1/quotations", {
      quotation: { ...base, event: { starts_at: "2031-03-04T16:00:00Z", attendees: ["eva@cliente.mx"] } },
    });
    expect(created.body.errors).toBeUndefined();
    expect(created.status).toBe(201);
    const q = created.body.quotation;
    const [event] = fake.calendars.get(adminUser.email) ?? [];
    expect(event).toMatchObject({
      summary: "Demostración — Prospecto Calendario",
      start: { dateTime: "2031-03-04T16:00:00.000Z", timeZone: "America/Mexico_City" },
      end: { dateTime: "2031-03-04T17:00:00.000Z" },
      attendees: [{ email: "eva@cliente.mx", responseStatus: "needsAction" }],
    });
    expect(q.event_id).toBe(event.id);
    expect(q.event_url).toBe(event.htmlLink);
    expect(q.event_url).toMatch(/^https:\/\/www\.google\.com\/calendar\/event\?eid=/);
    const insert = fake.calls.find((c) => c.method === "POST" && c.path === "/calendar/v3/calendars/primary/events");
    expect(insert?.query.get("sendUpdates")).toBe("all");

    // Another user moves it: the event stays in its organizer's calendar.
    const other = await signInAs(t.app, "admin");
    await saveToken(other.api, fake.addUser(other.user.email));
    const moved = await other.api.put(`/api/v1/quotations/${q.id}`, {
      quotation: { event: { starts_at: "2031-03-05T17:00:00Z", duration_minutes: 30, attendees: ["luis@cliente.mx"] } },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.quotation.event_id).toBe(event.id);
    expect(moved.body.quotation.event.organizer.email).toBe(adminUser.email);
    expect(event).toMatchObject({
      start: { dateTime: "2031-03-05T17:00:00.000Z" },
      end: { dateTime: "2031-03-05T17:30:00.000Z" },
      attendees: [{ email: "luis@cliente.mx" }],
      sequence: 1,
    });
    expect(fake.calendars.get(other.user.email)).toEqual([]);

    const removed = await admin.put(`/api/v1/quotations/${q.id}`, { quotation: { event: null } });
    expect(removed.status).toBe(200);
    expect(removed.body.quotation).toMatchObject({ event: null, event_id: null, event_url: null });
    expect(event.status).toBe("cancelled");
  });

  it("an event already deleted in Google is not an error when SIA removes it", async () => {
    const created = await admin.post("/api/v1/quotations", {
      quotation: { ...base, event: { starts_at: "2031-03-06T16:00:00Z", attendees: [] } },
    });
    expect(created.status).toBe(201);
    const event = (fake.calendars.get(adminUser.email) ?? []).find((e) => e.id === created.body.quotation.event_id);
    if (event) event.status = "cancelled";
    const removed = await admin.put(`/api/v1/quotations/${created.body.quotation.id}`, { quotation: { event: null } });
    expect(removed.status).toBe(200);
  });
});

describe("«Conectar Google Calendar»: the authorization-code flow", () => {
  it("redirects to Google's consent page with a state cookie; the callback stores the tokens for the user", async () => {
    const { api, user } = await signInAs(t.app, "operator");
    const auth = { authorization: `Bearer ${api.token}` };
    const connect = await call(t.app, "GET", "/api/v1/google/connect", undefined, auth);
    expect(connect.status).toBe(302);
    const consent = new URL(String(connect.headers.location));
    expect(`${consent.origin}${consent.pathname}`).toBe("https://accounts.google.com/o/oauth2/v2/auth");
    const params = consent.searchParams;
    expect(params.get("client_id")).toBe(fake.clientId);
    expect(params.get("response_type")).toBe("code");
    expect(params.get("access_type")).toBe("offline");
    expect(params.get("scope")).toBe("https://www.googleapis.com/auth/calendar");
    expect(params.get("login_hint")).toBe(user.email);
    const redirectUri = params.get("redirect_uri") as string;
    expect(new URL(redirectUri).pathname).toBe("/api/v1/google/callback");
    const state = params.get("state") as string;
    const setCookie = String(connect.headers["set-cookie"]);
    expect(setCookie).toMatch(new RegExp(`^sia_google_state=${state};`));
    expect(setCookie).toMatch(/HttpOnly/i);
    const withState = { ...auth, cookie: `sia_google_state=${state}` };

    // A state that does not match the cookie (a forged link): refused, nothing stored.
    const code = fake.authorize(user.email, redirectUri);
    const forged = await call(t.app, "GET", `/api/v1/google/callback?code=${code}&state=otro`, undefined, withState);
    expect(forged.status).toBe(422);
    expect(forged.body.errors.base[0]).toMatch(/no es válida/);
    const noCookie = await call(t.app, "GET", `/api/v1/google/callback?code=${code}&state=${state}`, undefined, auth);
    expect(noCookie.status).toBe(422);
    expect(await storedToken(user.id)).toBeNull();

    const denied = await call(t.app, "GET", `/api/v1/google/callback?error=access_denied&state=${state}`, undefined, withState);
    expect(denied.status).toBe(302);
    expect(denied.headers.location).toBe("/app/activities?google=error");

    const back = await call(
      t.app,
      "GET",
      `/api/v1/google/callback?code=${encodeURIComponent(code)}&state=${state}`,
      undefined,
      withState,
    );
    expect(back.status).toBe(302);
    expect(back.headers.location).toBe("/app/activities?google=connected");
    const stored = JSON.parse((await storedToken(user.id)) as string);
    expect(stored).toMatchObject({
      refresh_token: expect.stringMatching(/^1\/\//),
      access_token: expect.stringMatching(/^ya29\./),
    });
    // The calendar now reads with it.
    const res = await importWeek(api);
    expect(res.status).toBe(200);
  });

  it("with the local calendar there is nothing to connect (Spanish 422)", async () => {
    const local = await buildTestApp();
    try {
      const { api } = await signInAs(local.app, "operator");
      const res = await call(local.app, "GET", "/api/v1/google/connect", undefined, { authorization: `Bearer ${api.token}` });
      expect(res.status).toBe(422);
      expect(res.body.errors.base[0]).toMatch(/No hay un servicio de Google Calendar configurado/);
      expect((await call(local.app, "GET", "/api/v1/google/connect")).status).toBe(401);
    } finally {
      await local.close();
    }
  });
});

describe("switched on by environment variables only", () => {
  it("CALENDAR_ADAPTER=google needs its OAuth client (Spanish config error); local answers no reader", async () => {
    expect(() => loadConfig({ CALENDAR_ADAPTER: "google" })).toThrow(
      /GOOGLE_CLIENT_ID: es obligatoria con CALENDAR_ADAPTER=google[\s\S]*GOOGLE_CLIENT_SECRET/,
    );
    const local = loadConfig({});
    expect((await createCalendar(local)).kind).toBe("local");
    expect(await createCalendarReader(local)).toBeNull();
    const google = loadConfig(googleEnv());
    expect((await createCalendar(google)).kind).toBe("google");
    expect((await createCalendarReader(google))?.kind).toBe("google");
  });

  it("check(): the OAuth client answers Google; a wrong secret is explained in Spanish", async () => {
    await expect((await createCalendarReader(loadConfig(googleEnv())))?.check()).resolves.toBeUndefined();
    const wrong = new GoogleCalendar({
      clientId: fake.clientId,
      clientSecret: "otro",
      rootUrl: fake.url,
      tokenUrl: fake.tokenUrl,
    });
    await expect(wrong.check()).rejects.toThrow(/Google no reconoce el cliente OAuth/);
  });
});
