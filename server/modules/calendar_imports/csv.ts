/**
 * CSV import of a week (PUT activities/import_activities_csv?date=): the columns of the template
 * (ACTIVITY_CSV_COLUMNS, GET activities/download_csv_format), one local event per row, resolved by the
 * same resolver as calendar titles. Malformed rows and rows outside the week are collected together
 * ('Línea 3: …'); unresolved references are not errors here: they arrive as invalid local events to fix.
 */
import { createHash } from "node:crypto";
import { VACATION_DESCRIPTION } from "../../../src/core/constants";
import { normalizeKey, type ParsedTitle, resolveTitle } from "../../../src/core/eventTitle";
import type { LocalEvent } from "../../../src/core/localEvent";
import { importMessages } from "../../../src/core/messages";
import { ACTIVITY_BATCH_MAX, ACTIVITY_CSV_COLUMNS } from "../../../src/core/schemas/activity";
import { localDateOf, type Period, zonedTime } from "../../../src/core/week";
import { restoreNeutralised } from "../../http/csv";
import type { CsvLimits, CsvRecords, CsvStop } from "../../ports/text/csvRecords";
import { localEventOf, type Resolver } from "./service";

type Column = (typeof ACTIVITY_CSV_COLUMNS)[number];
export type CsvRow = Record<Column, string>;

const ROW_TYPES: Record<string, ParsedTitle["format"]> = {
  P: "P",
  S: "S",
  PC: "PC",
  AS: "AS",
  RH: "RH",
  V: "vacation",
};
const ACTION_OF = { P: "project", S: "support", PC: "quote", AS: "internal", RH: "rh", vacation: "vacation" } as const;

/** The writer's apostrophes (server/http/csv.ts, neutralise) come off: a file SIA wrote reads back as written. */
const unescapeCell = (value: string | undefined) => restoreNeutralised(value ?? "").trim();

/** A week is saved in one batch call: no file needs more rows than that call takes. */
export const CSV_MAX_ROWS = ACTIVITY_BATCH_MAX;
/** Longest cell (the description's limit, the longest field of an activity). */
export const CSV_MAX_CELL = 2000;
/**
 * What the reader keeps of a file before refusing it (server/ports/text/csvRecords.ts): the rows a week
 * can save; lines of any kind, blank ones included, up to four times that (a week's file with blank
 * lines between its days fits with room to spare); five times the template's columns (a spreadsheet's
 * empty trailing columns); cells no longer than the longest field.
 */
export const ACTIVITY_CSV_LIMITS: CsvLimits = {
  maxRows: CSV_MAX_ROWS,
  maxRecords: 4 * CSV_MAX_ROWS,
  maxColumns: 5 * ACTIVITY_CSV_COLUMNS.length,
  maxCellChars: CSV_MAX_CELL,
};
/** ',' (the template), ';' (Excel in Spanish) or tab: the header line uses the one it uses most. */
export const ACTIVITY_CSV_DELIMITERS = [",", ";", "\t"] as const;

const TIME_24 = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
/** How Excel and LibreOffice in Spanish (es-MX) write a 12-hour time: '9:00 a. m.', '12:30 p.m.', also '9:00 AM'. */
const TIME_12 = /^(\d{1,2}):(\d{2})(?::(\d{2}))? ?([ap])\.? ?m\.?$/i;
/** Minutes since midnight (24:00 is 1440), or null: a time of day with whole minutes (seconds, if any, 00). */
function minutesOf(raw: string): number | null {
  const value = raw.replace(/\s+/g, " ").trim();
  const twelve = value.match(TIME_12);
  if (twelve) {
    const [hours, minutes, seconds] = [Number(twelve[1]), Number(twelve[2]), Number(twelve[3] ?? 0)];
    if (hours < 1 || hours > 12 || minutes > 59 || seconds !== 0) return null;
    return ((hours % 12) + (twelve[4].toLowerCase() === "p" ? 12 : 0)) * 60 + minutes;
  }
  const match = value.match(TIME_24);
  if (!match) return null;
  const [hours, minutes, seconds] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  if (minutes > 59 || seconds !== 0) return null;
  const total = hours * 60 + minutes;
  return total <= 24 * 60 ? total : null;
}

/** 'YYYY-MM-DD' (the template) or 'DD/MM/YYYY', 'D/M/YYYY' (what a spreadsheet in Spanish writes back); real days only. */
function dateOf(value: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return localDateOf(value);
  const match = value.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/);
  return match ? localDateOf(`${match[3]}-${match[2].padStart(2, "0")}-${match[1].padStart(2, "0")}`) : null;
}

export interface CsvParseResult {
  rows: Array<{ line: number; row: CsvRow; date: string; from: number; to: number; format: ParsedTitle["format"] }>;
  errors: string[];
}

/**
 * The file's records (read by the reader pool within ACTIVITY_CSV_LIMITS) as rows with their line numbers,
 * or the errors of every bad line ('Línea N: <campo> «valor»: <motivo>'). The line is the record's row in
 * a spreadsheet (a quoted cell with a line break is one row). A file past a limit is refused as a whole.
 */
export function parseActivitiesCsv(read: CsvRecords, week: Period): CsvParseResult {
  const { records, openQuote, stop } = read;
  if (stop) return { rows: [], errors: [limitError(stop, records[0] ?? [])] };
  const header = (records[0] ?? []).map((h) =>
    String(h)
      .replace(/^\uFEFF/, "")
      .trim()
      .toLowerCase(),
  );
  const missing = ACTIVITY_CSV_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length) return { rows: [], errors: [importMessages.csvMissingColumns(missing.join(", "))] };
  const rows: CsvParseResult["rows"] = [];
  const errors: string[] = [];
  for (let i = 1; i < records.length; i++) {
    const cells = records[i];
    if (cells.every((c) => !c.trim())) continue;
    const line = i + 1;
    const extra = cells.slice(header.length).some((c) => c.trim());
    if (cells.length < header.length || extra) {
      errors.push(importMessages.csvLine(line, importMessages.csvCellCount(cells.length, header.length)));
      continue;
    }
    const row = Object.fromEntries(ACTIVITY_CSV_COLUMNS.map((c) => [c, unescapeCell(cells[header.indexOf(c)])])) as CsvRow;
    const problems: string[] = [];
    const date = dateOf(row.fecha);
    if (!date) problems.push(importMessages.csvBadDate(row.fecha));
    else if (date < week.starts_on || date > week.ends_on)
      problems.push(importMessages.csvOutsideWeek(week.starts_on, week.ends_on));
    const from = minutesOf(row.hora_inicio);
    let to = minutesOf(row.hora_fin);
    // An end at 00:00 ('12:00 a. m.') after a later start is that day's midnight: Excel shows 24:00 so.
    if (to === 0 && from) to = 24 * 60;
    if (from === null) problems.push(importMessages.csvBadTime("hora_inicio", row.hora_inicio));
    if (to === null) problems.push(importMessages.csvBadTime("hora_fin", row.hora_fin));
    // An end before the start cannot be drawn: the line is refused. An end equal to the start is imported as
    // an invalid event («La actividad no tiene duración», src/core/schemas/activity.ts) to be fixed on screen.
    if (from !== null && to !== null && to < from) problems.push(importMessages.csvEndBeforeStart);
    const format = ROW_TYPES[row.tipo.toUpperCase()];
    if (!format) problems.push(importMessages.csvBadType(row.tipo));
    if (problems.length) {
      errors.push(importMessages.csvLine(line, problems.join("; ")));
      continue;
    }
    rows.push({ line, row, date: date as string, from: from as number, to: to as number, format });
  }
  if (openQuote) errors.push(importMessages.csvLine(openQuote, importMessages.csvOpenQuote));
  if (!rows.length && !errors.length) errors.push(importMessages.csvNoRows);
  return { rows, errors };
}

/** The one error of a file the reader stopped at a limit. */
function limitError(stop: CsvStop, headerCells: string[]): string {
  switch (stop.kind) {
    case "rows":
      return importMessages.csvTooManyRows(stop.max);
    case "records":
      return importMessages.csvTooManyLines(stop.max);
    case "columns":
      return importMessages.csvLine(stop.record, importMessages.csvTooManyColumns(stop.max));
    case "cell": {
      const name = stop.record > 1 ? headerCells[stop.column - 1]?.trim().toLowerCase() : undefined;
      const field = name || importMessages.csvColumnLabel(stop.column);
      return importMessages.csvLine(stop.record, importMessages.csvCellTooLong(field, stop.max));
    }
  }
}

/** The row as a title of SPEC §5 (what the calendar shows as the event's summary). */
function summaryOf(row: CsvRow, format: ParsedTitle["format"]): string {
  switch (format) {
    case "P":
      return `P|${row.codigo_proyecto}|${row.tipo_actividad}|${row.descripcion}`;
    case "S":
      return `S|${row.cliente_o_prospecto}|${row.producto}|${row.tipo_actividad}|${row.descripcion}`;
    case "PC":
      return `PC|${row.cliente_o_prospecto}|${row.producto}|${row.descripcion}`;
    case "AS":
      return `AS|${row.tipo_actividad}|${row.descripcion}`;
    case "RH":
      return `RH|${row.descripcion}`;
    default:
      return VACATION_DESCRIPTION;
  }
}

/** A stable key of a row's content: importing and saving the same row again creates nothing new. */
export const rowKey = (row: CsvRow) =>
  `csv-${createHash("sha256")
    .update(JSON.stringify(ACTIVITY_CSV_COLUMNS.map((c) => row[c].normalize("NFC"))))
    .digest("hex")
    .slice(0, 40)}`;

export function csvLocalEvents(rows: CsvParseResult["rows"], resolver: Resolver): LocalEvent[] {
  return rows.map(({ row, date, from, to, format }) => {
    const title: ParsedTitle = {
      format,
      actionType: ACTION_OF[format as keyof typeof ACTION_OF],
      project: row.codigo_proyecto || null,
      owner: row.cliente_o_prospecto || null,
      product: row.producto || null,
      typeCode: row.tipo_actividad || null,
      description: format === "vacation" ? VACATION_DESCRIPTION : row.descripcion,
      problems: [],
    };
    const resolved = resolveTitle(title, resolver.index);
    // A type given for an action that does not need one (RH, PC, V) still travels when it resolves.
    if (!resolved.activityTypeCatalogId && title.typeCode && format !== "vacation") {
      const type = resolver.index.types.get(normalizeKey(title.typeCode));
      if (type) resolved.activityTypeCatalogId = type.id;
    }
    const key = rowKey(row);
    return localEventOf(
      resolved,
      {
        id: key,
        summary: summaryOf(row, format),
        start: zonedTime(date, from).toISOString(),
        end: zonedTime(date, to).toISOString(),
        ticketId: row.ticket || null,
        importKey: key,
      },
      resolver,
    );
  });
}
