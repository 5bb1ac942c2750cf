/**
 * The activity report (GET activities/reporting_activities.csv) and the rules every CSV of the product
 * shares: one streaming writer, BOM, Spanish headers, formulas neutralised, opened by LibreOffice.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { selectBatches } from "../../server/db/cursor";
import { activities, projects } from "../../server/db/schema";
import { csvCell, csvStream, formatCell, toCsv } from "../../server/http/csv";
import { reportCsvStream, reportLines } from "../../server/modules/reports/report";
import { reportMessages } from "../../src/core/messages";
import { reportFilterSchema } from "../../src/core/schemas/report";
import { addDays, businessToday, zonedTime } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { buildEmployee } from "../support/catalog-factories";
import { type ApiClient, buildClient, buildClientGroup, buildProduct, buildWorkspace, signInAs } from "../support/factories";

const HEADER =
  "Empleado,Cliente / Prospecto,Código de proyecto,Proyecto,Producto,Tipo de acción,Tipo de actividad,Ticket,Fecha,Inicio,Fin,Horas,Descripción";
const FORMULAS = ["=1+1", "+SUMA(A1)", "-2+3", "@cmd", "\tTabulador", "\rRetorno"];
const WEEK = { start_date: "2025-03-03", end_date: "2025-03-09" };

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let finance: ApiClient;
let me: { id: number; name: string };
let colleague: { id: number; name: string };
let outsider: { id: number; name: string };
let group: { id: number };
let inGroup: { id: number; name: string };
let excludedClient: { id: number; name: string };
let elsewhere: { id: number; name: string };
let workspace: { id: number };
let project: { id: number; project_code: string };

const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m);
};
async function activity(
  employeeId: number,
  date: string,
  from: string,
  to: string,
  extra: Partial<typeof activities.$inferInsert>,
) {
  await t.app.db.db.insert(activities).values({
    employee_id: employeeId,
    begins_at: at(date, from),
    ends_at: at(date, to),
    description: "Actividad",
    action_type: "support",
    ...extra,
  });
}
const lines = (text: string) =>
  text
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
const parse = (text: string) => Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: true }).data;
const query = (params: Record<string, string | number>) =>
  `/api/v1/activities/reporting_activities.csv?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
const report = (api: ApiClient, params: Record<string, string | number>) => api.get(query({ ...WEEK, ...params }));
const descriptions = (text: string) =>
  parse(text)
    .slice(1)
    .map((row) => row[12]);

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.app.db.db;
  admin = (await signInAs(t.app, "admin")).api;
  const op = await signInAs(t.app, "operator");
  operator = op.api;
  me = op.employee as { id: number; name: string };
  finance = (await signInAs(t.app, "finance")).api;
  workspace = await buildWorkspace(db);
  colleague = await buildEmployee(db, { name: "Zoé Ñúñez", workspace_id: workspace.id });
  outsider = await buildEmployee(db, { name: "Otro Espacio" });
  await db.execute(sql`update employees set workspace_id = ${workspace.id}, name = 'Ana Operadora' where id = ${me.id}`);
  group = await buildClientGroup(db);
  inGroup = await buildClient(db, { name: "Cliente del Grupo", client_group_id: group.id });
  excludedClient = await buildClient(db, { name: "Cliente Excluible", client_group_id: group.id });
  elsewhere = await buildClient(db, { name: "Cliente Suelto" });
  const product = await buildProduct(db, { name: "Nómina" });
  [project] = await db
    .insert(projects)
    .values({ project_code: "REP-1", name: "Implementación Año", client_id: inGroup.id, product_catalog_id: product.id })
    .returning();
  // Mine: on the group's project (client through the project), 1.5 h; and one the week after (out of range).
  await activity(me.id, "2025-03-03", "09:00", "10:30", {
    action_type: "project",
    project_id: project.id,
    product_catalog_id: product.id,
    description: "Diseño de la migración — año fiscal",
    ticket_id: "T-77",
  });
  await activity(me.id, "2025-03-10", "09:00", "10:00", { description: "Fuera del rango" });
  // The colleague's, on the client that can be excluded, with formula-like descriptions.
  for (const [i, text] of FORMULAS.entries()) {
    await activity(colleague.id, "2025-03-04", `0${i + 1}:00`, `0${i + 1}:30`, {
      ownerable_type: "Client",
      ownerable_id: excludedClient.id,
      description: text,
    });
  }
  await activity(outsider.id, "2025-03-05", "12:00", "13:15", {
    ownerable_type: "Client",
    ownerable_id: elsewhere.id,
    description: "Ajeno al grupo",
  });
});
afterAll(() => t?.close());

describe("reporting_activities.csv", () => {
  it("a project's report: BOM, Spanish headers, fixed file name, formats", async () => {
    const res = await report(admin, { current_filter: "project", project_id: project.id });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/csv; charset=utf-8/);
    expect(res.headers["content-disposition"]).toBe('attachment; filename="reporte_actividades_2025-03-03_2025-03-09.csv"');
    expect(res.text.startsWith(`\uFEFF${HEADER}\r\n`)).toBe(true);
    expect(parse(res.text).slice(1)).toEqual([
      [
        "Ana Operadora",
        "Cliente del Grupo",
        "REP-1",
        "Implementación Año",
        "Nómina",
        "Proyecto",
        "",
        "T-77",
        "2025-03-03",
        "09:00",
        "10:30",
        "1.50",
        "Diseño de la migración — año fiscal",
      ],
    ]);
  });

  it("a client, an employee; sorted by employee then start", async () => {
    const client = await report(admin, { current_filter: "client", client_id: excludedClient.id });
    expect(descriptions(client.text)).toEqual(FORMULAS.map((f) => `'${f}`));
    const employee = await report(admin, { current_filter: "employee", employee_id: outsider.id });
    expect(descriptions(employee.text)).toEqual(["Ajeno al grupo"]);
    expect(parse(employee.text)[1].slice(8, 12)).toEqual(["2025-03-05", "12:00", "13:15", "1.25"]);
  });

  it("a client group, with excluded clients; a workspace, with excluded employees", async () => {
    const all = await report(admin, { current_filter: "client_group", client_group_id: group.id });
    expect(descriptions(all.text)).toEqual(["Diseño de la migración — año fiscal", ...FORMULAS.map((f) => `'${f}`)]);
    const minus = await report(admin, {
      current_filter: "client_group",
      client_group_id: group.id,
      excluded_ids: `${excludedClient.id}`,
    });
    expect(descriptions(minus.text)).toEqual(["Diseño de la migración — año fiscal"]);
    const space = await report(admin, { current_filter: "workspace", workspace_id: workspace.id });
    expect(
      parse(space.text)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(["Ana Operadora", ...FORMULAS.map(() => "Zoé Ñúñez")]);
    const spaceMinus = await report(admin, {
      current_filter: "workspace",
      workspace_id: workspace.id,
      excluded_ids: `${colleague.id}`,
    });
    expect(descriptions(spaceMinus.text)).toEqual(["Diseño de la migración — año fiscal"]);
    // Exclusions mean nothing for the other kinds.
    const project_ = await report(admin, { current_filter: "project", project_id: project.id, excluded_ids: `${inGroup.id}` });
    expect(descriptions(project_.text)).toHaveLength(1);
  });

  it("the messages of SPEC §5, as a 422", async () => {
    const noItem = await report(admin, { current_filter: "client" });
    expect(noItem.status).toBe(422);
    expect(noItem.body.errors.id).toEqual([reportMessages.selectItem.client]);
    expect(noItem.body.errors.id).toEqual(["Por favor seleccione un cliente antes de descargar"]);
    const group_ = await report(admin, { current_filter: "client_group", client_id: 5 });
    expect(group_.body.errors.id).toEqual(["Por favor seleccione un Grupo de cliente antes de descargar"]);
    const noDates = await admin.get(query({ current_filter: "project", project_id: project.id, start_date: "2025-03-03" }));
    expect(noDates.status).toBe(422);
    expect(noDates.body.errors.end_date).toEqual(["Por favor seleccione las fechas de inicio y fin."]);
    const badDate = await admin.get(
      query({ current_filter: "project", project_id: project.id, start_date: "2025-02-30", end_date: "2025-03-01" }),
    );
    expect(badDate.body.errors.start_date).toEqual(["Por favor seleccione las fechas de inicio y fin."]);
    const reversed = await admin.get(
      query({ current_filter: "project", project_id: project.id, start_date: "2025-03-09", end_date: "2025-03-03" }),
    );
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors.start_date).toEqual(["La fecha de inicio no puede ser posterior a la fecha de fin."]);
    // Nothing after today (Mexico City): the screen's pickers stop there, and the route refuses it alike.
    const today = businessToday();
    const tomorrow = await admin.get(
      query({ current_filter: "project", project_id: project.id, start_date: "2025-03-03", end_date: addDays(today, 1) }),
    );
    expect(tomorrow.status).toBe(422);
    expect(tomorrow.body.errors.end_date).toEqual(["La fecha de fin no puede ser posterior a hoy."]);
    const untilToday = await admin.get(
      query({ current_filter: "project", project_id: project.id, start_date: "2025-03-03", end_date: today }),
    );
    expect(untilToday.status).toBe(200);
    const kind = await report(admin, { current_filter: "planeta", project_id: 1 });
    expect(kind.status).toBe(422);
    expect(kind.body.errors.current_filter).toEqual([reportMessages.selectKind]);
    // The screen parses with the same schema.
    const form = reportFilterSchema.safeParse({ current_filter: "employee", start_date: "", end_date: "" });
    expect(form.success).toBe(false);
    expect(form.error?.issues.map((i) => i.message)).toEqual([reportMessages.selectItem.employee, reportMessages.selectDates]);
  });

  it("per role: an Operador gets only their own activities whatever they ask; Finanzas reads all", async () => {
    const other = await report(operator, { current_filter: "employee", employee_id: colleague.id });
    expect(other.status).toBe(200);
    expect(descriptions(other.text)).toEqual(["Diseño de la migración — año fiscal"]);
    const space = await report(operator, { current_filter: "workspace", workspace_id: workspace.id });
    expect(descriptions(space.text)).toEqual(["Diseño de la migración — año fiscal"]);
    const theirs = await report(operator, { current_filter: "client", client_id: excludedClient.id });
    expect(lines(theirs.text)).toEqual([HEADER]);
    const fin = await report(finance, { current_filter: "workspace", workspace_id: workspace.id });
    expect(descriptions(fin.text)).toHaveLength(1 + FORMULAS.length);
    const anonymous = await t.app.inject({
      method: "GET",
      url: query({ current_filter: "project", project_id: project.id, ...WEEK }),
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("every CSV route: streamed, BOM, formulas neutralised", () => {
  const FORMULA_START = /^[=+\-@\t\r]/;
  const assertSafe = (text: string) => {
    expect(text.startsWith("\uFEFF")).toBe(true);
    for (const row of parse(text)) for (const cell of row) expect(cell).not.toMatch(FORMULA_START);
  };

  it("activities.csv, download_personal_report.csv, projects.csv, clients.csv and the format files", async () => {
    const db = t.app.db.db;
    await db.insert(projects).values({ project_code: "REP-2", name: "@Proyecto peligroso", client_id: elsewhere.id });
    await buildClient(db, { name: "-Cliente con guion" });
    const range = "by_begins_at[start_date]=2025-03-03&by_begins_at[end_date]=2025-03-09";
    const all = await admin.get(`/api/v1/activities.csv?${range}&by_employee=todos`);
    expect(lines(all.text)[0]).toBe(HEADER);
    expect(descriptions(all.text)).toEqual(expect.arrayContaining(FORMULAS.map((f) => `'${f}`)));
    assertSafe(all.text);
    const personal = await operator.get(`/api/v1/activities/download_personal_report.csv?${range}`);
    expect(descriptions(personal.text)).toEqual(["Diseño de la migración — año fiscal"]);
    assertSafe(personal.text);
    const reportCsv = await report(admin, { current_filter: "client", client_id: excludedClient.id });
    assertSafe(reportCsv.text);
    const projectsCsv = await admin.get("/api/v1/projects.csv?per_page=all");
    expect(projectsCsv.text).toContain("'@Proyecto peligroso");
    assertSafe(projectsCsv.text);
    const clientsCsv = await admin.get("/api/v1/clients.csv");
    expect(clientsCsv.text).toContain("'-Cliente con guion");
    assertSafe(clientsCsv.text);
    assertSafe((await operator.get("/api/v1/activities/download_csv_format")).text);
    assertSafe((await admin.get("/api/v1/holydays/download_holydays_format")).text);
  });

  it("a bad list parameter is a Spanish 422 before anything is streamed", async () => {
    const res = await admin.get("/api/v1/activities.csv?by_column[column]=nada");
    expect(res.status).toBe(422);
    expect(res.headers["content-type"]).toMatch(/json/);
  });

  it("joined lists: the cell and each item are neutralised", () => {
    // The list is joined as it is; the cell's neutralisation reaches each item after its ', '.
    expect(formatCell(["bien", "=1+1", "@x"])).toBe("bien, =1+1, @x");
    expect(csvCell(formatCell(["bien", "=1+1", "@x"]))).toBe(`"bien, '=1+1, '@x"`);
    const csv = toCsv([{ header: "Lista", value: (r: { l: string[] }) => r.l }], [{ l: ["=HOY()", "ok"] }]);
    expect(csv).toBe('\uFEFFLista\r\n"\'=HOY(), ok"\r\n');
  });
});

describe("the writer streams", () => {
  it("100,000 generated rows: chunks leave before the source ends", async () => {
    const total = 100_000;
    let produced = 0;
    async function* rows() {
      for (let i = 0; i < total; i++) {
        produced++;
        yield { n: i, text: i % 2 ? "=malo" : "año" };
      }
    }
    const stream = csvStream(
      [
        { header: "Número", value: (r: { n: number }) => r.n },
        { header: "Texto", value: (r: { text: string }) => r.text },
      ],
      rows(),
    );
    let chunks = 0;
    let producedAtFirstRows = -1;
    let bytes = 0;
    let newlines = 0;
    for await (const chunk of stream) {
      chunks++;
      if (chunks === 2) producedAtFirstRows = produced;
      bytes += chunk.length;
      newlines += (chunk.toString().match(/\r\n/g) ?? []).length;
    }
    expect(producedAtFirstRows).toBeGreaterThan(0);
    // The writer reads ahead only what fills its 64 KiB buffer (~12,000 short rows here), never the whole source.
    expect(producedAtFirstRows).toBeLessThan(total / 5);
    expect(chunks).toBeGreaterThan(10);
    expect(newlines).toBe(total + 1);
    expect(bytes).toBeGreaterThan(total * 5);
  });

  it("the database source reads in batches and closes its cursor when the reader stops early", async () => {
    const filter = { kind: "client" as const, id: excludedClient.id, ...WEEK };
    const seen: string[] = [];
    for await (const chunk of reportLines(t.app.db, filter, { grant: "all" }, 2)) {
      seen.push(...parse(chunk.toString()).map((row) => row[12]));
      if (seen.length >= 4) break;
    }
    // PGlite: the lines of a piece of ids, the reader stopped after the fourth; PostgreSQL: COPY's first chunk.
    expect(seen.slice(0, 4)).toEqual(FORMULAS.slice(0, 4).map((f) => `'${f}`));
    const open = await t.app.db.rows<{ n: number }>(
      sql`select count(*)::int as n from pg_cursors where name like 'sia_cursor_%'`,
    );
    expect(open[0].n).toBe(0);
    // A client that goes away mid-download: destroying the stream closes the cursor too.
    const stream = reportCsvStream(t.app.db, filter, { grant: "all" }, 1);
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve) => {
      stream.once("data", (chunk: Buffer) => {
        chunks.push(chunk);
        resolve();
      });
    });
    stream.destroy();
    await vi.waitFor(async () => {
      // PGlite: the WITH HOLD cursor is gone; PostgreSQL: the cursor's connection is back in the pool, idle.
      const pool = t.app.db.pool;
      if (pool) expect(pool.idleCount).toBe(pool.totalCount);
      const left = await t.app.db.rows<{ n: number }>(
        sql`select count(*)::int as n from pg_cursors where name like 'sia_cursor_%'`,
      );
      expect(left[0].n).toBe(0);
    });
    const body = Buffer.concat(await reportCsvStream(t.app.db, filter).toArray()).toString("utf8");
    expect(lines(body)).toHaveLength(1 + FORMULAS.length);
  });
});

describe("selectBatches (drizzle's internal row mapping, pinned)", () => {
  it("gives exactly the rows `await select` gives: timestamps as Date, dates as strings, computed columns", async () => {
    const db = t.app.db.db;
    await db.update(projects).set({ project_date: "2025-02-28" }).where(sql`${projects.id} = ${project.id}`);
    const select = () =>
      db
        .select({
          id: activities.id,
          begins_at: activities.begins_at,
          project_date: sql<
            string | null
          >`(select ${projects.project_date} from ${projects} where ${projects.id} = ${activities.project_id})`,
          description: activities.description,
        })
        .from(activities)
        .orderBy(activities.id);
    const expected = await select();
    const batches: unknown[][] = [];
    for await (const batch of selectBatches(t.app.db, select(), 3)) batches.push(batch);
    expect(batches.flat()).toEqual(expected);
    expect(batches.length).toBe(Math.ceil(expected.length / 3));
    expect(expected[0].begins_at).toBeInstanceOf(Date);
    expect(expected.find((r) => r.project_date)?.project_date).toBe("2025-02-28");
    const projectRows = () => db.select().from(projects).orderBy(projects.id);
    const all: unknown[] = [];
    for await (const batch of selectBatches(t.app.db, projectRows(), 2)) all.push(...batch);
    expect(all).toEqual(await projectRows());
  });
});

const SOFFICE = "/usr/bin/soffice";
const hasSoffice = fs.existsSync(SOFFICE);

describe("LibreOffice opens every CSV", () => {
  it.skipIf(!hasSoffice)(
    "every CSV route converted headless (es-MX): accents intact, =1+1 stays text, hours and dates are numbers (skipped without /usr/bin/soffice)",
    async () => {
      const res = await report(admin, { current_filter: "client_group", client_group_id: group.id });
      const range = "by_begins_at[start_date]=2025-03-03&by_begins_at[end_date]=2025-03-09";
      // Every other CSV route, with an accented text each must keep.
      const others: Record<string, { body: string; accent: string }> = {
        actividades: { body: (await admin.get(`/api/v1/activities.csv?${range}&by_employee=todos`)).text, accent: "Zoé Ñúñez" },
        personal: {
          body: (await operator.get(`/api/v1/activities/download_personal_report.csv?${range}`)).text,
          accent: "Diseño de la migración — año fiscal",
        },
        proyectos: { body: (await admin.get("/api/v1/projects.csv?per_page=all")).text, accent: "Implementación Año" },
        clientes: { body: (await admin.get("/api/v1/clients.csv")).text, accent: "Razón social" },
        formato_actividades: {
          body: (await operator.get("/api/v1/activities/download_csv_format")).text,
          accent: "Desarrollo del módulo",
        },
        formato_festivos: { body: (await admin.get("/api/v1/holydays/download_holydays_format")).text, accent: "Año Nuevo" },
      };
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-soffice-"));
      try {
        // A control file without escaping proves LibreOffice would evaluate the formula.
        fs.writeFileSync(path.join(dir, "reporte.csv"), res.text);
        fs.writeFileSync(path.join(dir, "control.csv"), "\uFEFFValor\r\n=1+1\r\n");
        for (const [name, { body }] of Object.entries(others)) fs.writeFileSync(path.join(dir, `${name}.csv`), body);
        // CSV filter: comma, double quote, UTF-8 (76), from line 1, default formats, es-MX (2058), detect numbers.
        const filter = "CSV:44,34,76,1,,2058,false,true";
        await promisify(execFile)(
          SOFFICE,
          [
            `-env:UserInstallation=file://${dir}/profile`,
            "--headless",
            `--infilter=${filter}`,
            "--convert-to",
            "fods",
            "--outdir",
            dir,
            path.join(dir, "reporte.csv"),
            path.join(dir, "control.csv"),
            ...Object.keys(others).map((name) => path.join(dir, `${name}.csv`)),
          ],
          { timeout: 120_000 },
        );
        const control = fs.readFileSync(path.join(dir, "control.fods"), "utf8");
        expect(control).toMatch(/table:formula="of:=1\+1"[^>]*office:value-type="float"[^>]*office:value="2"/);
        const xml = fs.readFileSync(path.join(dir, "reporte.fods"), "utf8");
        expect(xml).toContain("<text:p>Descripción</text:p>");
        expect(xml).toContain("<text:p>Diseño de la migración — año fiscal</text:p>");
        expect(xml).toContain("<text:p>Zoé Ñúñez</text:p>");
        expect(xml).not.toContain("table:formula");
        expect(xml).toMatch(/office:value-type="string"[^>]*>\s*<text:p>&apos;=1\+1<\/text:p>/);
        expect(xml).toMatch(/office:value-type="float" office:value="1.5"/);
        expect(xml).toMatch(/office:value-type="date" office:date-value="2025-03-03"/);
        for (const [name, { accent }] of Object.entries(others)) {
          const converted = fs.readFileSync(path.join(dir, `${name}.fods`), "utf8");
          expect(converted, name).toContain(`<text:p>${accent}</text:p>`);
          expect(converted, name).not.toContain("table:formula");
        }
        const activitiesXml = fs.readFileSync(path.join(dir, "actividades.fods"), "utf8");
        expect(activitiesXml).toMatch(/office:value-type="string"[^>]*>\s*<text:p>&apos;=1\+1<\/text:p>/);
        expect(activitiesXml).toMatch(/office:value-type="float" office:value="0.5"/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    150_000,
  );
});
