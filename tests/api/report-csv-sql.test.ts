/**
 * The activity CSV lines PostgreSQL writes (activityCsvLine) are byte for byte what the JS writer wrote from
 * the same rows before: the reference below is that writer's column list — the driver's Date,
 * the Mexico City offset per UTC hour, hoursBetween and formatHours, csvCell of formatCell through toCsv —
 * run on tricky data. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activities, activity_type_catalogs, products, projects, prospects } from "../../server/db/schema";
import { type CsvColumn, toCsv } from "../../server/http/csv";
import { ACTIVITY_REPORT_HEADERS, reportCsvStream } from "../../server/modules/reports/report";
import { ACTION_LABELS, type ActionType } from "../../src/core/constants";
import { hoursBetween } from "../../src/core/hours";
import { wallClock } from "../../src/core/week";
import { buildTestApp, type TestApp } from "../support/app";
import { buildEmployee } from "../support/catalog-factories";
import { buildClient, buildWorkspace, signInAs } from "../support/factories";

interface RawRow {
  id: number;
  ownerable_type: string | null;
  employee_name: string | null;
  ownerable_name: string | null;
  project_code: string | null;
  project_name: string | null;
  product_name: string | null;
  action_type: string;
  activity_type_code: string | null;
  ticket_id: string | null;
  begins_at: Date | string;
  ends_at: Date | string;
  description: string | null;
}

// The JS writer's columns as they were (server/modules/reports/report.ts before the lines moved to SQL).
const offsetByHour = new Map<number, number>();
function localIso(value: Date | string): string {
  const ms = typeof value === "string" ? Date.parse(value) : value.getTime();
  const hour = Math.floor(ms / 3_600_000);
  let offset = offsetByHour.get(hour);
  if (offset === undefined) {
    const wall = wallClock(new Date(hour * 3_600_000));
    offset = Date.parse(`${wall.date}T00:00:00Z`) + wall.minutes * 60_000 - hour * 3_600_000;
    offsetByHour.set(hour, offset);
  }
  return new Date(ms + offset).toISOString();
}
const toMs = (value: Date | string) => (typeof value === "string" ? Date.parse(value) : value.getTime());
const formatHours = (hours: number) => hours.toFixed(2);
const hoursOf = (r: RawRow) => hoursBetween(new Date(toMs(r.begins_at)), new Date(toMs(r.ends_at)));
const JS_COLUMNS: CsvColumn<RawRow>[] = [
  { header: "Empleado", value: (r) => r.employee_name },
  { header: "Cliente / Prospecto", value: (r) => r.ownerable_name },
  { header: "Código de proyecto", value: (r) => r.project_code },
  { header: "Proyecto", value: (r) => r.project_name },
  { header: "Producto", value: (r) => r.product_name },
  { header: "Tipo de acción", value: (r) => ACTION_LABELS[r.action_type as ActionType] ?? r.action_type },
  { header: "Tipo de actividad", value: (r) => r.activity_type_code },
  { header: "Ticket", value: (r) => r.ticket_id },
  { header: "Fecha", value: (r) => localIso(r.begins_at).slice(0, 10) },
  { header: "Inicio", value: (r) => localIso(r.begins_at).slice(11, 16) },
  { header: "Fin", value: (r) => localIso(r.ends_at).slice(11, 16) },
  { header: "Horas", value: (r) => formatHours(hoursOf(r)) },
  { header: "Descripción", value: (r) => r.description },
];

const TRICKY = [
  "simple",
  'di "hola"',
  "a,b",
  "línea 1\nlínea 2",
  "l1\r\nl2",
  "solo\rCR",
  "=1+1",
  "+52 55 1234",
  "-3",
  "@cmd",
  "\tTabulador",
  "\rRetorno",
  '="a,b"',
  " espacio inicial",
  "espacio final ",
  " ",
  "",
  "ñandú, año — acción",
  "emoji 🎉👩🏽‍💻",
  "medio\uFEFFbom", // (a leading U+FEFF: PGlite's text decoder dropped it from the JS rows; the SQL line keeps it)
  "comilla'simple",
  "medio = igual",
  "tab\tdentro",
  "barra \\ invertida, \\n sin salto",
  "C:\\ruta\\",
  "control\b\f\v",
  "x".repeat(150),
  // Formulas after a separator of either kind (Excel in Spanish splits on ';'), apostrophes already there.
  "Revisión;=2+3;@SUM(9*9)",
  "a, -1; +2\t@x",
  "'=ya",
  "''@dos",
  "x;\r\n=1",
  'a; "=1',
  "=a;=b,=c\t=d\n=e\r=f",
];
// Instants (UTC) around Mexico City's DST history (DST from 1996 to 2022, none since), with lengths whose
// hundredths of an hour round half up (18 s is exactly half a hundredth) and odd milliseconds.
const TIMES: [string, string][] = [
  ["2025-03-03T15:00:00Z", "2025-03-03T15:20:00Z"],
  ["2025-03-03T16:00:00Z", "2025-03-03T16:40:00Z"],
  ["2025-03-03T17:00:00Z", "2025-03-03T17:50:00Z"],
  ["2025-03-03T18:00:00Z", "2025-03-03T18:01:00Z"],
  ["2025-03-03T18:10:00Z", "2025-03-03T18:10:18Z"],
  ["2025-03-03T18:20:00Z", "2025-03-03T18:20:17.999Z"],
  ["2025-03-03T18:30:00.250Z", "2025-03-03T18:50:00.123Z"],
  ["2025-03-03T19:00:00Z", "2025-03-03T20:30:54Z"],
  ["2025-03-04T05:30:00Z", "2025-03-04T06:10:00Z"], // crosses local midnight (23:30 → 00:10)
  ["2015-04-05T07:30:00Z", "2015-04-05T08:30:00Z"], // DST starts 02:00 local
  ["2015-10-25T06:30:00Z", "2015-10-25T07:30:00Z"], // DST ends 02:00 CDT → 01:00 CST
  ["2022-10-30T06:00:00Z", "2022-10-30T08:00:00Z"], // the last DST end
  ["2022-04-03T07:59:00Z", "2022-04-03T08:01:00Z"],
  ["2023-04-02T07:30:00Z", "2023-04-02T09:00:00Z"], // no DST any more
  ["1999-12-31T23:59:59.999Z", "2000-01-01T06:00:00.001Z"],
  ["2025-03-05T00:00:00Z", "2025-03-12T00:20:00Z"], // a week long
];

let t: TestApp;
let workspaceId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.app.db.db;
  workspaceId = (await buildWorkspace(db)).id;
  const [prospect] = await db.insert(prospects).values({ name: '"Prospecto", =SUMA' }).returning();
  const [type] = await db.insert(activity_type_catalogs).values({ code: "=DE", name: "Desarrollo" }).returning();
  const actions = Object.keys(ACTION_LABELS);
  let n = 0;
  for (const [i, text] of TRICKY.entries()) {
    const employee = await buildEmployee(db, { name: i % 5 === 4 ? "Mismo Nombre" : `${text} ${i}`, workspace_id: workspaceId });
    const client = await buildClient(db, { name: text || "Cliente vacío" });
    const [product] = await db
      .insert(products)
      .values({ product_code: `PX${i}`, name: text || " " })
      .returning();
    const [project] = await db
      .insert(projects)
      .values({ project_code: `${text.slice(0, 10)}${i}`, name: text || "Proyecto", client_id: client.id })
      .returning();
    for (const [j, [begins, ends]] of TIMES.entries()) {
      const kind = (i + j) % 4;
      await db.insert(activities).values({
        employee_id: employee.id,
        begins_at: new Date(begins),
        ends_at: new Date(ends),
        action_type: actions[n++ % actions.length],
        description: TRICKY[(i + j) % TRICKY.length],
        ticket_id: j % 2 ? TRICKY[(i * 7 + j) % TRICKY.length].slice(0, 40) : null,
        project_id: kind === 0 ? project.id : null,
        ownerable_type: kind === 1 ? "Client" : kind === 2 ? "Prospect" : null,
        ownerable_id: kind === 1 ? client.id : kind === 2 ? prospect.id : null,
        product_catalog_id: j % 2 ? product.id : null,
        activity_type_catalog_id: j % 4 === 1 ? type.id : null,
      });
    }
  }
});
afterAll(() => t?.close());

/** The rows as the JS writer read them: the same joins and order, the driver's own values. */
const rawRows = () =>
  t.app.db.rows<RawRow>(sql`select a.id, a.ownerable_type, e.name as employee_name,
      case a.ownerable_type when 'Client' then oc.name when 'Prospect' then op.name else pc.name end as ownerable_name,
      p.project_code, p.name as project_name, pr.name as product_name, a.action_type,
      t.code as activity_type_code, a.ticket_id, a.begins_at, a.ends_at, a.description
    from activities a
    join employees e on e.id = a.employee_id
    left join projects p on p.id = a.project_id
    left join clients pc on pc.id = p.client_id
    left join clients oc on a.ownerable_type = 'Client' and oc.id = a.ownerable_id
    left join prospects op on a.ownerable_type = 'Prospect' and op.id = a.ownerable_id
    left join products pr on pr.id = a.product_catalog_id
    left join activity_type_catalogs t on t.id = a.activity_type_catalog_id
    where e.workspace_id = ${workspaceId}
    order by e.name, a.employee_id, a.begins_at, a.id`);

describe("activity CSV lines written by PostgreSQL", () => {
  it("are byte-identical to the JS writer's on tricky data (report, weekly attachment, activities.csv)", async () => {
    const rows = await rawRows();
    expect(rows).toHaveLength(TRICKY.length * TIMES.length);
    const expected = toCsv(JS_COLUMNS, rows);
    expect(expected.startsWith(`\uFEFF${ACTIVITY_REPORT_HEADERS.join(",")}\r\n`)).toBe(true);
    // Every rule is exercised: quoted, neutralised, empty cells, rounding and DST-era times.
    for (const fragment of [
      '"di ""hola"""',
      '"\'=1+1"',
      '"\'\tTabulador"',
      '" espacio inicial"',
      `"Revisión;'=2+3;'@SUM(9*9)"`,
      `"''=ya"`,
      ",0.01,",
      ",0.00,",
      ",0.33,",
      ",0.67,",
      ",0.83,",
      ",168.33,",
      ",,",
    ]) {
      expect(expected).toContain(fragment);
    }

    const filter = { kind: "workspace" as const, id: workspaceId, start_date: "1999-01-01", end_date: "2025-12-31" };
    // Small batches: lines joined across many FETCHes.
    const streamed = Buffer.concat(await reportCsvStream(t.app.db, filter, { grant: "all" }, 7).toArray());
    const text = streamed.toString("utf8");
    const at = [...text].findIndex((c, i) => c !== expected[i]);
    expect(text.slice(Math.max(0, at - 80), at + 80), "first difference").toBe(expected.slice(Math.max(0, at - 80), at + 80));
    expect(streamed.equals(Buffer.from(expected, "utf8"))).toBe(true);

    const admin = (await signInAs(t.app, "admin")).api;
    const route = await admin.get(
      `/api/v1/activities/reporting_activities.csv?current_filter=workspace&workspace_id=${workspaceId}&start_date=1999-01-01&end_date=2025-12-31`,
    );
    expect(route.status).toBe(200);
    expect(route.text).toBe(expected);

    // activities.csv (the list's own order: begins_at): the same lines.
    const list = await admin.get(
      "/api/v1/activities.csv?by_begins_at[start_date]=1999-01-01&by_begins_at[end_date]=2025-12-31&by_employee=todos",
    );
    expect(list.status).toBe(200);
    const header = `\uFEFF${ACTIVITY_REPORT_HEADERS.join(",")}\r\n`;
    // The list names only the activity's own client or prospect (not its project's client).
    const ordered = [...rows]
      .sort((a, b) => toMs(a.begins_at) - toMs(b.begins_at) || a.id - b.id)
      .map((r) => ({ ...r, ownerable_name: r.ownerable_type ? r.ownerable_name : null }));
    expect(list.text).toBe(toCsv(JS_COLUMNS, ordered));
    expect(list.text.startsWith(header)).toBe(true);
  });
});
