/**
 * CSV import of a week (PUT activities/import_activities_csv?date=): the columns of the template
 * (ACTIVITY_CSV_COLUMNS, GET activities/download_csv_format), one local event per row, resolved by the
 * same resolver as calendar titles. Malformed rows and rows outside the week are collected together
 * ('Línea 3: …'); unresolved references are not errors here: they arrive as invalid local events to fix.
 */
import { createHash } from "node:crypto";
import Papa from "papaparse";
import { VACATION_DESCRIPTION } from "../../../src/core/constants";
import { normalizeKey, type ParsedTitle, resolveTitle } from "../../../src/core/eventTitle";
import type { LocalEvent } from "../../../src/core/localEvent";
import { importMessages } from "../../../src/core/messages";
import { ACTIVITY_CSV_COLUMNS } from "../../../src/core/schemas/activity";
import { localDateOf, type Period, zonedTime } from "../../../src/core/week";
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

/** The writer (server/http/csv.ts) prefixes a quote to cells starting with = + - @: read them back. */
const unescapeCell = (value: unknown) => {
  const text = typeof value === "string" ? value.trim() : "";
  return /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
};
const TIME = /^([01]?\d|2[0-3]):([0-5]\d)(?::00)?$/;
const minutesOf = (value: string) => {
  const match = value.match(TIME);
  if (match) return Number(match[1]) * 60 + Number(match[2]);
  return value === "24:00" ? 24 * 60 : null;
};

/** 'YYYY-MM-DD' (the template) or 'DD/MM/YYYY' (what a spreadsheet in Spanish writes back). */
function dateOf(value: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return localDateOf(value);
  const match = value.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/);
  return match ? localDateOf(`${match[3]}-${match[2].padStart(2, "0")}-${match[1].padStart(2, "0")}`) : null;
}

export interface CsvParseResult {
  rows: Array<{ line: number; row: CsvRow; date: string; from: number; to: number; format: ParsedTitle["format"] }>;
  errors: string[];
}

/** Parses the file's text: rows with their line numbers, or the errors of every bad line. */
export function parseActivitiesCsv(source: string, week: Period): CsvParseResult {
  const text = source.replace(/^\uFEFF/, "");
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: false });
  const lines = parsed.data;
  const header = (lines[0] ?? []).map((h) =>
    String(h)
      .replace(/^\uFEFF/, "")
      .trim()
      .toLowerCase(),
  );
  const missing = ACTIVITY_CSV_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length) return { rows: [], errors: [importMessages.csvMissingColumns(missing.join(", "))] };
  const rows: CsvParseResult["rows"] = [];
  const errors: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    const cells = lines[i];
    if (!cells || cells.every((c) => !String(c ?? "").trim())) continue;
    const line = i + 1;
    const row = Object.fromEntries(ACTIVITY_CSV_COLUMNS.map((c) => [c, unescapeCell(cells[header.indexOf(c)])])) as CsvRow;
    const problems: string[] = [];
    const date = dateOf(row.fecha);
    if (!date) problems.push(importMessages.csvBadDate);
    else if (date < week.starts_on || date > week.ends_on)
      problems.push(importMessages.csvOutsideWeek(week.starts_on, week.ends_on));
    const from = minutesOf(row.hora_inicio);
    const to = minutesOf(row.hora_fin);
    if (from === null || to === null) problems.push(importMessages.csvBadTime);
    else if (to <= from) problems.push(importMessages.csvEndBeforeStart);
    const format = ROW_TYPES[row.tipo.toUpperCase()];
    if (!format) problems.push(importMessages.csvBadType);
    if (problems.length) {
      errors.push(importMessages.csvLine(line, problems.join("; ")));
      continue;
    }
    rows.push({ line, row, date: date as string, from: from as number, to: to as number, format });
  }
  if (!rows.length && !errors.length) errors.push(importMessages.csvNoRows);
  return { rows, errors };
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
