/**
 * PUT activities/import_activities_csv with the files Excel in Spanish saves (';', Windows-1252, CRLF,
 * dd/mm/aaaa, '9:00 a. m.'), the UTF-8 template with BOM, bad lines refused by number with nothing
 * answered or saved, and hostile uploads (too many rows, a giant cell, over UPLOAD_LIMIT_BYTES) answered
 * with a Spanish 4xx at once. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activities, activity_type_catalogs, projects } from "../../server/db/schema";
import { CSV_MAX_ROWS } from "../../server/modules/calendar_imports/csv";
import { ACTIVITY_TYPES } from "../../src/core/constants";
import type { LocalEvent } from "../../src/core/localEvent";
import { ACTIVITY_CSV_COLUMNS } from "../../src/core/schemas/activity";
import { zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { importWeekCsv } from "../support/catalog-factories";
import { type ApiClient, buildClient, buildProduct, signInAs } from "../support/factories";
import { underLoad } from "../support/timing";

const WEEK = "2031-03-17";
const UPLOAD_LIMIT = 2 * 1_048_576;
let t: TestApp;
let operator: ApiClient;
let employeeId: number;
let projectId: number;

const at = (date: string, minutes: number) => zonedTime(date, minutes).toISOString();
const put = (content: Buffer, filename = "semana.csv", contentType = "application/vnd.ms-excel") => {
  return importWeekCsv(t.app, operator.token, WEEK, content, filename, contentType);
};
const countMine = async () => {
  const [row] = await t.app.db.db.select({ n: count() }).from(activities).where(eq(activities.employee_id, employeeId));
  return row.n;
};
const excel = (rows: string[]) => `${[ACTIVITY_CSV_COLUMNS.join(";"), ...rows].join("\r\n")}\r\n`;
const cp1252 = (text: string) => Buffer.from(text, "latin1");

beforeAll(async () => {
  t = await buildTestApp({ UPLOAD_LIMIT_BYTES: String(UPLOAD_LIMIT) });
  const db = t.app.db.db;
  const op = await signInAs(t.app, "operator");
  operator = op.api;
  employeeId = (op.employee as { id: number }).id;
  await db
    .insert(activity_type_catalogs)
    .values(ACTIVITY_TYPES.map((a) => ({ code: a.code, name: a.name })))
    .onConflictDoNothing();
  const client = await buildClient(db, { name: "Cañada Logística" });
  const product = await buildProduct(db, { name: "Timbrado", product_code: "TIM" });
  const [project] = await db
    .insert(projects)
    .values({ project_code: "PRY-ÑU", name: "Portal de timbrado", client_id: client.id, product_catalog_id: product.id })
    .returning();
  projectId = project.id;
});
afterAll(() => t.close());

describe("PUT activities/import_activities_csv: Excel in Spanish", () => {
  const rows = [
    "17/03/2031;09:00 a. m.;11:00 a. m.;P;;PRY-ÑU;;DE;;Reunión de diseño",
    "17/03/2031;12:30 p. m.;1:00 p. m.;S;Cañada Logística;;Timbrado;ST;77;Atención: señal débil",
    '18/3/2031;9:00 p.m.;10:00 p.m.;AS;;;;AN;;"Revisión; con ; y\r\nsalto de línea"',
    "",
  ];

  it.each([
    ["Windows-1252", cp1252(excel(rows))],
    ["UTF-8 with BOM", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(excel(rows), "utf8")])],
  ])("reads the accents and the times right (%s); nothing is saved", async (_name, bytes) => {
    const before = await countMine();
    const res = await put(bytes);
    expect(res.status, res.text).toBe(200);
    const events = res.body.import_activities as LocalEvent[];
    expect(events.map((e) => [e.description, e.start, e.end, e.isValidate])).toEqual([
      ["Reunión de diseño", at(WEEK, 9 * 60), at(WEEK, 11 * 60), true],
      ["Atención: señal débil", at(WEEK, 12 * 60 + 30), at(WEEK, 13 * 60), true],
      ["Revisión; con ; y\r\nsalto de línea", at("2031-03-18", 21 * 60), at("2031-03-18", 22 * 60), true],
    ]);
    expect(events[0]).toMatchObject({ projectId });
    expect(events[1]).toMatchObject({ ticketId: "77" });
    expect(await countMine()).toBe(before);
  });

  it("a Windows-1252 file's bad lines are refused by number, field and reason; nothing is answered or saved", async () => {
    const before = await countMine();
    const res = await put(
      cp1252(
        excel([
          "17/03/2031;09:00;10:00;RH;;;;;;Capacitación",
          "31/02/2031;09:00;10:00;RH;;;;;;Fecha imposible",
          "17/03/2031;25:00;10:00;RH;;;;;;Hora imposible",
          "17/03/2031;10:00;09:00;RH;;;;;;Fin antes",
          "17/03/2031;10:00;11:00;RH",
        ]),
      ),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.base).toEqual([
      "Línea 3: fecha «31/02/2031»: no es una fecha válida (AAAA-MM-DD o DD/MM/AAAA)",
      "Línea 4: hora_inicio «25:00»: no es una hora válida (de 00:00 a 24:00, HH:MM o como 9:00 a. m.)",
      "Línea 5: la hora de fin debe ser posterior a la de inicio",
      "Línea 6: tiene 4 celdas y el encabezado 10; revise el separador y las comillas",
    ]);
    expect(res.body.import_activities).toBeUndefined();
    expect(await countMine()).toBe(before);
  });
});

describe("PUT activities/import_activities_csv: a bad first row", () => {
  it("is named with the other bad rows, as the template (',', UTF-8) and as Excel (';', Windows-1252)", async () => {
    const rows = [
      "31/02/2031,09:00,10:00,RH,,,,,,Primera mala",
      "17/03/2031,09:00,10:00,RH,,,,,,Bien",
      "17/03/2031,10:00,09:00,RH,,,,,,Fin antes",
    ];
    const template = Buffer.from(`${[ACTIVITY_CSV_COLUMNS.join(","), ...rows].join("\r\n")}\r\n`, "utf8");
    const expected = [
      "Línea 2: fecha «31/02/2031»: no es una fecha válida (AAAA-MM-DD o DD/MM/AAAA)",
      "Línea 4: la hora de fin debe ser posterior a la de inicio",
    ];
    for (const bytes of [template, cp1252(excel(rows.map((r) => r.replaceAll(",", ";"))))]) {
      const before = await countMine();
      const res = await put(bytes);
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors.base).toEqual(expected);
      expect(await countMine()).toBe(before);
    }
  });
});

describe("PUT activities/import_activities_csv: hostile uploads", () => {
  it("more rows than a week can save: a Spanish 422 at once", async () => {
    const line = "17/03/2031;09:00;10:00;RH;;;;;;x\r\n";
    const file = `${ACTIVITY_CSV_COLUMNS.join(";")}\r\n${line.repeat(Math.floor((UPLOAD_LIMIT - 1000) / line.length))}`;
    const started = performance.now();
    const res = await put(cp1252(file));
    expect(performance.now() - started).toBeLessThan(underLoad(3000));
    expect(res.status).toBe(422);
    expect(res.body.errors.base).toEqual([
      `El archivo tiene más de ${CSV_MAX_ROWS} actividades; una semana se importa con ${CSV_MAX_ROWS} como máximo`,
    ]);
  });

  it("a giant cell: a Spanish 422 naming its line and column", async () => {
    const res = await put(cp1252(excel([`17/03/2031;09:00;10:00;RH;;;;;;${"á".repeat(UPLOAD_LIMIT - 1000)}`])));
    expect(res.status).toBe(422);
    expect(res.body.errors.base).toEqual(["Línea 2: descripcion: es demasiado largo (máximo 2000 caracteres)"]);
  });

  it("a file over UPLOAD_LIMIT_BYTES: 413 in Spanish", async () => {
    const res = await put(cp1252(excel([`17/03/2031;09:00;10:00;RH;;;;;;${"a".repeat(UPLOAD_LIMIT + 10)}`])));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: "La solicitud es demasiado grande" });
  });

  it("binary garbage named .csv: a Spanish 422, never a 500", async () => {
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    const res = await put(garbage);
    expect(res.status).toBe(422);
    expect(res.body.errors.base[0]).toMatch(/^Faltan columnas en el encabezado|^Línea \d+:/);
  });
});
