/**
 * The activity report (SPEC §5, §7; docs/reports.md): the activities of a project, a client, an employee,
 * a client group (minus excluded clients) or a workspace (minus excluded employees) between two local
 * dates, sorted by employee then start, read through a server-side cursor (constant memory) and written by
 * the one CSV writer. Used by GET activities/reporting_activities.csv and by the e-mailed weekly report.
 *
 * The same columns (ACTIVITY_REPORT_CSV) serve every activity CSV: activities.csv,
 * download_personal_report.csv and reporting_activities.csv.
 */
import type { Readable } from "node:stream";
import { type SQL, sql } from "drizzle-orm";
import { hoursBetween } from "../../../src/core/hours";
import type { ReportFilter } from "../../../src/core/schemas/report";
import { endOfDay, startOfDay, wallClock } from "../../../src/core/week";
import type { Database } from "../../db/client";
import { CSV_BATCH, cursorBatches } from "../../db/cursor";
import { activities, activity_type_catalogs, clients, employees, products, projects, prospects } from "../../db/schema";
import { type CsvColumn, csvStream, formatHours } from "../../http/csv";

export type { ReportFilter } from "../../../src/core/schemas/report";

/** One activity as every activity CSV writes it (the list's computed columns use the same names). */
export interface ActivityCsvRow {
  id: number;
  employee_id: number;
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

export const ACTION_LABELS: Record<string, string> = {
  project: "Proyecto",
  support: "Soporte",
  quote: "Preventa",
  internal: "Actividad interna",
  rh: "Recursos humanos",
  vacation: "Vacaciones",
};

/**
 * Local (Mexico City) date and time of an instant, fast enough for a million rows: the zone offset is
 * looked up once per UTC hour (zone transitions fall on whole hours) and cached.
 */
const offsetByHour = new Map<number, number>();
function localIso(value: Date | string): string {
  const ms = typeof value === "string" ? Date.parse(value) : value.getTime();
  const hour = Math.floor(ms / 3_600_000);
  let offset = offsetByHour.get(hour);
  if (offset === undefined) {
    const wall = wallClock(new Date(hour * 3_600_000));
    offset = Date.parse(`${wall.date}T00:00:00Z`) + wall.minutes * 60_000 - hour * 3_600_000;
    if (offsetByHour.size > 100_000) offsetByHour.clear();
    offsetByHour.set(hour, offset);
  }
  return new Date(ms + offset).toISOString();
}
const toMs = (value: Date | string) => (typeof value === "string" ? Date.parse(value) : value.getTime());
/** The one hours rule of the product (src/core/hours.ts): the dashboards add exactly these hundredths. */
const hoursOf = (r: ActivityCsvRow) => hoursBetween(new Date(toMs(r.begins_at)), new Date(toMs(r.ends_at)));

/** Columns a firm bills and pays with (docs/decisions/008-csv-streaming.md for the formats). */
export const ACTIVITY_REPORT_CSV: CsvColumn<ActivityCsvRow>[] = [
  { header: "Empleado", value: (r) => r.employee_name },
  { header: "Cliente / Prospecto", value: (r) => r.ownerable_name },
  { header: "Código de proyecto", value: (r) => r.project_code },
  { header: "Proyecto", value: (r) => r.project_name },
  { header: "Producto", value: (r) => r.product_name },
  { header: "Tipo de acción", value: (r) => ACTION_LABELS[r.action_type] ?? r.action_type },
  { header: "Tipo de actividad", value: (r) => r.activity_type_code },
  { header: "Ticket", value: (r) => r.ticket_id },
  { header: "Fecha", value: (r) => localIso(r.begins_at).slice(0, 10) },
  { header: "Inicio", value: (r) => localIso(r.begins_at).slice(11, 16) },
  { header: "Fin", value: (r) => localIso(r.ends_at).slice(11, 16) },
  { header: "Horas", value: (r) => formatHours(hoursOf(r)) },
  { header: "Descripción", value: (r) => r.description },
];

/** Who asks: an administrator or Finanzas reads any report; anyone else only their own activities. */
export interface ReportViewer {
  grant: "all" | "own";
  employeeId?: number | null;
}

/** The client of an activity: its own (ownerable Client), else its project's. */
const clientOf = sql`coalesce(case when a.ownerable_type = 'Client' then a.ownerable_id end, p.client_id)`;
const excluded = (ids: number[] | undefined, column: SQL) =>
  ids?.length
    ? sql` and ${column} not in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;

function kindCondition(filter: ReportFilter): SQL {
  switch (filter.kind) {
    case "project":
      return sql`a.project_id = ${filter.id}`;
    case "client":
      return sql`${clientOf} = ${filter.id}`;
    case "employee":
      return sql`a.employee_id = ${filter.id}`;
    case "client_group":
      return sql`${clientOf} in (select gc.id from ${clients} gc where gc.client_group_id = ${filter.id}${excluded(filter.excluded_ids, sql`gc.id`)})`;
    case "workspace":
      return sql`a.employee_id in (select we.id from ${employees} we where we.workspace_id = ${filter.id}${excluded(filter.excluded_ids, sql`we.id`)})`;
  }
}

/**
 * The report's query. A viewer with an "own" grant sees only their own activities: asking for another
 * employee gives their own; any other kind is narrowed to them (no employee record: nothing).
 */
export function reportQuery(filter: ReportFilter, viewer: ReportViewer = { grant: "all" }): SQL {
  let effective = filter;
  let own = sql``;
  if (viewer.grant === "own") {
    if (!viewer.employeeId) own = sql` and false`;
    else if (filter.kind === "employee") effective = { ...filter, id: viewer.employeeId };
    else own = sql` and a.employee_id = ${viewer.employeeId}`;
  }
  const from = startOfDay(filter.start_date).toISOString();
  const to = endOfDay(filter.end_date).toISOString();
  return sql`select a.id, a.employee_id, e.name as employee_name,
      case a.ownerable_type when 'Client' then oc.name when 'Prospect' then op.name else pc.name end as ownerable_name,
      p.project_code, p.name as project_name, pr.name as product_name, a.action_type,
      t.code as activity_type_code, a.ticket_id, a.begins_at, a.ends_at, a.description
    from ${activities} a
    join ${employees} e on e.id = a.employee_id
    left join ${projects} p on p.id = a.project_id
    left join ${clients} pc on pc.id = p.client_id
    left join ${clients} oc on a.ownerable_type = 'Client' and oc.id = a.ownerable_id
    left join ${prospects} op on a.ownerable_type = 'Prospect' and op.id = a.ownerable_id
    left join ${products} pr on pr.id = a.product_catalog_id
    left join ${activity_type_catalogs} t on t.id = a.activity_type_catalog_id
    where a.begins_at >= ${from}::timestamptz and a.begins_at <= ${to}::timestamptz
      and ${kindCondition(effective)}${own}
    order by e.name, a.employee_id, a.begins_at, a.id`;
}

/** The report's rows, read in batches of `batchSize` through a cursor: constant memory. */
export async function* reportRows(
  database: Pick<Database, "pool" | "pglite">,
  filter: ReportFilter,
  viewer?: ReportViewer,
  batchSize?: number,
): AsyncGenerator<ActivityCsvRow> {
  for await (const batch of reportBatches(database, filter, viewer, batchSize)) yield* batch;
}

/** The same rows as arrays of up to `batchSize` (what the CSV writer consumes: one chunk per batch). */
export function reportBatches(
  database: Pick<Database, "pool" | "pglite">,
  filter: ReportFilter,
  viewer?: ReportViewer,
  batchSize?: number,
): AsyncGenerator<ActivityCsvRow[]> {
  return cursorBatches<ActivityCsvRow>(database, reportQuery(filter, viewer), batchSize);
}

/**
 * The report as a CSV stream (BOM, Spanish headers, formulas neutralised). For an e-mail attachment
 * collect it (`Buffer.concat(await stream.toArray())`); a route sends it as it is (back-pressure).
 */
export function reportCsvStream(
  database: Pick<Database, "pool" | "pglite">,
  filter: ReportFilter,
  viewer?: ReportViewer,
): Readable {
  return csvStream(ACTIVITY_REPORT_CSV, reportBatches(database, filter, viewer, CSV_BATCH));
}
