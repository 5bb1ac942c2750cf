/**
 * The activity report (SPEC §5, §7; docs/reports.md): the activities of a project, a client, an employee,
 * a client group (minus excluded clients) or a workspace (minus excluded employees) between two local
 * dates, sorted by employee then start, read through a server-side cursor (constant memory). Used by
 * GET activities/reporting_activities.csv and by the e-mailed weekly report.
 *
 * PostgreSQL writes each CSV line itself (activityCsvLine: Mexico City local date and times, the product's
 * hours rule, formula neutralising and papaparse's quoting), so the server only joins the texts of a FETCH
 * (docs/decisions/008-csv-streaming.md). The same line serves every activity CSV: activities.csv,
 * download_personal_report.csv and reporting_activities.csv.
 */
import type { Readable } from "node:stream";
import { type SQL, sql } from "drizzle-orm";
import { ACTION_LABELS } from "../../../src/core/constants";
import type { ReportFilter } from "../../../src/core/schemas/report";
import { BUSINESS_TIME_ZONE, endOfDay, startOfDay } from "../../../src/core/week";
import type { Database } from "../../db/client";
import { CSV_BATCH, lineBatchesInPieces } from "../../db/cursor";
import {
  activities,
  activity_type_catalogs,
  clients,
  employees,
  frozen_periods,
  products,
  projects,
  prospects,
  week_reviews,
} from "../../db/schema";
import { csvCellSql, csvLineStream } from "../../http/csv";
import { localDaySql } from "../activities";

export type { ReportFilter } from "../../../src/core/schemas/report";

/** The columns a firm bills and pays with (docs/decisions/008-csv-streaming.md for the formats). */
export const ACTIVITY_REPORT_HEADERS = [
  "Empleado",
  "Cliente / Prospecto",
  "Código de proyecto",
  "Proyecto",
  "Producto",
  "Tipo de acción",
  "Tipo de actividad",
  "Ticket",
  "Fecha",
  "Inicio",
  "Fin",
  "Horas",
  "Descripción",
] as const;

/** What an activity line is made of: SQL expressions of the activity and its names. */
export interface ActivityLineSource {
  employee_name: SQL;
  ownerable_name: SQL;
  project_code: SQL;
  project_name: SQL;
  product_name: SQL;
  action_type: SQL;
  activity_type_code: SQL;
  ticket_id: SQL;
  begins_at: SQL;
  ends_at: SQL;
  description: SQL;
}

const zone = sql.raw(`'${BUSINESS_TIME_ZONE}'`);
/** An instant in whole milliseconds since 1970 (what a JS Date holds: the driver drops the microseconds). */
const epochMs = (instant: SQL) => sql`floor(extract(epoch from ${instant}) * 1000)::bigint`;
/**
 * Hours with two decimals by the product's one rule (src/core/hours.ts: whole hundredths of an hour, half
 * up, of the length in milliseconds), written as Number.toFixed(2) writes them (a bigint times 0.01 is a
 * numeric of scale 2). An activity ends after it begins (a check constraint), so the integer division
 * rounds down.
 */
const hoursText = (begins: SQL, ends: SQL) => sql`(((${epochMs(ends)} - ${epochMs(begins)} + 18000) / 36000) * 0.01)::text`;
/** The Spanish label of an action (plain words: no quoting); any other value (none: a check constraint) as a cell. */
const actionLabel = (action: SQL) =>
  sql`case ${action} ${sql.join(
    Object.entries(ACTION_LABELS).map(([key, label]) => sql.raw(`when '${key}' then '${label}'`)),
    sql` `,
  )} else ${csvCellSql(action)} end`;

/**
 * One activity as one CSV line, CRLF included: exactly what the JS writer (csvCell of formatCell) wrote
 * from the same row — local (Mexico City) date YYYY-MM-DD and times HH:MM, hours "1.50", texts
 * neutralised and quoted (tests/api/report-csv-sql.test.ts compares both on tricky data).
 */
export function activityCsvLine(s: ActivityLineSource): SQL {
  const cells = [
    csvCellSql(s.employee_name),
    csvCellSql(s.ownerable_name),
    csvCellSql(s.project_code),
    csvCellSql(s.project_name),
    csvCellSql(s.product_name),
    actionLabel(s.action_type),
    csvCellSql(s.activity_type_code),
    csvCellSql(s.ticket_id),
    sql`to_char(${s.begins_at} at time zone ${zone}, 'YYYY-MM-DD,HH24:MI')`,
    sql`to_char(${s.ends_at} at time zone ${zone}, 'HH24:MI')`,
    hoursText(s.begins_at, s.ends_at),
    csvCellSql(s.description),
  ];
  return sql`(${sql.join(cells, sql` || ',' || `)} || E'\r\n')`;
}

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

/**
 * Only approved hours: the activities whose local date is closed for their employee (a frozen week or month,
 * SIA's one freeze) and not waiting for review. An approved week keeps its freeze; a week an administrator
 * closed outright (or before reviews existed) is approved by that administrator; a week in review is frozen
 * too but not approved yet (docs/decisions/050-week-approval.md).
 */
const localDay = localDaySql(sql.raw("a.begins_at"));
const inApprovedWeek = sql` and exists (select 1 from ${frozen_periods} af where af.employee_id = a.employee_id
  and ${localDay} between af.starts_on and af.ends_on)
  and not exists (select 1 from ${week_reviews} wr where wr.employee_id = a.employee_id
  and wr.state = 'submitted' and wr.starts_on = ${localDay} - (extract(isodow from ${localDay})::int - 1))`;

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

/** The activity line over columns named as the report's and the activity list's (employee_name, …). */
export const activityLine = (column: (name: string) => SQL) =>
  activityCsvLine({
    employee_name: column("employee_name"),
    ownerable_name: column("ownerable_name"),
    project_code: column("project_code"),
    project_name: column("project_name"),
    product_name: column("product_name"),
    action_type: column("action_type"),
    activity_type_code: column("activity_type_code"),
    ticket_id: column("ticket_id"),
    begins_at: column("begins_at"),
    ends_at: column("ends_at"),
    description: column("description"),
  });
/** The report's line over the columns of its subquery `r`. */
const REPORT_LINE = activityLine((name) => sql.raw(`r.${name}`));

/**
 * The report's query: one column, `line`, each row's CSV line. A viewer with an "own" grant sees only their
 * own activities: asking for another employee gives their own; any other kind is narrowed to them (no
 * employee record: nothing).
 */
export function reportQuery(filter: ReportFilter, viewer: ReportViewer = { grant: "all" }): SQL {
  return reportSelect(sql`${REPORT_LINE} as line`, filter, viewer);
}

/** The report's rows as `output` (its line, or its activity's id), only those of `ids` when given. */
function reportSelect(output: SQL, filter: ReportFilter, viewer: ReportViewer = { grant: "all" }, ids?: number[]): SQL {
  let effective = filter;
  let own = sql``;
  if (viewer.grant === "own") {
    if (!viewer.employeeId) own = sql` and false`;
    else if (filter.kind === "employee") effective = { ...filter, id: viewer.employeeId };
    else own = sql` and a.employee_id = ${viewer.employeeId}`;
  }
  const from = startOfDay(filter.start_date).toISOString();
  const to = endOfDay(filter.end_date).toISOString();
  const piece = ids ? sql` and a.id = any(${`{${ids.join(",")}}`}::int[])` : sql``;
  return sql`select ${output} from (select a.id, a.employee_id, e.name as employee_name,
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
      and ${kindCondition(effective)}${own}${filter.approved_only ? inApprovedWeek : sql``}${piece}) r
    order by r.employee_name, r.employee_id, r.begins_at, r.id`;
}

/** The report's CSV text in chunks: one per FETCH of `batchSize` lines, through a cursor (constant memory). */
export function reportLines(
  database: Pick<Database, "pool" | "pglite">,
  filter: ReportFilter,
  viewer?: ReportViewer,
  batchSize = CSV_BATCH,
): AsyncGenerator<string | Buffer> {
  // PGlite builds it PGLITE_PIECE lines per statement (db/cursor.ts).
  return lineBatchesInPieces(
    database,
    reportQuery(filter, viewer),
    reportSelect(sql`r.id`, filter, viewer),
    (piece) => reportSelect(sql`${REPORT_LINE} as line`, filter, viewer, piece),
    batchSize,
  );
}

/**
 * The report as a CSV stream (BOM, Spanish headers, formulas neutralised). For an e-mail attachment
 * collect it (`Buffer.concat(await stream.toArray())`); a route sends it as it is (back-pressure).
 */
export function reportCsvStream(
  database: Pick<Database, "pool" | "pglite">,
  filter: ReportFilter,
  viewer?: ReportViewer,
  batchSize = CSV_BATCH,
): Readable {
  return csvLineStream(ACTIVITY_REPORT_HEADERS, reportLines(database, filter, viewer, batchSize));
}
