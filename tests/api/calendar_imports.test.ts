/**
 * Timesheet imports: POST calendar_imports with a Google-exported .ics (VTIMEZONE, a weekly
 * RRULE with an EXDATE and a moved instance, cancelled, free and all-day events, events outside the week,
 * every title format, accents), PUT activities/import_activities_csv, and the whole flow validate → batch
 * → batch again (no duplicates), recurring memory, and the all-or-nothing save.
 */
import fs from "node:fs";
import path from "node:path";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../server/app";
import { activities, activity_type_catalogs, app_settings, calendar_mappings, projects, prospects } from "../../server/db/schema";
import type { CalendarInstance, CalendarRange, CalendarReader } from "../../server/ports/calendar";
import { localEventToActivity } from "../../src/core/activity";
import { ACTIVITY_TYPES, VACATION_DESCRIPTION } from "../../src/core/constants";
import type { LocalEvent } from "../../src/core/localEvent";
import { messages } from "../../src/core/messages";
import { ACTIVITY_CSV_COLUMNS } from "../../src/core/schemas/activity";
import { zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { multipart, rawRequest } from "../support/catalog-factories";
import { type ApiClient, buildClient, buildProduct, buildUser, call, signIn, signInAs } from "../support/factories";
import { allowFutureActivities } from "../support/future";

const ICS = fs.readFileSync(path.join(import.meta.dirname, "..", "fixtures", "semana-google.ics"));
const WEEK = "2031-03-03"; // Monday
const NEXT_WEEK = "2031-03-10";

let t: TestApp;
let operator: ApiClient;
let me: { id: number; userId: number };
let typeIds: Record<string, number>;
let project: { id: number };
let client: { id: number };
let product: { id: number };
let prospect: { id: number };

const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m).toISOString();
};

const importIcs = (
  api: ApiClient,
  fields: Record<string, string>,
  file: { filename?: string; contentType?: string; content?: Buffer | string } = {},
) => {
  const body = multipart(
    {
      filename: file.filename ?? "calendario.ics",
      contentType: file.contentType ?? "text/calendar",
      content: file.content ?? ICS,
    },
    fields,
  );
  return rawRequest(t.app, api.token, "POST", "/api/v1/calendar_imports", body.payload, body.headers);
};
const importCsv = (api: ApiClient, date: string, content: string, filename = "semana.csv", contentType = "text/csv") => {
  const body = multipart({ filename, contentType, content });
  return rawRequest(t.app, api.token, "PUT", `/api/v1/activities/import_activities_csv?date=${date}`, body.payload, body.headers);
};
const countMine = async () => {
  const [row] = await t.app.db.db.select({ n: count() }).from(activities).where(eq(activities.employee_id, me.id));
  return row.n;
};

beforeAll(async () => {
  t = await buildTestApp();
  // Its fixtures log weeks years ahead (fixed dates that stay on the weekdays they name).
  await allowFutureActivities(t.app);
  const db = t.app.db.db;
  const op = await signInAs(t.app, "operator");
  operator = op.api;
  me = { id: (op.employee as { id: number }).id, userId: op.user.id };
  await db
    .insert(activity_type_catalogs)
    .values(ACTIVITY_TYPES.map((a) => ({ code: a.code, name: a.name })))
    .onConflictDoNothing();
  typeIds = Object.fromEntries(
    (await db.select({ id: activity_type_catalogs.id, code: activity_type_catalogs.code }).from(activity_type_catalogs)).map(
      (r) => [r.code, r.id],
    ),
  );
  client = await buildClient(db, { name: "Cañada Logística" });
  const own = await buildClient(db, { name: "Empresa Propia" });
  product = await buildProduct(db, { name: "Timbrado", product_code: "TIM" });
  await buildProduct(db, { name: "SIA", product_code: "SIA-X", is_selectable: false });
  [prospect] = await db.insert(prospects).values({ name: "Prospecto Médico" }).returning();
  [project] = await db
    .insert(projects)
    .values({ project_code: "PRY-ICS", name: "Portal de timbrado", client_id: client.id, product_catalog_id: product.id })
    .returning();
  await db
    .insert(app_settings)
    .values({ id: 1, default_customer_id: own.id })
    .onConflictDoUpdate({ target: app_settings.id, set: { default_customer_id: own.id } });
});
afterAll(() => t.close());

describe("POST calendar_imports (.ics)", () => {
  it("answers exactly the week's importable events, parsed and resolved; nothing is saved", async () => {
    const before = await countMine();
    const res = await importIcs(operator, { start_date: WEEK });
    expect(res.status).toBe(200);
    const events = res.body.events as LocalEvent[];
    expect(events.map((e) => [e.start, e.summary, e.isValidate])).toEqual([
      [at("2031-03-03", "09:00"), "P|PRY-ICS|DE|Daily de desarrollo", true],
      [at("2031-03-03", "15:00"), "P|PRY-ICS|Faltan partes", false],
      [at("2031-03-04", "10:00"), "S|CAÑADA logistica|Timbrado|ST|Revisión de timbres", true],
      [at("2031-03-04", "16:00"), "Sincronización semanal del equipo", false],
      [at("2031-03-05", "12:00"), "PC|Prospecto Medico|TIM|Demo del producto", true],
      [at("2031-03-06", "09:00"), "AS|AN|Junta de planeación", true],
      [at("2031-03-06", "12:00"), "RH|Curso de inducción", true],
      [at("2031-03-06", "16:00"), "P|PRY-404|DE|Proyecto inexistente", false],
      [at("2031-03-07", "11:00"), "P|PRY-ICS|DE|Daily de desarrollo (movida)", true],
      [at("2031-03-07", "16:00"), "AS|DE|Revisión de código", true],
      [at("2031-03-09", "23:00"), "Comida familiar", false],
    ]);
    // Not there: the EXDATE Wednesday, the moved instance's original 09:00, the cancelled, the free and the
    // all-day events, the events outside the week (before, after, next Monday 00:00), the duplicate copy.
    const [daily, parts, support, sync, quote, planning, rh, missing, moved] = events;
    expect(daily).toMatchObject({
      actionType: "project",
      projectId: project.id,
      project_code: "PRY-ICS",
      clientId: client.id,
      productId: product.id,
      activityTypeCatalogId: typeIds.DE,
      description: "Daily de desarrollo",
      isRecurring: true,
      googleCId: "daily-desarrollo-7f3a@google.com",
      google_calendar_id: "daily-desarrollo-7f3a@google.com_20310303T150000Z",
      importKey: "daily-desarrollo-7f3a@google.com_20310303T150000Z",
      isintoSia: false,
      google_calendar_event: { organizer: "ana.lopez@empresa.mx", hangoutLink: "https://meet.google.com/abc-defg-hij" },
      errors: [],
    });
    expect(daily.end).toBe(at("2031-03-03", "09:30"));
    // The moved instance keeps the id of its original start (re-importing after a move creates nothing new).
    expect(moved.google_calendar_id).toBe("daily-desarrollo-7f3a@google.com_20310307T150000Z");
    expect(moved.googleCId).toBe(daily.googleCId);
    expect(parts).toMatchObject({ actionType: "internal", isValidate: false });
    expect(parts.errors?.[0]).toMatch(/necesita 4 partes/);
    expect(support).toMatchObject({
      actionType: "support",
      clientId: client.id,
      ownerableType: "Client",
      productId: product.id,
      activityTypeCatalogId: typeIds.ST,
    });
    expect(support.google_calendar_event).toEqual({ organizer: "soporte@empresa.mx", hangoutLink: null });
    expect(sync).toMatchObject({ actionType: "internal", isRecurring: true, googleCId: "sincronizacion-equipo-91b2@google.com" });
    expect(quote).toMatchObject({ actionType: "quote", clientId: prospect.id, ownerableType: "Prospect", productId: product.id });
    expect(quote.google_calendar_event?.hangoutLink).toBe("https://meet.google.com/xyz-abcd-efg");
    expect(planning).toMatchObject({
      actionType: "internal",
      activityTypeCatalogId: typeIds.AN,
      isRecurring: false,
      googleCId: null,
    });
    expect(rh).toMatchObject({ actionType: "rh", description: "Curso de inducción" });
    expect(missing.errors).toEqual(["No se encontró el proyecto «PRY-404»"]);
    expect(await countMine()).toBe(before);
  });

  it("day: only that day's events", async () => {
    const res = await importIcs(operator, { start_date: WEEK, day: "2031-03-07" });
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: LocalEvent) => e.description)).toEqual(["Daily de desarrollo (movida)", "Revisión de código"]);
    const outside = await importIcs(operator, { start_date: WEEK, day: "2031-03-11" });
    expect(outside.status).toBe(422);
    expect(outside.body.errors.day).toEqual(["El día elegido no pertenece a la semana a importar"]);
  });

  it("start_date may be any day of the week (fields after the file too)", async () => {
    const body = multipart({ filename: "c.ics", contentType: "text/calendar", content: ICS });
    // fields after the file part: rebuild with the field last
    const boundary = body.headers["content-type"].split("boundary=")[1];
    const payload = Buffer.concat([
      body.payload.subarray(0, body.payload.length - `--${boundary}--\r\n`.length),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="start_date"\r\n\r\n2031-03-05\r\n--${boundary}--\r\n`),
    ]);
    const res = await rawRequest(t.app, operator.token, "POST", "/api/v1/calendar_imports", payload, body.headers);
    expect(res.status).toBe(200);
    expect(res.body.events).toHaveLength(11);
  });

  it("a bad file, no file or no week answer a Spanish 422", async () => {
    const txt = await importIcs(operator, { start_date: WEEK }, { filename: "notas.txt", contentType: "text/plain" });
    expect(txt.status).toBe(422);
    expect(txt.body.errors.base).toEqual(["Archivo no válido o no seleccionado."]);
    const empty = await importIcs(operator, { start_date: WEEK }, { content: "" });
    expect(empty.body.errors.base).toEqual(["Archivo no válido o no seleccionado."]);
    const garbage = await importIcs(operator, { start_date: WEEK }, { content: "esto no es un calendario" });
    expect(garbage.status).toBe(422);
    expect(garbage.body.errors.base).toEqual([
      "El archivo no es un calendario .ics válido: no tiene ningún BEGIN:VCALENDAR … END:VCALENDAR completo",
    ]);
    const noFile = multipart(undefined, { start_date: WEEK });
    const none = await rawRequest(t.app, operator.token, "POST", "/api/v1/calendar_imports", noFile.payload, noFile.headers);
    expect(none.status).toBe(422);
    expect(none.body.errors.base).toEqual(["Archivo no válido o no seleccionado."]);
    const noWeek = await importIcs(operator, {});
    expect(noWeek.status).toBe(422);
    expect(noWeek.body.errors.start_date).toEqual(["Indique la semana a importar (start_date)"]);
    const badWeek = await importIcs(operator, { start_date: "2026-02-30" });
    expect(badWeek.status).toBe(422);
    expect(badWeek.body.errors.start_date).toEqual([messages.invalidDate]);
  });

  it("source google without a configured adapter: a clear Spanish 422", async () => {
    const res = await operator.post("/api/v1/calendar_imports", { start_date: WEEK, source: "google" });
    expect(res.status).toBe(422);
    expect(res.body.errors.base[0]).toMatch(/No hay un servicio de Google Calendar configurado/);
  });

  it("source google reads through the CalendarReader port with the user's saved token, same rules", async () => {
    const calls: Array<{ token: string; range: CalendarRange }> = [];
    const instance = (id: string, summary: string, start: string, end: string, extra: Partial<CalendarInstance> = {}) => ({
      uid: id,
      instanceId: id,
      seriesId: null,
      summary,
      start: new Date(start),
      end: new Date(end),
      allDay: false,
      cancelled: false,
      transparent: false,
      organizer: "jefe@empresa.mx",
      hangoutLink: null,
      ...extra,
    });
    const fake: CalendarReader = {
      kind: "fake",
      check: async () => {},
      async listInstances(token, range) {
        calls.push({ token, range });
        return [
          instance("g1", "RH|Plática de bienestar", at("2031-03-04", "09:00"), at("2031-03-04", "10:00")),
          instance("g1", "RH|Plática de bienestar", at("2031-03-04", "09:00"), at("2031-03-04", "10:00")),
          instance("g2", "RH|Cancelada", at("2031-03-04", "11:00"), at("2031-03-04", "12:00"), { cancelled: true }),
          instance("g3", "RH|Libre", at("2031-03-04", "12:00"), at("2031-03-04", "13:00"), { transparent: true }),
          instance("g4", "RH|Todo el día", at("2031-03-04", "00:00"), at("2031-03-05", "00:00"), { allDay: true }),
          instance("g5", "RH|Otra semana", at("2031-03-11", "09:00"), at("2031-03-11", "10:00")),
        ];
      },
    };
    const google = await build({ config: t.app.config, database: t.database, logger: false, calendarReader: fake });
    await google.ready();
    try {
      const op = await signInAs(google, "operator");
      const api = await signIn(google, op.user.email);
      const post = (payload: unknown) =>
        call(google, "POST", "/api/v1/calendar_imports", payload, { authorization: `Bearer ${api.token}` });
      const noToken = await post({ start_date: WEEK, source: "google" });
      expect(noToken.status).toBe(422);
      expect(noToken.body.errors.base[0]).toMatch(/No ha guardado el token de Google Calendar/);
      const saved = await call(
        google,
        "POST",
        "/api/v1/users/save_cloud_token",
        { token: "ya29.token-de-prueba" },
        { authorization: `Bearer ${api.token}` },
      );
      expect(saved.status).toBe(200);
      const res = await post({ start_date: WEEK, source: "google" });
      expect(res.status).toBe(200);
      expect(calls.at(-1)?.token).toBe("ya29.token-de-prueba");
      expect(calls.at(-1)?.range.start.toISOString()).toBe(at(WEEK, "00:00"));
      expect(res.body.events).toHaveLength(1);
      expect(res.body.events[0]).toMatchObject({
        id: "g1",
        actionType: "rh",
        isValidate: true,
        google_calendar_id: "g1",
        google_calendar_event: { organizer: "jefe@empresa.mx", hangoutLink: null },
      });
    } finally {
      await google.close();
    }
  });

  it("no session → 401; a user without an employee → 422", async () => {
    const body = multipart({ filename: "c.ics", contentType: "text/calendar", content: ICS }, { start_date: WEEK });
    const anonymous = await call(t.app, "POST", "/api/v1/calendar_imports", body.payload, body.headers);
    expect(anonymous.status).toBe(401);
    const { user } = await buildUser(t.app.db.db, "finance", {}, false);
    const lonely = await signIn(t.app, user.email);
    const res = await importIcs(lonely, { start_date: WEEK });
    expect(res.status).toBe(422);
    expect(res.body.errors.base).toEqual(["Favor de ponerse en contacto con RH para que lo den de alta como empleado"]);
  });
});

/** The employee fixes what did not parse, as the browser does before saving. */
function fixed(events: LocalEvent[]): LocalEvent[] {
  return events.map((e) => {
    if (e.isValidate) return e;
    if (e.summary === "Sincronización semanal del equipo")
      return { ...e, actionType: "project", projectId: project.id, activityTypeCatalogId: typeIds.PY, isValidate: true };
    return { ...e, actionType: "internal", description: e.description || e.summary, isValidate: true };
  });
}

describe("validate → batch → batch again (idempotent), recurring memory", () => {
  let saved: LocalEvent[];

  it("imports a week, fixes it, saves it once; saving again creates nothing", async () => {
    const before = await countMine();
    const res = await importIcs(operator, { start_date: WEEK });
    saved = fixed(res.body.events);
    const body = { activities: saved.map((e) => localEventToActivity(e)) };
    const validate = await operator.post("/api/v1/activities/validate", body);
    expect(validate.status, JSON.stringify(validate.body)).toBe(200);
    expect(await countMine()).toBe(before); // validating writes nothing
    const first = await operator.post("/api/v1/activities/batch", body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ created: 11, existing: 0 });
    expect(await countMine()).toBe(before + 11);
    const again = await operator.post("/api/v1/activities/batch", body);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: 0, existing: 11 });
    expect(await countMine()).toBe(before + 11);
    const [stored] = await t.app.db.db
      .select()
      .from(activities)
      .where(
        and(
          eq(activities.employee_id, me.id),
          eq(activities.google_calendar_id, "daily-desarrollo-7f3a@google.com_20310303T150000Z"),
        ),
      );
    expect(stored.google_calendar_event).toEqual({
      organizer: "ana.lopez@empresa.mx",
      hangoutLink: "https://meet.google.com/abc-defg-hij",
    });
  });

  it("re-importing the saved week marks every event as already in SIA, and re-saving it creates nothing", async () => {
    const res = await importIcs(operator, { start_date: WEEK });
    expect(res.body.events.every((e: LocalEvent) => e.isintoSia)).toBe(true);
    const before = await countMine();
    const again = await operator.post("/api/v1/activities/batch", {
      activities: fixed(res.body.events).map((e) => localEventToActivity(e)),
    });
    expect(again.body).toMatchObject({ created: 0, existing: 11 });
    expect(await countMine()).toBe(before);
  });

  it("remembers how a recurring series was mapped: next week's instance arrives valid", async () => {
    const [memory] = await t.app.db.db
      .select()
      .from(calendar_mappings)
      .where(
        and(eq(calendar_mappings.user_id, me.userId), eq(calendar_mappings.series_key, "sincronizacion-equipo-91b2@google.com")),
      );
    expect(memory.mapping).toMatchObject({ actionType: "project", projectId: project.id, activityTypeCatalogId: typeIds.PY });
    const res = await importIcs(operator, { start_date: NEXT_WEEK });
    expect(res.status).toBe(200);
    const sync = (res.body.events as LocalEvent[]).find((e) => e.summary === "Sincronización semanal del equipo");
    expect(sync).toMatchObject({
      start: at("2031-03-11", "16:00"),
      isValidate: true,
      actionType: "project",
      projectId: project.id,
      project_code: "PRY-ICS",
      activityTypeCatalogId: typeIds.PY,
      description: "Sincronización semanal del equipo",
      errors: [],
    });
    // A single (non-recurring) event is never remembered: the invalid P of last week had no series.
    const next = (res.body.events as LocalEvent[]).map((e) => e.summary);
    expect(next).toContain("RH|Fuera de la semana (después)");
  });

  it("a batch whose last item fails at insert time leaves the table unchanged (one transaction)", async () => {
    const db = t.app.db.db;
    await db.execute(sql`create or replace function sia_test_fail() returns trigger language plpgsql as $$
      begin if new.description = 'FALLA AL INSERTAR' then raise exception 'falla simulada'; end if; return new; end $$`);
    await db.execute(sql`create trigger sia_test_fail before insert on activities for each row execute function sia_test_fail()`);
    try {
      const before = await countMine();
      const day = "2031-03-18";
      const list = [
        {
          begins_at: at(day, "09:00"),
          ends_at: at(day, "10:00"),
          action_type: "internal",
          description: "Primera",
          import_key: "crash-1",
        },
        {
          begins_at: at(day, "10:00"),
          ends_at: at(day, "11:00"),
          action_type: "rh",
          description: "Segunda",
          import_key: "crash-2",
        },
        {
          begins_at: at(day, "11:00"),
          ends_at: at(day, "12:00"),
          action_type: "internal",
          description: "FALLA AL INSERTAR",
          import_key: "crash-3",
        },
      ];
      expect((await operator.post("/api/v1/activities/validate", { activities: list })).status).toBe(200);
      const res = await operator.post("/api/v1/activities/batch", { activities: list });
      // The simulated crash: the database refuses the third row after the first two were inserted.
      expect(res.status).toBe(500);
      expect(await countMine()).toBe(before);
      const keys = await db.select({ n: count() }).from(activities).where(sql`${activities.import_key} like 'crash-%'`);
      expect(keys[0].n).toBe(0);
    } finally {
      await db.execute(sql`drop trigger sia_test_fail on activities`);
    }
  });
});

describe("PUT activities/import_activities_csv", () => {
  const CSV_WEEK = "2031-03-17";
  const header = ACTIVITY_CSV_COLUMNS.join(",");
  const good = [
    header,
    "2031-03-17,09:00,11:00,P,,PRY-ICS,,DE,,Desarrollo del módulo",
    "2031-03-17,11:00,12:00,S,cañada logistica,,Timbrado,ST,1234,Atención de incidencia",
    "2031-03-18,09:00,10:00,PC,Prospecto Médico,,TIM,,,Demo",
    "2031-03-18,10:00,11:00,AS,,,,AN,,Junta",
    "2031-03-18,11:00,12:00,RH,,,,,,Curso",
    "2031-03-19,09:00,18:00,V,,,,,,",
    "2031-03-20,09:00,10:00,P,,PRY-404,,DE,,Proyecto que no existe",
    "",
  ].join("\r\n");

  it("answers one local event per row, resolved like calendar titles; nothing is saved", async () => {
    const before = await countMine();
    const res = await importCsv(operator, CSV_WEEK, `\uFEFF${good}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body.import_activities as LocalEvent[];
    expect(rows.map((e) => [e.actionType, e.isValidate])).toEqual([
      ["project", true],
      ["support", true],
      ["quote", true],
      ["internal", true],
      ["rh", true],
      ["vacation", true],
      ["project", false],
    ]);
    expect(rows[0]).toMatchObject({
      start: at(CSV_WEEK, "09:00"),
      end: at(CSV_WEEK, "11:00"),
      projectId: project.id,
      activityTypeCatalogId: typeIds.DE,
    });
    expect(rows[1]).toMatchObject({ clientId: client.id, productId: product.id, ticketId: "1234" });
    expect(rows[2]).toMatchObject({ clientId: prospect.id, ownerableType: "Prospect" });
    expect(rows[5].description).toBe(VACATION_DESCRIPTION);
    expect(rows[6].errors).toEqual(["No se encontró el proyecto «PRY-404»"]);
    expect(rows[0].importKey).toMatch(/^csv-[0-9a-f]{40}$/);
    expect(new Set(rows.map((r) => r.importKey)).size).toBe(7);
    expect(await countMine()).toBe(before);
  });

  it("saving the imported rows twice creates them once", async () => {
    const res = await importCsv(operator, CSV_WEEK, good);
    const valid = (res.body.import_activities as LocalEvent[]).filter((e) => e.isValidate);
    const body = { activities: valid.map((e) => localEventToActivity(e)) };
    const before = await countMine();
    const first = await operator.post("/api/v1/activities/batch", body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.created).toBe(6);
    const reimported = await importCsv(operator, CSV_WEEK, good);
    const again = (reimported.body.import_activities as LocalEvent[]).filter((e) => e.isValidate);
    expect(again.every((e) => e.isintoSia)).toBe(true);
    const second = await operator.post("/api/v1/activities/batch", { activities: again.map((e) => localEventToActivity(e)) });
    expect(second.body).toMatchObject({ created: 0, existing: 6 });
    expect(await countMine()).toBe(before + 6);
  });

  it("not a CSV → 'Archivo no válido o no seleccionado.'", async () => {
    for (const [filename, type, content] of [
      ["semana.txt", "text/plain", good],
      ["semana.csv", "application/pdf", good],
      ["semana.csv", "text/csv", ""],
    ] as const) {
      const res = await importCsv(operator, CSV_WEEK, content, filename, type);
      expect(res.status).toBe(422);
      expect(res.body.errors.base).toEqual(["Archivo no válido o no seleccionado."]);
    }
    const noFile = multipart(undefined, {});
    const none = await rawRequest(
      t.app,
      operator.token,
      "PUT",
      `/api/v1/activities/import_activities_csv?date=${CSV_WEEK}`,
      noFile.payload,
      noFile.headers,
    );
    expect(none.body.errors.base).toEqual(["Archivo no válido o no seleccionado."]);
  });

  it("takes a .csv that the browser sends as application/octet-stream", async () => {
    const res = await importCsv(operator, CSV_WEEK, good, "semana.csv", "application/octet-stream");
    expect(res.status).toBe(200);
    expect(res.body.import_activities.length).toBeGreaterThan(0);
  });

  it("every bad line is listed together, and nothing is answered or saved", async () => {
    const before = await countMine();
    const bad = [
      header,
      "2031-03-17,09:00,10:00,P,,PRY-ICS,,DE,,Bien",
      "2031-02-30,09:00,10:00,P,,PRY-ICS,,DE,,Fecha mal",
      "18/03/2031,9:00,10:00,RH,,,,,,Fecha como la escribe una hoja de cálculo",
      "2031-03-24,09:00,10:00,RH,,,,,,Otra semana",
      "2031-03-18,10:00,09:00,XX,,,,,,Tipo y horas mal",
    ].join("\n");
    const res = await importCsv(operator, CSV_WEEK, bad);
    expect(res.status).toBe(422);
    expect(res.body.errors.base).toEqual([
      "Línea 3: fecha «2031-02-30»: no es una fecha válida (AAAA-MM-DD o DD/MM/AAAA)",
      "Línea 5: la fecha está fuera de la semana del 17/03/2031 al 23/03/2031",
      "Línea 6: la hora de fin debe ser posterior a la de inicio; tipo «XX»: debe ser P, S, PC, AS, RH o V",
    ]);
    const columns = await importCsv(operator, CSV_WEEK, "fecha,descripcion\n2031-03-17,x");
    expect(columns.status).toBe(422);
    expect(columns.body.errors.base[0]).toMatch(/^Faltan columnas en el encabezado: hora_inicio/);
    expect(await countMine()).toBe(before);
  });

  it("no session → 401", async () => {
    const body = multipart({ filename: "s.csv", contentType: "text/csv", content: good });
    const res = await call(t.app, "PUT", `/api/v1/activities/import_activities_csv?date=${CSV_WEEK}`, body.payload, body.headers);
    expect(res.status).toBe(401);
  });
});
