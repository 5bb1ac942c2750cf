/**
 * Formulas hidden after a separator: a description 'Revisión;=2+3;@SUM(9*9)' was written unquoted, and a
 * spreadsheet whose list separator is ';' (Excel in Spanish) split it into cells that evaluate. Every CSV
 * the product writes (activities.csv, the personal report, reporting_activities.csv — these three lines
 * written by PostgreSQL —, projects.csv and clients.csv, written in JS) is read here with ',' and with ';'
 * (and tab), quotes honoured or ignored: no cell may start a formula. A file SIA wrote and the CSV import
 * read back gives the very descriptions. Runs on PGlite, and on PostgreSQL with DATABASE_URL (CI does both).
 */
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activities, projects } from "../../server/db/schema";
import { type CsvColumn, toCsv } from "../../server/http/csv";
import type { LocalEvent } from "../../src/core/localEvent";
import { ACTIVITY_CSV_COLUMNS } from "../../src/core/schemas/activity";
import { zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { importWeekCsv } from "../support/catalog-factories";
import { type ApiClient, buildClient, signInAs } from "../support/factories";

const DANGEROUS = [
  "Revisión;=2+3;@SUM(9*9)",
  "Nota, =1+1",
  "Lista;-2+3; +SUMA(A1)",
  "Tab;\t=cmd",
  'Comillas;"=HIPERVINCULO(1)',
  "Líneas\r\n=1+1\n@x",
  "'=ya escapada;'@dos",
];
const WEEK = "2025-03-03";
let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let clientId: number;

const FORMULA_START = /^[=+\-@\t\r]/;
/** What a spreadsheet would see: leading spaces and quote marks do not stop a formula. */
const startsFormula = (cell: string) => FORMULA_START.test(cell.replace(/^[ "]*/, ""));

/** The file read by a spreadsheet splitting on `delimiter`, honouring quotes (LibreOffice, Excel). */
const cellsOf = (text: string, delimiter: string) =>
  (Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { delimiter, newline: "\r\n" }).data as string[][]).flat();

function expectNoFormula(name: string, text: string) {
  expect(text.startsWith("\uFEFF"), name).toBe(true);
  for (const delimiter of [",", ";", "\t"]) {
    for (const cell of cellsOf(text, delimiter))
      expect(startsFormula(cell), `${name} (${JSON.stringify(delimiter)}): ${JSON.stringify(cell)}`).toBe(false);
  }
  // A reader that ignores quotes altogether and splits on every separator and line break.
  for (const piece of text.replace(/^\uFEFF/, "").split(/[,;\t\r\n]/))
    expect(startsFormula(piece), `${name} (sin comillas): ${JSON.stringify(piece)}`).toBe(false);
}

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.app.db.db;
  admin = (await signInAs(t.app, "admin")).api;
  const op = await signInAs(t.app, "operator");
  operator = op.api;
  const employeeId = (op.employee as { id: number }).id;
  const client = await buildClient(db, { name: DANGEROUS[0] });
  clientId = client.id;
  await db.insert(projects).values({ project_code: "CSV-1", name: DANGEROUS[2], client_id: client.id });
  for (const [i, description] of DANGEROUS.entries()) {
    await db.insert(activities).values({
      employee_id: employeeId,
      begins_at: zonedTime(WEEK, (8 + i) * 60),
      ends_at: zonedTime(WEEK, (8 + i) * 60 + 30),
      action_type: "support",
      ownerable_type: "Client",
      ownerable_id: client.id,
      ticket_id: DANGEROUS[(i + 1) % DANGEROUS.length].slice(0, 40),
      description,
    });
  }
});
afterAll(() => t?.close());

describe("CSV downloads: no formula after a ',' or a ';'", () => {
  it("every CSV download, read with ',' and with ';', has no cell starting a formula", async () => {
    const range = `by_begins_at[start_date]=${WEEK}&by_begins_at[end_date]=2025-03-09`;
    const downloads: Record<string, string> = {
      "activities.csv": (await admin.get(`/api/v1/activities.csv?${range}&by_employee=todos`)).text,
      "download_personal_report.csv": (await operator.get(`/api/v1/activities/download_personal_report.csv?${range}`)).text,
      "reporting_activities.csv": (
        await admin.get(
          `/api/v1/activities/reporting_activities.csv?start_date=${WEEK}&end_date=2025-03-09&current_filter=client&client_id=${clientId}`,
        )
      ).text,
      "projects.csv": (await admin.get("/api/v1/projects.csv?per_page=all")).text,
      "clients.csv": (await admin.get("/api/v1/clients.csv")).text,
      download_csv_format: (await operator.get("/api/v1/activities/download_csv_format")).text,
    };
    for (const [name, text] of Object.entries(downloads)) {
      expectNoFormula(name, text);
    }
    // The texts are there, read with ',' as written: one cell each, only apostrophes added.
    for (const name of ["activities.csv", "download_personal_report.csv", "reporting_activities.csv"]) {
      expect(cellsOf(downloads[name], ","), name).toEqual(
        expect.arrayContaining(["Revisión;'=2+3;'@SUM(9*9)", "Nota, '=1+1", "Lista;'-2+3; '+SUMA(A1)"]),
      );
    }
    expect(cellsOf(downloads["clients.csv"], ",")).toContain("Revisión;'=2+3;'@SUM(9*9)");
    expect(cellsOf(downloads["projects.csv"], ",")).toContain("Lista;'-2+3; '+SUMA(A1)");
  });
});

describe("a file SIA wrote, imported again", () => {
  it("gives back the very descriptions", async () => {
    const columns: CsvColumn<Record<string, string>>[] = ACTIVITY_CSV_COLUMNS.map((c) => ({ header: c, value: (r) => r[c] }));
    const rows = DANGEROUS.map((description, i) => ({
      fecha: "2025-03-04",
      hora_inicio: `${10 + i}:00`,
      hora_fin: `${10 + i}:30`,
      tipo: "RH",
      cliente_o_prospecto: "",
      codigo_proyecto: "",
      producto: "",
      tipo_actividad: "",
      ticket: "",
      descripcion: description,
    }));
    const file = toCsv(columns, rows);
    expectNoFormula("formato", file);
    const res = await importWeekCsv(t.app, operator.token, WEEK, Buffer.from(file, "utf8"), "semana.csv", "text/csv");
    expect(res.status, res.text).toBe(200);
    expect((res.body.import_activities as LocalEvent[]).map((e) => e.description)).toEqual(DANGEROUS);
  });
});
